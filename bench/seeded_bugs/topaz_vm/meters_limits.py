"""Seeded bugs in topaz-vm, family "meters/limits"."""

from __future__ import annotations

from bench.seeded_bugs.seeding import bug, edit_function


@bug("tv-callback-at-caller-depth", "topaz-vm", "topaz-vm runtime", "meters/limits",
     "a closure the runtime calls on behalf of a primitive (a map, for-each, filter or fold "
     "callback, a dynamic-wind thunk, a non-tail call-with-values consumer) runs at the depth "
     "of the primitive's caller instead of one level deeper when its arity fits, so a "
     "recursion through map counts half its depth and passes the recursion limit",
     "(define (nest n)\n"
     "  (if (= n 0)\n"
     "      0\n"
     "      (car (map (lambda (x) (+ x (nest (- n 1)))) '(1)))))\n"
     "(nest 6000)")
def _tv_callback_at_caller_depth() -> None:
    from implementations.topaz.vm import runtime

    # Realistic: call_at's fast path was copied from tramp's, where a callee does run at the
    # depth it is given (a tail call); here the depth given is the primitive caller's.
    edit_function(runtime.Runtime, "call_at",
                  "r = f.fn(d + 1, *args)",
                  "r = f.fn(d, *args)")


@bug("tv-prologue-limit-inclusive", "topaz-vm", "topaz-vm code generator",
     "meters/limits",
     "the prologue of every generated procedure checks the recursion limit with >= instead of "
     ">, so a recursion whose non-tail depth reaches exactly 10,000 is a recursion-limit "
     "outcome (one level less is fine on every member)",
     "(define (depth n) (if (= n 0) 0 (+ 1 (depth (- n 1)))))\n"
     "(depth 10000)")
def _tv_prologue_limit_inclusive() -> None:
    from implementations.topaz.vm.codegen import Gen

    # Realistic: the callee's depth is checked on entry, and "depth 10,000 is the limit" was
    # read as the first depth refused rather than the last one allowed.
    edit_function(Gen, "lambda_def",
                  'child.emit(f"if d > {RECURSION_LIMIT}: _too_deep()")',
                  'child.emit(f"if d >= {RECURSION_LIMIT}: _too_deep()")')


@bug("tv-apply-one-level-deeper", "topaz-vm", "topaz-vm runtime", "meters/limits",
     "apply in a non-tail position runs the procedure it applies two levels deeper than its "
     "caller instead of one (apply's own application was counted as a level as well), so a "
     "recursion through a non-tail apply counts twice its depth and reaches the recursion limit "
     "at half the nesting (apply in tail position, and every other call, are right)",
     "(define (upto n acc) (if (= n 0) acc (upto (- n 1) (cons n acc))))\n"
     "(define (sum lst) (if (null? lst) 0 (+ (car lst) (apply sum (list (cdr lst))))))\n"
     "(list (sum (upto 100 '())) (sum (upto 6000 '())))")
def _tv_apply_one_level_deeper() -> None:
    from implementations.topaz.vm.runtime import Runtime

    # Realistic: the runtime's helpers are entered at the depth of the frame that called the
    # primitive, and call() adds the callee's level itself; the extra + 1 counted apply's own
    # application as a frame, which it is not (the tree interpreter has no frame for it).
    edit_function(Runtime, "p_apply", "return self.call(d, f, full)",
                  "return self.call(d + 1, f, full)")
