"""Seeded bugs written blind, batch eleven: by a session that did not read the fuzzer
(court/fuzz/) first, so that they measure what the generator reaches rather than what it was
written beside (see bugs.py). This batch goes to less-travelled corners of the library and the
back ends: sequence procedures with optional start/end arguments (vector->string of a slice),
fresh versus shared results (string-copy of a whole string), list searches that meet an improper
tail (memv), exact rational rounding (truncate of a negative ratio), number->string with an
explicit radix of 10, the order of a check and the evaluation it guards (set! of an unbound
global, a wide call of an unbound procedure), closures made in a do loop, the recursion limit
in one arity-specialised call path, the tail position of a do loop's result expressions, the
argument check of with-exception-handler and hexadecimal character literals. Three bugs per
implementation."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from bench.seeded_bugs.bugs import _derived_class, bug, edit_function, patch_primitive

# -- tree ---------------------------------------------------------------------------------------


@bug("blind11-set-unbound-before-value", "tree", "tree back end", "scoping/set!",
     "a set! of a global that was never defined is refused (E303) before its value expression "
     "is evaluated instead of after, so the value's output is lost and a fault of the value "
     "(E310, E300, ...) is reported as the E303",
     "(define (note x) (display x) x)\n"
     "(guard (e (#t (display (error-object-message e)) (newline) 'caught))\n"
     "  (set! missing (car '())))\n"
     "(set! missing (note 2))")
def _set_unbound_before_value() -> None:
    from implementations.tree import machine

    # Realistic: "fail fast" -- the bound check was hoisted to where the set! is entered, which
    # looks harmless because the variable does not depend on the value; Lispex (like the other
    # members) evaluates the value first and checks the variable when it stores.
    edit_function(machine.Machine, "run",
                  "k.append((F_SETG, node))",
                  "if gv[node.slot] is UNBOUND:\n"
                  + " " * 32 + "raise LispexError(\"E303\", f\"set! of unbound variable "
                  "{node.name}\", (), node.span)\n"
                  + " " * 28 + "k.append((F_SETG, node))")


@bug("blind11-truncate-ratio-floors", "tree", "kernel primitives", "numerics",
     "truncate of an exact non-integer rational divides numerator by denominator with Python's "
     "//, which floors, so a negative ratio is rounded away from zero: (truncate -7/2) is -4, "
     "not -3 (floats and positive ratios are right)",
     "(list (truncate -7/2) (truncate 7/2) (truncate -1/3) (truncate -3.5)\n"
     "      (floor -7/2) (ceiling -7/2) (round -7/2))")
def _truncate_ratio_floors() -> None:
    # Realistic: "numerator // denominator" is the integer part in C, Java and most textbooks;
    # Python's // floors. Positive ratios and every float take paths that are right.
    def make(real: Any) -> Any:
        def truncate(x: Any) -> Any:
            if type(x) is Fraction:
                return x.numerator // x.denominator
            return real(x)
        return truncate
    patch_primitive("tree", "truncate", make)


@bug("blind11-string-copy-shares", "tree", "kernel primitives", "strings/chars",
     "string-copy of a whole string (no start or end) returns the string itself rather than a "
     "newly allocated one, so (eq? s (string-copy s)) is #t and memq finds the copy in a list "
     "of the original",
     "(define s (string-append \"ab\" \"c\"))\n"
     "(define t (string-copy s))\n"
     "(list (equal? s t) (eq? s t) (eqv? s (string-copy s 0)) (memq t (list s)))")
def _string_copy_shares() -> None:
    from implementations.lispex.values import Str

    # Realistic: Lispex strings are immutable (no string-set!), so "a copy of the whole string
    # can be the string itself" looks like a free optimisation; only eq?/eqv? identity, which
    # R7RS's newly-allocated result fixes, can tell.
    def make(real: Any) -> Any:
        def string_copy(s: Any, *opt: Any) -> Any:
            if not opt and type(s) is Str:
                return s
            return real(s, *opt)
        return string_copy
    patch_primitive("tree", "string-copy", make)


# -- vm -----------------------------------------------------------------------------------------


@bug("blind11-self-tail-call-reuses-frame", "vm", "vm back end", "closures",
     "a self tail call whose operator and operands the linker evaluates in place (the step of a "
     "do loop or named let) overwrites the running frame with the new arguments instead of "
     "making a fresh one, so closures made in earlier iterations see the loop variables' later "
     "values",
     "(define thunks '())\n"
     "(do ((i 0 (+ i 1))) ((= i 3))\n"
     "  (set! thunks (cons (lambda () i) thunks)))\n"
     "(map (lambda (t) (t)) thunks)")
def _self_tail_call_reuses_frame() -> None:
    from implementations.vm import machine

    # Realistic: frame reuse on a self tail call is the classic loop optimisation of a VM; its
    # guard checks that the running frame is the callee's own parameter frame (not a let's),
    # but not that no closure has captured it.
    edit_function(machine.Machine, "run",
                  "f = evf(env)\n",
                  "f = evf(env)\n"
                  + " " * 24 + "if tail and type(f) is Closure and f.np == n and f.ins is code "
                  "and env[0] is f.env \\\n"
                  + " " * 32 + "and len(env) == n + 1:\n"
                  + " " * 28 + "nv = [e(env) for e in evs]\n"
                  + " " * 28 + "env[1:] = nv  # a self tail call: reuse the frame\n"
                  + " " * 28 + "st.site = span\n"
                  + " " * 28 + "pc = 0\n"
                  + " " * 28 + "continue\n")


@bug("blind11-radix-ten-any-number", "vm", "kernel primitives", "printing",
     "number->string given an explicit radix of 10 takes the no-radix path, so a rational or an "
     "inexact number with radix 10 is formatted instead of being an E312 (a radix is only for "
     "exact integers)",
     "(define (show x) (guard (e (#t (list 'error (error-object-message e))))\n"
     "                   (number->string x 10)))\n"
     "(list (show 42) (show 1/3) (show 2.5) (number->string 2.5) (number->string 255 16))")
def _radix_ten_any_number() -> None:
    # Realistic: "radix 10 is the default" folded into one test, `radix is None or radix == 10`,
    # ahead of the check that a radix is only accepted for exact integers.
    def make(real: Any) -> Any:
        def number_to_string(x: Any, radix: Any = None) -> Any:
            if radix is None or radix == 10:
                return real(x)
            return real(x, radix)
        return number_to_string
    patch_primitive("vm", "number->string", make)


@bug("blind11-vector-string-checks-whole", "vm", "kernel primitives", "vectors",
     "vector->string checks that every element of the vector is a character, not only those "
     "between start and end, so converting a character slice of a mixed vector is an E312",
     "(define v (vector 'tag #\\h #\\i 0))\n"
     "(list (vector->string v 1 3) (vector->string (vector #\\o #\\k)) (string->vector \"ab\" 1))")
def _vector_string_checks_whole() -> None:
    from implementations.lispex.primitives.errors_util import wrong_type
    from implementations.lispex.values import Char, Vector

    # Realistic: the element check was written as a loop over v.items before the slice was
    # taken (the whole vector is what the argument check looks at); with no start and end, the
    # case tests use, both loops are the same.
    def make(real: Any) -> Any:
        def vector_to_string(v: Any, *opt: Any) -> Any:
            if type(v) is Vector:
                for c in v.items:
                    if type(c) is not Char:
                        wrong_type("vector->string", "a vector of characters", c)
            return real(v, *opt)
        return vector_to_string
    patch_primitive("vm", "vector->string", make)


# -- topaz-tree ---------------------------------------------------------------------------------


@bug("blind11-tt-call2-depth-early", "topaz-tree", "topaz-tree back end", "meters/limits",
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


@bug("blind11-tt-wide-call-operator-late", "topaz-tree", "topaz-tree back end", "control flow",
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


@bug("blind11-tt-member-improper-false", "topaz-tree", "kernel primitives",
     "diagnostics and spans",
     "memq, memv and member give #f when the search reaches the end of an improper list without "
     "a match instead of failing with E310 (a match before the improper tail is still found)",
     "(list (memv 2 '(1 2 . 3)) (member \"b\" '(\"a\" \"b\")))\n"
     "(memq 'z '(x y . w))")
def _tt_member_improper_false() -> None:
    from implementations.lispex.primitives import pairs

    # Realistic: the walk stops at the first non-pair and "not found" is the natural answer;
    # the final check that the list ended in '() (copied into length and assoc) was forgotten.
    edit_function(pairs, "_member",
                  "    if fast is not NIL:\n        list_expected(name, lst)\n    return False\n",
                  "    return False\n")


# -- topaz-vm -----------------------------------------------------------------------------------


@bug("blind11-tv-handler-not-checked", "topaz-vm", "topaz-vm back end", "handlers",
     "with-exception-handler does not check that its handler is a procedure, so a non-procedure "
     "handler is accepted (E312 is missing) and the thunk runs; only a raise under it fails, "
     "with an E301 when the handler is applied",
     "(guard (e (#t (list 'caught (error-object-message e))))\n"
     "  (with-exception-handler 'not-a-procedure (lambda () 'thunk-ran)))")
def _tv_handler_not_checked() -> None:
    from implementations.topaz.vm import runtime

    # Realistic: the handler is applied only when something is raised, where applying a
    # non-procedure is already an error, so the up-front check looked redundant.
    edit_function(runtime.Runtime, "p_with_handler",
                  "    if not isinstance(handler, Procedure):\n"
                  "        raise self.err(\"E312\", \"with-exception-handler: expected a "
                  "procedure as the handler\",\n"
                  "                       (handler,), d)\n",
                  "")


@bug("blind11-tv-do-result-not-tail", "topaz-vm", "kernel normalizer", "tail calls",
     "the result expressions of a do loop are normalized out of tail position, like its body "
     "expressions, so a procedure that recurs from a do loop's result grows the non-tail depth "
     "until the recursion limit",
     "(define (countdown n)\n"
     "  (do ((i 0 (+ i 1))) ((= i 1) (if (= n 0) 'done (countdown (- n 1))))))\n"
     "(countdown 20000)")
def _tv_do_result_not_tail() -> None:
    # Realistic: the body expressions right below are normalized with tail False, and the
    # result clause was written the same way; but it is the value of the loop lambda's body.
    edit_function(_derived_class(), "form_do",
                  "done = (self.seq(results, vars_scope, True, test_clause.span) if results",
                  "done = (self.seq(results, vars_scope, False, test_clause.span) if results")


@bug("blind11-tv-char-upper-x-hex", "topaz-vm", "kernel reader", "reader and layout",
     "a character literal #\\X followed by hex digits is read as a hex scalar value, like "
     "#\\x41, instead of being an unknown character literal (E150): #\\X41 reads as #\\A",
     "(list #\\x41 #\\X (char->integer #\\X41))")
def _tv_char_upper_x_hex() -> None:
    from implementations.lispex import reader

    # Realistic: the string escape next to it accepts both \x and \X; the character literal
    # was made to match, where Lispex (as R7RS) only has the lower-case #\x form.
    edit_function(reader, "_char_value", 'if name[0] == "x":', 'if name[0] in "xX":')
