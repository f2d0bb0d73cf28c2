"""Seeded bugs in vm, family "numerics"."""

from __future__ import annotations

import math
from typing import Any

from bench.seeded_bugs.seeding import bug, edit_function, patch_primitive


@bug("expt-negative", "vm", "kernel numbers", "numerics",
     "expt with a negative exact exponent floors to an integer", "(expt 2 -2)")
def _expt_negative() -> None:
    def make(real):
        def expt(a, b):
            if type(a) is int and type(b) is int and b < 0 and a != 0:
                return 1 // (a ** -b)
            return real(a, b)
        return expt
    patch_primitive("vm", "expt", make)


@bug("eqv-identity", "vm", "vm code generator", "numerics",
     "the inline eqv? compares by identity only, so equal big integers are not eqv?",
     "(define (sq n) (* n n))\n(eqv? (sq 100000) (sq 100000))")
def _eqv_identity() -> None:
    from implementations.vm import treegen

    treegen.FAST["eqv?"] = (2, "{r} = {a} is {b}", "")


@bug("unary-minus-identity", "vm", "kernel primitives", "numerics",
     "- with one argument returns it unchanged instead of negating it",
     "(list (- 5) (- -2.5) (- 1 3))")
def _unary_minus_identity() -> None:
    patch_primitive("vm", "-", lambda real: lambda *args: args[0] if len(args) == 1 else real(*args))


@bug("string-number-prefix", "vm", "kernel primitives", "numerics",
     "string->number reads the leading digits of a string and ignores the rest",
     '(list (string->number "12abc") (string->number "7 8"))')
def _string_number_prefix() -> None:
    import re as _re

    def make(real):
        def parse(s, *radix):
            text = getattr(s, "s", None)
            m = _re.match(r"-?[0-9]+", text) if type(text) is str and not radix else None
            if m and m.end() < len(text):
                return int(m.group())
            return real(s, *radix)
        return parse
    patch_primitive("vm", "string->number", make)


@bug("product-not-demoted", "vm", "kernel numbers", "numerics",
     "an exact product of rationals that is an integer is kept as a ratio (2/1), not demoted "
     "to an exact integer",
     "(list (* 1/2 4) (* 2/3 3/2) (exact-integer? (* 1/2 4)))")
def _product_not_demoted() -> None:
    from implementations.lispex import numbers
    from implementations.lispex.primitives import numeric

    def mul(a, b, name="*"):
        numbers.check_product(a, b, name)
        try:
            r = a * b
        except OverflowError:
            raise numbers.nonfinite_error(name, a, b) from None
        if type(r) is float:
            return numbers.check_finite(r, name, a, b)
        return r  # Realistic: the demotion add and sub do (_exact_result) forgotten here.
    numbers.mul = mul
    numeric.mul = mul


@bug("lcm-signed-product", "vm", "kernel primitives", "numerics",
     "lcm folds its arguments with a * b / gcd(a, b), which keeps the sign of the product, so "
     "the lcm of arguments with an odd number of negatives is negative instead of non-negative",
     "(list (lcm 4 6) (lcm -4 6) (lcm 3 -5 2) (lcm) (lcm 0 5) (lcm -3.0 2) (gcd -4 6))")
def _lcm_signed_product() -> None:
    from implementations.lispex.primitives.numeric_division import _integer, _result

    # Realistic: the textbook formula lcm(a, b) = a*b / gcd(a, b), which is only right for
    # non-negative arguments; math.gcd already returns a non-negative gcd, so gcd stays right.
    def make(real: Any) -> Any:
        def lcm(*args: Any) -> Any:
            values = [_integer("lcm", x) for x in args]
            inexact = any(type(x) is float for x in args)
            acc = 1
            for v in values:
                g = math.gcd(acc, v)
                acc = acc * v // g if g else 0
            return _result("lcm", acc, inexact)
        return lcm
    patch_primitive("vm", "lcm", make)


@bug("vm-float-inline-arith", "vm", "vm back end", "numerics",
     "the inline evaluators' arithmetic and comparison fast path admits floats as well as exact "
     "integers (type(x) in (int, float)), so + and - of floats are Python's own and a result "
     "that overflows is an infinity instead of E314 (comparisons and in-range sums are right)",
     "(define (total a b) (+ a b))\n"
     "(define big 1.5e308)\n"
     "(list (total 0.5 0.25) (total 1 2.5) (< (total big big) 0.0) (- 3.5 1))")
def _vm_float_inline_arith() -> None:
    from implementations.vm import treegen

    # Realistic: Python's float arithmetic is IEEE, and the kernel's + of two floats is the
    # same Python +, so floats were let into the fast path; what the kernel adds is the check
    # that the result is finite (Lispex has no infinities), which the inline text leaves out.
    edit_function(treegen.TreeGen, "call",
                  'f"type({x}) is int"',
                  'f"type({x}) in (int, float)"')


@bug("vm-inline-divide-float", "vm", "vm back end", "numerics",
     "the evaluator generator inlines / on two exact integers as Python's true division, so an "
     "exact quotient becomes a float: (/ 7 2) is 3.5 instead of 7/2 and (/ 6 3) is 2.0 instead "
     "of 2 (a zero divisor still goes to the kernel for its E313, and so does any rational or "
     "float operand, or / called through a procedure value)",
     "(define (mean a b) (/ (+ a b) 2))\n"
     "(define (ratio n d) (/ n d))\n"
     "(list (mean 3 4) (mean 2 4) (ratio 7 2) (ratio 1.0 4) (/ 6 3))")
def _vm_inline_divide_float() -> None:
    from implementations.vm import treegen

    # Realistic: / joined + - * in the table of two-integer fast paths, written in Python's
    # operator; the zero divisor was thought of (it falls back), exactness was not: Python's /
    # on ints is float division, where Lispex keeps an exact ratio.
    treegen.FAST["/"] = (2, "{r} = {a} / {b} if {guard} and {b} else {F}({a}, {b})", "")


@bug("vm-inline-zero-untyped", "vm", "vm back end", "numerics",
     "the evaluator generator inlines zero? as Python's x == 0 with no exact-integer test in "
     "front of it (== is right for every Lispex number, 0.0 and -0.0 included), so an argument "
     "that is not a number is no error: (zero? #f) is #t, since False == 0 in Python, and "
     "(zero? 'a) is #f, instead of E312 (zero? through a procedure value is right)",
     "(define (blank? x) (zero? x))\n"
     "(display (list (blank? 0) (blank? 0.0) (blank? 1/2) (blank? -0.0) (blank? 7)))\n"
     "(newline)\n"
     "(blank? #f)")
def _vm_inline_zero_untyped() -> None:
    from implementations.vm import treegen

    # Realistic: the type test was thought to guard only the arithmetic fast paths; Python's
    # == compares ints, floats and fractions with 0 exactly as zero? does, but it is no type
    # check, and bool is an int.
    treegen.FAST["zero?"] = (1, "{r} = {a} == 0", "")
