"""Pairs and lists."""

from __future__ import annotations

from typing import Any

from ..equality import equal, eqv
from ..errors import LispexError
from ..values import NIL, Char, Pair, Str, Vector, list_from, list_to_python

MAX_LENGTH = 10_000_000


def pair_expected(name: str, x: Any) -> LispexError:
    return LispexError("E310", f"{name}: expected a pair", (x,))


def proper(name: str, x: Any) -> list:
    items = list_to_python(x)
    if items is None:
        raise LispexError("E310", f"{name}: expected a proper list", (x,))
    return items


def index_arg(name: str, k: Any) -> int:
    if type(k) is not int or k < 0:
        raise LispexError("E312", f"{name}: expected an exact non-negative integer", (k,))
    return k


def p_car(x: Any) -> Any:
    if type(x) is not Pair:
        raise pair_expected("car", x)
    return x.car


def p_cdr(x: Any) -> Any:
    if type(x) is not Pair:
        raise pair_expected("cdr", x)
    return x.cdr


def _cxr(name: str) -> Any:
    path = name[1:-1][::-1]  # cadr: d first, then a

    def fn(x: Any) -> Any:
        v = x
        for step in path:
            if type(v) is not Pair:
                raise pair_expected(name, x)
            v = v.car if step == "a" else v.cdr
        return v
    fn.__name__ = name
    return fn


def p_length(x: Any) -> int:
    return len(proper("length", x))


def p_append(*args: Any) -> Any:
    if not args:
        return NIL
    out = args[-1]
    for a in reversed(args[:-1]):
        out = list_from(proper("append", a), out)
    return out


def p_reverse(x: Any) -> Any:
    items = list_to_python(x)
    if items is None:
        if type(x) is Pair:
            raise LispexError("E310", "reverse: expected a proper list", (x,))
        raise LispexError("E312", "reverse: expected a list", (x,))
    out = NIL
    for v in items:
        out = Pair(v, out)
    return out


def p_list_tail(x: Any, k: Any) -> Any:
    index_arg("list-tail", k)
    if k < 0:
        raise LispexError("E311", "list-tail: index out of range", (k, x))
    v = x
    for _ in range(k):
        if type(v) is not Pair:
            raise LispexError("E311", "list-tail: index out of range", (k, x))
        v = v.cdr
    return v


def p_list_ref(x: Any, k: Any) -> Any:
    index_arg("list-ref", k)
    if k < 0:
        raise LispexError("E311", "list-ref: index out of range", (k, x))
    v = x
    for _ in range(k):
        if type(v) is not Pair:
            raise LispexError("E311", "list-ref: index out of range", (k, x))
        v = v.cdr
    if type(v) is not Pair:
        raise LispexError("E311", "list-ref: index out of range", (k, x))
    return v.car


def p_list_copy(x: Any) -> Any:
    if type(x) is not Pair:
        return x
    items = []
    while type(x) is Pair:
        items.append(x.car)
        x = x.cdr
    return list_from(items, x)


def p_make_list(k: Any, fill: Any = 0) -> Any:
    if type(k) is not int or k < 0:
        raise LispexError("E312", "make-list: expected an exact non-negative integer", (k,))
    if k > MAX_LENGTH:
        raise LispexError("E311", f"make-list: length {k} is larger than the largest "
                          f"supported length, {MAX_LENGTH}", (k,))
    out = NIL
    for _ in range(k):
        out = Pair(fill, out)
    return out


def _member(name: str, same: Any) -> Any:
    def fn(x: Any, lst: Any) -> Any:
        v = lst
        while type(v) is Pair:
            if same(x, v.car):
                return v
            v = v.cdr
        if v is not NIL:
            raise LispexError("E310", f"{name}: expected a proper list", (lst,))
        return False
    return fn


def _assoc(name: str, same: Any) -> Any:
    def fn(x: Any, lst: Any) -> Any:
        v = lst
        while type(v) is Pair:
            entry = v.car
            if type(entry) is not Pair:
                raise LispexError("E310", f"{name}: expected a pair", (entry,))
            if same(x, entry.car):
                return entry
            v = v.cdr
        if v is not NIL:
            raise LispexError("E310", f"{name}: expected a proper list", (lst,))
        return False
    return fn


def p_list_to_string(x: Any) -> Any:
    items = proper("list->string", x)
    for c in items:
        if type(c) is not Char:
            raise LispexError("E312", "list->string: expected a list of characters", (c,))
    return Str("".join(chr(c.code) for c in items))


def p_list_to_vector(x: Any) -> Any:
    return Vector(proper("list->vector", x))


def p_list_first(ctx: Any, x: Any) -> Any:
    ctx.warn("W331", "list-first and list-rest are deprecated; use first and rest")
    return p_car(x)


def p_list_rest(ctx: Any, x: Any) -> Any:
    ctx.warn("W331", "list-first and list-rest are deprecated; use first and rest")
    return p_cdr(x)


CXR = [a + b for a in ("a", "d") for b in ("a", "d")]
CXR = CXR + [a + b for a in ("a", "d") for b in CXR] + \
    [a + b + c for a in ("a", "d") for b in ("a", "d") for c in CXR]

IMPLS = {
    "cons": Pair, "car": p_car, "cdr": p_cdr,
    **{f"c{p}r": _cxr(f"c{p}r") for p in CXR},
    "list": lambda *xs: list_from(xs), "length": p_length, "append": p_append,
    "reverse": p_reverse, "list-tail": p_list_tail, "list-ref": p_list_ref,
    "list-copy": p_list_copy, "make-list": p_make_list,
    "memq": _member("memq", eqv), "memv": _member("memv", eqv), "member": _member("member", equal),
    "assq": _assoc("assq", eqv), "assv": _assoc("assv", eqv), "assoc": _assoc("assoc", equal),
    "list->string": p_list_to_string, "list->vector": p_list_to_vector,
    "pair?": lambda x: type(x) is Pair, "null?": lambda x: x is NIL,
    "list?": lambda x: list_to_python(x) is not None,
}
CONTEXT = {"list-first": p_list_first, "list-rest": p_list_rest}
