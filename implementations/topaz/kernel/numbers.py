"""The numeric tower: exact integers (``int``), exact rationals (``Fraction``, never whole),
finite inexact reals (``float``). Every result passes through :func:`exact_result` or
:func:`inexact_result`, which demote whole rationals and refuse non-finite reals (E314).
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any, NoReturn

from .errors import LispexError

MAX_PRODUCT_BITS = 1_000_000


def is_number(x: Any) -> bool:
    t = type(x)
    return t is int or t is float or t is Fraction


def is_exact(x: Any) -> bool:
    t = type(x)
    return t is int or t is Fraction


def is_integer(x: Any) -> bool:
    t = type(x)
    return t is int or (t is float and x.is_integer())


def wrong(name: str, what: str, x: Any) -> NoReturn:
    raise LispexError("E312", f"{name}: expected {what}", (x,))


def not_finite(name: str, args: tuple) -> NoReturn:
    raise LispexError("E314", f"{name}: result is not a finite number", args)


def number(name: str, x: Any) -> Any:
    t = type(x)
    if t is int or t is float or t is Fraction:
        return x
    wrong(name, "a number", x)


def exact_result(q: Any) -> Any:
    if type(q) is Fraction and q.denominator == 1:
        return q.numerator
    return q


def inexact_result(name: str, x: float, args: tuple) -> float:
    if x != x or x in (math.inf, -math.inf):
        not_finite(name, args)
    return x


def to_float(name: str, x: Any, args: tuple) -> float:
    """The nearest double to ``x`` (correctly rounded: int and Fraction true division)."""
    if type(x) is float:
        return x
    try:
        if type(x) is int:
            return float(x)
        return x.numerator / x.denominator
    except OverflowError:
        not_finite(name, args)


def add(name: str, a: Any, b: Any) -> Any:
    if type(a) is float or type(b) is float:
        return inexact_result(name, to_float(name, a, (a, b)) + to_float(name, b, (a, b)),
                              (a, b))
    return exact_result(a + b)


def sub(name: str, a: Any, b: Any) -> Any:
    if type(a) is float or type(b) is float:
        return inexact_result(name, to_float(name, a, (a, b)) - to_float(name, b, (a, b)),
                              (a, b))
    return exact_result(a - b)


def _bits(x: Any) -> int:
    if type(x) is int:
        return x.bit_length()
    return max(abs(x.numerator).bit_length(), x.denominator.bit_length())


def mul(name: str, a: Any, b: Any) -> Any:
    if type(a) is float or type(b) is float:
        return inexact_result(name, to_float(name, a, (a, b)) * to_float(name, b, (a, b)),
                              (a, b))
    if type(a) is int and type(b) is int and a and b:
        ba, bb = _bits(a), _bits(b)
        if ba + bb - 1 > MAX_PRODUCT_BITS:
            raise LispexError("E311", f"{name}: the exact result would have more than "
                              f"{MAX_PRODUCT_BITS} bits (operands of {ba} and {bb} bits)", ())
    return exact_result(a * b)


def div(name: str, a: Any, b: Any, args: tuple) -> Any:
    if b == 0:
        raise LispexError("E313", f"{name}: division by zero", args)
    if type(a) is float or type(b) is float:
        return inexact_result(name, to_float(name, a, args) / to_float(name, b, args), args)
    return exact_result(Fraction(a) / b if type(a) is int and type(b) is int
                        else Fraction(a) / Fraction(b))


def compare(a: Any, b: Any) -> int:
    """-1, 0 or 1, by exact value (Python compares int/Fraction/float exactly)."""
    if a < b:
        return -1
    return 1 if a > b else 0


def to_exact(name: str, x: Any) -> Any:
    if type(x) is float:
        return exact_result(Fraction(x))
    return x


def integer_arg(name: str, x: Any) -> Any:
    if type(x) is int:
        return x
    if type(x) is float and x.is_integer():
        return x
    wrong(name, "an integer", x)


def int_division(name: str, kind: str, a: Any, b: Any) -> tuple[Any, Any]:
    """(quotient, remainder) for kind ``truncate`` or ``floor``; inexact if either is."""
    integer_arg(name, a)
    integer_arg(name, b)
    if b == 0:
        raise LispexError("E313", f"{name}: division by zero", (a, b))
    inexact = type(a) is float or type(b) is float
    x, y = int(a), int(b)
    if kind == "floor":
        q, r = divmod(x, y)
    else:
        q = abs(x) // abs(y)
        if (x < 0) != (y < 0):
            q = -q
        r = x - q * y
    if inexact:
        # n1 - n2 * q in IEEE arithmetic: a zero remainder is +0.0 whatever the signs
        return inexact_result(name, float(q), (a, b)), float(r)
    return q, r


def round_to(name: str, kind: str, x: Any) -> Any:
    number(name, x)
    t = type(x)
    if t is int:
        return x
    if t is Fraction:
        if kind == "floor":
            return math.floor(x)
        if kind == "ceiling":
            return math.ceil(x)
        if kind == "truncate":
            return math.trunc(x)
        return round(x)  # half to even
    if kind == "floor":
        r = float(math.floor(x))
    elif kind == "ceiling":
        r = float(math.ceil(x))
    elif kind == "truncate":
        r = float(math.trunc(x))
    else:
        r = float(round(x))
    # IEEE rounding keeps the sign of a zero result: (ceiling -0.5) is -0.0
    return math.copysign(r, x) if r == 0.0 else r


def expt(name: str, base: Any, power: Any) -> Any:
    number(name, base)
    if type(power) is not int:
        if is_number(power):
            wrong(name, "an exact integer exponent", power)
        wrong(name, "a number", power)
    if type(base) is float:
        if base == 0.0 and power < 0:
            raise LispexError("E313", f"{name}: division by zero", (base, power))
        try:
            return inexact_result(name, math.pow(base, power), (base, power))
        except OverflowError:
            not_finite(name, (base, power))
    if base == 0 and power < 0:
        raise LispexError("E313", f"{name}: division by zero", (base, power))
    if (_bits(base) - 1) * abs(power) > MAX_PRODUCT_BITS:
        raise LispexError("E311", f"{name}: the exact result would have more than "
                          f"{MAX_PRODUCT_BITS} bits", (base, power))
    if power >= 0:
        return exact_result(Fraction(base) ** power) if type(base) is Fraction else base ** power
    return exact_result(Fraction(1) / (Fraction(base) ** -power))


def exact_integer_sqrt(name: str, n: Any) -> tuple[int, int]:
    if type(n) is not int or n < 0:
        wrong(name, "a non-negative exact integer", n)
    s = math.isqrt(n)
    return s, n - s * s
