"""Seeded bugs in vm, family "handlers"."""

from __future__ import annotations

from typing import Any

from bench.seeded_bugs.seeding import bug, edit_function, patch_primitive


@bug("handler-sees-itself", "vm", "vm control", "handlers",
     "a handler runs with itself still installed, so a raise inside it comes back to it",
     "(with-exception-handler (lambda (e) 100)\n"
     "  (lambda () (with-exception-handler\n"
     "               (lambda (e) (if (eq? e 'x) (+ 1 (raise-continuable 'inner)) 7))\n"
     "               (lambda () (raise-continuable 'x)))))")
def _handler_sees_itself() -> None:
    from implementations.vm import control

    def signal(self, payload, continuable, span, depth, handlers):
        if handlers is None:
            raise control.Raised(payload, span)
        h, outer = handlers
        if type(h) is control.GuardHandler:
            return self.unwind(h.index, ("guard", payload, continuable, span), depth, handlers)
        self.frames.append((control.K_CODES[control.K_RAISE], 0,
                            (continuable, payload, handlers, span), depth))
        self.tick()
        # The bug: the handler should run with the outer handlers.
        return self.apply(h, [payload], control.NESTED, None, 0, None, depth, handlers)
    control.Control.signal = signal


@bug("reraise-skips-leave-scope", "vm", "vm back end", "handlers",
     "in a guard that is not in tail position, a re-raise (no clause matched) that an outer "
     "handler resumes from continues after the guard without leaving the clause scope, so the "
     "code after the guard reads its local variables one frame off",
     "(define (f x)\n"
     "  (let ((y (+ 1 (guard (e ((string? e) 0)) (raise-continuable 'a)))))\n"
     "    (list x y)))\n"
     "(with-exception-handler (lambda (e) 10) (lambda () (f 5)))")
def _reraise_skips_leave_scope() -> None:
    from implementations.vm import compiler

    # Realistic: the re-raise was pointed at the guard's end label, where the body's normal
    # exit goes, as if resuming after a re-raise were the same as leaving the guard; but the
    # clauses run in a frame of their own ([env, condition]) that only `leave-scope` pops.
    edit_function(compiler.Compiler, "guard",
                  "    if reraise is not None:\n"
                  "        em.patch(reraise, out)"
                  "  # a continuable re-raise resumes at `leave-scope`\n"
                  "    em.emit((\"leave-scope\",), node.span)\n"
                  "    end = em.here()\n",
                  "    em.emit((\"leave-scope\",), node.span)\n"
                  "    end = em.here()\n"
                  "    if reraise is not None:\n"
                  "        em.patch(reraise, end)\n")


@bug("vm-test-clause-keeps-guard-frame", "vm", "vm back end", "handlers",
     "in a guard that is not in tail position, a clause with a test and no body jumps to the "
     "end of the guard past the leave-scope the other clauses run, so the clause frame (the "
     "condition) stays the environment: the code after the guard reads its local variables "
     "one frame off",
     "(define (lookup key alist)\n"
     "  (let ((hit (guard (e ((assq key e))) (raise alist))))\n"
     "    (list key hit)))\n"
     "(lookup 'b '((a . 1) (b . 2)))")
def _vm_test_clause_keeps_guard_frame() -> None:
    from implementations.vm import compiler

    # Realistic: a test-only clause yields a value straight away, like the guard's body, and
    # its exit jump was filed with the body's (which skip the leave-scope: the body runs in
    # the guard's own frame) instead of with the clauses'.
    edit_function(compiler.Compiler, "guard",
                  'out_jumps.append(em.emit(("jump", None), test.span))',
                  'end_jumps.append(em.emit(("jump", None), test.span))')


@bug("error-who-symbol", "vm", "kernel primitives", "handlers",
     "error accepts the R6RS convention (error who message irritant ...): a symbol first "
     "argument followed by a string is taken as the procedure's name and dropped, so "
     "(error 'parse \"bad token\" 7) raises an E330 with message \"bad token\" instead of "
     "failing with E312 (the message must be a string)",
     "(define (check tok)\n"
     "  (guard (e ((error-object? e)\n"
     "             (list (error-object-message e) (error-object-irritants e))))\n"
     "    (error 'parse \"bad token\" tok)))\n"
     "(list (check 7) (check 'x))")
def _error_who_symbol() -> None:
    from implementations.lispex.values import Str, Symbol

    # Realistic: Chez Scheme, R6RS and many libraries write (error 'who "message" ...); the
    # implementer supported both spellings "to be kind". A string message is unchanged.
    def make(real: Any) -> Any:
        def error(message: Any, *irritants: Any) -> Any:
            if type(message) is Symbol and irritants and type(irritants[0]) is Str:
                message, irritants = irritants[0], irritants[1:]
            return real(message, *irritants)
        return error
    patch_primitive("vm", "error", make)
