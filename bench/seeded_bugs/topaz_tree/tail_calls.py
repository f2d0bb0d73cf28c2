"""Seeded bugs in topaz-tree, family "tail calls"."""

from __future__ import annotations

from bench.seeded_bugs.seeding import bug, edit_function, edit_topaz_form


@bug("tt-case-not-tail", "topaz-tree", "kernel normalizer", "tail calls",
     "the bodies of case clauses are not in tail position, so a loop through case grows the "
     "stack until the recursion limit",
     "(define (count n) (case n ((0) 'done) (else (count (- n 1)))))\n(count 20000)")
def _tt_case_not_tail() -> None:
    from implementations.topaz.kernel.derived import Derived

    # Realistic: the clause bodies were normalised with the same `False` as the key expression.
    edit_topaz_form("case", Derived, "case",
                    "self._case(clauses, 0, inner, tail, d.span)",
                    "self._case(clauses, 0, inner, False, d.span)")


@bug("wide-call-not-tail", "topaz-tree", "topaz-tree back end", "tail calls",
     "a call with more than three arguments is never a tail call, so a loop whose procedure "
     "(or named let, or do loop) has four or more variables grows the non-tail depth until the "
     "recursion limit",
     "(do ((i 0 (+ i 1)) (a 0 (+ a i)) (b 0 (- b 1)) (c 'x c))\n"
     "    ((= i 20000) (list a b c)))")
def _wide_call_not_tail() -> None:
    import implementations.topaz.tree as topaz_tree
    from implementations.topaz.tree import compiler

    # Realistic: calls of up to three arguments have hand-written tail and non-tail variants;
    # the general path for wider calls was written once, as a plain (non-tail) application.
    edit_function(compiler, "compile_program", "return apply(f, vals, tail)",
                  "return apply(f, vals, False)")
    topaz_tree.compile_program = compiler.compile_program


@bug("tt-bounce-at-caller-depth", "topaz-tree", "topaz-tree back end", "tail calls",
     "a non-tail call of a one-argument procedure gives its unit of non-tail depth back as soon "
     "as the callee's body returns, before running the tail call the body handed back, so that "
     "tail call (and everything it calls) runs one level too shallow: a recursion that goes "
     "through a one-argument procedure tail-calling another never reaches the recursion limit",
     "(define (down n) (if (= n 0) 0 (+ 1 (step n))))\n"
     "(define (step n) (down (- n 1)))\n"
     "(down 10200)")
def _tt_bounce_at_caller_depth() -> None:
    from implementations.topaz import tree
    from implementations.topaz.tree import compiler

    # Realistic: "the callee has returned, so its level is over" -- but a pending tail call
    # replaces the callee, not the caller, and must run at the callee's depth. The other arity
    # paths bounce first and give the depth back after.
    edit_function(compiler, "compile_program",
                  "r = f.body([f.env, x])\n"
                  "                    if type(r) is tuple:\n"
                  "                        r = bounce(r)\n"
                  "                    depth -= 1\n",
                  "r = f.body([f.env, x])\n"
                  "                    depth -= 1\n"
                  "                    if type(r) is tuple:\n"
                  "                        r = bounce(r)\n")
    tree.compile_program = compiler.compile_program
