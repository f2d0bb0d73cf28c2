"""Seeded bugs in vm, family "diagnostics and spans"."""

from __future__ import annotations

from bench.seeded_bugs.seeding import bug, edit_function


@bug("call-site-operator-span", "vm", "vm back end", "diagnostics and spans",
     "a call of a global procedure records the span of the operator name, not of the whole "
     "application, as its error site, so an arity fault (or a fault of a primitive bound to a "
     "user global) is reported one column to the right",
     "(define (area w h) (* w h))\n(area 3)")
def _call_site_operator_span() -> None:
    from implementations.vm import machine

    # Realistic: the CALLG instruction carries two spans (the global's, for its E300 check, and
    # the call's), and the site register was set from the wrong one.
    edit_function(machine.Machine, "run",
                  "                                a.append(e(env))\n"
                  "                        st.site = span\n",
                  "                                a.append(e(env))\n"
                  "                        st.site = gspan\n")


@bug("inline-site-before-operands", "vm", "vm back end", "diagnostics and spans",
     "an inline evaluator records a primitive call's error site before evaluating its operands "
     "instead of just before the primitive runs, so a fault of an outer primitive whose operand "
     "is itself a primitive call is reported at the inner call's span",
     "(define (second lst) (car (cdr lst)))\n(second '(1))")
def _inline_site_before_operands() -> None:
    from implementations.vm import treegen

    # Realistic: the site recorded when the call is entered, as one naturally writes it; but the
    # operands' own calls move the site register again before the primitive itself runs.
    operands = ("    args = []\n"
                "    for c in children:\n"
                "        a = self.expr(c, lines)\n"
                "        if c[0] == \"closure\":  # created in order, like the tree interpreter does\n"
                "            t = self.temp()\n"
                "            lines.append(f\"{t} = {a}\")\n"
                "            a = t\n"
                "        args.append(a)\n")
    record = "    s = self.ref(span)\n    lines.append(f\"st.site = {s}\")\n"
    edit_function(treegen.TreeGen, "call", operands + record, record + operands)


@bug("forbidden-variable-fast-path", "vm", "kernel normalizer", "diagnostics and spans",
     "a forbidden name (let-values, define-syntax, ...) used as a variable reference is not "
     "rejected with E120 by the normalizer: it becomes a global reference that fails at run time "
     "with E300 only if it is evaluated (as an operator, or inside quote, it is still E120)",
     "(define (pair-up a b) (list a let-values b))\n(pair-up 1 2)")
def _forbidden_variable_fast_path() -> None:
    from implementations.lispex.normalizer import Normalizer

    # Realistic: the symbol case of _expr is variable() and ref() written out for speed, and the
    # inlined guard kept only the reserved-word half of the checks variable() makes.
    edit_function(Normalizer, "_expr",
                  "if name in FORBIDDEN or name in SYNTACTIC_KEYWORDS:",
                  "if name in SYNTACTIC_KEYWORDS:")


@bug("warnings-only-on-success", "vm", "kernel run", "diagnostics and spans",
     "the warnings of a run are reported only when it succeeds: a program that used % or "
     "list-first and then fails (a runtime error, a resource outcome) loses the W330/W331 "
     "warnings it had already produced, where the catalog keeps earlier warnings",
     "(define (half-mod x) (% x 2))\n"
     "(display (half-mod 7))\n"
     "(display (list-first '(a b)))\n"
     "(car (half-mod 8))")
def _warnings_only_on_success() -> None:
    from implementations.lispex import run

    # Realistic: "warnings never abort" was read as "warnings belong to a finished run", and
    # they were attached where the values are; every successful run is unchanged.
    edit_function(run, "evaluate",
                  "for code, span in ctx.warnings]",
                  "for code, span in ctx.warnings] if obs.status == \"ok\" else []")


@bug("duplicate-at-first-binder", "vm", "kernel normalizer", "diagnostics and spans",
     "a name bound twice in one binding list (lambda parameters, let bindings, do variables, "
     "a body's internal definitions) is reported (E130) at its first occurrence instead of at "
     "the duplicate",
     "(define (ok a b) (+ a b))\n"
     "(display (ok 1 2))\n"
     "(define (pick first second first)\n"
     "  second)")
def _duplicate_at_first_binder() -> None:
    from implementations.lispex import normalizer

    # Realistic: the atom of the offending name is found again with names.index(n), which
    # is the first occurrence, the one that was fine.
    edit_function(normalizer.Normalizer, "binders",
                  'f"duplicate {what} {n}", a.span)',
                  'f"duplicate {what} {n}", atoms[names.index(n)].span)')


@bug("vm-unbound-operator-app-span", "vm", "vm back end", "diagnostics and spans",
     "a call of an unbound global whose operands are all evaluated in place reports its E300 "
     "at the span of the whole application instead of the operator's name, one column to the "
     "left (an unbound operand, or an operator called with a computed operand, is right)",
     "(define (greet name) (string-append \"hi \" name))\n"
     "(display (greet \"ann\"))\n"
     "(newline)\n"
     "(gret \"bob\")")
def _vm_unbound_operator_app_span() -> None:
    from implementations.vm.machine import Machine

    # Realistic: the fused call instruction unpacks both the operator's span and the call's,
    # side by side; the unbound-variable check took the one the next lines use as the site.
    edit_function(Machine, "run",
                  'raise LispexError("E300", f"unbound variable {name}", (), gspan)',
                  'raise LispexError("E300", f"unbound variable {name}", (), span)')


@bug("vm-e332-at-handler-site", "vm", "vm back end", "diagnostics and spans",
     "the E332 made when a handler returns from a non-continuable raise takes the machine's "
     "site register as its span, which by then holds the last application made inside the "
     "handler, so an uncaught E332 is reported there (a display in the handler, say) instead of "
     "at the raise",
     "(define (careful thunk)\n"
     "  (with-exception-handler\n"
     "    (lambda (c) (display \"noted \") (display c) (newline) 'ignored)\n"
     "    thunk))\n"
     "(careful (lambda () (+ 1 (raise 'boom))))")
def _vm_e332_at_handler_site() -> None:
    from implementations.vm import control

    # Realistic: faults the machine raises itself are reported at the site register, and the
    # E332 was written like one of them; the span saved in the raise frame is the one that
    # still points at the raise once the handler has run.
    edit_function(control.Control, "control",
                  "list_from([payload]), span)\n"
                  "        return self.signal(err, False, span, depth, handlers)",
                  "list_from([payload]), self.st.site)\n"
                  "        return self.signal(err, False, self.st.site, depth, handlers)")


@bug("vm-fast-path-no-site", "vm", "vm back end", "diagnostics and spans",
     "the evaluator generator records a primitive call's error site only for primitives it has "
     "no fast path for, so when the fast path of car, cdr, +, <, zero? and the like falls back "
     "to the kernel and that faults (car of '(), + of a symbol), the error is reported at the "
     "last application recorded before it (the enclosing call) instead of at the primitive's call",
     "(define (second lst) (car (cdr lst)))\n"
     "(display (second '(1 2)))\n"
     "(newline)\n"
     "(second '(1))")
def _vm_fast_path_no_site() -> None:
    from implementations.vm.treegen import TreeGen

    # Realistic: a fast path cannot fail, so the site store looked like dead weight there; but
    # every fast path falls back to the kernel function, which can.
    edit_function(TreeGen, "call",
                  '    lines.append(f"st.site = {s}")\n'
                  '    r = self.temp()\n'
                  '    fast = FAST.get(prim.name)\n',
                  '    r = self.temp()\n'
                  '    fast = FAST.get(prim.name)\n'
                  '    if not fast:\n'
                  '        lines.append(f"st.site = {s}")\n')
