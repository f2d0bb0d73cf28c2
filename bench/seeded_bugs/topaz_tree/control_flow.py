"""Seeded bugs in topaz-tree, family "control flow"."""

from __future__ import annotations

import operator
from typing import Any

from bench.seeded_bugs.seeding import bug, edit_function


@bug("fast-greater-equal", "topaz-tree", "topaz-tree fast paths", "control flow",
     "the integer fast path of >= is >", "(let loop ((i 0)) (if (>= i 3) i (loop (+ i 1))))"
     "\n(list (>= 3 3) (>= 2 3))")
def _fast_greater_equal() -> None:
    from implementations.topaz.tree import fastops

    fastops.BINARY[">="] = operator.gt


@bug("any-returns-value", "topaz-tree", "topaz-tree guest library", "control flow",
     "any? returns the first true result of the predicate (as SRFI-1 any does) instead of #t",
     "(any? (lambda (x) (and (> x 1) (* x 10))) '(1 2 3))")
def _any_returns_value() -> None:
    from implementations.topaz.tree import control, guest

    # Realistic: written after SRFI-1's `any`, which returns the predicate's value.
    def g_any(rt: Any, args: list, tail: bool) -> Any:
        f, lst = args
        site = rt.get_site()
        for x in guest.elements("any?", lst, site):
            v = guest.one("any?", rt.call_at(f, [x], site), site)
            if v is not False:
                return v
        return False
    control.BACKEND["any?"] = g_any


@bug("nested-quasiquote-depth", "topaz-tree", "kernel normalizer", "control flow",
     "a quasiquote nested in a quasiquote template does not raise the nesting level, so an "
     "unquote inside the inner template is evaluated instead of kept as data",
     "(define x 5)\n(list `(a `(b ,x)) `(c ,x))")
def _nested_quasiquote_depth() -> None:
    from implementations.topaz.kernel.derived import Derived

    # Realistic: the level is lowered for unquote but the matching raise for a nested
    # quasiquote was forgotten.
    edit_function(Derived, "qq", "inner = self.qq(t.items[1], depth + 1, sc)",
                  "inner = self.qq(t.items[1], depth, sc)")


@bug("fold-left-srfi-order", "topaz-tree", "topaz-tree back end", "control flow",
     "fold-left (and its alias reduce) calls the procedure as (f element accumulator), the "
     "order of SRFI-1 fold, instead of (f accumulator element): (fold-left - 0 '(1 2 3)) is 2, "
     "not -6",
     "(list (fold-left - 0 '(1 2 3)) (fold-left cons '() '(a b))\n"
     "      (reduce + 0 '(1 2 3)) (fold-right cons '() '(a b)))")
def _fold_left_srfi_order() -> None:
    from implementations.topaz.tree import control, guest

    # Realistic: SRFI-1's fold, the fold most Schemers know, calls (kons elem acc); Lispex's
    # fold-left is R6RS's, (f acc elem). A commutative + (the usual test) cannot tell them apart.
    edit_function(guest, "g_fold_left", "call(f, [acc, x], site)", "call(f, [x, acc], site)")
    guest.GUEST["fold-left"] = control.BACKEND["fold-left"] = guest.g_fold_left


@bug("tt-wide-call-operator-late", "topaz-tree", "topaz-tree back end", "control flow",
     "a call of a global procedure with more than three arguments checks that the global is "
     "bound only after evaluating the arguments, so their output and faults come before the "
     "E300 that should have stopped them (calls with up to three arguments are right)",
     "(define (note x) (display x) x)\n"
     "(guard (e (#t (list 'caught (error-object-message e))))\n"
     "  (combine (note 1) (note 2) (note 3) (car '())))")
def _tt_wide_call_operator_late() -> None:
    from implementations.topaz import tree
    from implementations.topaz.tree import compiler

    # Realistic: the general path was written as "read the callee, evaluate the arguments, then
    # apply", with the unbound check moved next to the application; the operator is evaluated
    # (and must fail) first, as the specialised paths for zero to three arguments do.
    edit_function(compiler, "compile_program",
                  "                if f is UNBOUND:\n"
                  "                    raise unbound(op)\n"
                  "                vals = [a(e) for a in args]\n",
                  "                vals = [a(e) for a in args]\n"
                  "                if f is UNBOUND:\n"
                  "                    raise unbound(op)\n")
    tree.compile_program = compiler.compile_program


@bug("tt-constant-left-not-mirrored", "topaz-tree", "topaz-tree back end",
     "control flow",
     "an if whose test compares an integer constant with a local variable, (< 0 n), swaps the "
     "operands so that the local-and-constant fast path serves it, without mirroring the "
     "comparison: (< 0 n) is decided as (< n 0) (only = and the tests with the constant on the "
     "right are right)",
     "(define (sign n)\n"
     "  (if (< 0 n) 'positive (if (> 0 n) 'negative 'zero)))\n"
     "(define (at-least-ten? n) (if (>= n 10) #t #f))\n"
     "(list (map sign '(5 -3 0 2.5)) (at-least-ten? 12) (if (= 3 (+ 1 2)) 'eq 'ne))")
def _tt_constant_left_not_mirrored() -> None:
    from implementations.topaz import tree
    from implementations.topaz.tree import compiler

    # Realistic: "put the constant on the right" is a standard canonicalisation, and it is right
    # as it stands for = (and + and *); for < <= > >= it needs the mirrored operator too.
    edit_function(compiler, "compile_program",
                  "        x, y = t.args\n"
                  "        i = here(x, sc)\n",
                  "        x, y = t.args\n"
                  "        if type(x) is ir.Const and type(x.value) is int and here(y, sc):\n"
                  "            x, y = y, x  # the constant on the right, as the fast path wants\n"
                  "        i = here(x, sc)\n")
    tree.compile_program = compiler.compile_program


@bug("tt-wind-faults-pass-through", "topaz-tree", "topaz-tree back end",
     "control flow",
     "dynamic-wind does not dispatch a fault of its body at its own boundary: a primitive "
     "fault (car of '(), an error call) travels on as a Python exception to the next construct "
     "out, so when a guard outside catches it the after thunk never runs (a raise, which is "
     "signalled where it happens and unwinds as an escape, still runs it)",
     "(define log '())\n"
     "(define (note x) (set! log (cons x log)))\n"
     "(define (attempt thunk)\n"
     "  (guard (e ((error-object? e) (note 'caught) (error-object-message e))\n"
     "            (#t (note 'raised) e))\n"
     "    (dynamic-wind\n"
     "      (lambda () (note 'in))\n"
     "      thunk\n"
     "      (lambda () (note 'out)))))\n"
     "(define r1 (attempt (lambda () (raise 'oops))))\n"
     "(define r2 (attempt (lambda () (car '()))))\n"
     "(list r1 r2 (reverse log))")
def _tt_wind_faults_pass_through() -> None:
    from implementations.topaz.tree import control

    # Realistic: the thunk runs under the same handlers as the dynamic-wind call, so
    # dispatching its faults there looked the same as dispatching them one construct out
    # (the module's own argument for where faults may travel); but the fault must be
    # signalled inside the dynamic extent, or the unwinding never passes the after thunk.
    edit_function(control, "p_dynamic_wind",
                  "    try:\n"
                  "        try:\n"
                  "            v = rt.call_at(thunk, [], site)\n"
                  "        except LispexError as err:\n"
                  "            fault(rt, err)\n"
                  "    except Escape as esc:\n",
                  "    try:\n"
                  "        v = rt.call_at(thunk, [], site)\n"
                  "    except Escape as esc:\n")
    control.BACKEND["dynamic-wind"] = control.p_dynamic_wind


@bug("tt-callcc-catches-any-escape", "topaz-tree", "topaz-tree back end",
     "control flow",
     "call/cc catches the escape of any continuation passing through it, not only of its own, "
     "so calling an outer continuation from inside an inner call/cc returns from the inner one "
     "with that value and the computation goes on there (an early exit from a nested search "
     "exits only the innermost level)",
     "(define (search lst target)\n"
     "  (call/cc\n"
     "    (lambda (found)\n"
     "      (for-each (lambda (x)\n"
     "                  (call/cc (lambda (skip) (if (eqv? x target) (found x) (skip #f)))))\n"
     "                lst)\n"
     "      'none)))\n"
     "(list (search '(1 2 3) 2) (search '(1 2 3) 9))")
def _tt_callcc_catches_any_escape() -> None:
    from implementations.topaz.tree import control

    # Realistic: the except clause was written for the one continuation in sight; the identity
    # test that lets an outer continuation's escape pass on was left out.
    edit_function(control, "p_call_cc",
                  "        if x.cont is not k:\n            raise\n", "")
    control.BACKEND["call-with-current-continuation"] = control.p_call_cc
