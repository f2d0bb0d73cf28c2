"""The library primitives that call guest procedures (map, for-each, the folds, any?, all?,
vector-map, vector-for-each, string-map, string-for-each), as generators.

Each yields ``(procedure, args)`` whenever it needs a guest call and is sent the result. A back
end drives them with its own machinery: the tree interpreter and the bytecode VM each keep the
generator in a frame of their own control stack and make every callback a non-tail call from
that frame (it counts toward the recursion limit), so a callback never recurses in Python.
Control primitives (apply, values, call-with-values, call/cc, dynamic-wind, handlers, raise) are
not here: they are each machine's own frames, so ``apply`` and the ``call-with-values``
consumer keep the tail position of the primitive call. The Topaz products have their own.
"""

from __future__ import annotations

from collections.abc import Generator
from typing import Any

from .errors import LispexError
from .primitives.errors_util import list_expected, wrong_type
from .values import (
    NO_VALUES,
    Char,
    Str,
    Values,
    Vector,
    list_from,
    list_to_python,
)

Calls = Generator[tuple[Any, tuple], Any, Any]


def single(name: str, v: Any) -> Any:
    """A callback's result where one value is needed (E320 otherwise, at the current site)."""
    if type(v) is Values:
        raise LispexError("E320", f"{name}: the procedure returned {len(v.items)} values, "
                          "expected one")
    return v


def elements(name: str, lst: Any) -> list:
    items = list_to_python(lst)
    if items is None:
        list_expected(name, lst)
    return items


def lib_map(f: Any, lst: Any) -> Calls:
    out = []
    for x in elements("map", lst):
        out.append(single("map", (yield f, (x,))))
    return list_from(out)


def lib_for_each(f: Any, lst: Any) -> Calls:
    for x in elements("for-each", lst):
        yield f, (x,)
    return NO_VALUES


def lib_filter(f: Any, lst: Any) -> Calls:
    out = []
    for x in elements("filter", lst):
        if single("filter", (yield f, (x,))) is not False:
            out.append(x)
    return list_from(out)


def lib_fold_left(f: Any, acc: Any, lst: Any) -> Calls:
    for x in elements("fold-left", lst):
        acc = single("fold-left", (yield f, (acc, x)))
    return acc


def lib_fold_right(f: Any, acc: Any, lst: Any) -> Calls:
    for x in reversed(elements("fold-right", lst)):
        acc = single("fold-right", (yield f, (x, acc)))
    return acc


def lib_any(f: Any, lst: Any) -> Calls:
    for x in elements("any?", lst):
        if single("any?", (yield f, (x,))) is not False:
            return True
    return False


def lib_all(f: Any, lst: Any) -> Calls:
    for x in elements("all?", lst):
        if single("all?", (yield f, (x,))) is False:
            return False
    return True


def _vector(name: str, v: Any) -> list:
    if type(v) is not Vector:
        wrong_type(name, "a vector", v)
    return list(v.items)  # a snapshot: the callback may mutate the vector


def lib_vector_map(f: Any, vec: Any) -> Calls:
    out = []
    for x in _vector("vector-map", vec):
        out.append(single("vector-map", (yield f, (x,))))
    return Vector(out)


def lib_vector_for_each(f: Any, vec: Any) -> Calls:
    for x in _vector("vector-for-each", vec):
        yield f, (x,)
    return NO_VALUES


def _string(name: str, s: Any) -> str:
    if type(s) is not Str:
        wrong_type(name, "a string", s)
    return s.s


def lib_string_map(f: Any, s: Any) -> Calls:
    out = []
    for ch in _string("string-map", s):
        r = single("string-map", (yield f, (Char(ord(ch)),)))
        if type(r) is not Char:
            wrong_type("string-map", "the procedure to return a character", r)
        out.append(chr(r.code))
    return Str("".join(out))


def lib_string_for_each(f: Any, s: Any) -> Calls:
    for ch in _string("string-for-each", s):
        yield f, (Char(ord(ch)),)
    return NO_VALUES


GENERATORS = {
    "map": lib_map,
    "for-each": lib_for_each,
    "filter": lib_filter,
    "fold-left": lib_fold_left,
    "fold-right": lib_fold_right,
    "any?": lib_any,
    "all?": lib_all,
    "vector-map": lib_vector_map,
    "vector-for-each": lib_vector_for_each,
    "string-map": lib_string_map,
    "string-for-each": lib_string_for_each,
}
