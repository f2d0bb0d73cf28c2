"""Seeded bugs in topaz-tree, family "numerics"."""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

from bench.seeded_bugs.seeding import bug, patch_primitive


@bug("reader-fraction-float", "topaz-tree", "kernel reader", "numerics",
     "the reader turns an exact fraction literal into a float", "(list 1/3 (* 3 1/3))")
def _reader_fraction_float() -> None:
    from implementations.topaz.kernel import reader

    real = reader.parse_decimal

    def parse_decimal(word: str):
        value = real(word)
        return float(value) if type(value) is Fraction else value
    reader.parse_decimal = parse_decimal


@bug("round-half-up", "topaz-tree", "kernel primitives", "numerics",
     "round rounds halves away from zero instead of to even", "(list (round 2.5) (round 7/2))")
def _round_half_up() -> None:
    def make(real):
        def round_(x):
            if type(x) is float and math.isfinite(x) and x - math.floor(x) == 0.5:
                return math.floor(x) + 1.0 if x > 0 else math.ceil(x) - 1.0
            if type(x) is Fraction and x.denominator == 2:
                return math.floor(x) + 1 if x > 0 else math.ceil(x) - 1
            return real(x)
        return round_
    patch_primitive("topaz-tree", "round", make)


@bug("max-exact-contagion", "topaz-tree", "kernel primitives", "numerics",
     "max and min return the exact winner even when another argument is inexact",
     "(list (max 3 2.0) (min 1 2.5))")
def _max_exact_contagion() -> None:
    def make(real):
        def extremum(*args):
            out = real(*args)
            winner = [a for a in args if a == out and type(a) is not float]
            return winner[0] if type(out) is float and winner else out
        return extremum
    patch_primitive("topaz-tree", "max", make)
    patch_primitive("topaz-tree", "min", make)


@bug("exact-truncates", "topaz-tree", "kernel primitives", "numerics",
     "exact of a non-integral float truncates it to an integer instead of giving the ratio",
     "(list (exact 0.5) (exact -2.25) (exact 3.0))")
def _exact_truncates() -> None:
    def make(real):
        def exact(x):
            if type(x) is float and math.isfinite(x) and not x.is_integer():
                return real(float(math.trunc(x)))
            return real(x)
        return exact
    patch_primitive("topaz-tree", "exact", make)


@bug("tt-rounding-loses-negative-zero", "topaz-tree", "kernel primitives", "numerics",
     "floor, ceiling, round and truncate of a float that rounds to zero give 0.0 even when "
     "the argument is negative (R7RS and the other members give -0.0)",
     "(list (round -0.4) (ceiling -0.5) (truncate -0.7) (floor 0.3))")
def _tt_rounding_loses_negative_zero() -> None:
    # Realistic: `float(math.trunc(x))` and friends, without the copysign for a zero result.
    def make(real):
        def rounding(x):
            r = real(x)
            return 0.0 if type(r) is float and r == 0.0 else r
        return rounding
    for name in ("floor", "ceiling", "round", "truncate"):
        patch_primitive("topaz-tree", name, make)


@bug("mixed-compare-inexact", "topaz-tree", "kernel primitives", "numerics",
     "= < > <= >= with an inexact argument convert the exact ones to floats first (contagion as "
     "for arithmetic) instead of comparing exactly, so 1/3 = 0.3333333333333333 and 2^53 + 1 "
     "is not greater than 2^53 as a float",
     "(list (= 1/3 0.3333333333333333) (< 9007199254740992.0 9007199254740993)\n"
     "      (= 1/2 0.5) (< 1 2.5))")
def _mixed_compare_inexact() -> None:
    from implementations.lispex.numbers import to_float

    numeric = (int, float, Fraction)

    # Realistic: "any inexact operand makes the operation inexact" applied to comparisons too.
    def make(name: str):
        def wrap(real: Any) -> Any:
            def compare(*args: Any) -> Any:
                if any(type(a) is float for a in args) and \
                        all(type(a) in numeric for a in args):
                    return real(*[to_float(a, name) for a in args])
                return real(*args)
            return compare
        return wrap
    for name in ("=", "<", ">", "<=", ">="):
        patch_primitive("topaz-tree", name, make(name))


@bug("exact-nearest-fraction", "topaz-tree", "kernel numbers", "numerics",
     "exact (and inexact->exact) of a non-integral float gives the simplest nearby fraction "
     "(Fraction.limit_denominator) instead of the float's exact binary value: (exact 0.1) is "
     "1/10, not 3602879701896397/36028797018963968",
     "(list (exact 0.1) (exact 2.5) (inexact->exact 0.3333333333333333) (exact 4.0))")
def _exact_nearest_fraction() -> None:
    from fractions import Fraction

    # Realistic: "0.1 should become 1/10" is what most people expect of exact, and
    # limit_denominator() is the usual Python answer to Fraction(0.1) looking odd.
    def make(real: Any) -> Any:
        def exact(x: Any) -> Any:
            if type(x) is float and not x.is_integer():
                q = Fraction(x).limit_denominator()
                return q.numerator if q.denominator == 1 else q
            return real(x)
        return exact
    patch_primitive("topaz-tree", "exact", make)


@bug("tt-remainder-fmod", "topaz-tree", "kernel primitives", "numerics",
     "remainder and truncate-remainder of inexact operands return C's fmod, which keeps the "
     "dividend's sign on a zero result, so (remainder -6.0 3) is -0.0 instead of 0.0 (the "
     "integer-division family computes exactly and never gives -0.0)",
     "(define (rem a b) (remainder a b))\n"
     "(list (rem -6.0 3) (rem -7.0 2) (truncate-remainder -9 3.0) (rem 6.0 -3) (rem -6 3))")
def _tt_remainder_fmod() -> None:
    # Realistic: "remainder is fmod for floats" is what C, Java and JavaScript do; its
    # non-zero results are exactly right, only the sign of a zero remainder differs.
    def make(real: Any) -> Any:
        def remainder(a: Any, b: Any) -> Any:
            r = real(a, b)  # the argument checks, and the exact case
            if type(r) is float:
                return math.fmod(a, b)
            return r
        return remainder
    patch_primitive("topaz-tree", "remainder", make)
    patch_primitive("topaz-tree", "truncate-remainder", make)


@bug("tt-expt-negative-float", "topaz-tree", "kernel primitives", "numerics",
     "expt of an exact integer to a negative exact power returns Python's int ** int, which is "
     "a float, so (expt 2 -2) is 0.25 instead of the exact 1/4; a rational base, a float base "
     "and a non-negative power are right",
     "(define (inverse-power b n) (expt b (- n)))\n"
     "(list (inverse-power 2 2) (expt -3 -3) (expt 1/2 -2) (expt 2 10) (expt 2.0 -1)\n"
     "      (exact? (inverse-power 10 1)))")
def _tt_expt_negative_float() -> None:
    # Realistic: Fraction ** int stays exact and int ** non-negative int stays exact, so the
    # negative power of an integer base was assumed to stay exact as well; the argument
    # checks, the zero base and the size limit still go through the real primitive.
    def make(real: Any) -> Any:
        def expt(base: Any, power: Any) -> Any:
            r = real(base, power)
            if type(base) is int and type(power) is int and power < 0:
                return base ** power
            return r
        return expt
    patch_primitive("topaz-tree", "expt", make)
