"""Seeded bugs written blind, batch thirteen: by a session that did not read the fuzzer
(court/fuzz/) first, so that they measure what the generator reaches rather than what it was
written beside (see bugs.py). This batch is about numerics, printing, diagnostics and the meters
outside the machine: the sign of zero and of results (abs of -0.0, an inexact remainder through
fmod, lcm by the textbook product formula), the number grammar (an upper-case exponent marker),
float printing (fifteen significant digits instead of the shortest round trip, an integral
float of seventeen digits losing its .0), written strings (DEL left unescaped), warnings (W330
kept once per code, dropped when the run fails, skipped by an inline fast path), the span of a
fault in a quasiquote splice, and the frontend-transition and normalization-step meters (source
bytes counted instead of scalars, the generated list of a vector template not charged). Three
bugs per implementation."""

from __future__ import annotations

import math
from typing import Any

from bench.seeded_bugs.bugs import bug, edit_function, patch_primitive

# -- tree ---------------------------------------------------------------------------------------


@bug("blind13-float-fifteen-digits", "tree", "kernel numbers", "printing",
     "display, write and number->string format a float from its value rounded to 15 "
     "significant digits (DBL_DIG) instead of the shortest digits that read back to the same "
     "float, so 0.1 + 0.2 prints 0.3 and 1/3.0 loses its last digit",
     "(define x (+ 0.1 0.2))\n"
     "(display (list x (/ 1.0 3) 2.5 -0.0))\n"
     "(list (= x 0.3) (number->string x))")
def _float_fifteen_digits() -> None:
    from implementations.lispex import numbers, printer

    # Realistic: "%.15g" is the C idiom for "print a double without noise" (15 digits always
    # survive a round trip through decimal); the shortest round-trip digits need up to 17.
    # Every float with at most 15 significant digits (most literals) prints as before.
    edit_function(numbers, "format_float",
                  "    r = repr(x)\n",
                  "    r = repr(float(format(x, '.15g')))\n")
    printer.format_float = numbers.format_float


@bug("blind13-frontend-counts-bytes", "tree", "kernel reader", "meters/limits",
     "the frontend-transition meter is charged one unit per byte of the UTF-8 source instead "
     "of one per decoded scalar, so a source holding non-ASCII characters (in a string, a "
     "comment, a symbol) reports more frontend transitions, and reaches the limit earlier",
     "; café, naïve — résumé\n"
     "(define greeting \"héllo wörld\")\n"
     "(display greeting)\n"
     "(string-length greeting)")
def _frontend_counts_bytes() -> None:
    from implementations.lispex import reader

    # Realistic: the charge sits next to the bytes the function was given; len(data) and
    # len(text) agree on every ASCII source, which is what the tests were written in.
    edit_function(reader, "_decode",
                  "meter.charge(FRONTEND, len(text))",
                  "meter.charge(FRONTEND, len(data))")


@bug("blind13-abs-negative-zero", "tree", "kernel primitives", "numerics",
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


# -- vm -----------------------------------------------------------------------------------------


@bug("blind13-lcm-signed-product", "vm", "kernel primitives", "numerics",
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


@bug("blind13-upper-exponent-not-real", "vm", "kernel reader", "reader and layout",
     "the number grammar recognises a real by a point or a lower-case e only, so a real "
     "written with an upper-case exponent marker (1E3, 2.5E-1 reads fine because of its "
     "point) is not a number: string->number gives #f and the reader rejects the literal (E100)",
     "(list (string->number \"1E3\") (string->number \"2.5E-1\") (string->number \"1e3\")\n"
     "      (string->number \"7E0\"))")
def _upper_exponent_not_real() -> None:
    from implementations.lispex import numparse, reader

    # Realistic: the regular expression takes [eE], the hand-written "is it a real" test next
    # to it was written for the lower-case form everybody types.
    edit_function(numparse, "parse_number",
                  '("." in text or "e" in text or "E" in text)',
                  '("." in text or "e" in text)')
    reader.parse_number = numparse.parse_number


@bug("blind13-warnings-only-on-success", "vm", "kernel run", "diagnostics and spans",
     "the warnings of a run are reported only when it succeeds: a program that used % or "
     "list-first and then fails (a runtime error, a resource outcome) loses the W330/W331 "
     "warnings it had already produced, where the catalog keeps earlier warnings",
     "(define (half-mod x) (% x 2))\n"
     "(display (half-mod 7))\n"
     "(display (list-first '(a b)))\n"
     "(car (half-mod 8))")
def _warnings_only_on_success() -> None:
    from implementations.lispex import run

    # Realistic: "warnings never abort" was read as "warnings belong to a finished run", and
    # they were attached where the values are; every successful run is unchanged.
    edit_function(run, "evaluate",
                  "for code, span in ctx.warnings]",
                  "for code, span in ctx.warnings] if obs.status == \"ok\" else []")


# -- topaz-tree ---------------------------------------------------------------------------------


@bug("blind13-tt-integral-float-loses-zero", "topaz-tree", "topaz-tree printer", "printing",
     "an integral float whose shortest digits exactly fill its integer part (17 significant "
     "digits at 1e16 and above) is printed with a bare trailing point, 16000000000000002., "
     "instead of 16000000000000002.0: the test for appending zeros and .0 is > instead of >=",
     "(display (+ 1.6e16 2.0))\n"
     "(newline)\n"
     "(write (list 1e16 12345678901234568.0 1.5e17))")
def _tt_integral_float_loses_zero() -> None:
    from implementations.topaz.tree import printer

    # Realistic: an off-by-one at the boundary between "pad with zeros" and "insert a point"
    # branches; shorter mantissas (1e16, 1.5e17) have the point past their digits and are
    # right, and floats below 1e16 never reach this code (repr has no exponent).
    edit_function(printer, "real_text",
                  "    if point >= len(digits):\n",
                  "    if point > len(digits):\n")


@bug("blind13-tt-remainder-fmod", "topaz-tree", "kernel primitives", "numerics",
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


@bug("blind13-tt-qq-vector-list-unmetered", "topaz-tree", "kernel normalizer", "meters/limits",
     "the list a quasiquoted vector's items are expanded through (the template holds an "
     "unquote) is expanded without charging its normalization step, so a vector template "
     "with an unquote costs one step less than it should",
     "(define x 5)\n"
     "(define v `#(a ,x (b ,x)))\n"
     "(list v `(1 ,x))")
def _tt_qq_vector_list_unmetered() -> None:
    from implementations.lispex import derived

    # Realistic: the recursion for the synthetic list calls the worker _qq directly (the
    # entry qq only adds the step charge and the stack guard, which looked redundant for a
    # list made on the spot); every other template node is still charged through qq.
    edit_function(derived.DerivedForms, "_qq",
                  "as_list = self.qq(items_list, depth, scope)",
                  "as_list = self._qq(items_list, depth, scope)")


# -- topaz-vm -----------------------------------------------------------------------------------


@bug("blind13-tv-percent-inline-no-warning", "topaz-vm", "topaz-vm back end",
     "diagnostics and spans",
     "the inline integer fast path of modulo is also used for %, its deprecated spelling, so "
     "a call of % on exact integers runs in place and its W330 warning is never emitted (a "
     "call with a non-integer argument falls back to the primitive and still warns)",
     "(define (wrap i n) (% i n))\n"
     "(list (wrap 7 3) (wrap -7 3) (modulo 7 -3) (% 9 4))")
def _tv_percent_inline_no_warning() -> None:
    from implementations.topaz.vm import calls

    # Realistic: % is documented as "the same as modulo", so the fast path was widened to it;
    # the warning lives in the primitive's wrapper, which the fast path skips.
    edit_function(calls.Calls, "inline",
                  'if name == "modulo" and n == 2:',
                  'if name in ("modulo", "%") and n == 2:')


@bug("blind13-tv-del-unescaped", "topaz-vm", "topaz-vm printer", "printing",
     "write escapes the control characters below U+0020 in a string but not DEL (U+007F), "
     "which is written raw instead of as \\x7f; (the character #\\delete is still named)",
     "(define s (list->string (list #\\a (integer->char 127) #\\b)))\n"
     "(write s)\n"
     "(write (list \"x\\x7f;\" #\\delete))\n"
     "(string-length s)")
def _tv_del_unescaped() -> None:
    from implementations.topaz.vm import printer

    # Realistic: the escape table was built from "the C0 controls", range(0x20), and DEL,
    # which sits at the other end of ASCII, was left out of it (and so of the fast-path set).
    del printer._ESCAPES[0x7F]
    printer._PLAIN = frozenset(chr(c) for c in printer._ESCAPES)


@bug("blind13-tv-splice-fault-at-list", "topaz-vm", "kernel normalizer", "diagnostics and spans",
     "the hidden append of an unquote-splicing in a quasiquote list is given the span of the "
     "enclosing list template instead of the ,@ form, so splicing a non-list reports its E310 "
     "at the list's opening parenthesis rather than at the ,@",
     "(define (wrap x)\n"
     "  `(begin ,@x end))\n"
     "(list (wrap '(a b))\n"
     "      (wrap 5))")
def _tv_splice_fault_at_list() -> None:
    from implementations.lispex import derived

    # Realistic: the append node is built in the loop over the template's items, and its span
    # argument took the template's `t.span`, the span the other nodes of the loop body near it
    # use for the list as a whole.
    edit_function(derived.DerivedForms, "_qq",
                  "[spliced, result],\n" + " " * 32 + "item.span)",
                  "[spliced, result],\n" + " " * 32 + "t.span)")
