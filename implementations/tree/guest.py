"""The tree interpreter's guest-calling library primitives, written as generators.

Each yields ``(procedure, args)`` whenever it needs a guest procedure called and receives the
result; the machine runs the call on its own control stack, so a callback never recurses in
Python. Control primitives (apply, call/cc, dynamic-wind, handlers, raise) are in the machine.
"""

from __future__ import annotations

from collections.abc import Generator
from typing import Any

from implementations.lispex.errors import LispexError
from implementations.lispex.primitives.errors_util import list_expected, wrong_type
from implementations.lispex.values import (
    NO_VALUES,
    Char,
    Str,
    Values,
    Vector,
    list_from,
    list_to_python,
)

Calls = Generator[tuple[Any, tuple], Any, Any]


def one(name: str, v: Any) -> Any:
    if type(v) is Values:
        raise LispexError("E320", f"{name}: the procedure returned {len(v.items)} values, "
                          "expected one")
    return v


def _items(name: str, lst: Any) -> list:
    items = list_to_python(lst)
    if items is None:
        list_expected(name, lst)
    return items


def g_map(f: Any, lst: Any) -> Calls:
    out = []
    for x in _items("map", lst):
        out.append(one("map", (yield f, (x,))))
    return list_from(out)


def g_for_each(f: Any, lst: Any) -> Calls:
    for x in _items("for-each", lst):
        yield f, (x,)
    return NO_VALUES


def g_filter(f: Any, lst: Any) -> Calls:
    out = []
    for x in _items("filter", lst):
        if one("filter", (yield f, (x,))) is not False:
            out.append(x)
    return list_from(out)


def g_fold_left(f: Any, acc: Any, lst: Any) -> Calls:
    for x in _items("fold-left", lst):
        acc = one("fold-left", (yield f, (acc, x)))
    return acc


def g_fold_right(f: Any, acc: Any, lst: Any) -> Calls:
    for x in reversed(_items("fold-right", lst)):
        acc = one("fold-right", (yield f, (x, acc)))
    return acc


def g_any(f: Any, lst: Any) -> Calls:
    for x in _items("any?", lst):
        if one("any?", (yield f, (x,))) is not False:
            return True
    return False


def g_all(f: Any, lst: Any) -> Calls:
    for x in _items("all?", lst):
        if one("all?", (yield f, (x,))) is False:
            return False
    return True


def g_vector_map(f: Any, vec: Any) -> Calls:
    if type(vec) is not Vector:
        wrong_type("vector-map", "a vector", vec)
    out = []
    for x in list(vec.items):
        out.append(one("vector-map", (yield f, (x,))))
    return Vector(out)


def g_vector_for_each(f: Any, vec: Any) -> Calls:
    if type(vec) is not Vector:
        wrong_type("vector-for-each", "a vector", vec)
    for x in list(vec.items):
        yield f, (x,)
    return NO_VALUES


def g_string_map(f: Any, s: Any) -> Calls:
    if type(s) is not Str:
        wrong_type("string-map", "a string", s)
    out = []
    for ch in s.s:
        r = one("string-map", (yield f, (Char(ord(ch)),)))
        if type(r) is not Char:
            wrong_type("string-map", "the procedure to return a character", r)
        out.append(chr(r.code))
    return Str("".join(out))


def g_string_for_each(f: Any, s: Any) -> Calls:
    if type(s) is not Str:
        wrong_type("string-for-each", "a string", s)
    for ch in s.s:
        yield f, (Char(ord(ch)),)
    return NO_VALUES


GENERATORS = {
    "map": g_map,
    "for-each": g_for_each,
    "filter": g_filter,
    "fold-left": g_fold_left,
    "fold-right": g_fold_right,
    "any?": g_any,
    "all?": g_all,
    "vector-map": g_vector_map,
    "vector-for-each": g_vector_for_each,
    "string-map": g_string_map,
    "string-for-each": g_string_for_each,
}

