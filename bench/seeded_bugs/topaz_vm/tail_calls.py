"""Seeded bugs in topaz-vm, family "tail calls"."""

from __future__ import annotations

from bench.seeded_bugs.seeding import bug, derived_class, edit_function


@bug("and-not-tail", "topaz-vm", "kernel normalizer", "tail calls",
     "the last operand of and is not in tail position",
     "(define (loop n) (and (>= n 0) (if (= n 0) 'done (loop (- n 1)))))\n(loop 20000)")
def _and_not_tail() -> None:
    cls = derived_class()
    real = cls.form_and

    def form_and(self, d, scope, tail):
        return real(self, d, scope, False)
    cls.form_and = form_and


@bug("tv-do-result-not-tail", "topaz-vm", "kernel normalizer", "tail calls",
     "the result expressions of a do loop are normalized out of tail position, like its body "
     "expressions, so a procedure that recurs from a do loop's result grows the non-tail depth "
     "until the recursion limit",
     "(define (countdown n)\n"
     "  (do ((i 0 (+ i 1))) ((= i 1) (if (= n 0) 'done (countdown (- n 1))))))\n"
     "(countdown 20000)")
def _tv_do_result_not_tail() -> None:
    # Realistic: the body expressions right below are normalized with tail False, and the
    # result clause was written the same way; but it is the value of the loop lambda's body.
    edit_function(derived_class(), "form_do",
                  "done = (self.seq(results, vars_scope, True, test_clause.span) if results",
                  "done = (self.seq(results, vars_scope, False, test_clause.span) if results")
