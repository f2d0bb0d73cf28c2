"""Seeded bugs in topaz-tree, family "scoping/set!"."""

from __future__ import annotations

from bench.seeded_bugs.seeding import bug, derived_class, edit_function


@bug("rebound-primitive", "topaz-tree", "topaz-tree analysis", "scoping/set!",
     "a top-level define of a primitive's name is not noticed: calls still go to the primitive",
     "(define (abs x) 99)\n(abs -5)")
def _rebound_primitive() -> None:
    from implementations.lispex import core_ir as ir
    from implementations.topaz.tree import analysis, compiler

    def assigned_slots(program):
        slots = set()
        todo = list(program.forms)
        while todo:
            n = todo.pop()
            if type(n) is ir.SetGlobal:
                slots.add(n.slot)
            todo.extend(analysis.children(n))
        return slots
    compiler.assigned_slots = assigned_slots


@bug("do-no-step-reinit", "topaz-tree", "kernel normalizer", "scoping/set!",
     "a do variable without a step is re-initialised on every iteration",
     "(do ((i 0 (+ i 1)) (acc '())) ((= i 3) acc) (set! acc (cons i acc)))")
def _do_no_step_reinit() -> None:
    from bench.seeded_bugs.seeding import derived_class
    from implementations.lispex.syntax import SList

    cls = derived_class()
    real = cls.form_do

    def form_do(self, d, scope, tail):
        items = d.items
        if len(items) >= 3 and type(items[1]) is SList:
            specs = [SList([*s.items, s.items[1]], None, s.span)
                     if type(s) is SList and len(s.items) == 2 else s for s in items[1].items]
            d = SList([items[0], SList(specs, items[1].tail, items[1].span), *items[2:]],
                      d.tail, d.span)
        return real(self, d, scope, tail)
    cls.form_do = form_do


@bug("body-defines-anywhere", "topaz-tree", "kernel normalizer", "scoping/set!",
     "an internal define after an expression of a body is hoisted into the body's letrec* "
     "instead of being an E130 (definitions must lead the body)",
     "(define (f)\n  (display \"a\")\n  (define y 2)\n  y)\n(f)")
def _body_defines_anywhere() -> None:
    from implementations.lispex.normalizer import Normalizer

    # Realistic: the body was split into definitions and expressions by filtering, not by
    # taking the leading run of definitions.
    edit_function(Normalizer, "body",
          '    while i < len(forms) and head_name(forms[i]) == "define":\n'
          '        defs.append(forms[i])\n'
          '        i += 1\n'
          '    rest = forms[i:]\n',
          '    defs = [f for f in forms if head_name(f) == "define"]\n'
          '    rest = [f for f in forms if head_name(f) != "define"]\n')


@bug("letrec-inits-first", "topaz-tree", "topaz-tree back end", "scoping/set!",
     "a letrec (and a body's internal definitions) evaluates all its inits before it fills any "
     "slot (R7RS letrec, not letrec*), so an init that reads or calls an earlier binding fails "
     "with E321",
     "(define (area r)\n"
     "  (define pi 3)\n"
     "  (define (square x) (* x x))\n"
     "  (define a (* pi (square r)))\n"
     "  a)\n"
     "(area 2)")
def _letrec_inits_first() -> None:
    from implementations.topaz.tree import nodes

    # Realistic: the let code path (evaluate the inits, then store them) was reused for letrec;
    # R7RS's letrec allows it, but Lispex's letrec and internal definitions are letrec*.
    edit_function(nodes.NodeCompiler, "letrec",
                  "        for i, c in inits:\n            e[i] = c(e)\n",
                  "        vals = [c(e) for _, c in inits]\n"
                  "        for (i, _), v in zip(inits, vals):\n            e[i] = v\n")


@bug("when-body-defines", "topaz-tree", "kernel normalizer", "scoping/set!",
     "the expressions of a when are normalized as a body, so definitions at their start are "
     "accepted as internal defines instead of being an E130 (when holds expressions only)",
     "(define (f x)\n  (when (> x 0)\n    (define y (* x 2))\n    (+ y 1)))\n(f 3)")
def _when_body_defines() -> None:
    # Realistic: `when` looks like a form with a body (it has a test, then "the rest"), and
    # body() is what every other body-taking form calls; R7RS gives it a sequence of expressions,
    # as unless, cond and case clauses have.
    edit_function(derived_class(), "form_when", "self.seq(d.items[2:], scope, tail, d.span)",
                  "self.body(d.items[2:], scope, tail, d.span)")


@bug("tt-set-single-valued", "topaz-tree", "topaz-tree back end", "scoping/set!",
     "the analysis of which expressions yield exactly one value counts a set! among the leaves "
     "that always do, so a set! used where one value is required (an if test, an operand, a "
     "let init) is not checked: its zero values pass for a true value instead of E320",
     "(define x 0)\n"
     "(define r (if (set! x 5) 'then 'else))\n"
     "(list r x)")
def _tt_set_single_valued() -> None:
    from implementations.topaz.tree import analysis

    # Realistic: R7RS's set! returns "an unspecified value", one value, and the leaf list of
    # the analysis was written from that; Lispex's set! yields zero values (LISPEX.md 5).
    edit_function(analysis.SingleValued, "_leaf",
                  "(ir.Const, ir.Local, ir.Global, ir.Intrinsic, ir.Lambda)",
                  "(ir.Const, ir.Local, ir.Global, ir.Intrinsic, ir.Lambda, ir.SetLocal,\n"
                  "             ir.SetGlobal)")


@bug("tt-set-unbound-creates", "topaz-tree", "topaz-tree back end", "scoping/set!",
     "a set! of a global that no definition has bound stores the value instead of failing "
     "with E303, as setq does at a Lisp top level, so the global is created by the assignment "
     "and later reads of it succeed (a set! of a defined global, or of a local, is right)",
     "(define (remember! x) (set! last-seen x) x)\n"
     "(display (remember! 5))\n"
     "(newline)\n"
     "(display last-seen)")
def _tt_set_unbound_creates() -> None:
    from implementations.topaz.tree.nodes import NodeCompiler

    # Realistic: the global's slot exists (every name the program mentions has one), so the
    # assignment was written as a plain store; R7RS makes set! of an unbound variable an error.
    edit_function(NodeCompiler, "set_global",
                  "        if gv[slot] is UNBOUND:\n"
                  "            raise LispexError(\"E303\", f\"set! of unbound variable "
                  "{name}\", (), span)\n",
                  "")
