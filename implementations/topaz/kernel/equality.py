"""eqv? and equal? (LISPEX.md section 7)."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from .values import Bytevector, Char, Pair, Str, Vector


def eqv(a: Any, b: Any) -> bool:
    if a is b:
        return True
    ta = type(a)
    if ta is not type(b):
        return False
    if ta is int or ta is Fraction:
        return a == b
    if ta is float:
        # exactness and sign of zero both count: (eqv? 0.0 -0.0) is #f
        return a == b and str(a)[0] == str(b)[0]
    if ta is Char:
        return a.code == b.code
    return False  # booleans are singletons; symbols are interned; the rest by identity


def equal(a: Any, b: Any) -> bool:
    """Structural equality; a pair of vectors already being compared counts as equal, so
    cycles (only possible through vectors) terminate."""
    work = [(a, b)]
    seen: set[tuple[int, int]] = set()
    while work:
        x, y = work.pop()
        if x is y:
            continue
        tx = type(x)
        if tx is not type(y):
            return False
        if tx is Pair:
            work.append((x.cdr, y.cdr))
            work.append((x.car, y.car))
        elif tx is Str:
            if x.s != y.s:
                return False
        elif tx is Vector:
            key = (id(x), id(y))
            if key in seen:
                continue
            seen.add(key)
            if len(x.items) != len(y.items):
                return False
            work.extend(zip(reversed(x.items), reversed(y.items), strict=True))
        elif tx is Bytevector:
            if x.data != y.data:
                return False
        elif not eqv(x, y):
            return False
    return True
