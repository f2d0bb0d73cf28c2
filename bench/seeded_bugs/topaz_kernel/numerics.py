"""Seeded bugs in the topaz kernel, family "numerics"."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from bench.seeded_bugs.seeding import bug, edit_function, patch_kernel_primitive, rebind_kernel


@bug("tk-round-float-half-up", "topaz-kernel", "kernel numbers", "numerics",
     "round of a float halfway between two integers rounds up (floor of x + 0.5), not to even",
     "(list (round 2.5) (round -1.5) (round 0.5) (round 7/2))")
def _round_float_half_up() -> None:
    from implementations.topaz.kernel import numbers

    old = numbers.round_to
    edit_function(numbers, "round_to", "r = float(round(x))", "r = float(math.floor(x + 0.5))")
    rebind_kernel("topaz-kernel", old, numbers.round_to)


@bug("tk-negative-integral-rational", "topaz-kernel", "kernel numbers", "numerics",
     "an exact rational result with denominator 1 is demoted to an integer only when positive: "
     "(/ -6 3) is -2/1", "(list (/ 6 3) (/ -6 3) (* -1/2 4))")
def _negative_integral_rational() -> None:
    from implementations.topaz.kernel import numbers

    old = numbers.exact_result

    def exact_result(q: Any) -> Any:
        if type(q) is Fraction and q.denominator == 1 and q > 0:
            return q.numerator
        return q
    numbers.exact_result = exact_result
    rebind_kernel("topaz-kernel", old, exact_result)


@bug("tk-radix-digits-upper", "topaz-kernel", "kernel primitives", "numerics",
     "number->string in radix 16 writes upper-case digits",
     "(list (number->string 255 16) (number->string -171 16) (number->string 10 2))")
def _radix_digits_upper() -> None:
    from implementations.topaz.kernel.values import Str

    def make(real):
        def number_to_string(*args):
            text = real(*args)
            return Str(text.s.upper()) if len(args) > 1 and args[1] == 16 else text
        return number_to_string
    patch_kernel_primitive("topaz-kernel", "number->string", make)
