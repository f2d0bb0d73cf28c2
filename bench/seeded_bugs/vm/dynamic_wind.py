"""Seeded bugs in vm, family "dynamic-wind"."""

from __future__ import annotations

from bench.seeded_bugs.seeding import bug, edit_function


@bug("wind-returns-after-value", "vm", "vm back end", "dynamic-wind",
     "on a normal exit, dynamic-wind returns what the after thunk returned instead of what the "
     "body thunk returned (the body's value saved in the done frame is thrown away), so a wind "
     "whose after thunk does a set! or display yields zero values",
     "(define log '())\n"
     "(define (note x) (set! log (cons x log)))\n"
     "(define r (dynamic-wind (lambda () (note 'in)) (lambda () 42) (lambda () 'after)))\n"
     "(list r (reverse log))")
def _wind_returns_after_value() -> None:
    from implementations.vm import control

    # Realistic: every other K_* frame returns the value on top of the stack; the done frame
    # is the one that must drop it and return its saved value, and was written like the rest.
    edit_function(control.Control, "control",
                  "        stack.pop()\n        return self.ret(data, handlers)\n",
                  "        return self.ret(stack.pop(), handlers)\n")
