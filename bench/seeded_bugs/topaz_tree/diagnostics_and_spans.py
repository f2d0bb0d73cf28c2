"""Seeded bugs in topaz-tree, family "diagnostics and spans"."""

from __future__ import annotations

import dataclasses
from importlib import import_module

from bench.seeded_bugs.seeding import bug, edit_function, patch_primitive


@bug("length-improper", "topaz-tree", "kernel primitives", "diagnostics and spans",
     "length of an improper list counts its pairs instead of failing",
     "(length (cons 1 (cons 2 3)))")
def _length_improper() -> None:
    from implementations.topaz.kernel.values import Pair

    def make(real):
        def length(x):
            n = 0
            while type(x) is Pair:
                n, x = n + 1, x.cdr
            return n if n else real(x)
        return length
    patch_primitive("topaz-tree", "length", make)


@bug("column-zero-based", "topaz-tree", "topaz-tree control", "diagnostics and spans",
     "a runtime fault's span has a 0-based column", "(define x 1)\n  (car x)")
def _column_zero_based() -> None:
    from implementations.topaz.tree import control

    real = control.fault

    def fault(rt, err):
        span = err.span if err.span is not None else rt.get_site()
        if span is not None:
            err.span = dataclasses.replace(span, column=span.column - 1)
        return real(rt, err)
    control.fault = fault
    for name in ("compiler", "nodes", "calling", "guest"):
        mod = import_module(f"implementations.topaz.tree.{name}")
        if getattr(mod, "fault", None) is real:
            mod.fault = fault


@bug("fast-path-bool-is-int", "topaz-tree", "topaz-tree fast paths",
     "diagnostics and spans",
     "the exact-integer fast path of two-argument arithmetic and comparison on two local "
     "variables tests isinstance(x, int), which Python's booleans pass, so (+ #t 1) is 2 "
     "instead of E312",
     "(define (add a b) (+ a b))\n(list (add 1 2) (add #t 1))")
def _fast_path_bool_is_int() -> None:
    import implementations.topaz.tree as topaz_tree
    from implementations.topaz.tree import compiler

    # Realistic: isinstance() is the idiomatic type test in Python, and bool subclasses int.
    edit_function(compiler, "compile_program",
                  "                    if type(a) is int and type(b) is int:\n"
                  "                        return op(a, b)\n"
                  "                    return fn(a, b)\n"
                  "                return local_local\n",
                  "                    if isinstance(a, int) and isinstance(b, int):\n"
                  "                        return op(a, b)\n"
                  "                    return fn(a, b)\n"
                  "                return local_local\n")
    topaz_tree.compile_program = compiler.compile_program


@bug("qq-final-splice-shared", "topaz-tree", "kernel normalizer", "diagnostics and spans",
     "an unquote-splicing at the end of a quasiquote list becomes the list's tail as it is, "
     "without the hidden append, so a spliced non-list is accepted as a dotted tail instead of "
     "failing with E310 (and a spliced list is shared, not copied)",
     "(define (wrap body) `(begin ,@body))\n(list (wrap '(1 2)) (wrap 'oops))")
def _qq_final_splice_shared() -> None:
    from implementations.topaz.kernel.derived import Derived

    # Realistic: (append xs '()) looked like xs, so a splice in the last position was
    # "optimised" into the tail itself; append is what checks that xs is a proper list (and
    # copies it).
    edit_function(Derived, "qq_list", 'out = ir.App(ir.Intrinsic("append", x.span),',
                  "out = self.expr(x.items[1], sc, False) if type(out) is ir.Const and "
                  'out.value is NIL else ir.App(ir.Intrinsic("append", x.span),')


@bug("call2-second-operand-span", "topaz-tree", "topaz-tree back end",
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


@bug("tt-member-improper-false", "topaz-tree", "kernel primitives",
     "diagnostics and spans",
     "memq, memv and member give #f when the search reaches the end of an improper list without "
     "a match instead of failing with E310 (a match before the improper tail is still found)",
     "(list (memv 2 '(1 2 . 3)) (member \"b\" '(\"a\" \"b\")))\n"
     "(memq 'z '(x y . w))")
def _tt_member_improper_false() -> None:
    from implementations.topaz.kernel.primitives import lists

    # Realistic: the walk stops at the first non-pair and "not found" is the natural answer;
    # the final check that the list ended in '() (as length and assoc make) was forgotten.
    edit_function(lists, "_member",
                  "        if v is not NIL:\n"
                  "            raise LispexError(\"E310\", f\"{name}: expected a proper list\", (lst,))\n",
                  "")
    for name, same in (("memq", lists.eqv), ("memv", lists.eqv), ("member", lists.equal)):
        patch_primitive("topaz-tree", name, lambda real, n=name, s=same: lists._member(n, s))


@bug("tt-reraise-at-last-site", "topaz-tree", "topaz-tree back end",
     "diagnostics and spans",
     "a guard none of whose clauses matches raises the condition again from the last "
     "application made (the last clause test) instead of from the original raise, so a "
     "re-raised object nothing catches is reported (E331) at that clause test's span",
     "(define (classify x)\n"
     "  (guard (e ((string? e) 'string)\n"
     "            ((number? e) 'number))\n"
     "    (raise x)))\n"
     "(classify 'sym)")
def _tt_reraise_at_last_site() -> None:
    from implementations.topaz.tree import compiler, guard

    # Realistic: the re-raise was written like p_raise, which takes the span of the
    # application being made; the GuardUnwind carries the raise's own span for this.
    edit_function(guard, "compile_guard",
                  "return control.signal(rt, g.payload, g.continuable, g.span)",
                  "return control.signal(rt, g.payload, g.continuable, rt.get_site())")
    compiler.compile_guard = guard.compile_guard


@bug("tt-if-test-mv-at-if", "topaz-tree", "topaz-tree back end",
     "diagnostics and spans",
     "an if whose test may yield several values (a call of a procedure not known at compile "
     "time) reports the E320 of a multiple-values test at the span of the if form instead of "
     "the test's, a few columns to the left (a comparison test and a let init are right)",
     "(define (split x) (values x (- x)))\n"
     "(define (sign-of x)\n"
     "  (if (split x) 'pos 'neg))\n"
     "(display (sign-of 0))")
def _tt_if_test_mv_at_if() -> None:
    from implementations.topaz.tree.nodes import NodeCompiler

    # Realistic: the check is made by the if's code, and the span at hand there was the if
    # node's; the other single-value checks (operands, let inits) take the checked
    # expression's own span, as the tree interpreter does for the test.
    edit_function(NodeCompiler, "if_", "span = n.test.span", "span = n.span")


@bug("tt-guest-list-wrong-type", "topaz-tree", "topaz-tree back end",
     "diagnostics and spans",
     "map, for-each, filter, fold-left, fold-right, any? and all? refuse an argument that is "
     "not a proper list (a number, an improper list) with E312, as reverse refuses a non-list, "
     "instead of E310 (pair expected); the span, the primitive's call, is right",
     "(define (total xs) (fold-left + 0 xs))\n"
     "(display (total '(1 2 3)))\n"
     "(newline)\n"
     "(total 7)")
def _tt_guest_list_wrong_type() -> None:
    from implementations.topaz.tree import guest

    # Realistic: a non-list argument reads as a wrong type, and the reference gives E312 for
    # (reverse 5); for the list walks of the library it is E310, as for length.
    edit_function(guest, "elements",
                  'raise LispexError("E310", f"{name}: expected a proper list", (lst,), site)',
                  'wrong_type(name, "a proper list", lst, site)')


@bug("tt-arity-before-operands", "topaz-tree", "topaz-tree back end",
     "diagnostics and spans",
     "a call of a primitive known at compile time with the wrong number of arguments fails with "
     "E302 as soon as it is reached, before its arguments are evaluated, so their output is "
     "lost and a fault among them is reported as the E302 instead (the span, the call's, is "
     "right; a procedure called with the wrong count evaluates its arguments first)",
     "(define (show x) (display x) (newline) x)\n"
     "(show 'before)\n"
     "(cons (show 'a) (show 'b) (show 'c))")
def _tt_arity_before_operands() -> None:
    from implementations.topaz import tree
    from implementations.topaz.tree import compiler

    # Realistic: a call whose argument count is wrong is known to fail at compile time, and
    # the arguments were taken to be wasted work; R7RS evaluates the operands before the
    # application, whose arity fault comes after their effects.
    edit_function(compiler, "compile_program",
                  "                nonlocal site\n"
                  "                for a in args:\n"
                  "                    a(e)\n"
                  "                site = span\n"
                  "                raise prim_arity_error(p, k)\n",
                  "                nonlocal site\n"
                  "                site = span\n"
                  "                raise prim_arity_error(p, k)\n")
    tree.compile_program = compiler.compile_program
