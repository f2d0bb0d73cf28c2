"""Numeric primitives over the tower in :mod:`..numbers`."""

from __future__ import annotations

import math
from fractions import Fraction
from functools import reduce
from itertools import pairwise
from typing import Any

from ..errors import LispexError
from ..numbers import (
    MAX_PRODUCT_BITS,
    add,
    compare,
    div,
    exact_integer_sqrt,
    exact_result,
    expt,
    int_division,
    integer_arg,
    is_exact,
    is_integer,
    is_number,
    mul,
    number,
    round_to,
    sub,
    to_exact,
    to_float,
    wrong,
)
from ..numparse import NotFinite, parse_decimal, parse_radix_integer
from ..printer import number_text
from ..values import Str, Values


def p_add(*args: Any) -> Any:
    if not args:
        return 0
    acc = number("+", args[0])
    for x in args[1:]:
        acc = add("+", acc, number("+", x))
    return acc


def p_mul(*args: Any) -> Any:
    if len(args) == 2:
        a, b = args
        # the common case: two exact integers whose product is surely within the size bound
        if type(a) is int and type(b) is int and \
                a.bit_length() + b.bit_length() <= MAX_PRODUCT_BITS + 1:
            return a * b
    if not args:
        return 1
    acc = number("*", args[0])
    for x in args[1:]:
        acc = mul("*", acc, number("*", x))
    return acc


def p_sub(first: Any, *rest: Any) -> Any:
    number("-", first)
    if not rest:
        return -first  # negation: (- 0.0) is -0.0
    acc = first
    for x in rest:
        acc = sub("-", acc, number("-", x))
    return acc


def p_div(first: Any, *rest: Any) -> Any:
    args = (first, *rest)
    for x in args:
        number("/", x)
    if not rest:
        return div("/", 1, first, (1, first))
    acc = first
    for x in rest:
        acc = div("/", acc, x, (acc, x))  # a fault names the running quotient and divisor
    return acc


def _chain(name: str, ok: Any) -> Any:
    def compare_all(*args: Any) -> bool:
        for x in args:
            number(name, x)
        result = True
        for a, b in pairwise(args):
            if not ok(compare(a, b)):
                result = False
        return result
    compare_all.__name__ = name
    return compare_all


def p_abs(x: Any) -> Any:
    number("abs", x)
    return -x if x < 0 else (0.0 if type(x) is float and x == 0 else x)


def _extremum(name: str, pick_first: Any) -> Any:
    def fn(first: Any, *rest: Any) -> Any:
        best = number(name, first)
        inexact = type(best) is float
        for x in rest:
            number(name, x)
            inexact = inexact or type(x) is float
            if pick_first(compare(x, best)):
                best = x
        return to_float(name, best, (first, *rest)) if inexact else best
    return fn


def p_quotient(a: Any, b: Any) -> Any:
    if type(a) is int and type(b) is int and b:
        q = abs(a) // abs(b)
        return -q if (a < 0) != (b < 0) else q
    return int_division("quotient", "truncate", a, b)[0]


def p_remainder(a: Any, b: Any) -> Any:
    if type(a) is int and type(b) is int and b:
        r = abs(a) % abs(b)
        return -r if a < 0 else r
    return int_division("remainder", "truncate", a, b)[1]


def p_modulo(a: Any, b: Any) -> Any:
    if type(a) is int and type(b) is int and b:
        return a % b  # Python's % takes the sign of the divisor, as modulo does
    return int_division("modulo", "floor", a, b)[1]


def p_percent(ctx: Any, a: Any, b: Any) -> Any:
    ctx.warn("W330", "% is deprecated; use modulo")
    return int_division("%", "floor", a, b)[1]


def _division(name: str, kind: str, part: int | None) -> Any:
    def fn(a: Any, b: Any) -> Any:
        q, r = int_division(name, kind, a, b)
        if part is None:
            return Values((q, r))
        return (q, r)[part]
    return fn


def _gcd_arg(name: str, x: Any) -> Any:
    integer_arg(name, x)
    return x


def p_gcd(*args: Any) -> Any:
    inexact = [type(_gcd_arg("gcd", x)) is float for x in args]  # every argument checked
    inexact = any(inexact)
    r = reduce(math.gcd, (int(x) for x in args), 0)
    return float(r) if inexact else r


def p_lcm(*args: Any) -> Any:
    inexact = [type(_gcd_arg("lcm", x)) is float for x in args]  # every argument checked
    inexact = any(inexact)
    r = 1
    for x in args:
        v = abs(int(x))
        if v == 0:
            r = 0
            break
        r = r * v // math.gcd(r, v)
    return to_float("lcm", r, (r,)) if inexact else r


def p_square(x: Any) -> Any:
    return mul("square", number("square", x), x)


def p_exact(x: Any) -> Any:
    return to_exact("exact", number("exact", x))


def p_inexact(x: Any) -> Any:
    return to_float("inexact", number("exact->inexact", x), (x,))


def p_exact_integer_sqrt(n: Any) -> Any:
    s, r = exact_integer_sqrt("exact-integer-sqrt", n)
    return Values((s, r))


def p_number_to_string(x: Any, radix: Any = None) -> Any:
    if radix is None and type(x) is int:
        return Str(number_text(x))
    number("number->string", x)
    if radix is None:
        return Str(number_text(x))
    if type(radix) is not int or radix not in (2, 8, 10, 16):
        raise LispexError("E312", "number->string: expected a radix of 2, 8, 10 or 16", (radix,))
    if type(x) is not int:
        wrong("number->string", "an exact integer when a radix is given", x)
    if radix == 10:
        return Str(number_text(x))
    digits = format(abs(x), {2: "b", 8: "o", 16: "x"}[radix])
    return Str(("-" if x < 0 else "") + digits)


def p_string_to_number(s: Any, radix: Any = None) -> Any:
    if type(s) is not Str:
        wrong("string->number", "a string", s)
    if radix is not None and (type(radix) is not int or radix not in (2, 8, 10, 16)):
        raise LispexError("E312", "string->number: expected a radix of 2, 8, 10 or 16", (radix,))
    text = s.s
    if radix is not None and radix != 10:
        v = parse_radix_integer(text, radix)
        return False if v is None else v
    try:
        v = parse_decimal(text)
    except NotFinite:
        raise LispexError("E314", "real literal is too large to be a finite number", (s,)) \
            from None
    return False if v is None else v


def _predicate_number(name: str, test: Any) -> Any:
    def fn(x: Any) -> bool:
        number(name, x)
        return test(x)
    return fn


def _parity(name: str, want: int) -> Any:
    def fn(x: Any) -> bool:
        if not is_number(x) or not is_integer(x):
            wrong(name, "an integer", x)
        return int(x) % 2 == want
    return fn


IMPLS = {
    "+": p_add, "*": p_mul, "-": p_sub, "/": p_div,
    "=": _chain("=", lambda c: c == 0), "<": _chain("<", lambda c: c < 0),
    ">": _chain(">", lambda c: c > 0), "<=": _chain("<=", lambda c: c <= 0),
    ">=": _chain(">=", lambda c: c >= 0),
    "abs": p_abs, "max": _extremum("max", lambda c: c > 0), "min": _extremum("min", lambda c: c < 0),
    "quotient": p_quotient, "remainder": p_remainder, "modulo": p_modulo,
    "floor/": _division("floor/", "floor", None),
    "floor-quotient": _division("floor-quotient", "floor", 0),
    "floor-remainder": _division("floor-remainder", "floor", 1),
    "truncate/": _division("truncate/", "truncate", None),
    "truncate-quotient": _division("truncate-quotient", "truncate", 0),
    "truncate-remainder": _division("truncate-remainder", "truncate", 1),
    "floor": lambda x: round_to("floor", "floor", x),
    "ceiling": lambda x: round_to("ceiling", "ceiling", x),
    "round": lambda x: round_to("round", "round", x),
    "truncate": lambda x: round_to("truncate", "truncate", x),
    "gcd": p_gcd, "lcm": p_lcm,
    "expt": lambda a, b: expt("expt", a, b),
    "exact-integer-sqrt": p_exact_integer_sqrt,
    "square": p_square, "exact": p_exact, "exact->inexact": p_inexact,
    "number->string": p_number_to_string, "string->number": p_string_to_number,
    "number?": is_number, "complex?": is_number, "real?": is_number, "rational?": is_number,
    "integer?": lambda x: is_number(x) and is_integer(x),
    "exact-integer?": lambda x: type(x) is int,
    "exact?": _predicate_number("exact?", is_exact),
    "inexact?": _predicate_number("inexact?", lambda x: type(x) is float),
    "zero?": _predicate_number("zero?", lambda x: x == 0),
    "positive?": _predicate_number("positive?", lambda x: x > 0),
    "negative?": _predicate_number("negative?", lambda x: x < 0),
    "even?": _parity("even?", 0), "odd?": _parity("odd?", 1),
}
CONTEXT = {"%": p_percent}
_ = (Fraction, exact_result)
