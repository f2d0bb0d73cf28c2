"""Strings: building, indexing, slicing, conversions, full Unicode case mapping, comparison.

Lispex strings are immutable sequences of Unicode scalar values (a :class:`Str` wraps a Python
``str``); every primitive that produces a string returns a new :class:`Str`.
"""

from __future__ import annotations

import operator
from itertools import pairwise
from typing import Any

from ..values import NIL, Char, Pair, Str, Symbol, Vector, sym
from .errors_util import (
    allocation_length,
    exact_integer,
    out_of_range,
    start_end,
    wrong_type,
)
from .table import define


def _str(name: str, x: Any) -> str:
    if type(x) is not Str:
        wrong_type(name, "a string", x)
    return x.s


def _slice(name: str, s: Any, opt: tuple) -> str:
    """The ``[start [end]]`` part of string ``s``, the bounds checked."""
    text = _str(name, s)
    start, end = start_end(name, s, len(text), opt)
    return text[start:end]


@define("string-append")
def string_append(*strings: Any) -> Str:
    return Str("".join([_str("string-append", s) for s in strings]))


@define("string-length")
def string_length(s: Any) -> int:
    return len(_str("string-length", s))


@define("string-ref")
def string_ref(s: Any, k: Any) -> Char:
    text = _str("string-ref", s)
    exact_integer("string-ref", k)
    if not 0 <= k < len(text):
        out_of_range("string-ref", k, s)
    return Char(ord(text[k]))


@define("substring")
def substring(s: Any, start: Any, end: Any) -> Str:
    return Str(_slice("substring", s, (start, end)))


@define("string-copy")
def string_copy(s: Any, *opt: Any) -> Str:
    return Str(_slice("string-copy", s, opt))


@define("make-string")
def make_string(k: Any, fill: Any = None) -> Str:
    allocation_length("make-string", k)
    if fill is None:
        return Str(" " * k)
    if type(fill) is not Char:
        wrong_type("make-string", "a character", fill)
    return Str(chr(fill.code) * k)


@define("string->list")
def string_to_list(s: Any, *opt: Any) -> Any:
    text = _slice("string->list", s, opt)
    result: Any = NIL
    for ch in reversed(text):
        result = Pair(Char(ord(ch)), result)
    return result


@define("string->vector")
def string_to_vector(s: Any, *opt: Any) -> Vector:
    return Vector([Char(ord(ch)) for ch in _slice("string->vector", s, opt)], True)


@define("vector->string")
def vector_to_string(v: Any, *opt: Any) -> Str:
    if type(v) is not Vector:
        wrong_type("vector->string", "a vector", v)
    start, end = start_end("vector->string", v, len(v.items), opt)
    part = v.items[start:end]
    for c in part:
        if type(c) is not Char:
            wrong_type("vector->string", "a vector of characters", c)
    return Str("".join([chr(c.code) for c in part]))


@define("string->symbol")
def string_to_symbol(s: Any) -> Symbol:
    return sym(_str("string->symbol", s))


@define("symbol->string")
def symbol_to_string(x: Any) -> Str:
    if type(x) is not Symbol:
        wrong_type("symbol->string", "a symbol", x)
    return Str(x.name)


# Full Unicode case mappings (the result may be longer: "ß" upcases to "SS").
@define("string-upcase")
def string_upcase(s: Any) -> Str:
    return Str(_str("string-upcase", s).upper())


@define("string-downcase")
def string_downcase(s: Any) -> Str:
    return Str(_str("string-downcase", s).lower())


@define("string-foldcase")
def string_foldcase(s: Any) -> Str:
    return Str(_str("string-foldcase", s).casefold())


def _comparison(name: str, holds, fold: bool):
    def compare(*strings: Any) -> bool:
        texts = [_str(name, s) for s in strings]  # every argument is type-checked
        if fold:
            texts = [t.casefold() for t in texts]
        # Python orders str by code point, which is the order Lispex uses.
        return all(holds(a, b) for a, b in pairwise(texts))

    compare.__name__ = compare.__qualname__ = name
    return compare


for _op, _holds in (("=", operator.eq), ("<", operator.lt), ("<=", operator.le),
                    (">", operator.gt), (">=", operator.ge)):
    define(f"string{_op}?")(_comparison(f"string{_op}?", _holds, False))
    define(f"string-ci{_op}?")(_comparison(f"string-ci{_op}?", _holds, True))
