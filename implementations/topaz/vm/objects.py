"""topaz-vm's runtime objects: procedures, trampoline markers, escapes and handler marks."""

from __future__ import annotations

from typing import Any

from implementations.topaz.kernel.values import Procedure


class Marker:
    """A unique sentinel with a readable repr (for generated code that prints in a debugger)."""

    __slots__ = ("label",)

    def __init__(self, label: str) -> None:
        self.label = label

    def __repr__(self) -> str:
        return self.label


UNBOUND = Marker("UNBOUND")  # a global slot no definition has filled yet
UNINIT = Marker("UNINIT")  # a letrec slot whose init has not run yet


class Closure(Procedure):
    """A Lispex procedure: ``fn(depth, *params)`` is the generated Python function.

    ``ar`` is the argument count a plain positional call must have (-1 for a procedure with a
    rest list, which never matches, so such calls always go through the packing path).
    """

    __slots__ = ("fn", "name", "ar", "nparams", "rest")

    def __init__(self, fn: Any, name: str | None, nparams: int, rest: bool) -> None:
        self.fn = fn
        self.name = name
        self.nparams = nparams
        self.rest = rest
        self.ar = -1 if rest else nparams

    def __repr__(self) -> str:
        return f"<topaz-vm closure {self.name or '-'}>"


class Continuation(Procedure):
    """A one-shot escape continuation, active while its call/cc is still running."""

    __slots__ = ("active", "name")

    def __init__(self) -> None:
        self.active = True
        self.name = None


class TailCall:
    """Returned in place of a result: "apply ``f`` to ``args`` in my caller's frame"."""

    __slots__ = ("f", "args")

    def __init__(self, f: Any, args: tuple) -> None:
        self.f = f
        self.args = args


class Again:
    """Returned by an outlined piece of a loop body: "run the loop again with ``args``"."""

    __slots__ = ("args",)

    def __init__(self, args: tuple) -> None:
        self.args = args


class GuardHandler:
    """The handler a ``guard`` installs; catching it unwinds to that guard (identity matters)."""

    __slots__ = ()


class ContinuationEscape(Exception):
    """Unwinding to the call/cc that made ``k``, delivering ``value``."""

    def __init__(self, k: Continuation, value: Any) -> None:
        super().__init__("continuation escape")
        self.k = k
        self.value = value


class GuardEscape(Exception):
    """Unwinding to the guard that installed ``handler``, carrying the raised object."""

    def __init__(self, handler: GuardHandler, payload: Any, continuable: bool, span: Any) -> None:
        super().__init__("guard escape")
        self.handler = handler
        self.payload = payload
        self.continuable = continuable
        self.span = span


ESCAPES = (ContinuationEscape, GuardEscape)
