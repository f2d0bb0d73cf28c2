"""Seeded bugs in topaz-tree, family "call/cc"."""

from __future__ import annotations

from bench.seeded_bugs.seeding import bug, edit_function


@bug("callcc-receiver-tail", "topaz-tree", "topaz-tree back end", "call/cc",
     "call/cc in tail position applies its receiver as a pending tail call, which runs only "
     "after call/cc has returned and deactivated the continuation, so calling the continuation "
     "from inside the receiver (an early exit from a for-each, say) is E340",
     "(define (first-negative lst)\n"
     "  (call/cc\n"
     "    (lambda (return)\n"
     "      (for-each (lambda (x) (if (< x 0) (return x) #f)) lst)\n"
     "      #f)))\n"
     "(list (first-negative '(3 -2 5)) (first-negative '(1 2)))")
def _callcc_receiver_tail() -> None:
    from implementations.topaz.tree import control

    # Realistic: apply and call-with-values hand their procedure the tail flag they were
    # called with (rt.apply(..., tail)), and call/cc was written the same way; but its receiver
    # must run inside the try that keeps the continuation active.
    edit_function(control, "p_call_cc", "return rt.call(args[0], [k])",
                  "return rt.apply(args[0], [k], tail)")
    control.BACKEND["call-with-current-continuation"] = control.p_call_cc
