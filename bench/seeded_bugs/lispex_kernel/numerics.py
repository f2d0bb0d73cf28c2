"""Seeded bugs in the lispex kernel, family "numerics"."""

from __future__ import annotations

import math
from fractions import Fraction

from bench.seeded_bugs.seeding import bug, patch_kernel_primitive


@bug("lk-round-exact-half-away", "lispex-kernel", "kernel primitives", "numerics",
     "round of an exact rational halfway between two integers rounds away from zero, not to "
     "even", "(list (round 5/2) (round -5/2) (round 2.5))")
def _round_exact_half_away() -> None:
    def make(real):
        def round_(x):
            if type(x) is Fraction and x.denominator == 2:
                return math.floor(x) + 1 if x > 0 else math.ceil(x) - 1
            return real(x)
        return round_
    patch_kernel_primitive("lispex-kernel", "round", make)


@bug("lk-rational-float-stays-exact", "lispex-kernel", "kernel primitives", "numerics",
     "+ of an exact non-integer rational and an inexact number gives an exact result (the "
     "contagion checked only for integers)", "(list (+ 1/2 0.5) (+ 1 0.5))")
def _rational_float_stays_exact() -> None:
    def make(real):
        def add(*args):
            if any(type(a) is Fraction for a in args):
                exact = [Fraction(a) if type(a) is float else a for a in args]
                return real(*exact)
            return real(*args)
        return add
    patch_kernel_primitive("lispex-kernel", "+", make)


@bug("lk-large-float-exponent", "lispex-kernel", "kernel numbers", "numerics",
     "a float of 1e16 or more prints in exponent notation (Python's repr) instead of "
     "positional", "(list 1e21 (number->string 123e20) 1e15)")
def _large_float_exponent() -> None:
    from implementations.lispex import numbers, printer

    real = numbers.format_float

    def format_float(x: float) -> str:
        return repr(x) if abs(x) >= 1e16 else real(x)
    numbers.format_float = format_float
    printer.format_float = format_float
