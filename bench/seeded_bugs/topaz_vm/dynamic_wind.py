"""Seeded bugs in topaz-vm, family "dynamic-wind"."""

from __future__ import annotations

from bench.seeded_bugs.seeding import bug, edit_function


@bug("dynamic-wind-after-skipped", "topaz-vm", "topaz-vm runtime", "dynamic-wind",
     "dynamic-wind does not run the after thunk when the body escapes with an error caught "
     "outside",
     "(define log '())\n(guard (e (#t (reverse log)))\n  (dynamic-wind\n"
     "    (lambda () (set! log (cons 'in log)))\n    (lambda () (car '()))\n"
     "    (lambda () (set! log (cons 'out log)))))")
def _dynamic_wind_after_skipped() -> None:
    from implementations.topaz.vm import runtime

    def p_dynamic_wind(self, d, tail, before, thunk, after):
        site = self.site_get()
        self.call(d, before, ())
        try:
            value = self.call_at(d, site, thunk, ())
        except Exception:
            raise
        self.call_at(d, site, after, ())
        return value
    runtime.Runtime.p_dynamic_wind = p_dynamic_wind


@bug("tv-wind-after-on-uncaught", "topaz-vm", "topaz-vm back end", "dynamic-wind",
     "dynamic-wind runs its after thunk for any Python exception leaving the body, not only "
     "for escapes, so an uncaught raise or error (which ends the run, running nothing on the "
     "way out) still runs the after thunk and its output is kept",
     "(define (note s) (display s))\n"
     "(dynamic-wind\n"
     "  (lambda () (note \"[in]\"))\n"
     "  (lambda () (note \"[body]\") (car '()))\n"
     "  (lambda () (note \"[out]\")))")
def _tv_wind_after_on_uncaught() -> None:
    from implementations.topaz.vm import runtime

    # Realistic: dynamic-wind as try/except around the body, with "everything that unwinds"
    # taken to be every exception; the uncaught condition (Raised) is one too.
    edit_function(runtime.Runtime, "p_dynamic_wind",
                  "    except ESCAPES:\n",
                  "    except Exception:\n")


@bug("tv-wind-escape-after-site", "topaz-vm", "topaz-vm runtime", "dynamic-wind",
     "when an escape (a continuation call, a guard catching) unwinds through dynamic-wind, "
     "the after thunk is applied as a plain call rather than at the dynamic-wind's site, so a "
     "fault of applying it (not a procedure, wrong arity) is reported at the last "
     "application inside the body instead of at the dynamic-wind (a normal exit is right)",
     "(define (leave k) (k 'left))\n"
     "(call/cc\n"
     "  (lambda (k)\n"
     "    (dynamic-wind\n"
     "      (lambda () (display \"in \"))\n"
     "      (lambda () (leave k))\n"
     "      (lambda (why) why))))")
def _tv_wind_escape_after_site() -> None:
    from implementations.topaz.vm.runtime import Runtime

    # Realistic: the escape path was written from the before thunk's line above it, which is
    # a plain non-tail call (the site is still the dynamic-wind's there).
    edit_function(Runtime, "p_dynamic_wind",
                  "        self.h = saved\n"
                  "        self.call_at(d, site, after, ())\n",
                  "        self.h = saved\n"
                  "        self.call(d, after, ())\n")
