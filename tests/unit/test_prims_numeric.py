"""Numeric, predicate, equality and output primitives, called through the kernel registry."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st
from prims_helpers import KERNEL, R, call, fails, same  # noqa: E402,F401

from implementations.lispex.values import (
    NIL,
    Char,
    Str,
    Values,
    Vector,
    sym,
)


def test_all_families_registered():
    names = ["+", "-", "*", "/", "<", "<=", "=", ">", ">=", "abs", "min", "max", "quotient",
             "remainder", "modulo", "%", "floor", "ceiling", "round", "truncate", "floor/",
             "floor-quotient", "floor-remainder", "truncate/", "truncate-quotient",
             "truncate-remainder", "gcd", "lcm", "expt", "exact-integer-sqrt", "square", "exact",
             "exact->inexact", "number->string", "string->number",
             "!=", "eq?", "eqv?", "equal?", "boolean=?", "symbol=?",
             "not", "boolean?", "char?", "number?", "integer?", "exact-integer?", "rational?",
             "real?", "complex?", "exact?", "inexact?", "string?", "symbol?", "vector?",
             "bytevector?", "procedure?", "pair?", "null?", "list?", "error-object?", "zero?",
             "positive?", "negative?", "even?", "odd?",
             "display", "write", "println", "newline"]
    for name in names:
        assert name in KERNEL, name
    for alias in ("==", "empty?", "inexact", "inexact->exact"):
        assert alias not in KERNEL


# ---------------------------------------------------------------------------------------------
# Arithmetic


@pytest.mark.parametrize(
    ("name", "args", "expected"),
    [
        ("+", (), 0),
        ("*", (), 1),
        ("-", (5,), -5),
        ("-", (0.0,), -0.0),
        ("-", (R(1, 2),), R(-1, 2)),
        ("+", (1, 2.0), 3.0),
        ("+", (R(1, 2), 0.5), 1.0),
        ("+", (R(1, 2), R(1, 2)), 1),
        ("+", (1, 2, 3, 4), 10),
        ("+", (7,), 7),
        ("*", (R(1, 2), 4), 2),
        ("*", (2, 3), 6),
        ("*", (0, 1.5), 0.0),
        ("-", (10, 1, 2), 7),
        ("-", (1, 0.5), 0.5),
        ("/", (1, 3), R(1, 3)),
        ("/", (2,), R(1, 2)),
        ("/", (0.5,), 2.0),
        ("/", (1.0, 3), 0.3333333333333333),
        ("/", (6, 3), 2),
        ("/", (12, 2, 3), 2),
        ("/", (R(1, 2), R(1, 4)), 2),
        ("/", (1, 2, 0.5), 1.0),
        ("+", (10**30, 1), 10**30 + 1),
    ],
)
def test_arithmetic(name, args, expected):
    assert same(call(name, *args), expected)


@pytest.mark.parametrize("zero", [0, 0.0, -0.0])
def test_any_division_by_zero_is_e313(zero):
    fails("E313", "/", 1, zero)
    fails("E313", "/", 1.0, zero)
    fails("E313", "/", zero)
    fails("E313", "/", 0, zero)
    fails("E313", "/", 6, 2, zero)


@pytest.mark.parametrize(
    ("name", "args"),
    [
        ("*", (1e200, 1e200)),
        ("+", (1e308, 1e308)),
        ("-", (-1e308, 1e308)),
        ("+", (10**400, 1.0)),
        ("*", (10**400, 0.5)),
        ("/", (10**400, 2.0)),
        ("/", (1e300, 1e-300)),
        ("exact->inexact", (10**400,)),
        ("exact->inexact", (R(10**400, 7),)),
        ("expt", (10.0, 400)),
        ("expt", (2.0, 10**400)),
        ("square", (1e200,)),
        ("max", (10**400, 1.0)),
        ("min", (-(10**400), 1.0)),
        ("quotient", (10**400, 1.0)),
        ("gcd", (10**400, 0.0)),
    ],
)
def test_nonfinite_results_are_e314(name, args):
    fails("E314", name, *args)


@pytest.mark.parametrize(
    "name",
    ["+", "-", "*", "/", "<", "<=", "=", ">", ">=", "max", "min", "quotient", "remainder",
     "modulo", "%", "floor/", "truncate/", "floor-quotient", "floor-remainder",
     "truncate-quotient", "truncate-remainder", "gcd", "lcm"],
)
@pytest.mark.parametrize("bad", [Str("1"), True, sym("a"), NIL, Char(49), Vector([1])])
def test_non_numbers_are_e312(name, bad):
    fails("E312", name, 1, bad)
    fails("E312", name, bad, 1)


def test_type_errors_win_over_overflow():
    fails("E312", "+", 1e308, 1e308, sym("x"))
    fails("E312", "/", 1, 0, sym("x"))
    fails("E312", "<", 2, 1, sym("x"))


@pytest.mark.parametrize(
    "name",
    ["abs", "square", "floor", "ceiling", "round", "truncate", "exact", "exact->inexact",
     "number->string", "exact-integer-sqrt", "-"],
)
def test_unary_non_numbers_are_e312(name):
    for bad in (Str("1"), True, False, sym("a"), NIL):
        fails("E312", name, bad)


# ---------------------------------------------------------------------------------------------
# Comparison


@pytest.mark.parametrize(
    ("name", "args", "expected"),
    [
        ("=", (R(1, 3), 0.3333333333333333), False),
        ("=", (R(1, 2), 0.5), True),
        ("=", (0.0, -0.0), True),
        ("=", (1, 1, 1), True),
        ("=", (1, 1, 2), False),
        ("=", (2, 2.0), True),
        ("=", (10**400, 1e300), False),
        ("<", (1, 2, 3), True),
        ("<", (1, 3, 2), False),
        ("<", (1, 1), False),
        ("<=", (1, 1, 2), True),
        ("<=", (2, 1), False),
        (">", (3, 2, 1), True),
        (">", (3, 3), False),
        (">=", (3, 3, 1), True),
        (">=", (1, 2), False),
        ("<", (R(1, 3), 0.3333333333333333), False),  # 0.333...3 (double) < 1/3 exactly
        (">", (R(1, 3), 0.3333333333333333), True),
        ("<", (10**400, 1e300), False),
        ("<", (-0.0, 0.0), False),
        ("<", (9007199254740991, 9007199254740992.0, 9007199254740993), True),
        ("=", (9007199254740993, 9007199254740992.0), False),
    ],
)
def test_comparisons(name, args, expected):
    assert call(name, *args) is expected


# ---------------------------------------------------------------------------------------------
# abs, min, max, square, rounding, exactness


@pytest.mark.parametrize(
    ("name", "args", "expected"),
    [
        ("abs", (-5,), 5),
        ("abs", (R(-1, 2),), R(1, 2)),
        ("abs", (-2.5,), 2.5),
        ("abs", (-0.0,), 0.0),
        ("max", (1, 2.0), 2.0),
        ("max", (3, 2.0), 3.0),
        ("max", (1, 5, 3), 5),
        ("max", (R(1, 2),), R(1, 2)),
        ("min", (1, 2.0), 1.0),
        ("min", (3, R(1, 2)), R(1, 2)),
        ("square", (5,), 25),
        ("square", (R(2, 3),), R(4, 9)),
        ("square", (-1.5,), 2.25),
        ("floor", (2.5,), 2.0),
        ("floor", (-2.5,), -3.0),
        ("floor", (R(7, 2),), 3),
        ("floor", (R(-7, 2),), -4),
        ("floor", (5,), 5),
        ("ceiling", (2.1,), 3.0),
        ("ceiling", (-0.5,), -0.0),
        ("ceiling", (R(7, 2),), 4),
        ("truncate", (-2.7,), -2.0),
        ("truncate", (-0.5,), -0.0),
        ("truncate", (R(-7, 2),), -3),
        ("round", (2.5,), 2.0),
        ("round", (3.5,), 4.0),
        ("round", (-2.5,), -2.0),
        ("round", (-0.5,), -0.0),
        ("round", (0.4,), 0.0),
        ("round", (R(7, 2),), 4),
        ("round", (R(5, 2),), 2),
        ("round", (R(-5, 2),), -2),
        ("round", (R(7, 3),), 2),
        ("round", (1e300,), 1e300),
        ("exact", (0.1,), R(3602879701896397, 36028797018963968)),
        ("exact", (2.0,), 2),
        ("exact", (-0.0,), 0),
        ("exact", (R(1, 3),), R(1, 3)),
        ("exact", (7,), 7),
        ("exact", (1e300,), int(1e300)),
        ("exact->inexact", (R(1, 3),), 0.3333333333333333),
        ("exact->inexact", (7,), 7.0),
        ("exact->inexact", (2.5,), 2.5),
        ("exact->inexact", (R(1, 10**400),), 0.0),
    ],
)
def test_unary_numeric(name, args, expected):
    assert same(call(name, *args), expected)


# ---------------------------------------------------------------------------------------------
# Integer division


@pytest.mark.parametrize(
    ("name", "args", "expected"),
    [
        ("modulo", (-7, 3), 2),
        ("modulo", (7, -3), -2),
        ("modulo", (7, 3), 1),
        ("modulo", (-7, -3), -1),
        ("%", (-7, 3), 2),
        ("%", (10, 3), 1),
        ("remainder", (-7, 3), -1),
        ("remainder", (7, -3), 1),
        ("remainder", (-7, -3), -1),
        ("quotient", (7, 2), 3),
        ("quotient", (-7, 2), -3),
        ("quotient", (7, -2), -3),
        ("quotient", (-7, -2), 3),
        ("quotient", (7.0, 2), 3.0),
        ("remainder", (-7.0, 2), -1.0),
        ("modulo", (-7, 3.0), 2.0),
        ("modulo", (6, 3.0), 0.0),
        ("floor-quotient", (-7, 2), -4),
        ("floor-remainder", (-7, 2), 1),
        ("truncate-quotient", (-7, 2), -3),
        ("truncate-remainder", (-7, 2), -1),
        ("floor/", (-7, 2), Values((-4, 1))),
        ("floor/", (7, -2), Values((-4, -1))),
        ("truncate/", (-7, 2), Values((-3, -1))),
        ("truncate/", (7.0, 2), Values((3.0, 1.0))),
        ("gcd", (), 0),
        ("lcm", (), 1),
        ("gcd", (12, 18), 6),
        ("gcd", (-12, 18), 6),
        ("gcd", (0, 5), 5),
        ("gcd", (7,), 7),
        ("gcd", (-7,), 7),
        ("gcd", (12.0, 18), 6.0),
        ("lcm", (4, 6), 12),
        ("lcm", (-4, 6), 12),
        ("lcm", (0, 5), 0),
        ("lcm", (4, 6.0), 12.0),
        ("lcm", (2, 3, 4), 12),
        ("quotient", (10**40, 10**20), 10**20),
    ],
)
def test_integer_division(name, args, expected):
    assert same(call(name, *args), expected)


@pytest.mark.parametrize(
    "name",
    ["quotient", "remainder", "modulo", "%", "floor/", "truncate/", "floor-quotient",
     "floor-remainder", "truncate-quotient", "truncate-remainder"],
)
def test_integer_division_checks(name):
    fails("E313", name, 7, 0)
    fails("E313", name, 7, 0.0)
    fails("E313", name, 7.0, -0.0)
    fails("E312", name, 7.5, 2)
    fails("E312", name, 7, R(1, 2))
    fails("E312", name, R(1, 2), 1)


def test_gcd_lcm_need_integers():
    fails("E312", "gcd", 2.5)
    fails("E312", "lcm", 4, R(1, 2))


@given(st.integers(), st.integers().filter(bool))
def test_division_identities(n, d):
    q, r = call("floor/", n, d).items
    assert q * d + r == n and (r == 0 or (r > 0) == (d > 0))
    assert call("floor-quotient", n, d) == q and call("modulo", n, d) == r
    q, r = call("truncate/", n, d).items
    assert q * d + r == n and (r == 0 or (r > 0) == (n > 0))
    assert call("quotient", n, d) == q and call("remainder", n, d) == r


# ---------------------------------------------------------------------------------------------
# expt, exact-integer-sqrt


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        ((2, 10), 1024),
        ((2, -1), R(1, 2)),
        ((-2, -3), R(-1, 8)),
        ((R(2, 3), 2), R(4, 9)),
        ((R(2, 3), -2), R(9, 4)),
        ((R(1, 2), -1), 2),
        ((0, 0), 1),
        ((0, 5), 0),
        ((2.0, 3), 8.0),
        ((2.0, -1), 0.5),
        ((0.0, 0), 1.0),
        ((-2.0, 3), -8.0),
        ((10, 400), 10**400),
    ],
)
def test_expt(args, expected):
    assert same(call("expt", *args), expected)


def test_expt_errors():
    fails("E313", "expt", 0, -1)
    fails("E313", "expt", R(0), -2)
    fails("E313", "expt", 0.0, -1)
    fails("E312", "expt", 2, 0.5)
    fails("E312", "expt", 2, 2.0)
    fails("E312", "expt", 2, R(1, 2))
    fails("E312", "expt", sym("x"), 2)
    fails("E314", "expt", 1e200, 2)


def test_exact_integer_sqrt():
    assert same(call("exact-integer-sqrt", 17), Values((4, 1)))
    assert same(call("exact-integer-sqrt", 16), Values((4, 0)))
    assert same(call("exact-integer-sqrt", 0), Values((0, 0)))
    assert same(call("exact-integer-sqrt", 10**40 + 5), Values((10**20, 5)))
    fails("E312", "exact-integer-sqrt", -1)
    fails("E312", "exact-integer-sqrt", 4.0)
    fails("E312", "exact-integer-sqrt", R(1, 4))


# ---------------------------------------------------------------------------------------------
# number->string, string->number


@pytest.mark.parametrize(
    ("args", "text"),
    [
        ((255, 16), "ff"),
        ((-255, 16), "-ff"),
        ((255, 2), "11111111"),
        ((8, 8), "10"),
        ((42, 10), "42"),
        ((42,), "42"),
        ((R(-1, 3),), "-1/3"),
        ((3.0,), "3.0"),
        ((-0.0,), "-0.0"),
        ((1e-7,), "0.0000001"),
        ((1e30,), "1000000000000000000000000000000.0"),
        ((10**5000,), "1" + "0" * 5000),
    ],
)
def test_number_to_string(args, text):
    result = call("number->string", *args)
    assert type(result) is Str and result.s == text


def test_number_to_string_errors():
    for radix in (3, 0, 1, 36, 10.0, R(1, 2), Str("16"), True):
        fails("E312", "number->string", 255, radix)
    fails("E312", "number->string", 2.5, 16)
    fails("E312", "number->string", 2.0, 10)
    fails("E312", "number->string", R(1, 2), 2)
    fails("E312", "number->string", Str("1"))


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        ((Str("42"),), 42),
        ((Str("-17"),), -17),
        ((Str("1/3"),), R(1, 3)),
        ((Str("4/2"),), 2),
        ((Str("2.5"),), 2.5),
        ((Str("1e3"),), 1000.0),
        ((Str("-0.0"),), -0.0),
        ((Str("abc"),), False),
        ((Str(""),), False),
        ((Str("+5"),), False),
        ((Str("1."),), False),
        ((Str("ff"), 16), 255),
        ((Str("FF"), 16), 255),
        ((Str("-ff"), 16), -255),
        ((Str("101"), 2), 5),
        ((Str("17"), 8), 15),
        ((Str("42"), 10), 42),
        ((Str("1/2"), 10), R(1, 2)),
        ((Str("12"), 2), False),
        ((Str("+ff"), 16), False),
        ((Str("1.5"), 16), False),
        ((Str(""), 16), False),
        ((Str("-"), 2), False),
    ],
)
def test_string_to_number(args, expected):
    assert same(call("string->number", *args), expected)


def test_string_to_number_errors():
    fails("E314", "string->number", Str("1e9999"))
    fails("E312", "string->number", 42)
    fails("E312", "string->number", sym("x"))
    fails("E312", "string->number", Str("ff"), 3)
    fails("E312", "string->number", Str("ff"), 16.0)


@given(st.floats(allow_nan=False, allow_infinity=False))
def test_number_string_round_trip_floats(x):
    assert same(call("string->number", call("number->string", x)), x)


@given(st.one_of(st.integers(), st.fractions()))
def test_number_string_round_trip_exact(q):
    q = q.numerator if q.denominator == 1 else q
    assert same(call("string->number", call("number->string", q)), q)
