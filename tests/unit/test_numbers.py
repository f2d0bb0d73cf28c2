"""The numeric tower helpers: positional float formatting, normalisation, contagion, E314."""

from __future__ import annotations

import math
import struct
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from implementations.lispex.errors import LispexError
from implementations.lispex.numbers import (
    add,
    check_finite,
    div,
    format_integer_radix,
    format_number,
    is_integral,
    mul,
    normalize,
    parse_integer_radix,
    sub,
    to_exact,
    to_float,
)


@pytest.mark.parametrize(
    ("value", "text"),
    [
        (0, "0"),
        (42, "42"),
        (-7, "-7"),
        (10**30, "1" + "0" * 30),
        (Fraction(1, 3), "1/3"),
        (Fraction(-1, 3), "-1/3"),
        (Fraction(22, 7), "22/7"),
        (3.0, "3.0"),
        (-0.0, "-0.0"),
        (0.0, "0.0"),
        (1e-7, "0.0000001"),
        (1e30, "1000000000000000000000000000000.0"),
        (0.1, "0.1"),
        (1 / 3.0, "0.3333333333333333"),
        (-2.5, "-2.5"),
        (1e16, "10000000000000000.0"),
        (1.5e16, "15000000000000000.0"),
        (1.25e-5, "0.0000125"),
        (-1.25e-5, "-0.0000125"),
        (123456.789, "123456.789"),
        (5e-324, "0." + "0" * 323 + "5"),
    ],
)
def test_format_number(value, text):
    assert format_number(value) == text


def test_format_huge_exact_integer_has_no_digit_limit():
    n = 10**5000
    assert format_number(n) == "1" + "0" * 5000
    assert format_number(-n) == "-1" + "0" * 5000


def test_format_number_rejects_non_numbers():
    with pytest.raises(TypeError):
        format_number(True)
    with pytest.raises(ValueError):
        format_number(math.inf)


@given(st.floats(allow_nan=False, allow_infinity=False))
def test_format_float_is_positional_and_round_trips(x):
    text = format_number(x)
    assert "e" not in text and "E" not in text
    assert "." in text
    back = float(text)
    assert struct.pack(">d", back) == struct.pack(">d", x)  # bit-exact, -0.0 included


@given(st.integers(), st.integers(min_value=1))
def test_format_rational(n, d):
    q = normalize(Fraction(n, d))
    text = format_number(q)
    if type(q) is int:
        assert text == str(q)
    else:
        assert Fraction(text) == q and "/" in text


def test_normalize_demotes_integral_rationals():
    assert normalize(Fraction(4, 2)) == 2 and type(normalize(Fraction(4, 2))) is int
    assert normalize(Fraction(1, 2)) == Fraction(1, 2)


def test_check_finite():
    assert check_finite(1.5, "f") == 1.5
    for bad in (math.inf, -math.inf, math.nan):
        with pytest.raises(LispexError) as e:
            check_finite(bad, "f")
        assert e.value.code == "E314"


def test_to_float_and_to_exact():
    assert to_float(Fraction(1, 2), "inexact") == 0.5
    assert to_float(3, "inexact") == 3.0 and type(to_float(3, "inexact")) is float
    with pytest.raises(LispexError) as e:
        to_float(10**400, "inexact")
    assert e.value.code == "E314"
    with pytest.raises(LispexError):
        to_float(Fraction(10**400, 3), "inexact")
    assert to_exact(0.1) == Fraction(3602879701896397, 36028797018963968)
    assert to_exact(2.0) == 2 and type(to_exact(2.0)) is int
    assert to_exact(-0.0) == 0 and type(to_exact(-0.0)) is int
    assert to_exact(Fraction(1, 3)) == Fraction(1, 3)


def test_is_integral():
    assert is_integral(3) and is_integral(3.0) and is_integral(-0.0)
    assert not is_integral(2.5) and not is_integral(Fraction(1, 2))
    assert not is_integral(True) and not is_integral("3")


def test_contagion():
    assert add(1, 2) == 3 and type(add(1, 2)) is int
    assert add(1, 2.0) == 3.0 and type(add(1, 2.0)) is float
    assert add(Fraction(1, 2), 0.5) == 1.0 and type(add(Fraction(1, 2), 0.5)) is float
    r = add(Fraction(1, 2), Fraction(1, 2))
    assert r == 1 and type(r) is int
    r = mul(Fraction(1, 2), 4)
    assert r == 2 and type(r) is int
    r = sub(Fraction(3, 2), Fraction(1, 2))
    assert r == 1 and type(r) is int
    assert div(1, 3) == Fraction(1, 3)
    assert div(4, 2) == 2 and type(div(4, 2)) is int
    assert div(1.0, 3) == 0.3333333333333333
    assert div(Fraction(1, 2), Fraction(1, 4)) == 2 and type(div(Fraction(1, 2), Fraction(1, 4))) is int


@pytest.mark.parametrize("zero", [0, 0.0, -0.0])
def test_division_by_any_zero_is_e313(zero):
    for dividend in (1, 1.0, Fraction(1, 2), 0):
        with pytest.raises(LispexError) as e:
            div(dividend, zero)
        assert e.value.code == "E313"


def test_overflow_is_e314():
    for op, a, b in [(mul, 1e200, 1e200), (add, 1e308, 1e308), (add, 10**400, 1.0),
                     (mul, Fraction(10**400, 3), 2.0), (div, 10**400, 1.0), (div, 1e300, 1e-300),
                     (sub, -1e308, 1e308)]:
        with pytest.raises(LispexError) as e:
            op(a, b)
        assert e.value.code == "E314"


def test_radix_helpers():
    assert format_integer_radix(255, 16) == "ff"
    assert format_integer_radix(-255, 16) == "-ff"
    assert format_integer_radix(8, 8) == "10"
    assert format_integer_radix(5, 2) == "101"
    assert format_integer_radix(0, 2) == "0"
    assert format_integer_radix(-12, 10) == "-12"
    assert parse_integer_radix("ff", 16) == 255
    assert parse_integer_radix("FF", 16) == 255
    assert parse_integer_radix("-101", 2) == -5
    assert parse_integer_radix("17", 8) == 15
    for bad, radix in [("", 16), ("-", 16), ("+1", 16), ("12", 2), ("8", 8), ("g", 16),
                       ("1.0", 16), (" 1", 16), ("1_0", 16), ("١", 16), ("0x10", 16)]:
        assert parse_integer_radix(bad, radix) is None, bad


@given(st.integers(), st.sampled_from([2, 8, 10, 16]))
def test_radix_round_trip(n, radix):
    assert parse_integer_radix(format_integer_radix(n, radix), radix) == n


def test_format_big_integers_matches_python_without_limit():
    import sys

    samples = [7**20000, -(3**30001), 10**4000, 10**4000 - 1, 2**50000 + 12345, -(10**9000)]
    old = sys.get_int_max_str_digits()
    sys.set_int_max_str_digits(0)
    try:
        expected = [str(n) for n in samples]
    finally:
        sys.set_int_max_str_digits(old)
    assert [format_number(n) for n in samples] == expected
    q = Fraction(7**20000, 2**3)
    assert format_number(q) == f"{expected[0]}/8"
