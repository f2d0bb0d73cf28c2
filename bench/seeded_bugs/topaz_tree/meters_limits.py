"""Seeded bugs in topaz-tree, family "meters/limits"."""

from __future__ import annotations

from bench.seeded_bugs.seeding import bug, edit_function


@bug("tt-call2-depth-early", "topaz-tree", "topaz-tree back end", "meters/limits",
     "the non-tail call of a closure with two arguments checks the recursion limit with >= "
     "instead of >, so a recursion through a two-argument procedure stops one level early: a "
     "non-tail depth of exactly 10,000 is a recursion-limit (other arities are right)",
     "(define (down n acc) (if (= n 0) acc (+ 1 (down (- n 1) acc))))\n"
     "(down 10000 0)")
def _tt_call2_depth_early() -> None:
    from implementations.topaz import tree
    from implementations.topaz.tree import compiler

    # Realistic: the application is specialised into a copy per arity and tail position;
    # an off-by-one in one copy is invisible unless a program recurses to the exact limit
    # through that arity.
    edit_function(compiler, "compile_program",
                  "                    if depth > RECURSION_LIMIT:\n"
                  "                        raise too_deep()\n"
                  "                    r = f.body([f.env, x, y])\n",
                  "                    if depth >= RECURSION_LIMIT:\n"
                  "                        raise too_deep()\n"
                  "                    r = f.body([f.env, x, y])\n")
    tree.compile_program = compiler.compile_program


@bug("tt-apply-limit-inclusive", "topaz-tree", "topaz-tree back end", "meters/limits",
     "the general application path (more than three arguments, a rest parameter, apply, a "
     "callback) checks the non-tail depth with >= instead of >, so a recursion through it that "
     "reaches exactly the limit (10,000) is a recursion-limit outcome; the arity-specialised "
     "call paths still allow it",
     "(define (deep n a b c)\n"
     "  (if (= n 0) (list a b c) (cons n (cdr (deep (- n 1) a b c)))))\n"
     "(deep 10000 'x 'y 'z)")
def _tt_apply_limit_inclusive() -> None:
    import implementations.topaz.tree as topaz_tree
    from implementations.topaz.tree import compiler

    # Realistic: the same check is written out in five places (apply and the four call
    # fast paths); the one in apply was typed as "at the limit", an off-by-one only a
    # recursion exactly at the boundary shows.
    edit_function(compiler, "compile_program",
                  "            if depth > RECURSION_LIMIT:\n"
                  "                raise too_deep()\n"
                  "            r = f.body(frame)\n",
                  "            if depth >= RECURSION_LIMIT:\n"
                  "                raise too_deep()\n"
                  "            r = f.body(frame)\n")
    topaz_tree.compile_program = compiler.compile_program


@bug("tt-qq-vector-list-unmetered", "topaz-tree", "kernel normalizer", "meters/limits",
     "the list a quasiquoted vector's items are expanded through (the template holds an "
     "unquote) is expanded without charging its normalization step, so a vector template "
     "with an unquote costs one step less than it should",
     "(define x 5)\n"
     "(define v `#(a ,x (b ,x)))\n"
     "(list v `(1 ,x))")
def _tt_qq_vector_list_unmetered() -> None:
    from implementations.topaz.kernel import core_ir as ir
    from implementations.topaz.kernel.derived import Derived
    from implementations.topaz.kernel.syntax import Seq, Vec

    real = Derived.qq

    # Realistic: a vector template was taken for a list template in disguise and sent straight
    # to the list expansion of its items, ahead of the entry qq (which only seemed to add the
    # step charge and the liveness test); every other template node is still charged.
    def qq(self, t, depth, sc, tail=False):
        if type(t) is Vec and self._live(t, depth):
            items = self.qq_list(Seq(t.items, None, t.span), depth, sc)
            return ir.App(ir.Intrinsic("list->vector", t.span), [items], False, t.span)
        return real(self, t, depth, sc, tail)
    Derived.qq = qq


@bug("tt-guard-catch-keeps-depth", "topaz-tree", "topaz-tree back end",
     "meters/limits",
     "a guard that catches a condition raised inside non-tail calls restores the handler "
     "chain it saved but not the non-tail depth, so the depth of every call the condition "
     "unwound through stays counted: a loop that catches errors raised from deep recursion "
     "reaches the recursion limit",
     "(define (dive n) (if (= n 0) (raise 'bottom) (+ 1 (dive (- n 1)))))\n"
     "(define (attempt) (guard (e ((symbol? e) e)) (dive 50)))\n"
     "(define (repeat k) (if (= k 0) (attempt) (begin (attempt) (repeat (- k 1)))))\n"
     "(repeat 300)")
def _tt_guard_catch_keeps_depth() -> None:
    from implementations.topaz.tree import compiler, guard

    # Realistic: a non-tail call gives its unit of depth back after the callee returns, and
    # the Python exception that carries the condition to the guard skips all those returns;
    # call/cc and dynamic-wind restore the depth they saved, the guard only its handlers.
    edit_function(guard, "compile_guard", "            rt.set_depth(saved_depth)\n", "")
    compiler.compile_guard = guard.compile_guard


@bug("tt-call3-depth-kept", "topaz-tree", "topaz-tree back end", "meters/limits",
     "the non-tail call of a closure with three arguments does not give its unit of non-tail "
     "depth back when the callee returns, so the depth grows with every such call made, "
     "nested or not: a loop that calls a three-argument procedure 10,001 times reaches the "
     "recursion limit",
     "(define (clamp x lo hi) (max lo (min x hi)))\n"
     "(define (total n acc) (if (= n 0) acc (total (- n 1) (+ acc (clamp n 10 20)))))\n"
     "(total 12000 0)")
def _tt_call3_depth_kept() -> None:
    from implementations.topaz import tree
    from implementations.topaz.tree import compiler

    # Realistic: each arity has its own copy of the call path; the line that gives the depth
    # back after the callee's bounce was lost in one copy, which only a long-running program
    # through that arity notices.
    edit_function(compiler, "compile_program",
                  "                r = f.body([f.env, x, y, z])\n"
                  "                if type(r) is tuple:\n"
                  "                    r = bounce(r)\n"
                  "                depth -= 1\n",
                  "                r = f.body([f.env, x, y, z])\n"
                  "                if type(r) is tuple:\n"
                  "                    r = bounce(r)\n")
    tree.compile_program = compiler.compile_program
