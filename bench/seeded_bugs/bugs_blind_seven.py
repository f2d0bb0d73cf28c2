"""Seeded bugs written blind, batch seven: by a session that did not read the fuzzer
(court/fuzz/) first, so that they measure what the generator reaches rather than what it was
written beside (see bugs.py). This batch is about meters and resource limits (transition counts
that tree and vm must share, normalization steps, the size bound on allocations), diagnostics
and their spans (error sites, phases, E320 locations, checks a fast path skips), the normalizer
(forbidden names, what a `when` body may hold), the printers (datum labels, error objects under
display) and control flow leaking Python's truthiness (`if` on a leaf test, an inline `not`)."""

from __future__ import annotations

from bench.seeded_bugs.bugs import _derived_class, bug, edit_function

# -- tree ---------------------------------------------------------------------------------------


@bug("blind7-if-leaf-test-truthy", "tree", "tree back end", "control flow",
     "an if whose test the machine evaluates in place (a variable, a constant, a primitive "
     "applied to leaves) picks its branch by Python truthiness, so a test of 0 or 0.0 takes the "
     "else branch (and (or 0 x) skips the 0); tests evaluated under a frame are still right",
     "(define (f x) (if x 'yes 'no))\n"
     "(define (g n) (if (- n 1) 'some 'none))\n"
     "(list (f 0) (f 0.0) (f '()) (f #f) (g 1) (or 0 'fallback) (if (f 0) 1 2))")
def _if_leaf_test_truthy() -> None:
    from implementations.tree import machine

    # Realistic: the frameless path of `if` was written as idiomatic Python; the F_IF frame path
    # beside it compares with `is False`, which is the Lispex rule (only #f is false).
    edit_function(machine.Machine, "run",
                  "node = node.else_ if lv[0] is False else node.then",
                  "node = node.then if lv[0] else node.else_")


@bug("blind7-internal-define-unmetered", "tree", "kernel normalizer", "meters/limits",
     "the internal definitions at the start of a body are normalized without charging the "
     "normalization-step meter for the define forms themselves (a top-level define is charged), "
     "so a program with internal defines reports fewer normalization steps than the vm",
     "(define (area r)\n"
     "  (define pi 3)\n"
     "  (define (square x) (* x x))\n"
     "  (* pi (square r)))\n"
     "(area 2)")
def _internal_define_unmetered() -> None:
    from implementations.lispex.normalizer import Normalizer

    # Realistic: every expression is charged on entry to expr(); a define in a body never goes
    # through expr() (its target is parsed by hand), and its own unit was only remembered at the
    # top level, where toplevel() dispatches it.
    edit_function(Normalizer, "body",
                  "        self.step()\n        names.append(self.define_target(dd))\n",
                  "        names.append(self.define_target(dd))\n")


@bug("blind7-allocation-bound-inclusive", "tree", "kernel primitives", "meters/limits",
     "make-list, make-vector, make-string and make-bytevector refuse a length of exactly "
     "10,000,000 (E311): the size bound is applied one element early",
     "(list (bytevector-length (make-bytevector 10000000 7))\n"
     "      (string-length (make-string 10000000 #\\a))\n"
     "      (length (make-list 3 0)))")
def _allocation_bound_inclusive() -> None:
    from implementations.lispex.primitives import errors_util, pairs, strings, vectors

    # Realistic: "the largest supported length" read as an exclusive bound; the reference says a
    # length *past* 10,000,000 is out of range, so 10,000,000 itself is made.
    edit_function(errors_util, "allocation_length", "if n > MAX_LENGTH:", "if n >= MAX_LENGTH:")
    for module in (pairs, strings, vectors):  # they imported the name
        module.allocation_length = errors_util.allocation_length


# -- vm -----------------------------------------------------------------------------------------


@bug("blind7-discarded-constant-unpaid", "vm", "vm back end", "meters/limits",
     "the linker drops a constant or lambda whose value a sequence discards without paying its "
     "machine transition, so a body that starts with a documentation string (or holds any "
     "discarded constant) counts fewer transitions than the tree interpreter each time it runs",
     "(define (square x)\n  \"the square of x\"\n  (* x x))\n"
     "(list (square 3) (square 4) (begin 'ignored (lambda (y) y) 5))")
def _discarded_constant_unpaid() -> None:
    from implementations.vm import link

    # Realistic: a dropped item is never evaluated, so only the discard's own weight was carried
    # to the next instruction; the item's weight (the unit the tree interpreter pays for entering
    # the constant) went with it.
    edit_function(link.CodeLinker, "op_discard", 'self.carry += led + [(w, None, ("pop",))]',
                  'self.carry += [(w, None, ("pop",))]')


@bug("blind7-inline-site-before-operands", "vm", "vm back end", "diagnostics and spans",
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


@bug("blind7-forbidden-variable-fast-path", "vm", "kernel normalizer", "diagnostics and spans",
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


# -- topaz-tree ---------------------------------------------------------------------------------


@bug("blind7-call2-second-operand-span", "topaz-tree", "topaz-tree back end",
     "diagnostics and spans",
     "a non-tail call of a procedure with two arguments whose second argument yields several "
     "(or no) values reports the E320 at the first argument's span instead of the second's",
     "(define (pick a b) b)\n(list (pick 'first (values 2 3)))")
def _call2_second_operand_span() -> None:
    import implementations.topaz.tree as topaz_tree
    from implementations.topaz.tree import compiler

    # Realistic: each arity's call closure was written by copying the one before it; in the
    # non-tail two-argument one the second check kept the first check's span.
    edit_function(compiler, "compile_program",
                  "            def call2(e: Any) -> Any:\n"
                  "                nonlocal site, steps, depth\n"
                  "                f = gv[gslot] if gslot >= 0 else opc(e)\n"
                  "                if f is UNBOUND:\n"
                  "                    raise unbound(op)\n"
                  "                x = a(e)\n"
                  "                if ca and type(x) is Values:\n"
                  "                    raise multiple(sa, x)\n"
                  "                y = b(e)\n"
                  "                if cb and type(y) is Values:\n"
                  "                    raise multiple(sb, y)\n",
                  "            def call2(e: Any) -> Any:\n"
                  "                nonlocal site, steps, depth\n"
                  "                f = gv[gslot] if gslot >= 0 else opc(e)\n"
                  "                if f is UNBOUND:\n"
                  "                    raise unbound(op)\n"
                  "                x = a(e)\n"
                  "                if ca and type(x) is Values:\n"
                  "                    raise multiple(sa, x)\n"
                  "                y = b(e)\n"
                  "                if cb and type(y) is Values:\n"
                  "                    raise multiple(sa, y)\n")
    topaz_tree.compile_program = compiler.compile_program


@bug("blind7-shared-structure-labels", "topaz-tree", "topaz-tree printer", "printing",
     "write and display give datum labels to every container the walk meets twice (R7RS "
     "write-shared) rather than only to those that contain themselves, so a list or vector that "
     "shares a sub-structure with no cycle prints as #0=... #0# once a mutable vector is in it",
     "(define v (vector 1 2))\n(define p (list 'a 'b))\n"
     "(write (list v v))\n(newline)\n(display (vector p p))")
def _shared_structure_labels() -> None:
    from implementations.topaz.tree import printer

    # Realistic: a container met again was taken for a cycle without asking whether the walk
    # was still inside it (the state kept for exactly that question); R7RS write labels cycles
    # only, and prints shared structure in full.
    edit_function(printer, "back_edges",
                  "        if state is not None:\n"
                  "            if state:\n"
                  "                found.add(key)\n"
                  "            continue\n",
                  "        if state is not None:\n"
                  "            found.add(key)\n"
                  "            continue\n")


@bug("blind7-when-body-defines", "topaz-tree", "kernel normalizer", "scoping/set!",
     "the expressions of a when are normalized as a body, so definitions at their start are "
     "accepted as internal defines instead of being an E130 (when holds expressions only)",
     "(define (f x)\n  (when (> x 0)\n    (define y (* x 2))\n    (+ y 1)))\n(f 3)")
def _when_body_defines() -> None:
    # Realistic: `when` looks like a form with a body (it has a test, then "the rest"), and
    # body() is what every other body-taking form calls; R7RS gives it a sequence of expressions,
    # as unless, cond and case clauses have.
    edit_function(_derived_class(), "form_when", "self.seq(d.items[2:], scope, tail, d.span)",
                  "self.body(d.items[2:], scope, tail, d.span)")


# -- topaz-vm -----------------------------------------------------------------------------------


@bug("blind7-inline-not-truthy", "topaz-vm", "topaz-vm back end", "control flow",
     "the inline not of a variable is Python's `not`, so (not x) is #t when x is 0 or 0.0, in a "
     "test as well as for its value (a literal operand still goes to the kernel primitive)",
     "(define (none? x) (not x))\n"
     "(define (sign x) (if (not x) 'missing x))\n"
     "(list (none? 0) (none? #f) (none? '()) (sign 0) (sign 0.0) (not 0))")
def _inline_not_truthy() -> None:
    from implementations.topaz.vm import calls

    # Realistic: Lispex `not` written as the Python operator of the same name; the kernel's
    # `not`, and every other inline test here, compare with `is False`.
    edit_function(calls.Calls, "inline", 'return f"({a} is False)"', 'return f"(not {a})"')


@bug("blind7-discarded-read-unchecked", "topaz-vm", "topaz-vm back end",
     "diagnostics and spans",
     "a variable read whose value a sequence discards is left out of the generated code like a "
     "discarded constant, so an unbound global (E300) or a letrec variable read before its "
     "initialisation (E321) in a non-final body position goes unreported",
     "(define (f) undefined-setting 'ok)\n"
     "(define (g) (define a (begin b 1)) (define b 2) a)\n"
     "(define (try thunk) (guard (e ((error-object? e) (error-object-message e))) (thunk)))\n"
     "(list (try f) (try g))")
def _discarded_read_unchecked() -> None:
    from implementations.topaz.vm import codegen

    # Realistic: "reading a variable has no effect" is true of its value, not of its checks: an
    # unbound or uninitialised variable faults when read, even when the value is thrown away.
    edit_function(codegen.Gen, "effect",
                  "if t is ir.Const or t is ir.Intrinsic or t is ir.Lambda:",
                  "if t is ir.Const or t is ir.Intrinsic or t is ir.Lambda or t is ir.Global "
                  "or t is ir.Local:")


@bug("blind7-display-error-message-raw", "topaz-vm", "topaz-vm printer", "printing",
     "display of an error object shows its message raw, #<error-object disk full>, instead of "
     "written in quotes as write (and every other member) shows it",
     "(define e (guard (c (#t c)) (error \"disk full\" 'sda1)))\n"
     "(display e)\n(newline)\n(display (list e))\n(newline)\n(write e)")
def _display_error_message_raw() -> None:
    from implementations.topaz.vm import printer

    # Realistic: the message is a string, and display shows strings raw; but the error object's
    # printed form is one opaque token that quotes its message under both write and display.
    edit_function(printer, "_atom",
                  "        return \"#<error-object \" + string_literal(m.s if type(m) is Str "
                  "else str(m)) + \">\"\n",
                  "        text = m.s if type(m) is Str else str(m)\n"
                  "        return \"#<error-object \" + (string_literal(text) if write else text) "
                  "+ \">\"\n")
