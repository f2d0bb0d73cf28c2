"""Seeded bugs in tree, family "handlers"."""

from __future__ import annotations

from bench.seeded_bugs.seeding import bug, edit_function


@bug("continuable-loses-handler", "tree", "tree machine", "handlers",
     "returning from a raise-continuable handler reinstates the outer handlers, not the ones "
     "in force at the raise",
     "(with-exception-handler (lambda (e) 1)\n"
     "  (lambda () (+ (raise-continuable 'a) (raise-continuable 'b))))")
def _continuable_loses_handler() -> None:
    from implementations.tree import machine

    real = machine.Machine.control

    def control(self, fr, k, val, handlers, depth):
        if fr[0] == machine.F_RAISE and fr[1]:
            outer = fr[3][1] if fr[3] else None
            return machine.RET, val, [], False, outer, depth, None, None
        return real(self, fr, k, val, handlers, depth)
    machine.Machine.control = control


@bug("guard-reraise-noncontinuable", "tree", "tree machine", "handlers",
     "a guard with no matching clause re-raises as non-continuable",
     "(with-exception-handler (lambda (e) 5)\n"
     "  (lambda () (+ 1 (guard (e ((string? e) 0)) (raise-continuable 'sym)))))")
def _guard_reraise() -> None:
    from implementations.tree import machine

    real = machine.Machine.control

    def control(self, fr, k, val, handlers, depth):
        if fr[0] == machine.F_GCLAUSE:
            fr = (*fr[:5], False, fr[6])  # forgets how the condition was raised
        return real(self, fr, k, val, handlers, depth)
    machine.Machine.control = control


@bug("handler-outlives-thunk", "tree", "tree back end", "handlers",
     "a with-exception-handler whose thunk returns normally leaves its handler installed for "
     "the rest of the enclosing computation",
     "(define (f)\n  (with-exception-handler (lambda (e) 42) (lambda () 'ok))\n"
     "  (+ 1 (raise-continuable 'late)))\n(f)")
def _handler_outlives_thunk() -> None:
    from implementations.tree import control

    # Realistic: the F_HANDLERS frame's return keeps the live register instead of restoring.
    edit_function(control.Control, "control", "return RET, val, [], False, fr[1], depth, None, None",
          "return RET, val, [], False, handlers, depth, None, None")


@bug("e332-to-same-handler", "tree", "tree back end", "handlers",
     "when a handler returns from a non-continuable raise, the E332 condition is offered to the "
     "handler chain saved in the raise frame (the one that includes the handler that just "
     "returned) instead of the handlers outside it, so the same handler sees its own E332",
     "(guard (e (#t (list 'outer (if (error-object? e) (error-object-message e) e))))\n"
     "  (with-exception-handler\n"
     "    (lambda (c) (if (error-object? c) (raise 'handler-saw-e332) 0))\n"
     "    (lambda () (+ 1 (raise 'boom)))))")
def _e332_to_same_handler() -> None:
    from implementations.tree import control

    # Realistic: the continuable branch just above restores `saved`; the non-continuable one
    # was written to match and signals from `saved` too, where R7RS raises the secondary
    # exception in the dynamic environment of the handler (the outer handlers).
    edit_function(control.Control, "control",
                  "self.signal(err, False, span, k, handlers)",
                  "self.signal(err, False, span, k, saved)")


@bug("guard-else-outer-scope", "tree", "kernel normalizer", "handlers",
     "the else clause of a guard is normalized in the scope outside the guard, not in the scope "
     "of the guard's variable: the condition's name is a global there (E300), and other local "
     "variables are addressed one frame off",
     "(define (safe-div a b)\n"
     "  (guard (e ((string? e) 'bad-input)\n"
     "            (else (list 'caught e)))\n"
     "    (if (= b 0) (raise 'divide-by-zero) (quotient a b))))\n"
     "(list (safe-div 10 2) (safe-div 1 0))")
def _guard_else_outer_scope() -> None:
    from implementations.lispex import normalizer

    # Realistic: the else clause is handled apart from the other clauses, next to the body,
    # which is normalized in the outer scope; the else line took the body's `scope`.
    edit_function(normalizer.Normalizer, "form_guard",
                  "else_body = self.seq(parts[1:], inner, tail, c.span)",
                  "else_body = self.seq(parts[1:], scope, tail, c.span)")
