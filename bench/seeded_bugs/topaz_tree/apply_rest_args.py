"""Seeded bugs in topaz-tree, family "apply/rest args"."""

from __future__ import annotations

from bench.seeded_bugs.seeding import bug, edit_function


@bug("rest-drops-first", "topaz-tree", "topaz-tree calling", "apply/rest args",
     "a rest parameter drops the first extra argument when the call has more than one",
     "(define (f a . rest) (list a rest))\n(f 1 2 3)")
def _rest_drops_first() -> None:
    from implementations.topaz.tree import calling, compiler

    real = calling.bind

    def bind(f, args):
        frame = real(f, args)
        if f.rest and len(args) > f.nparams + 1:
            frame[-1] = frame[-1].cdr
        return frame
    calling.bind = bind
    compiler.bind = bind


@bug("tt-rest-slot-shared", "topaz-tree", "topaz-tree back end", "apply/rest args",
     "the frame layout of a procedure with a rest parameter counts its fixed parameters only, "
     "so the first let, letrec, internal define or guard variable of its body gets the rest "
     "list's slot and overwrites it",
     "(define (tagged tag . items)\n"
     "  (let ((n (length items)))\n"
     "    (list tag n items)))\n"
     "(define (average . nums)\n"
     "  (define total (apply + nums))\n"
     "  (/ total (length nums)))\n"
     "(list (tagged 'a 1 2) (tagged 'b) (average 1 2 3 6))")
def _tt_rest_slot_shared() -> None:
    from implementations.topaz.tree import nodes

    # Realistic: every other count around it is of parameters (nparams), and the rest list is a
    # parameter in the source; the frame does hold it (bind appends it), so only the body's own
    # bindings, placed after "the parameters", collide with it.
    edit_function(nodes.NodeCompiler, "lambda_",
                  "inner = sc.procedure(nparams + rest)",
                  "inner = sc.procedure(nparams)")


@bug("tt-apply-empty-spread", "topaz-tree", "topaz-tree back end", "apply/rest args",
     "apply refuses an empty spread list with the E310 meant for an improper one, so "
     "(apply + '()) and a rest-list procedure called with no extra arguments that applies "
     "its rest list fail instead of giving 0 or the procedure's value",
     "(define (sum . xs) (apply + xs))\n"
     "(list (sum 1 2 3) (apply list 1 2 '()) (apply max 4 '(7 2)) (sum))")
def _tt_apply_empty_spread() -> None:
    from implementations.topaz.tree import control

    # Realistic: `if not spread:` for `if spread is None:` -- list_to_python gives None for a
    # list that is not proper and [] for '(), and [] is falsy too.
    edit_function(control, "p_apply", "    if spread is None:\n", "    if not spread:\n")
    control.BACKEND["apply"] = control.p_apply
