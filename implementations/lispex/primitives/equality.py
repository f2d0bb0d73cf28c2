"""Equality primitives: ``eq? eqv? equal? != boolean=? symbol=?`` (``==`` is ``equal?``)."""

from __future__ import annotations

from typing import Any

from ..equality import eq, equal, eqv
from ..values import Symbol
from .errors_util import wrong_type
from .table import define


@define("eq?")
def eq_p(a: Any, b: Any) -> bool:
    return eq(a, b)


@define("eqv?")
def eqv_p(a: Any, b: Any) -> bool:
    return eqv(a, b)


@define("equal?")
def equal_p(a: Any, b: Any) -> bool:
    return equal(a, b)


@define("!=")
def not_equal(a: Any, b: Any) -> bool:
    return not equal(a, b)


@define("boolean=?")
def boolean_eq(*args: Any) -> bool:
    for x in args:
        if type(x) is not bool:
            wrong_type("boolean=?", "a boolean", x)
    first = args[0]
    return all(x is first for x in args)


@define("symbol=?")
def symbol_eq(*args: Any) -> bool:
    for x in args:
        if type(x) is not Symbol:
            wrong_type("symbol=?", "a symbol", x)
    first = args[0]
    return all(x is first for x in args)
