"""Seeded bugs in tree, family "dynamic-wind"."""

from __future__ import annotations

from bench.seeded_bugs.seeding import bug, edit_function


@bug("dw-after-escape-handlers", "tree", "tree back end", "dynamic-wind",
     "when an escape unwinds through dynamic-wind, the after thunk runs under the handlers in "
     "force at the escape point instead of those of the dynamic-wind call",
     "(with-exception-handler (lambda (e) 10)\n"
     "  (lambda ()\n"
     "    (call/cc (lambda (k)\n"
     "      (dynamic-wind (lambda () 0)\n"
     "        (lambda () (with-exception-handler (lambda (e) 20) (lambda () (k 1))))\n"
     "        (lambda () (display (raise-continuable 'x))))))))")
def _dw_after_escape_handlers() -> None:
    from implementations.tree import control

    # Realistic: the unwind loop passes its live `handlers` register, not the frame's saved one.
    edit_function(control.Control, "unwind", "[fr[1]], fr[2], depth, fr[3]",
          "[fr[1]], handlers, depth, fr[3]")


@bug("before-escape-runs-after", "tree", "tree back end", "dynamic-wind",
     "an escape out of a dynamic-wind before thunk (a raise caught outside, a continuation "
     "call) runs the after thunk, although the dynamic extent was never entered",
     "(guard (e (#t (list 'caught e)))\n"
     "  (dynamic-wind (lambda () (display \"before \") (raise 'b))\n"
     "                (lambda () (display \"thunk \"))\n"
     "                (lambda () (display \"after \"))))")
def _before_escape_runs_after() -> None:
    from implementations.tree import control

    # Realistic: the unwinder treats both frames a dynamic-wind pushes as "inside the wind",
    # taking the extent to start at the dynamic-wind call rather than when before returns.
    edit_function(control.Control, "unwind",
                  "        elif tag == F_DW:\n",
                  "        elif tag == F_DW_BEFORE:\n"
                  "            k.append((F_UNWIND, target, action))\n"
                  "            return APPLY, None, [fr[2]], fr[3], depth, fr[4], None, None\n"
                  "        elif tag == F_DW:\n")
