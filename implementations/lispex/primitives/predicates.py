"""Type and numeric predicates (``empty?`` is the same primitive as ``null?``)."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from ..numbers import is_integral
from ..values import (
    NIL,
    Bytevector,
    Char,
    ErrorObject,
    Pair,
    Procedure,
    Str,
    Symbol,
    Vector,
    is_number,
)
from .errors_util import wrong_type
from .table import define


def _number(name: str, x: Any) -> Any:
    if not is_number(x):
        wrong_type(name, "a number", x)
    return x


@define("not")
def not_(x: Any) -> bool:
    return x is False


@define("boolean?")
def boolean_p(x: Any) -> bool:
    return type(x) is bool


@define("char?")
def char_p(x: Any) -> bool:
    return type(x) is Char


@define("number?")
def number_p(x: Any) -> bool:
    return is_number(x)


# No complex numbers in v1: every number is rational, real and complex.
@define("rational?")
def rational_p(x: Any) -> bool:
    return is_number(x)


@define("real?")
def real_p(x: Any) -> bool:
    return is_number(x)


@define("complex?")
def complex_p(x: Any) -> bool:
    return is_number(x)


@define("integer?")
def integer_p(x: Any) -> bool:
    return is_integral(x)


@define("exact-integer?")
def exact_integer_p(x: Any) -> bool:
    return type(x) is int


@define("exact?")
def exact_p(x: Any) -> bool:
    return type(_number("exact?", x)) is not float


@define("inexact?")
def inexact_p(x: Any) -> bool:
    return type(_number("inexact?", x)) is float


@define("string?")
def string_p(x: Any) -> bool:
    return type(x) is Str


@define("symbol?")
def symbol_p(x: Any) -> bool:
    return type(x) is Symbol


@define("vector?")
def vector_p(x: Any) -> bool:
    return type(x) is Vector


@define("bytevector?")
def bytevector_p(x: Any) -> bool:
    return type(x) is Bytevector


@define("procedure?")
def procedure_p(x: Any) -> bool:
    return isinstance(x, Procedure)


@define("pair?")
def pair_p(x: Any) -> bool:
    return type(x) is Pair


@define("null?")
def null_p(x: Any) -> bool:
    return x is NIL


@define("list?")
def list_p(x: Any) -> bool:
    slow = x
    while type(x) is Pair:
        x = x.cdr
        if type(x) is not Pair:
            break
        x = x.cdr
        slow = slow.cdr
        if x is slow:
            return False
    return x is NIL


@define("error-object?")
def error_object_p(x: Any) -> bool:
    return isinstance(x, ErrorObject)


@define("zero?")
def zero_p(x: Any) -> bool:
    return _number("zero?", x) == 0


@define("positive?")
def positive_p(x: Any) -> bool:
    return _number("positive?", x) > 0


@define("negative?")
def negative_p(x: Any) -> bool:
    return _number("negative?", x) < 0  # (negative? -0.0) is #f


def _integer(name: str, x: Any) -> int:
    t = type(x)
    if t is int:
        return x
    if t is float and x.is_integer():
        return int(x)
    if t is Fraction and x.denominator == 1:
        return x.numerator
    wrong_type(name, "an integer", x)


@define("even?")
def even_p(x: Any) -> bool:
    return _integer("even?", x) % 2 == 0


@define("odd?")
def odd_p(x: Any) -> bool:
    return _integer("odd?", x) % 2 == 1
