"""Runtime values shared by every back end.

Lispex booleans are Python ``True``/``False``; exact integers are ``int``, exact rationals
``fractions.Fraction`` (always normalised, integral ones demoted to ``int``), inexact reals finite
``float``. Because ``bool`` is a subclass of ``int`` in Python, type tests in the kernel use
``type(x) is int`` (or :func:`is_number`), never ``isinstance``.

Everything else has a class here. Strings are wrapped so that ``eq?`` can compare them by
identity, as the reference does; symbols are interned so that ``eq?`` on symbols is identity.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

NUMBER_TYPES = (int, Fraction, float)


def is_number(x: object) -> bool:
    t = type(x)
    return t is int or t is float or t is Fraction


def is_exact_integer(x: object) -> bool:
    return type(x) is int


class Symbol:
    __slots__ = ("name",)
    _table: dict[str, Symbol] = {}

    def __init__(self, name: str) -> None:
        self.name = name

    def __repr__(self) -> str:
        return f"Symbol({self.name!r})"


def sym(name: str) -> Symbol:
    """The interned symbol called ``name``."""
    s = Symbol._table.get(name)
    if s is None:
        s = Symbol._table[name] = Symbol(name)
    return s


class Char:
    __slots__ = ("code",)

    def __init__(self, code: int) -> None:
        self.code = code

    def __eq__(self, other: object) -> bool:
        return type(other) is Char and other.code == self.code

    def __hash__(self) -> int:
        return hash(("char", self.code))

    def __repr__(self) -> str:
        return f"Char({chr(self.code)!r})"


class Str:
    """An immutable Lispex string; identity matters for ``eq?``."""

    __slots__ = ("s",)

    def __init__(self, s: str) -> None:
        self.s = s

    def __repr__(self) -> str:
        return f"Str({self.s!r})"


class Nil:
    __slots__ = ()

    def __repr__(self) -> str:
        return "NIL"


NIL = Nil()


class Pair:
    __slots__ = ("car", "cdr")

    def __init__(self, car: Any, cdr: Any) -> None:
        self.car = car
        self.cdr = cdr

    def __repr__(self) -> str:
        return f"Pair({self.car!r}, {self.cdr!r})"


class Vector:
    """A vector; literal (quoted) vectors are immutable (``vector-set!`` on one is E312)."""

    __slots__ = ("items", "mutable")

    def __init__(self, items: list, mutable: bool = True) -> None:
        self.items = items
        self.mutable = mutable

    def __repr__(self) -> str:
        return f"Vector({self.items!r})"


class Bytevector:
    """Bytevectors are immutable in Lispex (there is no ``bytevector-u8-set!``)."""

    __slots__ = ("data",)

    def __init__(self, data: bytes) -> None:
        self.data = data

    def __repr__(self) -> str:
        return f"Bytevector({self.data!r})"


class Values:
    """Zero or several values: an evaluation outcome, never a storable value."""

    __slots__ = ("items",)

    def __init__(self, items: tuple) -> None:
        self.items = items

    def __repr__(self) -> str:
        return f"Values({self.items!r})"


NO_VALUES = Values(())


class Procedure:
    """Base of everything ``procedure?`` answers #t for; back ends subclass it."""

    __slots__ = ()


class Primitive(Procedure):
    """A built-in procedure. Aliases are this very object under another global name."""

    __slots__ = ("name", "fn", "min_args", "max_args", "warning", "guest", "backend", "family",
                 "needs_context")

    def __init__(self, name: str, fn: Any, min_args: int, max_args: int, *, warning: str | None,
                 guest: bool, backend: bool, family: str, needs_context: bool) -> None:
        self.name = name
        self.fn = fn
        self.min_args = min_args
        self.max_args = max_args  # -1: variadic
        self.warning = warning
        self.guest = guest
        self.backend = backend
        self.family = family
        self.needs_context = needs_context

    def accepts(self, n: int) -> bool:
        return n >= self.min_args and (self.max_args < 0 or n <= self.max_args)

    def __repr__(self) -> str:
        return f"<primitive {self.name}>"


class ErrorObject:
    """What ``error`` raises and what intrinsic faults are dispatched to handlers as."""

    __slots__ = ("code", "message", "irritants", "span")

    def __init__(self, code: str, message: Str, irritants: Any, span: Any = None) -> None:
        self.code = code
        self.message = message  # a Str
        self.irritants = irritants  # a Lispex proper list
        self.span = span

    def __repr__(self) -> str:
        return f"ErrorObject({self.code}, {self.message.s!r})"


def list_from(items: Any, tail: Any = NIL) -> Any:
    """A Lispex list of ``items`` (any Python iterable), ending in ``tail``."""
    result = tail
    for x in reversed(list(items)):
        result = Pair(x, result)
    return result


def list_to_python(lst: Any) -> list | None:
    """The elements of a proper list, or None when ``lst`` is not a proper list (cycle-safe)."""
    out = []
    slow = lst
    while type(lst) is Pair:
        out.append(lst.car)
        lst = lst.cdr
        if type(lst) is not Pair:
            break
        out.append(lst.car)
        lst = lst.cdr
        slow = slow.cdr
        if lst is slow:
            return None
    return out if lst is NIL else None
