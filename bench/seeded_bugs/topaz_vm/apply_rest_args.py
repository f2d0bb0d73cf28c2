"""Seeded bugs in topaz-vm, family "apply/rest args"."""

from __future__ import annotations

from bench.seeded_bugs.seeding import bug, edit_function


@bug("apply-drops-middle", "topaz-vm", "topaz-vm runtime", "apply/rest args",
     "apply passes only the spread list, dropping the arguments before it",
     "(apply + 1 2 (list 3 4))")
def _apply_drops_middle() -> None:
    from implementations.topaz.vm import runtime

    real = runtime.Runtime.p_apply

    def p_apply(self, d, tail, f, *args):
        return real(self, d, tail, f, args[-1])
    runtime.Runtime.p_apply = p_apply


@bug("tv-rest-needs-extra", "topaz-vm", "topaz-vm runtime", "apply/rest args",
     "a procedure with a rest parameter applied through the runtime (apply, map, an unknown "
     "callee) with exactly its fixed arguments fails with E302 instead of getting '()",
     "(apply (lambda (a . r) (list a r)) '(1))")
def _tv_rest_needs_extra() -> None:
    from implementations.lispex.values import list_from
    from implementations.topaz.vm import runtime

    def fit(self, d, f, args):
        n = len(args)
        if f.rest and n > f.nparams:  # the bug: `>` where `>=` is meant
            k = f.nparams
            return (*args[:k], list_from(args[k:]))
        expected = f"at least {f.nparams}" if f.rest else str(f.nparams)
        who = f.name or "anonymous procedure"
        raise self.err("E302", f"{who}: expected {expected} argument(s), got {n}", (), d)
    runtime.Runtime.fit = fit


@bug("rest-one-tuple", "topaz-vm", "topaz-vm code generator", "apply/rest args",
     "a direct call of a known procedure with a rest parameter packs the extra arguments into "
     "the Python text `_list((a, b))`, which for exactly one extra argument is `_list((a))`: "
     "not a one-element tuple, so the argument itself is taken for the sequence of rest items",
     "(define (tag label . items) (cons label items))\n"
     "(list (tag 'a 1 2) (tag 'b) (tag 'c 3))")
def _rest_one_tuple() -> None:
    from implementations.topaz.vm import calls

    # Realistic: Python's one-element tuple needs a trailing comma; `", ".join(...)` inside
    # parentheses looks right and works for zero (not generated here) or two and more items.
    edit_function(calls.Calls, "pack",
                  "f\"_list(({''.join(a + ', ' for a in rest)}))\"",
                  "f\"_list(({', '.join(rest)}))\"")
