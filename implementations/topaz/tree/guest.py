"""topaz-tree's library primitives that call guest procedures.

Each takes the run state and its argument list and calls back through ``rt.call_at`` (a
non-tail call: a closure callback counts towards the recursion limit). A fault of the primitive
itself (a wrong argument, a callback result of the wrong kind) or of applying a callback (not a
procedure, wrong arity) is reported at the primitive's call site; faults inside a callback keep
their own. Lists are checked and copied
before the first callback, vectors are copied too, so a callback that changes a vector does not
change what is being walked.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NoReturn

from implementations.topaz.kernel.errors import LispexError
from implementations.topaz.kernel.values import (
    NO_VALUES,
    Char,
    Str,
    Values,
    Vector,
    list_from,
    list_to_python,
)


def one(name: str, v: Any, site: Any) -> Any:
    if type(v) is Values:
        raise LispexError("E320", f"{name}: the procedure returned {len(v.items)} values, "
                          "expected one", (), site)
    return v


def wrong_type(name: str, expected: str, value: Any, site: Any) -> NoReturn:
    raise LispexError("E312", f"{name}: expected {expected}", (value,), site)


def elements(name: str, lst: Any, site: Any) -> list:
    items = list_to_python(lst)
    if items is None:
        raise LispexError("E310", f"{name}: expected a proper list", (lst,), site)
    return items


def vector_items(name: str, v: Any, site: Any) -> list:
    if type(v) is not Vector:
        wrong_type(name, "a vector", v, site)
    return list(v.items)


def string_chars(name: str, s: Any, site: Any) -> list:
    if type(s) is not Str:
        wrong_type(name, "a string", s, site)
    return [Char(ord(ch)) for ch in s.s]


def g_map(rt: Any, args: list, tail: bool) -> Any:
    f, lst = args
    site = rt.get_site()
    call = rt.call_at
    return list_from([one("map", call(f, [x], site), site) for x in elements("map", lst, site)])


def g_for_each(rt: Any, args: list, tail: bool) -> Any:
    f, lst = args
    site = rt.get_site()
    call = rt.call_at
    for x in elements("for-each", lst, site):
        call(f, [x], site)
    return NO_VALUES


def g_filter(rt: Any, args: list, tail: bool) -> Any:
    f, lst = args
    site = rt.get_site()
    call = rt.call_at
    return list_from([x for x in elements("filter", lst, site)
                      if one("filter", call(f, [x], site), site) is not False])


def g_fold_left(rt: Any, args: list, tail: bool) -> Any:
    f, acc, lst = args
    site = rt.get_site()
    call = rt.call_at
    for x in elements("fold-left", lst, site):
        acc = one("fold-left", call(f, [acc, x], site), site)
    return acc


def g_fold_right(rt: Any, args: list, tail: bool) -> Any:
    f, acc, lst = args
    site = rt.get_site()
    call = rt.call_at
    for x in reversed(elements("fold-right", lst, site)):
        acc = one("fold-right", call(f, [x, acc], site), site)
    return acc


def g_any(rt: Any, args: list, tail: bool) -> Any:
    f, lst = args
    site = rt.get_site()
    call = rt.call_at
    for x in elements("any?", lst, site):
        if one("any?", call(f, [x], site), site) is not False:
            return True
    return False


def g_all(rt: Any, args: list, tail: bool) -> Any:
    f, lst = args
    site = rt.get_site()
    call = rt.call_at
    for x in elements("all?", lst, site):
        if one("all?", call(f, [x], site), site) is False:
            return False
    return True


def g_vector_map(rt: Any, args: list, tail: bool) -> Any:
    f, vec = args
    site = rt.get_site()
    call = rt.call_at
    return Vector([one("vector-map", call(f, [x], site), site)
                   for x in vector_items("vector-map", vec, site)])


def g_vector_for_each(rt: Any, args: list, tail: bool) -> Any:
    f, vec = args
    site = rt.get_site()
    call = rt.call_at
    for x in vector_items("vector-for-each", vec, site):
        call(f, [x], site)
    return NO_VALUES


def g_string_map(rt: Any, args: list, tail: bool) -> Any:
    f, s = args
    site = rt.get_site()
    call = rt.call_at
    out = []
    for ch in string_chars("string-map", s, site):
        r = one("string-map", call(f, [ch], site), site)
        if type(r) is not Char:
            wrong_type("string-map", "the procedure to return a character", r, site)
        out.append(chr(r.code))
    return Str("".join(out))


def g_string_for_each(rt: Any, args: list, tail: bool) -> Any:
    f, s = args
    site = rt.get_site()
    call = rt.call_at
    for ch in string_chars("string-for-each", s, site):
        call(f, [ch], site)
    return NO_VALUES


GUEST: dict[str, Callable[[Any, list, bool], Any]] = {
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
