"""Numeric primitives: arithmetic, comparison, rounding, exactness, ``expt``, number <-> string.

The integer-division family and ``gcd``/``lcm`` live in :mod:`.numeric_division` (imported at the
end of this module so that loading this family registers them too). Aliases (``inexact``,
``inexact->exact``) are table rows and need no code here.

Every argument is type-checked before any arithmetic happens, so a wrong type is always E312 even
when an earlier operation would have overflowed. Variadic arithmetic folds left from the first
argument; every inexact intermediate result must be finite (E314).
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

from ..errors import LispexError
from ..numbers import (
    add,
    check_finite,
    div,
    format_integer_radix,
    format_number,
    mul,
    nonfinite_error,
    normalize,
    parse_integer_radix,
    sub,
    to_exact,
    to_float,
)
from ..values import Str, Values, is_number
from .errors_util import MAX_EXACT_BITS, division_by_zero, wrong_type
from .table import define

_RADICES = (2, 8, 10, 16)


def _check_numbers(name: str, args: tuple) -> None:
    for x in args:
        t = type(x)
        if t is not int and t is not float and t is not Fraction:
            wrong_type(name, "a number", x)


def _number(name: str, x: Any) -> Any:
    if not is_number(x):
        wrong_type(name, "a number", x)
    return x


# ---------------------------------------------------------------------------------------------
# Arithmetic


@define("+")
def plus(*args: Any) -> Any:
    if len(args) == 2:
        a, b = args
        if type(a) is int and type(b) is int:
            return a + b
    elif not args:
        return 0
    _check_numbers("+", args)
    acc = args[0]
    for x in args[1:]:
        acc = add(acc, x, "+")
    return acc


_WORD = 1 << 62  # operands below this need no size check


@define("*")
def times(*args: Any) -> Any:
    if len(args) == 2:
        a, b = args
        if type(a) is int and type(b) is int and -_WORD < a < _WORD and -_WORD < b < _WORD:
            return a * b
    elif not args:
        return 1
    _check_numbers("*", args)
    acc = args[0]
    for x in args[1:]:
        acc = mul(acc, x, "*")
    return acc


@define("-")
def minus(*args: Any) -> Any:
    if len(args) == 2:
        a, b = args
        if type(a) is int and type(b) is int:
            return a - b
    _check_numbers("-", args)
    if len(args) == 1:
        return -args[0]
    acc = args[0]
    for x in args[1:]:
        acc = sub(acc, x, "-")
    return acc


@define("/")
def divide(*args: Any) -> Any:
    _check_numbers("/", args)
    if len(args) == 1:
        return div(1, args[0], "/")
    acc = args[0]
    for x in args[1:]:
        acc = div(acc, x, "/")
    return acc


# ---------------------------------------------------------------------------------------------
# Comparison: chained pairwise; Python compares int/Fraction/float exactly.


@define("=")
def num_eq(*args: Any) -> bool:
    if len(args) == 2:
        a, b = args
        if type(a) is int and type(b) is int:
            return a == b
    _check_numbers("=", args)
    return all(args[i] == args[i + 1] for i in range(len(args) - 1))


@define("<")
def num_lt(*args: Any) -> bool:
    if len(args) == 2:
        a, b = args
        if type(a) is int and type(b) is int:
            return a < b
    _check_numbers("<", args)
    return all(args[i] < args[i + 1] for i in range(len(args) - 1))


@define("<=")
def num_le(*args: Any) -> bool:
    if len(args) == 2:
        a, b = args
        if type(a) is int and type(b) is int:
            return a <= b
    _check_numbers("<=", args)
    return all(args[i] <= args[i + 1] for i in range(len(args) - 1))


@define(">")
def num_gt(*args: Any) -> bool:
    if len(args) == 2:
        a, b = args
        if type(a) is int and type(b) is int:
            return a > b
    _check_numbers(">", args)
    return all(args[i] > args[i + 1] for i in range(len(args) - 1))


@define(">=")
def num_ge(*args: Any) -> bool:
    if len(args) == 2:
        a, b = args
        if type(a) is int and type(b) is int:
            return a >= b
    _check_numbers(">=", args)
    return all(args[i] >= args[i + 1] for i in range(len(args) - 1))


# ---------------------------------------------------------------------------------------------
# abs, min, max, square


@define("abs")
def abs_(x: Any) -> Any:
    return abs(_number("abs", x))


def _extremum(name: str, args: tuple, better) -> Any:
    _check_numbers(name, args)
    best = args[0]
    inexact = type(best) is float
    for x in args[1:]:
        if type(x) is float:
            inexact = True
        if better(x, best):
            best = x
    if inexact:
        return to_float(best, name)
    return best


@define("max")
def max_(*args: Any) -> Any:
    return _extremum("max", args, lambda x, best: x > best)


@define("min")
def min_(*args: Any) -> Any:
    return _extremum("min", args, lambda x, best: x < best)


@define("square")
def square(x: Any) -> Any:
    return mul(_number("square", x), x, "square")


# ---------------------------------------------------------------------------------------------
# Rounding: exact arguments give exact integers, floats give floats (keeping the sign of a zero).


def _rounding(name: str, x: Any, op) -> Any:
    t = type(x)
    if t is int:
        return x
    if t is Fraction:
        return op(x)
    if t is float:
        r = float(op(x))
        return r if r != 0.0 else math.copysign(0.0, x)
    wrong_type(name, "a number", x)


@define("floor")
def floor_(x: Any) -> Any:
    return _rounding("floor", x, math.floor)


@define("ceiling")
def ceiling(x: Any) -> Any:
    return _rounding("ceiling", x, math.ceil)


@define("truncate")
def truncate(x: Any) -> Any:
    return _rounding("truncate", x, math.trunc)


@define("round")
def round_(x: Any) -> Any:
    return _rounding("round", x, round)  # Python's round() is round-half-to-even


# ---------------------------------------------------------------------------------------------
# Exactness


@define("exact")
def exact(x: Any) -> Any:
    return to_exact(_number("exact", x))


@define("exact->inexact")
def inexact(x: Any) -> float:
    return to_float(_number("exact->inexact", x), "inexact")


# ---------------------------------------------------------------------------------------------
# expt and exact-integer-sqrt


def _check_exact_size(base: Any, power: int) -> None:
    """Refuse an exact power whose result would pass MAX_EXACT_BITS (numerator or denominator)."""
    if base in (0, 1, -1) or power == 0:
        return
    size = base if type(base) is int else max(abs(base.numerator), base.denominator)
    if abs(size).bit_length() * abs(power) > MAX_EXACT_BITS + abs(power):
        raise LispexError("E311", f"expt: the exact result would have more than {MAX_EXACT_BITS} "
                          "bits", (base, power))


@define("expt")
def expt(base: Any, power: Any) -> Any:
    _number("expt", base)
    if type(power) is not int:
        wrong_type("expt", "an exact integer exponent", power)
    tb = type(base)
    if tb is float:
        try:
            r = base**power
        except ZeroDivisionError:
            division_by_zero("expt", base, power)
        except OverflowError:
            raise nonfinite_error("expt", base, power) from None
        return check_finite(r, "expt", base, power)
    if base == 0 and power < 0:
        division_by_zero("expt", base, power)
    _check_exact_size(base, power)
    if power >= 0:
        # A rational to the power 0 is 1, which is an integer, not 1/1.
        return base**power if tb is int else normalize(base**power)
    if tb is int:
        return normalize(Fraction(1, base**-power))
    return normalize(base**power)


@define("exact-integer-sqrt")
def exact_integer_sqrt(n: Any) -> Values:
    if type(n) is not int or n < 0:
        wrong_type("exact-integer-sqrt", "a non-negative exact integer", n)
    s = math.isqrt(n)
    return Values((s, n - s * s))


# ---------------------------------------------------------------------------------------------
# number->string, string->number


def _radix(name: str, radix: Any) -> int:
    if type(radix) is not int or radix not in _RADICES:
        wrong_type(name, "a radix of 2, 8, 10 or 16", radix)
    return radix


@define("number->string")
def number_to_string(x: Any, radix: Any = None) -> Str:
    _number("number->string", x)
    if radix is None:
        return Str(format_number(x))
    radix = _radix("number->string", radix)
    if type(x) is not int:
        wrong_type("number->string", "an exact integer when a radix is given", x)
    return Str(format_integer_radix(x, radix))


@define("string->number")
def string_to_number(s: Any, radix: Any = None) -> Any:
    if type(s) is not Str:
        wrong_type("string->number", "a string", s)
    if radix is not None and _radix("string->number", radix) != 10:
        value = parse_integer_radix(s.s, radix)
        return False if value is None else value
    from ..numparse import parse_number  # loaded on first use

    value = parse_number(s.s)
    return False if value is None else value


from . import numeric_division  # noqa: E402,F401  (registers the integer-division family)
