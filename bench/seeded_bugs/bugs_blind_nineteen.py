"""Seeded bugs written blind, batch nineteen: by a session that did not read the fuzzer
(court/fuzz/) first, so that they measure what the generator reaches rather than what it was
written beside (see bugs.py). Two bugs in each of six families (control flow, scoping, numerics,
printing, diagnostics, meters and limits), three per implementation (kernel bugs count toward
tree), on code paths earlier batches touched little: a quotient whose two-integer fast path
floors, a real grammar that takes ".5" for a number, the hidden append of unquote-splicing
looked up as an ordinary name; in the VM an evaluator that records no error site for the
primitives it has a fast path for, a dynamic-wind that leaves its before thunk's value on the
value stack, and a guest-calling primitive that pays for its first callback only; in topaz-tree
a cyclic structure printed with the cdr walk running through a labelled pair, a call/cc that
catches any continuation's escape, and the list walks of map and the folds refusing a non-list
with E312; in topaz-vm control characters written with upper-case hex digits, a non-tail apply
that runs its procedure two levels deeper than its caller, and a hoisted procedure
definition taken to be bound in the forms before it."""

from __future__ import annotations

import re
from typing import Any

from bench.seeded_bugs.bugs import _derived_class, bug, edit_function, patch_primitive

# -- tree ---------------------------------------------------------------------------------------


@bug("blind19-quotient-fast-path-floors", "tree", "kernel primitives", "numerics",
     "the two-exact-integer fast path of quotient divides with Python's //, which floors, so a "
     "quotient of operands of different signs is one too low: (quotient -7 2) is -4 instead of "
     "-3 (exact quotients, inexact operands, remainder, modulo and truncate-quotient are right)",
     "(define (halve n) (list (quotient n 2) (remainder n 2)))\n"
     "(list (halve 7) (halve -7) (quotient 7 -2) (quotient -8 2) (quotient -7.0 2)\n"
     "      (truncate-quotient -7 2))")
def _quotient_fast_path_floors() -> None:
    # Realistic: the fast path for two fixnums was written with the "obvious" integer division
    # operator; the general path below it goes through _trunc_divmod, which corrects the
    # floored quotient toward zero. (A wrapper: the kernel function is registered by a
    # decorator, so its source cannot be recompiled in place.)
    def make(real: Any) -> Any:
        def quotient(a: Any, b: Any) -> Any:
            if type(a) is int and type(b) is int and b:
                return a // b
            return real(a, b)
        return quotient
    patch_primitive("tree", "quotient", make)


@bug("blind19-real-leading-point", "tree", "kernel numbers", "numerics",
     "the real-number rule of the shared number grammar is the cookbook -?[0-9]*\\.?[0-9]+ "
     "(exponent optional), which also takes a real with no digit before its point, so "
     "(string->number \".5\") is 0.5 and \"-.25\" is -0.25 instead of #f (the reader never sees "
     "such a token as a number: it starts with a point or a sign and a point)",
     "(define (parse s) (string->number s))\n"
     "(list (parse \"1.5\") (parse \".5\") (parse \"-.25\") (parse \"0.5\") (parse \"5.\")\n"
     "      (parse \"1e3\") (parse \"abc\"))")
def _real_leading_point() -> None:
    from implementations.lispex import numparse

    # Realistic: R7RS (and most float regexes) allow ".5"; the Lispex grammar demands digits on
    # both sides of the point, and the pattern was taken from a general-purpose one.
    numparse._REAL = re.compile(r"-?[0-9]*\.?[0-9]+(?:[eE][-+]?[0-9]+)?")


@bug("blind19-qq-splice-captures-append", "tree", "kernel normalizer", "scoping/set!",
     "the append an unquote-splicing expands into is looked up as an ordinary name in the "
     "template's scope instead of being the hidden intrinsic, so a local variable (or a global "
     "definition) named append captures it: with a parameter append bound to #f, `(a ,@xs) is "
     "an E301 (cons, list->vector and case's eqv? are still hidden)",
     "(define (command name args append)\n"
     "  (if append `(,name ,@args append) `(,name ,@args)))\n"
     "(list (command 'ls '(-l -a) #f) (command 'echo '(hi) #t))")
def _qq_splice_captures_append() -> None:
    # Realistic: the expansion was written as R7RS describes it, (append x rest), and the
    # operator resolved like any other name; the other three hidden operators were made
    # intrinsics, this one was not.
    edit_function(_derived_class(), "_qq",
                  'ir.App(ir.Intrinsic("append", item.span), [spliced, result],',
                  'ir.App(self.ref("append", scope, item.span), [spliced, result],')


# -- vm -----------------------------------------------------------------------------------------


@bug("blind19-vm-fast-path-no-site", "vm", "vm back end", "diagnostics and spans",
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


@bug("blind19-vm-before-value-kept", "vm", "vm back end", "control flow",
     "when the before thunk of a dynamic-wind returns, its value is left on the machine's value "
     "stack instead of being dropped, so a non-tail dynamic-wind that is an operand after a "
     "call's value already on the stack makes the consumer take the before thunk's value in "
     "place of that earlier operand (a dynamic-wind alone, or first, looks right)",
     "(define log '())\n"
     "(define (note x) (set! log (cons x log)) x)\n"
     "(define (guarded thunk)\n"
     "  (dynamic-wind (lambda () (note 'enter)) thunk (lambda () (note 'leave))))\n"
     "(list (note 'first) (guarded (lambda () 'body)) (reverse log))")
def _vm_before_value_kept() -> None:
    from implementations.vm import control

    # Realistic: the after thunk's value is popped in the done frame and the body's in the
    # dynamic-wind frame; the before frame was written from a template that receives no value.
    edit_function(control.Control, "control",
                  "        thunk, after, saved, site = data\n"
                  "        stack.pop()\n",
                  "        thunk, after, saved, site = data\n")


@bug("blind19-vm-first-callback-paid-only", "vm", "vm back end", "meters/limits",
     "a guest-calling primitive (map, for-each, filter, the folds, vector-map, ...) charges a "
     "machine transition for its first callback only, so every such call with n elements "
     "counts n - 1 transitions fewer than the tree interpreter; values and output are unchanged",
     "(define (squares lst) (map (lambda (x) (* x x)) lst))\n"
     "(list (squares '(1 2 3 4)) (filter odd? '(1 2 3)) (fold-left + 0 '(5 6)))")
def _vm_first_callback_paid_only() -> None:
    from implementations.vm import control

    # Realistic: the tick was taken for the primitive starting its walk (the first resume),
    # where the tree interpreter pays one transition for every callback it applies.
    edit_function(control.Control, "resume",
                  "depth))\n    self.tick()\n",
                  "depth))\n    if first:\n        self.tick()\n")


# -- topaz-tree ---------------------------------------------------------------------------------


@bug("blind19-tt-labelled-cdr-walked-inline", "topaz-tree", "topaz-tree printer", "printing",
     "when a structure holds a cycle, the walk along a list's cdr chain does not stop at a pair "
     "that needs a datum label, so a labelled tail is printed inline as more elements of the "
     "list, its #n= is written later (or never) and the structure reads differently: "
     "(start a . #0=(b #(head #0#))) comes out (start a b #(head #0=(b #(head #0#))))",
     "(define node (vector 'head '()))\n"
     "(define chain (list 'a 'b node))\n"
     "(vector-set! node 1 (cdr chain))\n"
     "(write (cons 'start chain))\n"
     "(newline)\n"
     "(write (vector-ref node 0))")
def _tt_labelled_cdr_walked_inline() -> None:
    from implementations.topaz.tree import printer

    # Realistic: pairs are immutable, so a cycle was thought to pass through a vector slot or a
    # car, never to be entered through a cdr; but the vector may point back at any tail.
    edit_function(printer, "render",
                  "if type(x) is not Pair or (labelled and id(x) in labelled):",
                  "if type(x) is not Pair:")


@bug("blind19-tt-callcc-catches-any-escape", "topaz-tree", "topaz-tree back end",
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


@bug("blind19-tt-guest-list-wrong-type", "topaz-tree", "topaz-tree back end",
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


# -- topaz-vm -----------------------------------------------------------------------------------


@bug("blind19-tv-char-hex-upper", "topaz-vm", "topaz-vm printer", "printing",
     "write of a control character that has no name gives its hex scalar value in upper-case "
     "digits, #\\x0B and #\\x1F instead of #\\x0b and #\\x1f, as the reference's #\\x03B1 example "
     "is spelt (characters whose hex has no letter, the named ones and string escapes are right)",
     "(define (show c) (write c) (newline))\n"
     "(show (integer->char 11))\n"
     "(show (integer->char 31))\n"
     "(show (integer->char 1))\n"
     "(show #\\tab)\n"
     "(write (list (integer->char 12) \"a\\x0b;b\"))")
def _tv_char_hex_upper() -> None:
    from implementations.topaz.vm import printer

    # Realistic: the format spec was copied from the language reference's character literal
    # example, which writes its hex digits in upper case; Lispex prints them in lower case.
    edit_function(printer, "char_literal",
                  'f"#\\\\x{code:02x}"', 'f"#\\\\x{code:02X}"')


@bug("blind19-tv-apply-one-level-deeper", "topaz-vm", "topaz-vm runtime", "meters/limits",
     "apply in a non-tail position runs the procedure it applies two levels deeper than its "
     "caller instead of one (apply's own application was counted as a level as well), so a "
     "recursion through a non-tail apply counts twice its depth and reaches the recursion limit "
     "at half the nesting (apply in tail position, and every other call, are right)",
     "(define (upto n acc) (if (= n 0) acc (upto (- n 1) (cons n acc))))\n"
     "(define (sum lst) (if (null? lst) 0 (+ (car lst) (apply sum (list (cdr lst))))))\n"
     "(list (sum (upto 100 '())) (sum (upto 6000 '())))")
def _tv_apply_one_level_deeper() -> None:
    from implementations.topaz.vm.runtime import Runtime

    # Realistic: the runtime's helpers are entered at the depth of the frame that called the
    # primitive, and call() adds the callee's level itself; the extra + 1 counted apply's own
    # application as a frame, which it is not (the tree interpreter has no frame for it).
    edit_function(Runtime, "p_apply", "return self.call(d, f, full)",
                  "return self.call(d + 1, f, full)")


@bug("blind19-tv-hoisted-procedure-always-bound", "topaz-vm", "topaz-vm code generator",
     "scoping/set!",
     "a global defined once by a procedure definition is taken to be bound everywhere, since its "
     "closure is made before any form runs, so a top-level form before the definition calls it "
     "instead of failing with E300 (a global whose value is not a lambda, or a procedure "
     "defined twice, is still checked)",
     "(define (report label value) (display label) (display value) (newline))\n"
     "(report \"early: \" (scale 2))\n"
     "(define (scale x) (* x 10))\n"
     "(report \"late: \" (scale 3))")
def _tv_hoisted_procedure_always_bound() -> None:
    from implementations.topaz.vm.codegen import Gen

    # Realistic: hoisting makes the procedure's def and closure up front, which was read as the
    # global being bound up front; the global itself is only assigned where its define stands.
    edit_function(Gen, "global_known_bound",
                  "or (g.lam is not None and g.lam in self.lams)",
                  "or g.lam is not None")
