"""topaz-tree's runtime objects and the Python exceptions that carry its escapes.

A compiled procedure body is a Python callable taking its frame (``[parent, slot0, ...]``).
A body in tail position does not call its callee: it returns the pair ``(body, frame)`` and the
nearest non-tail call site (or the top level) runs it. No Lispex value is a Python ``tuple``, so
``type(r) is tuple`` is all it takes to tell a pending tail call from a result.
"""

from __future__ import annotations

from typing import Any

from implementations.topaz.kernel.values import Procedure

UNBOUND = object()  # a global slot no definition has filled
UNINIT = object()  # a letrec slot whose init has not run yet


class Closure(Procedure):
    # `fixed` is the exact argument count, or -1 when a rest list makes the count open: one
    # comparison then settles the common case at every call site.
    __slots__ = ("body", "env", "nparams", "rest", "fixed", "name")

    def __init__(self, body: Any, env: Any, nparams: int, rest: bool, name: Any) -> None:
        self.body = body
        self.env = env
        self.nparams = nparams
        self.rest = rest
        self.fixed = -1 if rest else nparams
        self.name = name

    def __repr__(self) -> str:
        return f"<topaz closure {self.name or '-'}>"


class Continuation(Procedure):
    """A one-shot escape continuation, valid while its call/cc is still running."""

    __slots__ = ("active", "name")

    def __init__(self) -> None:
        self.active = True
        self.name = None


class GuardToken:
    """What a running ``guard`` puts on the handler chain; catching means unwinding to it."""

    __slots__ = ()


class Escape(Exception):
    """Base of the exceptions that unwind Lispex frames on purpose (dynamic-wind sees these)."""


class ContinuationInvoked(Escape):
    def __init__(self, cont: Continuation, value: Any) -> None:
        super().__init__("continuation")
        self.cont = cont
        self.value = value


class GuardUnwind(Escape):
    def __init__(self, token: GuardToken, payload: Any, continuable: bool, span: Any) -> None:
        super().__init__("guard")
        self.token = token
        self.payload = payload
        self.continuable = continuable
        self.span = span
