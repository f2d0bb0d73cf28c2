"""Unit tests for the predicate, equality and output primitive families (split from test_prims_numeric.py)."""

from __future__ import annotations

import math

from hypothesis import given
from hypothesis import strategies as st
from prims_helpers import KERNEL, R, call, fails, same  # noqa: E402,F401

from implementations.lispex.values import (
    NIL,
    NO_VALUES,
    Bytevector,
    Char,
    ErrorObject,
    Pair,
    Primitive,
    Procedure,
    Str,
    Vector,
    list_from,
    sym,
)

# ---------------------------------------------------------------------------------------------
# Predicates


def prim(name):
    return Primitive(name, None, 0, 0, warning=None, guest=False, backend=False, family="x",
                     needs_context=False)


class Closure(Procedure):
    __slots__ = ("name",)

    def __init__(self):
        self.name = None


NON_NUMBERS = [True, False, Str("1"), sym("a"), NIL, Pair(1, 2), Vector([1]), Char(49),
               Bytevector(b"\x01"), prim("car")]


def test_type_predicates():
    samples = {
        "boolean?": [True, False],
        "char?": [Char(97)],
        "number?": [0, R(1, 2), 1.5],
        "string?": [Str("")],
        "symbol?": [sym("x")],
        "vector?": [Vector([]), Vector([1], mutable=False)],
        "bytevector?": [Bytevector(b"")],
        "procedure?": [prim("car"), Closure()],
        "pair?": [Pair(1, 2), list_from([1])],
        "null?": [NIL],
        "error-object?": [ErrorObject("E330", Str("m"), NIL)],
    }
    everything = [x for xs in samples.values() for x in xs]
    for name, members in samples.items():
        for x in everything:
            assert call(name, x) is any(x is m for m in members), (name, x)


def test_not():
    assert call("not", False) is True
    for x in (True, 0, NIL, Str(""), Vector([])):
        assert call("not", x) is False


def test_rational_real_complex():
    for name in ("rational?", "real?", "complex?"):
        for x in (1, R(1, 2), 1.5, -0.0, 10**400):
            assert call(name, x) is True
        for x in NON_NUMBERS:
            assert call(name, x) is False


def test_integer_predicates():
    assert call("integer?", 3.0) is True
    assert call("integer?", 3) is True
    assert call("integer?", 2.5) is False
    assert call("integer?", R(1, 2)) is False
    assert call("integer?", Str("3")) is False
    assert call("integer?", True) is False
    assert call("exact-integer?", 5) is True
    assert call("exact-integer?", 5.0) is False
    assert call("exact-integer?", R(1, 2)) is False
    assert call("exact-integer?", True) is False


def test_exactness_and_sign_predicates():
    assert call("exact?", 1) is True and call("exact?", R(1, 2)) is True
    assert call("exact?", 1.0) is False
    assert call("inexact?", 1.0) is True and call("inexact?", 1) is False
    assert call("zero?", 0) is True and call("zero?", -0.0) is True and call("zero?", 1) is False
    assert call("positive?", 1) is True and call("positive?", 0) is False
    assert call("positive?", R(1, 2)) is True and call("positive?", 0.0) is False
    assert call("negative?", -1) is True and call("negative?", -0.0) is False
    assert call("negative?", R(-1, 2)) is True and call("negative?", 0) is False
    for name in ("exact?", "inexact?", "zero?", "positive?", "negative?", "even?", "odd?"):
        for x in NON_NUMBERS:
            fails("E312", name, x)


def test_even_odd():
    assert call("even?", 4) is True and call("even?", -3) is False
    assert call("odd?", -3) is True and call("odd?", 0) is False
    assert call("even?", 2.0) is True and call("odd?", 3.0) is True
    assert call("even?", 10**40) is True
    fails("E312", "even?", 2.5)
    fails("E312", "odd?", R(1, 2))


def test_list_predicate():
    assert call("list?", NIL) is True
    assert call("list?", list_from([1, 2, 3])) is True
    assert call("list?", Pair(1, 2)) is False
    assert call("list?", list_from([1, 2], 3)) is False
    assert call("list?", 5) is False
    assert call("list?", Vector([])) is False
    assert call("list?", list_from(range(100_000))) is True


# ---------------------------------------------------------------------------------------------
# Equality primitives


def test_equality_primitives():
    assert call("eqv?", 2, 2.0) is False
    assert call("eqv?", R(1, 2), R(2, 4)) is True
    assert call("eqv?", 0.0, -0.0) is False
    assert call("eq?", sym("a"), sym("a")) is True
    s = Str("x")
    assert call("eq?", s, s) is True and call("eq?", s, Str("x")) is False
    assert call("equal?", Str("x"), Str("x")) is True
    assert call("equal?", 2, 2.0) is False
    assert call("equal?", list_from([1, Str("a")]), list_from([1, Str("a")])) is True
    assert call("!=", 1, 2) is True
    assert call("!=", list_from([1]), list_from([1])) is False
    assert call("boolean=?", True, True, True) is True
    assert call("boolean=?", False, False) is True
    assert call("boolean=?", True, False) is False
    assert call("symbol=?", sym("a"), sym("a")) is True
    assert call("symbol=?", sym("a"), sym("a"), sym("b")) is False
    fails("E312", "boolean=?", True, 1)
    fails("E312", "boolean=?", 0, 0)
    fails("E312", "boolean=?", False, False, NIL)
    fails("E312", "symbol=?", sym("a"), Str("a"))
    fails("E312", "symbol=?", sym("a"), sym("a"), 1)


# ---------------------------------------------------------------------------------------------
# Output primitives


class Ctx:
    def __init__(self):
        self.out = []

    def emit(self, text):
        self.out.append(text)


def test_output_primitives():
    ctx = Ctx()
    for name, args in [("display", (Str("hi"),)), ("write", (Str("hi"),)),
                       ("println", (list_from([1, Str("a"), Char(98)]),)), ("newline", ()),
                       ("write", (Char(32),)), ("display", (Char(32),)), ("println", (2.0,))]:
        fn, needs_context = KERNEL[name]
        assert needs_context
        assert fn(ctx, *args) is NO_VALUES
    assert "".join(ctx.out) == 'hi"hi"(1 a b)\n\n#\\space 2.0\n'


@given(st.floats(allow_nan=False, allow_infinity=False),
       st.floats(allow_nan=False, allow_infinity=False))
def test_float_arithmetic_matches_ieee_or_e314(a, b):
    for name, op in (("+", lambda: a + b), ("-", lambda: a - b), ("*", lambda: a * b)):
        expected = op()
        if math.isfinite(expected):
            assert same(call(name, a, b), expected)
        else:
            fails("E314", name, a, b)
