"""Seeded bugs in topaz-tree, family "dynamic-wind"."""

from __future__ import annotations

from bench.seeded_bugs.seeding import bug


@bug("tt-wind-skips-after-on-k", "topaz-tree", "topaz-tree runtime", "dynamic-wind",
     "dynamic-wind runs its after thunk when a guard unwinds through it but not when a "
     "call/cc continuation escapes through it",
     "(define log '())\n(define r\n  (call/cc (lambda (k)\n"
     "    (dynamic-wind (lambda () (set! log (cons 'before log)))\n"
     "                  (lambda () (k 'escaped))\n"
     "                  (lambda () (set! log (cons 'after log)))))))\n(list r (reverse log))")
def _tt_wind_skips_after_on_k() -> None:
    from implementations.lispex.errors import LispexError
    from implementations.topaz.tree import control
    from implementations.topaz.tree.objects import GuardUnwind

    def p_dynamic_wind(rt, args, tail):
        before, thunk, after = args
        site = rt.get_site()
        rt.call(before, [])
        saved, saved_depth = rt.handlers, rt.get_depth()
        try:
            try:
                v = rt.call_at(thunk, [], site)
            except LispexError as err:
                control.fault(rt, err)
        # Realistic: the unwind handler was written with error unwinding in mind and catches
        # only the guard's exception, not the Escape base class a continuation also uses.
        except GuardUnwind as esc:
            rt.handlers = saved
            rt.set_depth(saved_depth)
            rt.call_at(after, [], site)
            raise esc from None
        rt.handlers = saved
        rt.call_at(after, [], site)
        return v
    control.BACKEND["dynamic-wind"] = p_dynamic_wind
