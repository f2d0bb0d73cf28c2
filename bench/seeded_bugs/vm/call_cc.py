"""Seeded bugs in vm, family "call/cc"."""

from __future__ import annotations

from bench.seeded_bugs.seeding import bug, edit_function


@bug("continuation-first-value", "vm", "vm back end", "call/cc",
     "an escape continuation called with several values delivers only the first of them",
     "(call-with-values (lambda () (call/cc (lambda (k) (k 1 2)))) list)")
def _continuation_first_value() -> None:
    from implementations.vm import control

    # Realistic: a continuation treated as a one-argument procedure unless it gets none.
    edit_function(control.Control, "apply", "v = args[0] if len(args) == 1 else Values(tuple(args))",
          "v = args[0] if len(args) >= 1 else Values(tuple(args))")


@bug("escape-keeps-operands", "vm", "vm back end", "call/cc",
     "an escape continuation does not cut the value stack back to its height at the call/cc, so "
     "operands pushed inside the escaped computation stay behind and a pending call outside "
     "takes them for its own",
     "(define (f) 'inner)\n(define (g) 'outer)\n"
     "(list (g) (call/cc (lambda (k) (list (f) (k 3)))))")
def _escape_keeps_operands() -> None:
    from implementations.vm import control

    # Realistic: the guard path of the unwinder truncates the stack to the height it saved; the
    # continuation path, which also saved one, pushes the delivered value without truncating
    # (a receiver that escapes at once leaves nothing behind, which is what the tests did).
    edit_function(control.Control, "unwind", "del self.stack[fr[2][2]:]", "pass")
