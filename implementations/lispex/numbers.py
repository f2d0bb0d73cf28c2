"""The numeric tower: formatting, normalisation and the arithmetic the numeric primitives share.

Lispex numbers are exact integers (``int``), exact rationals (``Fraction``, never integral: those
are demoted to ``int``) and finite inexact reals (``float``). Contagion: an operation on exact
operands is exact; as soon as one operand is inexact the result is a ``float``. NaN and the
infinities never exist as values: an operation whose inexact result would be non-finite raises
E314 (this includes an exact number too large to become a float).

Python already compares ``int``/``Fraction``/``float`` exactly (``Fraction(1, 3) == 1/3.0`` is
False), which is the Lispex rule for ``=`` and ``<`` across exactness, so comparisons need no help.
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

from .errors import LispexError

_isfinite = math.isfinite


def nonfinite_error(name: str, *args: Any) -> LispexError:
    return LispexError("E314", f"{name}: result is not a finite number", args)


def check_finite(x: float, name: str, *args: Any) -> float:
    """``x`` if it is finite, else raise E314 (``args`` become the irritants)."""
    if _isfinite(x):
        return x
    raise nonfinite_error(name, *args)


def normalize(q: Fraction) -> int | Fraction:
    """Demote an integral rational to an exact integer."""
    if q.denominator == 1:
        return q.numerator
    return q


def to_float(x: Any, name: str) -> float:
    """The inexact value nearest to the number ``x``; E314 if it does not fit a finite float."""
    if type(x) is float:
        return x
    try:
        f = float(x)
    except OverflowError:
        raise nonfinite_error(name, x) from None
    return check_finite(f, name, x)


def to_exact(x: Any) -> int | Fraction:
    """The exact value of the number ``x`` (floats convert exactly: 0.1 is 3602879701896397/2^55)."""
    if type(x) is float:
        if x.is_integer():
            return int(x)
        return Fraction(x)
    return x


def is_integral(x: Any) -> bool:
    """True for exact integers and for floats with an integral value (3.0)."""
    t = type(x)
    if t is int:
        return True
    if t is float:
        return x.is_integer()
    if t is Fraction:
        return x.denominator == 1
    return False


# ---------------------------------------------------------------------------------------------
# Formatting


def format_float(x: float) -> str:
    """Positional notation of a finite float, never an exponent, always a fraction part.

    The digits are the shortest ones that read back to the same float (those of ``repr``); only
    the decimal point moves: 1e-07 -> 0.0000001, 1e+30 -> 1000000000000000000000000000000.0.
    """
    r = repr(x)
    if "e" not in r:
        if r[-1] in "fn":  # 'inf' / 'nan'
            raise ValueError(f"not a finite number: {r}")
        return r
    mantissa, _, exp_text = r.partition("e")
    sign = ""
    if mantissa[0] == "-":
        sign = "-"
        mantissa = mantissa[1:]
    int_part, _, frac_part = mantissa.partition(".")
    digits = int_part + frac_part
    point = len(int_part) + int(exp_text)
    if point <= 0:
        return f"{sign}0.{'0' * -point}{digits}"
    if point >= len(digits):
        return f"{sign}{digits}{'0' * (point - len(digits))}.0"
    return f"{sign}{digits[:point]}.{digits[point:]}"


# Python refuses str(int) beyond 4300 digits by default (a guard against quadratic conversion).
# Lispex integers are unbounded, so longer ones are converted in pieces rather than by changing
# the interpreter-wide limit.
_PIECE_DIGITS = 4000
_PIECE_LIMIT = 10**_PIECE_DIGITS
_LOG10_2 = math.log10(2)


def _digits(n: int) -> str:
    """Decimal digits of the non-negative integer ``n``, of any length."""
    if n < _PIECE_LIMIT:
        return str(n)
    half = int(n.bit_length() * _LOG10_2) // 2
    high, low = divmod(n, 10**half)
    return _digits(high) + _digits(low).zfill(half)


def format_int(n: int) -> str:
    """Decimal text of an exact integer, however many digits it has."""
    try:
        return str(n)
    except ValueError:
        return "-" + _digits(-n) if n < 0 else _digits(n)


def format_number(x: Any) -> str:
    """The printed form of a Lispex number: ``42``, ``-1/3``, ``0.1``, ``3.0``, ``-0.0``."""
    t = type(x)
    if t is int:
        return format_int(x)
    if t is float:
        return format_float(x)
    if t is Fraction:
        return f"{format_int(x.numerator)}/{format_int(x.denominator)}"
    raise TypeError(f"not a Lispex number: {x!r}")


_DIGITS = "0123456789abcdefghijklmnopqrstuvwxyz"


def format_integer_radix(n: int, radix: int) -> str:
    """An exact integer in radix 2, 8, 10 or 16, lower-case digits, ``-`` for negatives."""
    if radix == 10:
        return format_int(n)
    if radix == 16:
        return format(n, "x")
    if radix == 8:
        return format(n, "o")
    if radix == 2:
        return format(n, "b")
    raise ValueError(f"unsupported radix {radix}")


def parse_integer_radix(text: str, radix: int) -> int | None:
    """An optional ``-`` then one or more digits of ``radix`` (either letter case), else None."""
    body = text[1:] if text.startswith("-") else text
    if not body:
        return None
    for ch in body:
        d = _DIGITS.find(ch.lower()) if ch.isascii() else -1
        if d < 0 or d >= radix:
            return None
    value = int(body, radix)
    return -value if text.startswith("-") else value


# ---------------------------------------------------------------------------------------------
# Arithmetic with contagion. Operands are already known to be numbers.


def _exact_result(x: Any) -> Any:
    if type(x) is Fraction and x.denominator == 1:
        return x.numerator
    return x


def add(a: Any, b: Any, name: str = "+") -> Any:
    try:
        r = a + b
    except OverflowError:
        raise nonfinite_error(name, a, b) from None
    if type(r) is float:
        return check_finite(r, name, a, b)
    return _exact_result(r)


def sub(a: Any, b: Any, name: str = "-") -> Any:
    try:
        r = a - b
    except OverflowError:
        raise nonfinite_error(name, a, b) from None
    if type(r) is float:
        return check_finite(r, name, a, b)
    return _exact_result(r)


# The largest exact number an operation computes, in bits (of the numerator or denominator).
# No meter covers the size of one bignum operation, and repeated squaring doubles the size at
# each step, so without it a few dozen transitions could occupy the host for hours.
MAX_EXACT_BITS = 1_000_000


def _bits(x: Any) -> int:
    if type(x) is int:
        return x.bit_length()
    if type(x) is Fraction:
        return max(x.numerator.bit_length(), x.denominator.bit_length())
    return 0


def check_product(a: Any, b: Any, name: str) -> None:
    """E311 when the exact product of ``a`` and ``b`` would surely pass MAX_EXACT_BITS (the
    product of an m-bit and an n-bit number has at least m + n - 1 bits)."""
    if _bits(a) + _bits(b) - 1 > MAX_EXACT_BITS and type(a) is not float and \
            type(b) is not float:
        # the operands' sizes, not the operands: a million-bit irritant is unreadable
        raise LispexError("E311", f"{name}: the exact result would have more than "
                          f"{MAX_EXACT_BITS} bits (operands of {_bits(a)} and {_bits(b)} bits)",
                          ())


def mul(a: Any, b: Any, name: str = "*") -> Any:
    check_product(a, b, name)
    try:
        r = a * b
    except OverflowError:
        raise nonfinite_error(name, a, b) from None
    if type(r) is float:
        return check_finite(r, name, a, b)
    return _exact_result(r)


def div(a: Any, b: Any, name: str = "/") -> Any:
    """``a / b``; E313 for any zero divisor (0, 0.0, -0.0), exact operands give exact results."""
    if b == 0:
        raise LispexError("E313", f"{name}: division by zero", (a, b))
    ta, tb = type(a), type(b)
    if ta is not float and tb is not float:
        if ta is int and tb is int:
            return normalize(Fraction(a, b))
        return normalize(Fraction(a) / b)
    try:
        r = a / b
    except OverflowError:
        raise nonfinite_error(name, a, b) from None
    return check_finite(r, name, a, b)


def negate(a: Any) -> Any:
    return -a
