"""``eqv?``, ``eq?`` and ``equal?``.

``eqv?`` is exactness-sensitive on numbers: ``(eqv? 2 2.0)`` is #f, ``(eqv? 1/2 2/4)`` is #t and
``(eqv? 0.0 -0.0)`` is #f. Characters compare by code; booleans and ``()`` by value; symbols,
strings, pairs, vectors, bytevectors, procedures and error objects by identity. ``eq?`` has the
same semantics in v1.

``equal?`` is structural: pairs and vectors elementwise, strings by characters, bytevectors by
contents, everything else via ``eqv?``; different types are never equal. It is iterative and
terminates on cyclic vectors: a pair of vectors already under comparison is assumed equal
(bisimulation), which is the only consistent answer for a cycle.
"""

from __future__ import annotations

from fractions import Fraction
from math import copysign
from typing import Any

from .values import Bytevector, Char, Pair, Str, Vector


def eqv(a: Any, b: Any) -> bool:
    if a is b:
        return True
    t = type(a)
    if t is not type(b):
        return False
    if t is int or t is Fraction:
        return a == b
    if t is float:
        # Same value and same sign: 0.0 and -0.0 differ (NaN never exists).
        return a == b and copysign(1.0, a) == copysign(1.0, b)
    if t is Char:
        return a.code == b.code
    # bool, NIL and the interned symbols are singletons: identity was checked above.
    return False


eq = eqv


def equal(a: Any, b: Any) -> bool:
    if a is b:
        return True
    t = type(a)
    if t is not type(b):
        return False
    if t is Str:
        return a.s == b.s
    if t is not Pair and t is not Vector:
        if t is Bytevector:
            return a.data == b.data
        return eqv(a, b)
    return _equal_structures(a, b)


def _equal_structures(a: Any, b: Any) -> bool:
    seen: set[tuple[int, int]] = set()  # vector pairs already being compared
    stack: list[tuple[Any, Any]] = [(a, b)]
    push = stack.append
    pop = stack.pop
    while stack:
        x, y = pop()
        while True:
            if x is y:
                break
            t = type(x)
            if t is not type(y):
                return False
            if t is Pair:
                # Walk the cdr chain here; the cars go on the stack.
                push((x.car, y.car))
                x = x.cdr
                y = y.cdr
                continue
            if t is Vector:
                xs, ys = x.items, y.items
                if len(xs) != len(ys):
                    return False
                key = (id(x), id(y))
                if key not in seen:
                    seen.add(key)
                    stack.extend(zip(xs, ys, strict=True))
                break
            if t is Str:
                if x.s != y.s:
                    return False
                break
            if t is Bytevector:
                if x.data != y.data:
                    return False
                break
            if not eqv(x, y):
                return False
            break
    return True
