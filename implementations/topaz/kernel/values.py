"""The Topaz kernel's value representation.

The back ends exchange values with the kernel through these classes, so the contract is small and
explicit: exact integers are Python ``int``, exact non-integer rationals ``fractions.Fraction``
(never with denominator 1), inexact reals finite ``float``, booleans ``bool``; everything else
is one of the classes below. Symbols are interned (one object per name), so ``eq?`` on symbols is
object identity. Multiple values are a :class:`Values` result, never stored in a data structure.
"""

from __future__ import annotations

from typing import Any


class Nil:
    __slots__ = ()

    def __repr__(self) -> str:
        return "()"


NIL = Nil()


class Symbol:
    __slots__ = ("name",)
    _table: dict[str, Symbol] = {}

    def __new__(cls, name: str) -> Symbol:
        sym = cls._table.get(name)
        if sym is None:
            sym = object.__new__(cls)
            sym.name = name
            cls._table[name] = sym
        return sym

    def __repr__(self) -> str:
        return self.name


def sym(name: str) -> Symbol:
    return Symbol(name)


class Str:
    """An immutable string; identity matters for ``eq?``, so no interning."""

    __slots__ = ("s",)

    def __init__(self, s: str) -> None:
        self.s = s

    def __repr__(self) -> str:
        return repr(self.s)


class Char:
    __slots__ = ("code",)

    def __init__(self, code: int) -> None:
        self.code = code

    def __eq__(self, other: object) -> bool:
        return type(other) is Char and other.code == self.code

    def __hash__(self) -> int:
        return hash(("char", self.code))

    def __repr__(self) -> str:
        return f"#\\x{self.code:x}"


class Pair:
    __slots__ = ("car", "cdr")

    def __init__(self, car: Any, cdr: Any) -> None:
        self.car = car
        self.cdr = cdr


class Vector:
    """``mutable`` is False for vectors written in the source or read from the input datum."""

    __slots__ = ("items", "mutable")

    def __init__(self, items: list, mutable: bool = True) -> None:
        self.items = items
        self.mutable = mutable


class Bytevector:
    __slots__ = ("data",)

    def __init__(self, data: bytes) -> None:
        self.data = bytes(data)


class Procedure:
    """Base of every applicable object (primitives, back-end closures, continuations)."""

    __slots__ = ()


class Primitive(Procedure):
    __slots__ = ("name", "fn", "min_args", "max_args", "backend", "needs_context", "guest",
                 "warning")

    def __init__(self, name: str, fn: Any, min_args: int, max_args: int, *,
                 backend: bool = False, needs_context: bool = False, guest: bool = False,
                 warning: str | None = None) -> None:
        self.name = name
        self.fn = fn
        self.min_args = min_args
        self.max_args = max_args
        self.backend = backend
        self.needs_context = needs_context
        self.guest = guest
        self.warning = warning

    def accepts(self, n: int) -> bool:
        return n >= self.min_args and (self.max_args < 0 or n <= self.max_args)

    def __repr__(self) -> str:
        return f"#<primitive {self.name}>"


class ErrorObject:
    """What ``error`` makes and what a caught fault becomes: ``code`` is the diagnostic code
    the condition ends the run with when nothing catches it (E330 for ``error``)."""

    __slots__ = ("code", "message", "irritants", "span")

    def __init__(self, code: str, message: Str, irritants: Any, span: Any = None) -> None:
        self.code = code
        self.message = message
        self.irritants = irritants
        self.span = span


class Values:
    __slots__ = ("items",)

    def __init__(self, items: tuple) -> None:
        self.items = items

    def __repr__(self) -> str:
        return f"Values{self.items!r}"


NO_VALUES = Values(())


def list_from(items: Any, tail: Any = NIL) -> Any:
    out = tail
    for x in reversed(items):
        out = Pair(x, out)
    return out


def list_to_python(x: Any) -> list | None:
    """The elements of a proper list, or None for anything else. Pairs are immutable, so a
    list cannot be circular and the walk ends."""
    out = []
    while type(x) is Pair:
        out.append(x.car)
        x = x.cdr
    return out if x is NIL else None
