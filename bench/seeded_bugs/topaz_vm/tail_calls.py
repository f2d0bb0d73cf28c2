"""Seeded bugs in topaz-vm, family "tail calls"."""

from __future__ import annotations

from bench.seeded_bugs.seeding import bug, edit_topaz_form


@bug("and-not-tail", "topaz-vm", "kernel normalizer", "tail calls",
     "the last operand of and is not in tail position",
     "(define (loop n) (and (>= n 0) (if (= n 0) 'done (loop (- n 1)))))\n(loop 20000)")
def _and_not_tail() -> None:
    from implementations.topaz.kernel.derived import Derived

    # Realistic: the last operand normalized with the False the tests before it get.
    edit_topaz_form("and", Derived, "and_", "out = self.expr(args[-1], sc, tail)",
                    "out = self.expr(args[-1], sc, False)")


@bug("tv-do-result-not-tail", "topaz-vm", "kernel normalizer", "tail calls",
     "the result expressions of a do loop are normalized out of tail position, like its body "
     "expressions, so a procedure that recurs from a do loop's result grows the non-tail depth "
     "until the recursion limit",
     "(define (countdown n)\n"
     "  (do ((i 0 (+ i 1))) ((= i 1) (if (= n 0) 'done (countdown (- n 1))))))\n"
     "(countdown 20000)")
def _tv_do_result_not_tail() -> None:
    from implementations.topaz.kernel.derived import Derived

    # Realistic: the body expressions right below are normalized with tail False, and the
    # result clause was written the same way; but it is the value of the loop lambda's body.
    edit_topaz_form("do", Derived, "do",
                    "result = self.sequence(results, params, True, test_d.span)",
                    "result = self.sequence(results, params, False, test_d.span)")
