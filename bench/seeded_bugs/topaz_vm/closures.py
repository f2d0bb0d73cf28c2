"""Seeded bugs in topaz-vm, family "closures"."""

from __future__ import annotations

from bench.seeded_bugs.seeding import bug, edit_function


@bug("tv-inline-loop-shares-closure", "topaz-vm", "topaz-vm codegen", "closures",
     "a do loop or named let whose body makes a closure over a loop variable is still run as an "
     "inline while loop, so every closure sees the variable's last value",
     "(define fs '())\n(do ((i 0 (+ i 1))) ((= i 3)) (set! fs (cons (lambda () i) fs)))\n"
     "(map (lambda (f) (f)) fs)")
def _tv_inline_loop_shares_closure() -> None:
    from implementations.topaz.kernel import core_ir as ir
    from implementations.topaz.vm import analysis

    def inline_candidate(self, app, frames):
        op = app.op
        if not app.tail or type(op) is not ir.Letrec or len(op.inits) != 1:
            return None
        lam = op.inits[0]
        body = op.body
        if type(lam) is not ir.Lambda or lam.rest or len(app.args) != lam.nparams:
            return None
        if type(body) is not ir.Local or body.depth != 0 or body.index != 0:
            return None
        # Realistic: the inner-lambda test made for `info.loop` was not repeated here, so Python
        # closures in the loop body capture the one cell the `while` loop keeps rebinding.
        if (id(op), 0) in self.a.mutable:
            return None
        if not analysis._only_self_tail_calls(lam.body, op, lam, 1):
            return None
        return lam
    analysis._Tails.inline_candidate = inline_candidate


@bug("tv-self-loop-shares-params", "topaz-vm", "topaz-vm analysis", "closures",
     "a procedure that calls itself in tail position is run as a while loop over its own "
     "parameters even when its body makes closures over them, so every closure made in one "
     "call of it sees the parameters' last values",
     "(define (make-thunks i acc)\n"
     "  (if (= i 3)\n"
     "      acc\n"
     "      (make-thunks (+ i 1) (cons (lambda () (* i 10)) acc))))\n"
     "(map (lambda (f) (f)) (make-thunks 0 '()))")
def _tv_self_loop_shares_params() -> None:
    from implementations.topaz.vm import analysis

    # Realistic: the inner-lambda flag was thought to concern only the inline named-let loops
    # (which test it themselves); but Python closures capture the variable, not its value, and
    # the loop rebinds the same variables on every iteration.
    edit_function(analysis._Tails, "run",
                  "info.loop = not info.inner_lambda and info.self_calls > 0",
                  "info.loop = info.self_calls > 0")
