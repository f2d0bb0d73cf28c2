"""Seeded bugs in tree, family "call/cc"."""

from __future__ import annotations

from bench.seeded_bugs.seeding import bug, edit_function


@bug("escape-keeps-depth", "tree", "tree back end", "call/cc",
     "an escape (a continuation call, or a guard catching a raise) that unwinds through "
     "non-tail frames does not give back their depth, so repeated escapes from deep recursion "
     "reach the recursion limit",
     "(define (dive n k) (if (= n 0) (k n) (+ 1 (dive (- n 1) k))))\n"
     "(define (go i) (if (= i 0) 'ok (begin (call/cc (lambda (k) (dive 500 k))) (go (- i 1)))))\n"
     "(go 30)")
def _escape_keeps_depth() -> None:
    from implementations.tree.control import Control

    # Realistic: the unwinder pops return frames as so much garbage, forgetting that each one
    # was counted in the non-tail depth when it was pushed.
    edit_function(Control, "unwind", "if tag == F_RET:\n            depth -= 1\n",
          "if tag == F_RET:\n            pass\n")


@bug("callcc-extent-not-ended", "tree", "tree back end", "call/cc",
     "a continuation is deactivated only when it is invoked (or escaped past), not when its "
     "call/cc returns normally, so calling a saved continuation after its extent has ended is "
     "not E340: it unwinds to whatever call/cc frame now sits at the same stack position and "
     "returns the value there",
     "(define saved #f)\n"
     "(define (probe tag)\n"
     "  (call/cc (lambda (k)\n"
     "             (if saved (saved tag) (begin (set! saved k) 'first)))))\n"
     "(list (probe 'one) (probe 'two))")
def _callcc_extent_not_ended() -> None:
    from implementations.tree import control

    # Realistic: "one-shot" read as "may be invoked once": the deliver path of an escape
    # deactivates the continuation, and the frame's normal return was taken to need nothing.
    edit_function(control.Control, "control",
                  "    if tag == F_CC:\n        fr[1].active = False\n",
                  "    if tag == F_CC:\n")
