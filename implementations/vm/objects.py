"""The VM's own runtime objects: closures, escape continuations, guard handlers."""

from __future__ import annotations

from typing import Any

from implementations.lispex.values import Procedure


class Closure(Procedure):
    """``ins`` is the linked code of the lambda; ``np`` its parameter count, or ``-1 - n`` when it
    takes a rest list after ``n`` parameters (so one comparison tells a plain call is fine)."""

    __slots__ = ("ins", "np", "env", "name")

    def __init__(self, lam: tuple, env: Any) -> None:
        self.ins, self.np, self.name = lam
        self.env = env

    def __repr__(self) -> str:
        return f"<closure {self.name or '-'}>"


class Continuation(Procedure):
    """A one-shot escape continuation: valid while its call/cc frame is on the frame stack."""

    __slots__ = ("index", "active", "name")

    def __init__(self, index: int) -> None:
        self.index = index  # position of its call/cc frame on the frame stack
        self.active = True
        self.name = None


class GuardHandler:
    """The handler a `guard` installs: catching unwinds to the guard's frame."""

    __slots__ = ("index",)

    def __init__(self, index: int) -> None:
        self.index = index
