"""Seeded bugs in topaz-vm, family "numerics"."""

from __future__ import annotations

from typing import Any

from bench.seeded_bugs.seeding import bug, edit_function, patch_primitive, rebind_topaz


@bug("radix-python-int", "topaz-vm", "kernel numbers", "numerics",
     "string->number with a radix other than 10 parses with Python's int(), so it accepts a "
     "leading +, surrounding blanks, underscores and 0x/0o/0b prefixes instead of giving #f",
     '(list (string->number "ff" 16) (string->number "+17" 8) (string->number "0x1f" 16)\n'
     '      (string->number " 101 " 2))')
def _radix_python_int() -> None:
    from implementations.topaz.kernel import numparse
    from implementations.topaz.kernel.primitives import numeric

    # Realistic: "int() already knows radixes", and its extra leniency goes unnoticed.
    def parse_radix_integer(text: str, radix: int) -> int | None:
        try:
            return int(text, radix)
        except ValueError:
            return None
    numparse.parse_radix_integer = numeric.parse_radix_integer = parse_radix_integer


@bug("eqv-signed-zero", "topaz-vm", "kernel primitives", "numerics",
     "eqv? (and eq?, memv, assv, case and equal? on atoms) compares floats by value only, so "
     "0.0 and -0.0 are eqv?",
     "(list (eqv? 0.0 -0.0) (memv -0.0 '(1 0.0)) (equal? '(0.0) '(-0.0)))")
def _eqv_signed_zero() -> None:
    from implementations.topaz.kernel import equality

    # Realistic: numbers of one type compared with ==, without the sign-of-zero check that
    # eqv? on floats needs.
    old = equality.eqv
    edit_function(equality, "eqv", "return a == b and str(a)[0] == str(b)[0]", "return a == b")
    rebind_topaz("topaz-vm", old, equality.eqv)


@bug("int-flag-stale-after-set", "topaz-vm", "topaz-vm code generator", "numerics",
     "the cached `type(v) is int` flag of a variable used in several arithmetic operations is "
     "computed once on entry even for a variable that set! reassigns, so after it is set to a "
     "float or a boolean the inline integer paths still run: (modulo 1.5 2) gives 1.5 instead "
     "of E312",
     "(define (f x)\n"
     "  (set! x (* x 1.5))\n"
     "  (list (+ x 1) (modulo x 2)))\n"
     "(f 1)")
def _int_flag_stale_after_set() -> None:
    from implementations.topaz.vm import codegen

    # Realistic: a cached type test is only valid while the variable keeps its value; the
    # mutable-variable exclusion that every other cached fact here has was left out.
    edit_function(codegen.Gen, "bind_flags",
                  ">= 2 and key not in self.a.mutable:",
                  ">= 2:")


@bug("tv-exact-zero-product", "topaz-vm", "kernel primitives", "numerics",
     "a product with an exact zero among its factors is the exact 0 even when another factor "
     "is inexact, so (* 0 2.5) is 0 instead of 0.0 (contagion: any inexact factor makes the "
     "product inexact); products without an exact zero are right",
     "(define (area w h) (* w h))\n"
     "(list (area 0 2.5) (area 2 2.5) (exact? (area 0 1.5)) (* 1.5 0 2) (* 0 1/2) (area 3 4))")
def _tv_exact_zero_product() -> None:
    # Realistic: R7RS lets an implementation return an exact 0 for an exact zero times
    # anything, and the shortcut was taken from there; Lispex's contagion rule has no such
    # exception. Arguments are still checked by the real primitive first.
    def make(real: Any) -> Any:
        def times(*args: Any) -> Any:
            r = real(*args)
            if type(r) is float and any(type(a) is int and a == 0 for a in args):
                return 0
            return r
        return times
    patch_primitive("topaz-vm", "*", make)


@bug("tv-constant-pool-by-value", "topaz-vm", "topaz-vm code generator", "numerics",
     "the pool of constants the generated code names is keyed by the constant's value instead "
     "of its identity, and Python's == (with its matching hash) equates numbers across "
     "exactness and the sign of zero, so later constants take the pooled earlier one: in "
     "(list 1/2 0.5 -0.0 0.0) the 0.5 is 1/2 and the 0.0 is -0.0 (small exact integers, "
     "written as literals, are right)",
     "(define (constants) (list 1/2 0.5 -0.0 0.0 (exact? 0.5)))\n"
     "(display (constants))\n"
     "(newline)\n"
     "(list 3/4 0.75 (eqv? 0.0 -0.0))")
def _tv_constant_pool_by_value() -> None:
    from implementations.topaz.vm.emit import Pools

    # Realistic: deduplicating constants through a dict keyed by the value is the obvious
    # Python; for numbers, dict keys follow ==, under which 0.5 == 1/2 and 0.0 == -0.0.
    edit_function(Pools, "const", "key = id(value)", "key = value")
