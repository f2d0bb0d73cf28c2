"""Seeded bugs in vm, family "tail calls"."""

from __future__ import annotations

from bench.seeded_bugs.seeding import bug, derived_class, edit_function


@bug("cwv-consumer-not-tail", "vm", "vm back end", "tail calls",
     "the consumer of a call-with-values in tail position is applied as a nested call, so a "
     "loop through call-with-values grows the non-tail depth",
     "(define (loop n)\n  (if (= n 0) 'done\n"
     "      (call-with-values (lambda () n) (lambda (m) (loop (- m 1))))))\n(loop 20000)")
def _cwv_consumer_not_tail() -> None:
    from implementations.vm import control

    # Realistic: the consumer is applied the way the producer was (NESTED) when the caller's
    # mode is TAIL.
    edit_function(control.Control, "control",
          "return self.apply(consumer, args, mode, code, pc, env, depth, handlers)",
          "return self.apply(consumer, args, NESTED if mode == TAIL else mode, code, pc, env, "
          "depth, handlers)")


@bug("unless-not-tail", "vm", "kernel normalizer", "tail calls",
     "the body of unless is not in tail position, so a loop that recurs through unless grows "
     "the non-tail depth until the recursion limit",
     "(define (count-down n) (unless (= n 0) (count-down (- n 1))))\n(count-down 20000)\n'done")
def _unless_not_tail() -> None:
    # Realistic: unless was written by hand beside when, with the body's tail flag copied from
    # the test's (False) rather than passed on.
    edit_function(derived_class(), "form_unless", "self.seq(d.items[2:], scope, tail, d.span)",
          "self.seq(d.items[2:], scope, False, d.span)")


@bug("do-loop-takes-do-tail", "vm", "kernel normalizer", "tail calls",
     "the recursive call that runs the next iteration of a do loop is given the tail flag of "
     "the do form itself, so a do loop that is not in tail position (followed by more of its "
     "body, or an argument) grows the non-tail depth with every iteration",
     "(define (sum-below n)\n"
     "  (let ((total 0))\n"
     "    (do ((i 0 (+ i 1))) ((= i n)) (set! total (+ total i)))\n"
     "    total))\n"
     "(sum-below 20000)")
def _do_loop_takes_do_tail() -> None:
    # Realistic: every other application the expansion makes (the loop's first call) is given
    # the `tail` the form was normalized with, and the step call was written the same way; but
    # it sits in the tail of the loop lambda's own body, whatever surrounds the do.
    edit_function(derived_class(), "form_do",
                  "again = ir.App(ir.Local(1, 0, str(loop), True, d.span), steps, d.span, True)",
                  "again = ir.App(ir.Local(1, 0, str(loop), True, d.span), steps, d.span, tail)")
