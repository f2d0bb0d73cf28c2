"""Seeded bugs in tree, family "tail calls"."""

from __future__ import annotations

from bench.seeded_bugs.seeding import bug, derived_class, edit_function


@bug("apply-not-tail", "tree", "tree machine", "tail calls",
     "apply in tail position is not a tail call: loops through apply use the stack",
     "(define (f n) (if (= n 0) 'done (apply f (list (- n 1)))))\n(f 20000)")
def _apply_not_tail() -> None:
    from implementations.tree import machine

    real = machine.Machine.special

    def special(self, fn, vals, tail, k, handlers, site):
        out = real(self, fn, vals, tail, k, handlers, site)
        if fn.name == "apply":
            mode, val, v, _, h, node = out
            return mode, val, v, False, h, node
        return out
    machine.Machine.special = special


@bug("cond-tail-last-clause-only", "tree", "kernel normalizer", "tail calls",
     "only the body of the last cond clause is normalized in tail position: a loop that recurs "
     "from an earlier clause (the usual (cond ((more?) (loop ...)) (else done)) shape) grows "
     "the non-tail depth until the recursion limit",
     "(define (count n acc)\n"
     "  (cond ((> n 0) (count (- n 1) (+ acc 1)))\n"
     "        (else acc)))\n"
     "(count 20000 0)")
def _cond_tail_last_clause_only() -> None:
    # Realistic: the tail flag of a clause body was written the way `and` and a body's
    # sequence pass it on, `tail and i == len(...) - 1`, as if the clauses were evaluated one
    # after the other; but every clause body of a cond is in the cond's tail position.
    edit_function(derived_class(), "cond_chain",
                  "self.seq(items[1:], cur, tail, c.span), c.span))",
                  "self.seq(items[1:], cur, tail and i == len(clauses) - 1, c.span), c.span))")


@bug("callcc-receiver-inherits-tail", "tree", "tree back end", "tail calls",
     "a call/cc in tail position applies its receiver as a tail call (the receiver inherits the "
     "call's tail flag, as apply's procedure and the call-with-values consumer do), so the "
     "receiver's application does not count toward the non-tail depth: a recursion through "
     "call/cc in tail position never reaches the recursion limit",
     "(define (walk n acc)\n"
     "  (if (= n 0)\n"
     "      acc\n"
     "      (call/cc (lambda (k) (walk (- n 1) (+ acc 1))))))\n"
     "(walk 10500 0)")
def _callcc_receiver_inherits_tail() -> None:
    from implementations.tree import control

    # Realistic: apply and call-with-values hand their tail flag on, and call/cc looked like
    # one more of them ("the receiver's value is call/cc's value"). But the receiver runs above
    # call/cc's own frame, which the continuation needs, so it is a nested call: the vm (and the
    # tree interpreter's own frame path) count it one level deeper.
    edit_function(control.Control, "special",
                  "return APPLY, None, [args[0], cont], False, handlers, None",
                  "return APPLY, None, [args[0], cont], tail, handlers, None")


@bug("or-last-not-tail", "tree", "kernel normalizer", "tail calls",
     "the last operand of or is normalized out of tail position (the earlier ones are bound "
     "in hidden lets, and the last one was taken to sit inside them as an operand), so a "
     "loop that recurs as the last operand of an or grows the non-tail depth until the "
     "recursion limit",
     "(define (count-down n) (or (= n 0) (count-down (- n 1))))\n"
     "(define (first-even lst)\n"
     "  (and (pair? lst) (or (and (even? (car lst)) (car lst)) (first-even (cdr lst)))))\n"
     "(list (count-down 15000) (first-even '(1 3 5 6 7)) (or #f 'x) (or))")
def _or_last_not_tail() -> None:
    # Realistic: `or` is the one derived form whose operands go into lets of temporaries; the
    # flag for the last operand was written as for an init, which is never in tail position.
    edit_function(derived_class(), "or_chain",
                  "node = self.expr(args[-1], cur, tail)",
                  "node = self.expr(args[-1], cur, False)")
