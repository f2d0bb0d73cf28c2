"""The tree interpreter's own runtime objects: closures, escape continuations, guard handlers."""

from __future__ import annotations

from typing import Any

from implementations.lispex.values import Procedure


class Closure(Procedure):
    __slots__ = ("lam", "env", "name")

    def __init__(self, lam: Any, env: Any) -> None:
        self.lam = lam
        self.env = env
        self.name = lam.name

    def __repr__(self) -> str:
        return f"<closure {self.name or '-'}>"


class Continuation(Procedure):
    """A one-shot escape continuation: valid while its call/cc frame is on the control stack."""

    __slots__ = ("index", "active", "name")

    def __init__(self, index: int) -> None:
        self.index = index  # position of its call/cc frame on the control stack
        self.active = True
        self.name = None


class GuardHandler:
    """The handler a `guard` installs: catching unwinds to the guard's frame."""

    __slots__ = ("index",)

    def __init__(self, index: int) -> None:
        self.index = index
