"""Integer division and friends: ``quotient remainder modulo %``, ``floor/`` and ``truncate/``
(with their ``-quotient``/``-remainder`` halves), ``gcd`` and ``lcm``.

Arguments must be integers: exact integers or floats with an integral value (3.0). The result is
computed exactly on the integer values; if any argument was inexact it is returned as a float
(so a zero result is ``0.0``, never ``-0.0``). A zero divisor is E313.

``%`` is the deprecated spelling of ``modulo``; it is its own row so that the table layer can emit
W330 each time it runs.
"""

from __future__ import annotations

import math
from typing import Any

from ..numbers import to_float
from ..values import Values
from .errors_util import division_by_zero, wrong_type
from .table import define


def _integer(name: str, x: Any) -> int:
    t = type(x)
    if t is int:
        return x
    if t is float and x.is_integer():
        return int(x)
    wrong_type(name, "an integer", x)


def _result(name: str, value: int, inexact: bool) -> Any:
    return to_float(value, name) if inexact else value


def _operands(name: str, a: Any, b: Any) -> tuple[int, int, bool]:
    n = _integer(name, a)
    d = _integer(name, b)
    if d == 0:
        division_by_zero(name, a, b)
    return n, d, type(a) is float or type(b) is float


def _trunc_divmod(n: int, d: int) -> tuple[int, int]:
    q, r = divmod(n, d)  # floor division
    if r and (n < 0) != (d < 0):
        q += 1
        r -= d
    return q, r


# ---------------------------------------------------------------------------------------------
# Truncating: quotient / remainder (sign of the dividend)


@define("quotient")
def quotient(a: Any, b: Any) -> Any:
    if type(a) is int and type(b) is int and b:
        return _trunc_divmod(a, b)[0]
    n, d, inexact = _operands("quotient", a, b)
    return _result("quotient", _trunc_divmod(n, d)[0], inexact)


@define("remainder")
def remainder(a: Any, b: Any) -> Any:
    n, d, inexact = _operands("remainder", a, b)
    return _result("remainder", _trunc_divmod(n, d)[1], inexact)


@define("truncate-quotient")
def truncate_quotient(a: Any, b: Any) -> Any:
    n, d, inexact = _operands("truncate-quotient", a, b)
    return _result("truncate-quotient", _trunc_divmod(n, d)[0], inexact)


@define("truncate-remainder")
def truncate_remainder(a: Any, b: Any) -> Any:
    n, d, inexact = _operands("truncate-remainder", a, b)
    return _result("truncate-remainder", _trunc_divmod(n, d)[1], inexact)


@define("truncate/")
def truncate_div(a: Any, b: Any) -> Values:
    n, d, inexact = _operands("truncate/", a, b)
    q, r = _trunc_divmod(n, d)
    return Values((_result("truncate/", q, inexact), _result("truncate/", r, inexact)))


# ---------------------------------------------------------------------------------------------
# Flooring: modulo / floor-remainder (sign of the divisor)


def _modulo(name: str, a: Any, b: Any) -> Any:
    if type(a) is int and type(b) is int and b:
        return a % b
    n, d, inexact = _operands(name, a, b)
    return _result(name, n % d, inexact)


@define("modulo")
def modulo(a: Any, b: Any) -> Any:
    return _modulo("modulo", a, b)


@define("%")
def percent(a: Any, b: Any) -> Any:
    return _modulo("%", a, b)


@define("floor-remainder")
def floor_remainder(a: Any, b: Any) -> Any:
    return _modulo("floor-remainder", a, b)


@define("floor-quotient")
def floor_quotient(a: Any, b: Any) -> Any:
    n, d, inexact = _operands("floor-quotient", a, b)
    return _result("floor-quotient", n // d, inexact)


@define("floor/")
def floor_div(a: Any, b: Any) -> Values:
    n, d, inexact = _operands("floor/", a, b)
    q, r = divmod(n, d)
    return Values((_result("floor/", q, inexact), _result("floor/", r, inexact)))


# ---------------------------------------------------------------------------------------------
# gcd / lcm: any number of integers, non-negative result


@define("gcd")
def gcd(*args: Any) -> Any:
    values = [_integer("gcd", x) for x in args]
    inexact = any(type(x) is float for x in args)
    return _result("gcd", math.gcd(*values), inexact)


@define("lcm")
def lcm(*args: Any) -> Any:
    values = [_integer("lcm", x) for x in args]
    inexact = any(type(x) is float for x in args)
    return _result("lcm", math.lcm(*values), inexact)
