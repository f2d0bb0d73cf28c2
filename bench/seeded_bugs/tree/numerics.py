"""Seeded bugs in tree, family "numerics"."""

from __future__ import annotations

import re
from fractions import Fraction
from typing import Any

from bench.seeded_bugs.seeding import bug, edit_function, patch_primitive


@bug("remainder-sign", "tree", "kernel primitives", "numerics",
     "remainder takes the divisor's sign (Python %), not the dividend's",
     "(list (remainder -7 2) (remainder 7 -2))")
def _remainder_sign() -> None:
    def make(real):
        def remainder(a, b):
            if type(a) is int and type(b) is int and b != 0:
                return a % b
            return real(a, b)
        return remainder
    patch_primitive("tree", "remainder", make)


@bug("negative-zero", "tree", "kernel numbers", "numerics",
     "-0.0 is printed as 0.0 (the sign of zero is dropped)", "(- 0.0)")
def _negative_zero() -> None:
    from implementations.lispex import numbers, printer

    real = numbers.format_float

    def format_float(x: float) -> str:
        return real(0.0) if x == 0 else real(x)
    numbers.format_float = format_float
    printer.format_float = format_float


@bug("nary-less-first-pair", "tree", "kernel primitives", "numerics",
     "< with three or more arguments compares only the first two",
     "(list (< 1 2 0) (< 1 2 3))")
def _nary_less_first_pair() -> None:
    patch_primitive("tree", "<", lambda real: lambda *args: real(*args[:2]))


@bug("gcd-sign", "tree", "kernel numbers", "numerics",
     "gcd keeps the sign of its first argument (Euclid on signed integers)",
     "(list (gcd -4 6) (gcd 4 -6))")
def _gcd_sign() -> None:
    def make(real):
        def gcd(*args):
            out = real(*args)
            if args and type(args[0]) is int and args[0] < 0 and type(out) is int:
                return -out
            return out
        return gcd
    patch_primitive("tree", "gcd", make)


@bug("exact-integer-float", "tree", "kernel primitives", "numerics",
     "exact-integer? is true of an inexact integral number", "(list (exact-integer? 2.0) (exact-integer? 2))")
def _exact_integer_float() -> None:
    patch_primitive("tree", "exact-integer?",
                    lambda real: lambda x: True if type(x) is float and x.is_integer() else real(x))


@bug("ratio-float-by-parts", "tree", "kernel numbers", "numerics",
     "exact->inexact of a rational (also through min and max contagion) converts numerator and "
     "denominator to floats separately, so a rational with a part past the float range is E314 "
     "even when its value is an ordinary float",
     "(list (exact->inexact 1/3)\n"
     "      (exact->inexact (/ (expt 10 400) (+ (expt 10 399) 7)))\n"
     "      (inexact (/ 1 (expt 10 400))))")
def _ratio_float_by_parts() -> None:
    from fractions import Fraction

    from implementations.lispex import numbers
    from implementations.lispex.primitives import numeric, numeric_division

    def to_float(x: Any, name: str) -> float:
        if type(x) is float:
            return x
        try:
            # Realistic: n/d done "by hand" in floats; float(Fraction) divides exactly, rounds once.
            f = float(x.numerator) / float(x.denominator) if type(x) is Fraction else float(x)
        except OverflowError:
            raise numbers.nonfinite_error(name, x) from None
        return numbers.check_finite(f, name, x)
    numbers.to_float = numeric.to_float = numeric_division.to_float = to_float


@bug("division-exactness-from-dividend", "tree", "kernel primitives", "numerics",
     "the integer-division family (quotient, remainder, modulo, floor/, truncate/ and their "
     "halves) takes the exactness of its result from the dividend only, so an inexact divisor "
     "gives an exact result: (modulo 7 2.0) is 1, not 1.0",
     "(list (modulo 7 2.0) (quotient 9 2.0) (remainder 7 -2.0) (modulo 7.0 2))")
def _division_exactness_from_dividend() -> None:
    from implementations.lispex.primitives import numeric_division

    # Realistic: the divisor thought of as "just a count", so only the dividend's type is
    # looked at when deciding whether the result is inexact.
    edit_function(numeric_division, "_operands", "type(a) is float or type(b) is float",
                  "type(a) is float")


@bug("eqv-across-exactness", "tree", "kernel primitives", "numerics",
     "eqv? (and eq?, memv, assv, memq, assq and case) lets any two numbers through its type "
     "gate and compares them by value, so (eqv? 2 2.0) and (eqv? 1/2 0.5) are #t and a case "
     "clause (3) matches the key 3.0",
     "(define (kind x) (case x ((3) 'exact-three) (else 'other)))\n"
     "(list (eqv? 2 2.0) (eqv? 1/2 0.5) (memv 1.0 '(0 1 2)) (kind 3.0) (kind 3)\n"
     "      (assv 2.0 '((2 . two))) (equal? 2 2.0))")
def _eqv_across_exactness() -> None:
    from implementations.lispex import equality
    from implementations.lispex.primitives import equality as prim_equality
    from implementations.lispex.primitives import pairs

    # Realistic: "eqv? on numbers is numeric equality" remembered without its exactness rule;
    # the gate that refuses two different types was widened to let int, Fraction and float
    # meet, as `=` lets them. equal? keeps its own type gate, so (equal? 2 2.0) stays #f.
    edit_function(equality, "eqv",
                  "    if t is not type(b):\n        return False\n",
                  "    if t is not type(b) and not (t in (int, Fraction, float)\n"
                  "                                 and type(b) in (int, Fraction, float)):\n"
                  "        return False\n")
    equality.eq = equality.eqv
    prim_equality.eqv = prim_equality.eq = equality.eqv
    pairs.eqv = equality.eqv


@bug("truncate-ratio-floors", "tree", "kernel primitives", "numerics",
     "truncate of an exact non-integer rational divides numerator by denominator with Python's "
     "//, which floors, so a negative ratio is rounded away from zero: (truncate -7/2) is -4, "
     "not -3 (floats and positive ratios are right)",
     "(list (truncate -7/2) (truncate 7/2) (truncate -1/3) (truncate -3.5)\n"
     "      (floor -7/2) (ceiling -7/2) (round -7/2))")
def _truncate_ratio_floors() -> None:
    # Realistic: "numerator // denominator" is the integer part in C, Java and most textbooks;
    # Python's // floors. Positive ratios and every float take paths that are right.
    def make(real: Any) -> Any:
        def truncate(x: Any) -> Any:
            if type(x) is Fraction:
                return x.numerator // x.denominator
            return real(x)
        return truncate
    patch_primitive("tree", "truncate", make)


@bug("abs-negative-zero", "tree", "kernel primitives", "numerics",
     "abs is written as (if (>= x 0) x (- x)), and -0.0 >= 0 holds, so (abs -0.0) is -0.0 "
     "instead of 0.0; every other number is right",
     "(define (magnitude-of x) (abs x))\n"
     "(list (magnitude-of -0.0) (abs -2.5) (abs -7) (abs -1/3) (abs (* -1.0 0)))")
def _abs_negative_zero() -> None:
    from fractions import Fraction

    from implementations.lispex.primitives.errors_util import wrong_type

    # Realistic: the schoolbook definition of absolute value; it is right for every exact
    # number and every non-zero float, and only the sign of an inexact zero tells.
    def make(real: Any) -> Any:
        def abs_(x: Any) -> Any:
            t = type(x)
            if t is not int and t is not float and t is not Fraction:
                wrong_type("abs", "a number", x)
            return x if x >= 0 else -x
        return abs_
    patch_primitive("tree", "abs", make)


@bug("int-product-unbounded", "tree", "tree back end", "numerics",
     "the machine's two-exact-integer fast path also answers *, with Python's own product, so "
     "the kernel's bound on the size of an exact product is skipped: squaring a 600,000-bit "
     "integer gives the 1,200,000-bit result instead of E311 (three or more factors, and any "
     "inexact or rational factor, still go to the kernel)",
     "(define big (expt 2 600000))\n"
     "(define (square-of x) (* x x))\n"
     "(list (square-of 12) (> (square-of big) big))")
def _int_product_unbounded() -> None:
    import operator

    from implementations.lispex.primitives import numeric
    from implementations.tree import intops

    # Realistic: Python integers cannot overflow, so a product of two ints looked as safe to
    # answer in place as a sum; the size bound lives inside the kernel's `*`, which the fast
    # path exists to skip (topaz-tree's and topaz-vm's tables say "Not `*`" for this reason).
    intops._INT2["*"] = (numeric.times, operator.mul)


@bug("radix-digits-lowercase", "tree", "kernel numbers", "numerics",
     "string->number with a radix of 16 looks each digit up in the lower-case digit alphabet "
     "without folding its case, so a hexadecimal string with an upper-case digit (\"FF\", "
     "\"-1A\") is not a number (#f); lower-case hex and radixes 2, 8 and 10 are right",
     "(list (string->number \"ff\" 16) (string->number \"FF\" 16) (string->number \"-1A\" 16)\n"
     "      (string->number \"777\" 8) (string->number \"101\" 2) (number->string 255 16))")
def _radix_digits_lowercase() -> None:
    from implementations.lispex import numbers
    from implementations.lispex.primitives import numeric

    # Realistic: the digit table is the one number->string formats with, which is lower case;
    # the lookup forgot that reading, unlike writing, must accept either case. Digits 0-9
    # have no case, so every radix but 16 is unaffected.
    edit_function(numbers, "parse_integer_radix",
                  "_DIGITS.find(ch.lower())",
                  "_DIGITS.find(ch)")
    numeric.parse_integer_radix = numbers.parse_integer_radix


@bug("floor-div-remainder-exact", "tree", "kernel primitives", "numerics",
     "floor/ returns its second value (the remainder) as the exact integer it computed even "
     "when an argument is inexact, so (floor/ 7.0 2) is 3.0 and 1 instead of 3.0 and 1.0 (the "
     "quotient, floor-remainder, modulo and truncate/ are right)",
     "(define (split n d) (call-with-values (lambda () (floor/ n d)) list))\n"
     "(list (split 7 2) (split -7 2) (split 7.0 2) (split -7 2.0) (floor-remainder 7.0 2))")
def _floor_div_remainder_exact() -> None:
    from implementations.lispex.values import Values

    # Realistic: the pair was written as (quotient, remainder) with the conversion to the
    # arguments' exactness applied to the first and the second taken "as computed": the
    # remainder of integral arguments is an integer, and it was forgotten that its exactness
    # follows the arguments all the same. (A wrapper: the real floor/ is registered by a
    # decorator, so its source cannot be recompiled in place.)
    def make(real):
        def floor_div(a, b):
            q, r = real(a, b).items
            return Values((q, int(r) if type(r) is float else r))
        return floor_div
    patch_primitive("tree", "floor/", make)


@bug("quotient-fast-path-floors", "tree", "kernel primitives", "numerics",
     "the two-exact-integer fast path of quotient divides with Python's //, which floors, so a "
     "quotient of operands of different signs is one too low: (quotient -7 2) is -4 instead of "
     "-3 (exact quotients, inexact operands, remainder, modulo and truncate-quotient are right)",
     "(define (halve n) (list (quotient n 2) (remainder n 2)))\n"
     "(list (halve 7) (halve -7) (quotient 7 -2) (quotient -8 2) (quotient -7.0 2)\n"
     "      (truncate-quotient -7 2))")
def _quotient_fast_path_floors() -> None:
    # Realistic: the fast path for two fixnums was written with the "obvious" integer division
    # operator; the general path below it goes through _trunc_divmod, which corrects the
    # floored quotient toward zero. (A wrapper: the kernel function is registered by a
    # decorator, so its source cannot be recompiled in place.)
    def make(real: Any) -> Any:
        def quotient(a: Any, b: Any) -> Any:
            if type(a) is int and type(b) is int and b:
                return a // b
            return real(a, b)
        return quotient
    patch_primitive("tree", "quotient", make)


@bug("real-leading-point", "tree", "kernel numbers", "numerics",
     "the real-number rule of the shared number grammar is the cookbook -?[0-9]*\\.?[0-9]+ "
     "(exponent optional), which also takes a real with no digit before its point, so "
     "(string->number \".5\") is 0.5 and \"-.25\" is -0.25 instead of #f (the reader never sees "
     "such a token as a number: it starts with a point or a sign and a point)",
     "(define (parse s) (string->number s))\n"
     "(list (parse \"1.5\") (parse \".5\") (parse \"-.25\") (parse \"0.5\") (parse \"5.\")\n"
     "      (parse \"1e3\") (parse \"abc\"))")
def _real_leading_point() -> None:
    from implementations.lispex import numparse

    # Realistic: R7RS (and most float regexes) allow ".5"; the Lispex grammar demands digits on
    # both sides of the point, and the pattern was taken from a general-purpose one.
    numparse._REAL = re.compile(r"-?[0-9]*\.?[0-9]+(?:[eE][-+]?[0-9]+)?")
