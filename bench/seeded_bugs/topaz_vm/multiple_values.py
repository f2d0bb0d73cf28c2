"""Seeded bugs in topaz-vm, family "multiple values"."""

from __future__ import annotations

import math
from typing import Any

from bench.seeded_bugs.seeding import bug, edit_function, patch_primitive


@bug("isqrt-float", "topaz-vm", "kernel numbers", "multiple values",
     "exact-integer-sqrt goes through a float and is wrong for large integers",
     "(call-with-values (lambda () (exact-integer-sqrt (- (expt 10 40) 1))) list)")
def _isqrt_float() -> None:
    from implementations.lispex.values import Values

    def make(real):
        def isqrt(n):
            if type(n) is int and n >= 0:
                s = int(math.sqrt(n))
                return Values((s, n - s * s))
            return real(n)
        return isqrt
    patch_primitive("topaz-vm", "exact-integer-sqrt", make)


@bug("values-first-only", "topaz-vm", "topaz-vm runtime", "multiple values",
     "call-with-values passes only the first of several values to the consumer",
     "(call-with-values (lambda () (values 1 2)) (lambda args args))")
def _values_first_only() -> None:
    from implementations.lispex.values import Values
    from implementations.topaz.vm import runtime

    def p_call_with_values(self, d, tail, producer, consumer):
        site = self.site_get()
        v = self.call(d, producer, ())
        args = v.items[:1] if type(v) is Values else (v,)  # the bug: only the first value
        if tail:
            self.site_set(site)
            return runtime.TailCall(consumer, args)
        return self.call_at(d, site, consumer, args)
    runtime.Runtime.p_call_with_values = p_call_with_values


@bug("truncate-div-dividend-sign", "topaz-vm", "kernel primitives", "multiple values",
     "truncate/ corrects the floor division only when the dividend is negative, not when the "
     "signs differ, so with a negative divisor both of its values are wrong",
     "(define (td a b) (call-with-values (lambda () (truncate/ a b)) list))\n"
     "(list (td -7 2) (td 7 -2) (td -7 -2) (td 7 2))")
def _truncate_div_dividend_sign() -> None:
    from implementations.lispex.primitives import numeric_division as nd
    from implementations.lispex.values import Values

    # Realistic: "truncation and flooring differ for negative numbers" remembered as "for a
    # negative dividend"; they differ when the quotient is negative, i.e. the signs differ.
    def make(real: Any) -> Any:
        def truncate_div(a: Any, b: Any) -> Any:
            n, d, inexact = nd._operands("truncate/", a, b)
            q, r = divmod(n, d)
            if r and n < 0:
                q += 1
                r -= d
            return Values((nd._result("truncate/", q, inexact),
                           nd._result("truncate/", r, inexact)))
        return truncate_div
    patch_primitive("topaz-vm", "truncate/", make)


@bug("tv-reraise-not-multiple", "topaz-vm", "topaz-vm back end", "multiple values",
     "the analysis of what a procedure body can return forgets that a guard without an else "
     "clause re-raises, and that a continuable re-raise returns whatever the outer handler "
     "returns; a direct call of such a procedure is then taken to give one value, so several "
     "values from the handler are bound by a let instead of E320",
     "(define (f) (guard (e ((string? e) 'str)) (raise-continuable 'sym) 'done))\n"
     "(define (g) (let ((v (f))) (if v 'one-value 'false)))\n"
     "(guard (e (#t (list 'caught (error-object? e))))\n"
     "  (with-exception-handler (lambda (c) (if (symbol? c) (values 1 2) (raise c))) g))")
def _tv_reraise_not_multiple() -> None:
    from implementations.topaz.vm import analysis

    # Realistic: the guard's result was analysed as its body and its clauses, the parts one
    # can see; the re-raise is an implicit path with no node of its own.
    edit_function(analysis._Tails, "tail",
                  "        else:\n"
                  "            mv = True  # a continuable re-raise returns whatever the "
                  "handler returns\n",
                  "")


@bug("tv-for-each-single", "topaz-vm", "topaz-vm back end", "multiple values",
     "for-each, vector-for-each and string-for-each are listed with the guest-calling "
     "primitives that return one value, so their zero values are not checked where one value "
     "is required: (list (for-each f xs)) is not an E320",
     "(define (show x) (display x))\n"
     "(define r (vector-for-each show (vector 1 2)))\n"
     "(if (for-each show '(3)) 'true 'false)")
def _tv_for_each_single() -> None:
    from implementations.topaz.vm import analysis

    # Realistic: the set was made from the guest-calling library's table (map, filter, the
    # folds, ...) and kept its -for-each members, which return no values at all.
    analysis.BACKEND_SINGLE = analysis.BACKEND_SINGLE | {"for-each", "vector-for-each",
                                                         "string-for-each"}
