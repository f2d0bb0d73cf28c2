"""Seeded bugs in topaz-vm, family "call/cc"."""

from __future__ import annotations

from bench.seeded_bugs.seeding import bug


@bug("escape-keeps-handlers", "topaz-vm", "topaz-vm runtime", "call/cc",
     "escaping through call/cc does not restore the handlers of the call/cc call",
     "(guard (e (#t (list 'guarded e)))\n  (call/cc (lambda (k)\n"
     "    (with-exception-handler (lambda (e) 'inner) (lambda () (k 1)))))\n"
     "  (raise-continuable 'x))")
def _escape_keeps_handlers() -> None:
    from implementations.topaz.vm import runtime

    def p_call_cc(self, d, tail, receiver):
        k = runtime.Continuation()
        try:
            try:
                value = self.call(d, receiver, (k,))
            except runtime.LispexError as e:
                self.fault(e)
        except runtime.ContinuationEscape as x:
            if x.k is not k:
                raise
            value = x.value  # the bug: the handlers of the call/cc call are not restored
        finally:
            k.active = False
        return value
    runtime.Runtime.p_call_cc = p_call_cc
