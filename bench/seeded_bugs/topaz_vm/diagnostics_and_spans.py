"""Seeded bugs in topaz-vm, family "diagnostics and spans"."""

from __future__ import annotations

from typing import Any

from bench.seeded_bugs.seeding import bug, edit_function, patch_primitive


@bug("tv-letrec-lambda-assumed-ready", "topaz-vm", "topaz-vm codegen",
     "diagnostics and spans",
     "a letrec or internal-define slot that holds a procedure is assumed initialised wherever "
     "it is read, so calling it from an earlier init runs it instead of failing with E321",
     "(define (f)\n  (define a (g))\n  (define (g) 1)\n  a)\n(f)")
def _tv_letrec_lambda_assumed_ready() -> None:
    from implementations.lispex import core_ir as ir
    from implementations.topaz.vm import codegen

    def local_needs_check(self, node):
        if not node.checked:
            return False
        fr = self.frame_of(node.depth)
        if type(fr.node) is not ir.Letrec or id(fr.node) in self.a.all_lambda_letrecs:
            return False
        # Realistic: "a procedure slot is filled before anyone can call it" taken for granted;
        # the real rule only skips the check inside that procedure's own body.
        return self.a.letrec_lambda.get((id(fr.node), node.index)) is None
    codegen.Gen.local_needs_check = local_needs_check


@bug("inexact-zero-divisor", "topaz-vm", "kernel numbers", "diagnostics and spans",
     "division by an inexact zero (0.0, -0.0) reports E314 (result not finite) instead of "
     "E313 (division by zero), which only exact zero divisors get",
     "(list (/ 1 4.0) (/ 5 0.0))")
def _inexact_zero_divisor() -> None:
    from implementations.topaz.kernel import numbers

    # Realistic: the zero test written for the exact case, the inexact one left to IEEE
    # (x/0.0 is an infinity) and so to the finiteness check.
    edit_function(numbers, "div",
                  "    if b == 0:\n"
                  "        raise LispexError(\"E313\", f\"{name}: division by zero\", args)\n"
                  "    if type(a) is float or type(b) is float:\n"
                  "        return inexact_result(name, to_float(name, a, args) / "
                  "to_float(name, b, args), args)\n",
                  "    if b == 0 and type(b) is not float:\n"
                  "        raise LispexError(\"E313\", f\"{name}: division by zero\", args)\n"
                  "    if type(a) is float or type(b) is float:\n"
                  "        x, y = to_float(name, a, args), to_float(name, b, args)\n"
                  "        return inexact_result(name, x / y if y else math.inf, args)\n")


@bug("append-last-proper", "topaz-vm", "kernel primitives", "diagnostics and spans",
     "append demands that its last argument be a proper list too (E310), where R7RS lets it "
     "be any object and shares it as the result's tail",
     "(list (append '(1 2) 3) (append '() 'x))")
def _append_last_proper() -> None:
    from implementations.topaz.kernel.primitives import lists

    # Realistic: every argument is copied in one loop, the last one included, and the copy
    # demands a proper list.
    edit_function(lists, "p_append",
                  "    out = args[-1]\n    for a in reversed(args[:-1]):\n",
                  "    out = NIL\n    for a in reversed(args):\n")
    patch_primitive("topaz-vm", "append", lambda real: lists.p_append)


@bug("unclosed-list-outermost", "topaz-vm", "kernel reader", "diagnostics and spans",
     "a source that ends inside unclosed lists reports E100 at the outermost unclosed opening "
     "(where the top-level form began) instead of the innermost one",
     "(define (f x)\n  (display x)\n  (g x")
def _unclosed_list_outermost() -> None:
    from implementations.topaz.kernel.reader import Assembler

    # Realistic: the bottom of the parser stack taken for "the list that is open", as an
    # editor reporting the form that never ended would.
    edit_function(Assembler, "run", "opener = stack[-1][1]", "opener = stack[0][1]")


@bug("discarded-read-unchecked", "topaz-vm", "topaz-vm back end",
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


@bug("list-ref-via-list-tail", "topaz-vm", "kernel primitives", "diagnostics and spans",
     "list-ref (and nth) is (car (list-tail lst k)), so an index equal to the length of the "
     "list (or reaching an improper tail) is a car of a non-pair, E310, instead of list-ref's "
     "index out of range, E311",
     "(define xs '(a b c))\n"
     "(list (list-ref xs 2) (nth xs 0))\n"
     "(list-ref xs 3)")
def _list_ref_via_list_tail() -> None:
    from implementations.topaz.kernel.primitives import lists

    # Realistic: the textbook definition of list-ref. list-tail does check its index, but k
    # equal to the length is a valid list-tail (it gives the empty list), so the index that
    # is one past the end is found by car, not by a range check.
    def make(real: Any) -> Any:
        def list_ref(lst: Any, k: Any) -> Any:
            return lists.p_car(lists.p_list_tail(lst, k))
        return list_ref
    patch_primitive("topaz-vm", "list-ref", make)


@bug("tv-cwv-tail-consumer-site", "topaz-vm", "topaz-vm back end",
     "diagnostics and spans",
     "a call-with-values in tail position hands its consumer back as a tail call without "
     "setting the site back to the call-with-values, so a fault of applying the consumer "
     "(E302 for the wrong number of values, E301) is reported at the last application the "
     "producer made",
     "(define (pair) (apply values (list 1 2)))\n"
     "(define (f) (call-with-values pair (lambda (a) a)))\n"
     "(f)")
def _tv_cwv_tail_consumer_site() -> None:
    from implementations.topaz.vm import runtime

    # Realistic: the non-tail branch records the site through call_at; the tail branch was
    # written as the bare TailCall, as p_apply's tail branch is.
    edit_function(runtime.Runtime, "p_call_with_values",
                  "        self.site_set(site)\n        return TailCall(consumer, args)\n",
                  "        return TailCall(consumer, args)\n")


@bug("tv-percent-inline-no-warning", "topaz-vm", "topaz-vm back end",
     "diagnostics and spans",
     "the inline integer fast path of modulo is also used for %, its deprecated spelling, so "
     "a call of % on exact integers runs in place and its W330 warning is never emitted (a "
     "call with a non-integer argument falls back to the primitive and still warns)",
     "(define (wrap i n) (% i n))\n"
     "(list (wrap 7 3) (wrap -7 3) (modulo 7 -3) (% 9 4))")
def _tv_percent_inline_no_warning() -> None:
    from implementations.topaz.vm import calls

    # Realistic: % is documented as "the same as modulo", so the fast path was widened to it;
    # the warning lives in the primitive's wrapper, which the fast path skips.
    edit_function(calls.Calls, "inline",
                  'if name == "modulo" and n == 2:',
                  'if name in ("modulo", "%") and n == 2:')


@bug("tv-splice-fault-at-list", "topaz-vm", "kernel normalizer", "diagnostics and spans",
     "the hidden append of an unquote-splicing in a quasiquote list is given the span of the "
     "enclosing list template instead of the ,@ form, so splicing a non-list reports its E310 "
     "at the list's opening parenthesis rather than at the ,@",
     "(define (wrap x)\n"
     "  `(begin ,@x end))\n"
     "(list (wrap '(a b))\n"
     "      (wrap 5))")
def _tv_splice_fault_at_list() -> None:
    from implementations.topaz.kernel.derived import Derived

    # Realistic: the append node is built in the loop over the template's items, and its span
    # argument took the template's `t.span`, the span the loop's start (the tail, the `()`)
    # uses for the list as a whole.
    edit_function(Derived, "qq_list", "[self.expr(x.items[1], sc, False), out], False, x.span)",
                  "[self.expr(x.items[1], sc, False), out], False, t.span)")
