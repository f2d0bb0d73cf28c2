"""Seeded bugs in vm, family "apply/rest args"."""

from __future__ import annotations

from bench.seeded_bugs.seeding import bug, edit_function


@bug("rest-needs-one", "vm", "vm back end", "apply/rest args",
     "a procedure with a rest parameter demands at least one argument beyond its required ones "
     "(an empty rest list is an arity error)",
     "(define (f a . more) (list a more))\n(list (f 1 2) (f 1))")
def _rest_needs_one() -> None:
    from implementations.vm import control

    # Realistic: off-by-one in the arity check of a variadic closure.
    edit_function(control.Control, "apply", "if n < np:", "if n <= np:")


@bug("apply-spreads-second", "vm", "vm back end", "apply/rest args",
     "apply spreads its second argument instead of its last, so (apply f lst) is right but "
     "with arguments between the procedure and the list it spreads the first of them (E310 "
     "when that is not a list, the wrong arguments when it is)",
     "(list (apply + '(1 2 3)) (apply max 1 '(5 3)))\n"
     "(list (apply list '(a) '(b c)) (apply + 1 2 '(3 4)))")
def _apply_spreads_second() -> None:
    from implementations.vm import control

    # Realistic: a one-character slip, args[1] for args[-1]; they are the same argument in
    # the usual two-argument (apply f lst), which is all most programs and tests use.
    edit_function(control.Control, "apply",
                  "spread = list_to_python(args[-1])",
                  "spread = list_to_python(args[1])")


@bug("vm-apply-shares-rest-list", "vm", "vm back end", "apply/rest args",
     "apply of a procedure whose rest parameter takes exactly the spread list (the arguments "
     "before the list fill its required parameters) binds the rest parameter to the list apply "
     "was given instead of a newly allocated copy, so (eq? lst (apply f lst)) is #t for "
     "(define (f . xs) xs)",
     "(define (collect . xs) xs)\n"
     "(define (tail-of first . more) more)\n"
     "(define items (list 1 2 3))\n"
     "(list (eq? items (apply collect items))\n"
     "      (equal? items (apply collect items))\n"
     "      (eq? (cdr items) (apply tail-of 1 (cdr items)))\n"
     "      (eq? items (collect 1 2 3)))")
def _vm_apply_shares_rest_list() -> None:
    from implementations.vm import control

    # Realistic: a fast path for the common (apply f args) of a variadic procedure: Lispex has
    # no set-car!/set-cdr!, so passing the spread list through instead of converting it to
    # Python and back looked unobservable; eq? still sees that the rest list is not fresh.
    edit_function(control.Control, "apply",
                  "                fn, args = args[0], [*args[1:-1], *spread]\n",
                  "                f0 = args[0]\n"
                  "                if type(f0) is Closure and f0.np == -1 - (n - 2):\n"
                  "                    self.tick()\n"
                  "                    e = [f0.env, *args[1:-1], args[-1]]\n"
                  "                    if mode != TAIL:\n"
                  "                        if mode == CALLER:\n"
                  "                            frames.append((code, pc, env, depth))\n"
                  "                        depth += 1\n"
                  "                        if depth > RECURSION_LIMIT:\n"
                  "                            raise ResourceExhausted(\n"
                  "                                \"recursion-limit\",\n"
                  "                                f\"non-tail call depth passed "
                  "{RECURSION_LIMIT}\")\n"
                  "                    return f0.ins, 0, e, depth, handlers\n"
                  "                fn, args = args[0], [*args[1:-1], *spread]\n")
