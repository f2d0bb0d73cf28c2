"""The VM's library primitives that call guest procedures (map, for-each, folds, ...).

Each is a Python generator that yields ``(procedure, args)`` whenever it needs a guest call and is
sent the result. The machine keeps the generator in a frame on its own frame stack and makes each
call a non-tail call from that frame (it counts toward the recursion limit), so a callback never
recurses in Python. Control primitives (apply, values, call-with-values, call/cc, dynamic-wind,
handlers, raise) are not here: they are frames of the machine itself, so ``apply`` and the
``call-with-values`` consumer keep the tail position of the primitive call.
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


def vm_map(f: Any, lst: Any) -> Calls:
    out = []
    for x in elements("map", lst):
        out.append(single("map", (yield f, (x,))))
    return list_from(out)


def vm_for_each(f: Any, lst: Any) -> Calls:
    for x in elements("for-each", lst):
        yield f, (x,)
    return NO_VALUES


def vm_filter(f: Any, lst: Any) -> Calls:
    out = []
    for x in elements("filter", lst):
        if single("filter", (yield f, (x,))) is not False:
            out.append(x)
    return list_from(out)


def vm_fold_left(f: Any, acc: Any, lst: Any) -> Calls:
    for x in elements("fold-left", lst):
        acc = single("fold-left", (yield f, (acc, x)))
    return acc


def vm_fold_right(f: Any, acc: Any, lst: Any) -> Calls:
    for x in reversed(elements("fold-right", lst)):
        acc = single("fold-right", (yield f, (x, acc)))
    return acc


def vm_any(f: Any, lst: Any) -> Calls:
    for x in elements("any?", lst):
        if single("any?", (yield f, (x,))) is not False:
            return True
    return False


def vm_all(f: Any, lst: Any) -> Calls:
    for x in elements("all?", lst):
        if single("all?", (yield f, (x,))) is False:
            return False
    return True


def _vector(name: str, v: Any) -> list:
    if type(v) is not Vector:
        wrong_type(name, "a vector", v)
    return list(v.items)  # a snapshot: the callback may mutate the vector


def vm_vector_map(f: Any, vec: Any) -> Calls:
    out = []
    for x in _vector("vector-map", vec):
        out.append(single("vector-map", (yield f, (x,))))
    return Vector(out)


def vm_vector_for_each(f: Any, vec: Any) -> Calls:
    for x in _vector("vector-for-each", vec):
        yield f, (x,)
    return NO_VALUES


def _string(name: str, s: Any) -> str:
    if type(s) is not Str:
        wrong_type(name, "a string", s)
    return s.s


def vm_string_map(f: Any, s: Any) -> Calls:
    out = []
    for ch in _string("string-map", s):
        r = single("string-map", (yield f, (Char(ord(ch)),)))
        if type(r) is not Char:
            wrong_type("string-map", "the procedure to return a character", r)
        out.append(chr(r.code))
    return Str("".join(out))


def vm_string_for_each(f: Any, s: Any) -> Calls:
    for ch in _string("string-for-each", s):
        yield f, (Char(ord(ch)),)
    return NO_VALUES


GUEST = {
    "map": vm_map,
    "for-each": vm_for_each,
    "filter": vm_filter,
    "fold-left": vm_fold_left,
    "fold-right": vm_fold_right,
    "any?": vm_any,
    "all?": vm_all,
    "vector-map": vm_vector_map,
    "vector-for-each": vm_vector_for_each,
    "string-map": vm_string_map,
    "string-for-each": vm_string_for_each,
}

# Primitives the machine implements as frames of its own.
CONTROL = ("apply", "values", "call-with-values", "call-with-current-continuation",
           "dynamic-wind", "with-exception-handler", "raise", "raise-continuable")
