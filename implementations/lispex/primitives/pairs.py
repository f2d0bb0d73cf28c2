"""Pairs and lists: cons, car/cdr and the 28 c[ad]{2,4}r, list building and searching.

Every walk over a list is an iterative loop (lists may be a million pairs long) and every walk
that could otherwise run forever detects cycles (Floyd's tortoise and hare), reporting a cyclic
list like an improper one: E310.
"""

from __future__ import annotations

from itertools import product
from typing import Any

from ..equality import equal, eqv
from ..values import NIL, Char, Pair, Str, Vector, list_from, list_to_python
from .errors_util import (
    allocation_length,
    exact_count,
    list_expected,
    out_of_range,
    pair_expected,
    wrong_type,
)
from .table import define


def _proper(name: str, lst: Any) -> list:
    """The elements of a proper list, else E310."""
    items = list_to_python(lst)
    if items is None:
        list_expected(name, lst)
    return items


# --- pairs -----------------------------------------------------------------------------------


@define("cons")
def cons(a: Any, b: Any) -> Pair:
    return Pair(a, b)


@define("car")
def car(x: Any) -> Any:
    if type(x) is not Pair:
        pair_expected("car", x)
    return x.car


@define("cdr")
def cdr(x: Any) -> Any:
    if type(x) is not Pair:
        pair_expected("cdr", x)
    return x.cdr


# The deprecated spellings are rows of their own (the table layer adds W331 around them), so
# they are separate functions that name themselves in their errors.
@define("list-first")
def list_first(x: Any) -> Any:
    if type(x) is not Pair:
        pair_expected("list-first", x)
    return x.car


@define("list-rest")
def list_rest(x: Any) -> Any:
    if type(x) is not Pair:
        pair_expected("list-rest", x)
    return x.cdr


def _make_cxr(name: str):
    # cadr = car of cdr: the letters apply right to left.
    steps = tuple(letter == "a" for letter in reversed(name[1:-1]))

    def cxr(x: Any) -> Any:
        v = x
        for take_car in steps:
            if type(v) is not Pair:
                pair_expected(name, x)
            v = v.car if take_car else v.cdr
        return v

    cxr.__name__ = cxr.__qualname__ = name.replace("-", "_")
    return cxr


CXR_NAMES = tuple("c" + "".join(letters) + "r"
                  for n in (2, 3, 4) for letters in product("ad", repeat=n))
for _name in CXR_NAMES:
    define(_name)(_make_cxr(_name))


# --- building --------------------------------------------------------------------------------


@define("list")
def list_(*items: Any) -> Any:
    return list_from(items)


@define("length")
def length(lst: Any) -> int:
    n = 0
    fast = slow = lst
    while type(fast) is Pair:
        fast = fast.cdr
        n += 1
        if type(fast) is not Pair:
            break
        fast = fast.cdr
        n += 1
        slow = slow.cdr
        if fast is slow:
            list_expected("length", lst)
    if fast is not NIL:
        list_expected("length", lst)
    return n


@define("append")
def append(*args: Any) -> Any:
    if not args:
        return NIL
    # Check every list but the last, left to right, before building anything.
    prefixes = [_proper("append", lst) for lst in args[:-1]]
    result = args[-1]  # shared, not copied; may be any value
    for items in reversed(prefixes):
        result = list_from(items, result)
    return result


@define("reverse")
def reverse(lst: Any) -> Any:
    if lst is not NIL and type(lst) is not Pair:
        wrong_type("reverse", "a list", lst)
    items = _proper("reverse", lst)
    result: Any = NIL
    for x in items:
        result = Pair(x, result)
    return result


@define("list-tail")
def list_tail(lst: Any, k: Any) -> Any:
    exact_count("list-tail", k)
    cur = lst
    for _ in range(k):
        if type(cur) is not Pair:
            out_of_range("list-tail", k, lst)
        cur = cur.cdr
    return cur


@define("list-ref")
def list_ref(lst: Any, k: Any) -> Any:
    exact_count("list-ref", k)
    cur = lst
    for _ in range(k):
        if type(cur) is not Pair:
            out_of_range("list-ref", k, lst)
        cur = cur.cdr
    if type(cur) is not Pair:
        out_of_range("list-ref", k, lst)
    return cur.car


@define("list-copy")
def list_copy(lst: Any) -> Any:
    """A fresh spine; an improper list keeps its final tail; a non-list is returned as is."""
    items = []
    fast = slow = lst
    while type(fast) is Pair:
        items.append(fast.car)
        fast = fast.cdr
        if type(fast) is not Pair:
            break
        items.append(fast.car)
        fast = fast.cdr
        slow = slow.cdr
        if fast is slow:
            list_expected("list-copy", lst)
    return list_from(items, fast)


@define("make-list")
def make_list(k: Any, fill: Any = 0) -> Any:
    allocation_length("make-list", k)
    result: Any = NIL
    for _ in range(k):
        result = Pair(fill, result)
    return result


# --- searching -------------------------------------------------------------------------------


def _member(name: str, same, x: Any, lst: Any) -> Any:
    fast = slow = lst
    while type(fast) is Pair:
        if same(x, fast.car):
            return fast
        fast = fast.cdr
        if type(fast) is not Pair:
            break
        if same(x, fast.car):
            return fast
        fast = fast.cdr
        slow = slow.cdr
        if fast is slow:
            list_expected(name, lst)
    if fast is not NIL:
        list_expected(name, lst)
    return False


@define("memq")
def memq(x: Any, lst: Any) -> Any:
    return _member("memq", eqv, x, lst)


@define("memv")
def memv(x: Any, lst: Any) -> Any:
    return _member("memv", eqv, x, lst)


@define("member")
def member(x: Any, lst: Any) -> Any:
    return _member("member", equal, x, lst)


def _assoc(name: str, same, key: Any, alist: Any) -> Any:
    fast = slow = alist
    step = 0
    while type(fast) is Pair:
        entry = fast.car
        if type(entry) is not Pair:
            pair_expected(name, entry)
        if same(key, entry.car):
            return entry
        fast = fast.cdr
        step += 1
        if step % 2 == 0:
            slow = slow.cdr
            if fast is slow:
                list_expected(name, alist)
    if fast is not NIL:
        list_expected(name, alist)
    return False


@define("assq")
def assq(key: Any, alist: Any) -> Any:
    return _assoc("assq", eqv, key, alist)


@define("assv")
def assv(key: Any, alist: Any) -> Any:
    return _assoc("assv", eqv, key, alist)


@define("assoc")
def assoc(key: Any, alist: Any) -> Any:
    return _assoc("assoc", equal, key, alist)


# --- conversions -----------------------------------------------------------------------------


@define("list->string")
def list_to_string(lst: Any) -> Str:
    items = _proper("list->string", lst)
    for c in items:
        if type(c) is not Char:
            wrong_type("list->string", "a list of characters", c)
    return Str("".join(chr(c.code) for c in items))


@define("list->vector")
def list_to_vector(lst: Any) -> Vector:
    return Vector(_proper("list->vector", lst), True)
