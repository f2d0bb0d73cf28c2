"""Seeded bugs in topaz-tree, family "scoping/set!"."""

from __future__ import annotations

from bench.seeded_bugs.seeding import bug, edit_function, edit_topaz_form


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
    from implementations.topaz.kernel.derived import Derived

    # Realistic: "a variable without a step keeps its init" read as "its step is its init",
    # so the init expression is evaluated again for every iteration.
    edit_topaz_form("do", Derived, "do", "steps.append(ir.Local(0, i, n, False, s))",
                    "steps.append(self.expr(_init, params, False))")


@bug("body-defines-anywhere", "topaz-tree", "kernel normalizer", "scoping/set!",
     "an internal define after an expression of a body is hoisted into the body's letrec* "
     "instead of being an E130 (definitions must lead the body)",
     "(define (f)\n  (display \"a\")\n  (define y 2)\n  y)\n(f)")
def _body_defines_anywhere() -> None:
    from implementations.topaz.kernel.normalizer import Normalizer

    # Realistic: the definitions were gathered to the front of the body with a stable sort
    # before its leading run of definitions is taken, so a define after an expression is
    # hoisted into the letrec* with the others.
    edit_function(Normalizer, "body", "    i = 0\n",
                  "    items = sorted(items, key=lambda x: not (type(x) is Seq and bool(x.items) and\n"
                  "                   symbol_name(x.items[0]) == \"define\"))\n"
                  "    i = 0\n")


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
    from implementations.topaz.kernel.derived import Derived

    # Realistic: `when` looks like a form with a body (it has a test, then "the rest"), and
    # body() is what every other body-taking form calls; R7RS gives it a sequence of expressions,
    # as unless, cond and case clauses have.
    edit_topaz_form("when", Derived, "when", "self.sequence(d.items[2:], sc, tail, d.span)",
                    "self.body(d.items[2:], sc, tail, d.span)")


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
