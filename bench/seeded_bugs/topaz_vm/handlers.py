"""Seeded bugs in topaz-vm, family "handlers"."""

from __future__ import annotations

from bench.seeded_bugs.seeding import bug, edit_function


@bug("continuable-as-raise", "topaz-vm", "topaz-vm runtime", "handlers",
     "raise-continuable is treated as raise: a handler's return is an error",
     "(with-exception-handler (lambda (e) 10)\n  (lambda () (+ 1 (raise-continuable 'x))))")
def _continuable_as_raise() -> None:
    from implementations.topaz.vm import runtime

    runtime.Runtime.p_raise_continuable = runtime.Runtime.p_raise


@bug("effect-guard-swallows", "topaz-vm", "topaz-vm back end", "handlers",
     "a guard whose value is discarded (not the last expression of a body or begin) and none "
     "of whose clauses matches drops the condition instead of raising it again",
     "(define log '())\n"
     "(define (note x) (set! log (cons x log)))\n"
     "(guard (e (#t (list 'outer e (reverse log))))\n"
     "  (guard (e ((string? e) (note 'inner)))\n"
     "    (note 'body)\n"
     "    (raise 'sym))\n"
     "  (note 'after)\n"
     "  'done)")
def _effect_guard_swallows() -> None:
    from implementations.topaz.vm import blocks

    # Realistic: with a discarding sink there is "no value to deliver", and the re-raise was
    # taken for the delivery of one rather than for an effect of its own.
    edit_function(blocks.Blocks, "clauses", 'fn.emit(f"_reraise(d, {x})")',
                  "pass  # the value is discarded")


@bug("tv-handler-not-checked", "topaz-vm", "topaz-vm back end", "handlers",
     "with-exception-handler does not check that its handler is a procedure, so a non-procedure "
     "handler is accepted (E312 is missing) and the thunk runs; only a raise under it fails, "
     "with an E301 when the handler is applied",
     "(guard (e (#t (list 'caught (error-object-message e))))\n"
     "  (with-exception-handler 'not-a-procedure (lambda () 'thunk-ran)))")
def _tv_handler_not_checked() -> None:
    from implementations.topaz.vm import runtime

    # Realistic: the handler is applied only when something is raised, where applying a
    # non-procedure is already an error, so the up-front check looked redundant.
    edit_function(runtime.Runtime, "p_with_handler",
                  "    if not isinstance(handler, Procedure):\n"
                  "        raise self.err(\"E312\", \"with-exception-handler: expected a "
                  "procedure as the handler\",\n"
                  "                       (handler,), d)\n",
                  "")


@bug("tv-raise-continuable-no-return", "topaz-vm", "topaz-vm analysis", "handlers",
     "the analysis of what a primitive may return treats raise-continuable like raise, as "
     "never returning several values, so when a handler returns several values to a "
     "raise-continuable used where one value is needed, the E320 check is left out and the "
     "values go on as one",
     "(define (safe-div a b)\n"
     "  (if (= b 0) (raise-continuable 'div-by-zero) (/ a b)))\n"
     "(define (try a b)\n"
     "  (with-exception-handler\n"
     "    (lambda (c) (values 0 c))\n"
     "    (lambda () (let ((q (safe-div a b))) (call-with-values (lambda () q) list)))))\n"
     "(list (try 6 3) (try 1 0))")
def _tv_raise_continuable_no_return() -> None:
    from implementations.topaz.vm import analysis, calls

    # Realistic: "a raise does not return" was written for the raise family by its prefix;
    # raise-continuable exists precisely to return the handler's values.
    edit_function(analysis, "tail_prim_result",
                  'if name == "raise":', 'if name.startswith("raise"):')
    calls.tail_prim_result = analysis.tail_prim_result
