"""Seeded bugs written blind, batch sixteen: by a session that did not read the fuzzer
(court/fuzz/) first, so that they measure what the generator reaches rather than what it was
written beside (see bugs.py). This batch is about features working together and the corners
of the derived forms and the library, where a form or a primitive is right on its usual
shape and wrong on a neighbouring one: a let* that does not name the procedures it binds, a
do loop that evaluates only the last of several result expressions, a quasiquoted vector
whose items lose their unquotes, assq/assv/assoc stepping over an entry that is not a pair,
a slice whose start may not equal the length (the empty tail of a string or vector), eqv? of
characters by identity (so case, memv and assv on characters miss), an exact zero that
swallows an inexact factor, a rational whose denominator may carry a sign, and the back ends'
own bookkeeping: primitives that return two values listed as single-valued, raise-continuable
taken for a raise that never returns, a guard's catch that does not give back the non-tail
depth it unwound, and a global read inside its own definition let through unchecked. Three
bugs per implementation."""

from __future__ import annotations

from typing import Any

from bench.seeded_bugs.bugs import _derived_class, bug, edit_function, patch_primitive

# -- tree ---------------------------------------------------------------------------------------


@bug("blind16-let-star-lambda-unnamed", "tree", "kernel normalizer", "printing",
     "a lambda bound by let* is normalized as a plain expression rather than as a named one, "
     "so the procedure does not take its binding's name and prints as #<procedure> instead "
     "of #<procedure inc> (let, letrec, define and set! still name theirs)",
     "(define (compose f g) (lambda (x) (f (g x))))\n"
     "(let* ((inc (lambda (n) (+ n 1)))\n"
     "       (twice (compose inc inc))\n"
     "       (sq (let ((square (lambda (n) (* n n)))) square)))\n"
     "  (display inc)\n"
     "  (list (twice 5) inc twice sq))")
def _let_star_lambda_unnamed() -> None:
    # Realistic: let* is written as a chain of one-binding lets by hand, and its inits went
    # through the ordinary expression entry point; the name only shows when a procedure is
    # printed (or named in an arity message).
    edit_function(_derived_class(), "form_let_star",
                  "inits.append(self.named_expr(v, cur, name))",
                  "inits.append(self.expr(v, cur, False))")


@bug("blind16-assoc-skips-non-pairs", "tree", "kernel primitives", "diagnostics and spans",
     "assq, assv and assoc step over an element of the association list that is not a pair "
     "(as several Schemes do) instead of failing with E310 when the search reaches it, so a "
     "malformed list finds a later entry (or gives #f)",
     "(define table '((a . 1) b (c . 3)))\n"
     "(define (lookup k)\n"
     "  (guard (e ((error-object? e) (list 'bad k (error-object-irritants e))))\n"
     "    (assq k table)))\n"
     "(list (lookup 'a) (lookup 'c) (assv 2 '((1 . one) (2 . two))) "
     "(assoc \"x\" '((\"x\" . 1) 5)))")
def _assoc_skips_non_pairs() -> None:
    from implementations.lispex.primitives import pairs

    # Realistic: the pair test and the key test were folded into one condition, "an entry
    # matches when it is a pair whose car is the key", which makes a non-pair a mere miss.
    edit_function(pairs, "_assoc",
                  "        if type(entry) is not Pair:\n"
                  "            pair_expected(name, entry)\n"
                  "        if same(key, entry.car):\n",
                  "        if type(entry) is Pair and same(key, entry.car):\n")


@bug("blind16-slice-start-below-length", "tree", "kernel primitives", "strings/chars",
     "the optional start of substring, string-copy, string->list, string->vector, "
     "vector->list, vector-copy and vector->string is checked as an index (start < length) "
     "instead of start <= length, so the empty slice at the end (substring s n n with n the "
     "length, the whole of an empty string or vector) is E311 instead of empty",
     "(define (drop-prefix s n) (substring s n (string-length s)))\n"
     "(define (tail-items v k) (vector->list v k))\n"
     "(list (drop-prefix \"hello\" 2) (tail-items (vector 1 2 3) 1)\n"
     "      (drop-prefix \"hi\" 2) (tail-items (vector 1 2 3) 3) (string->list \"\"))")
def _slice_start_below_length() -> None:
    from implementations.lispex.primitives import errors_util, strings, vectors

    # Realistic: the bound was copied from string-ref and vector-ref, where an index must be
    # below the length; a slice's start is a boundary between elements, and the last boundary
    # is the length itself.
    edit_function(errors_util, "start_end",
                  "    if not 0 <= start <= length:\n",
                  "    if not 0 <= start < length:\n")
    strings.start_end = vectors.start_end = errors_util.start_end


# -- vm -----------------------------------------------------------------------------------------


@bug("blind16-vm-two-valued-prims-single", "vm", "vm back end", "multiple values",
     "the evaluator generator's table of kernel primitives that always return one value also "
     "lists exact-integer-sqrt, floor/ and truncate/, which return two, so where their result "
     "must be a single value (a let init, an operand, a test) the E320 check is left out and "
     "the two values go on as if they were one",
     "(define (split n)\n"
     "  (let ((r (exact-integer-sqrt n)))\n"
     "    (call-with-values (lambda () r) list)))\n"
     "(list (call-with-values (lambda () (exact-integer-sqrt 17)) list)\n"
     "      (call-with-values (lambda () (floor/ 7 2)) cons)\n"
     "      (split 17))")
def _vm_two_valued_prims_single() -> None:
    from implementations.vm import treegen

    # Realistic: the list was filled from the numeric family of the primitive table ("numeric
    # primitives return a number"), with sqrt, expt and square; the three that return two
    # numbers sit among them. Called in tail position, or for call-with-values, they are
    # right, which is how they are normally used.
    treegen.SINGLE_VALUED = treegen.SINGLE_VALUED | {"exact-integer-sqrt", "floor/",
                                                     "truncate/"}


@bug("blind16-vm-do-last-result-only", "vm", "kernel normalizer", "control flow",
     "a do loop whose test clause has several result expressions evaluates only the last one "
     "when the loop ends, so the earlier ones (output, a set!) never happen; the loop's value "
     "is still right, and a single result expression or none is unaffected",
     "(define (count-up n)\n"
     "  (do ((i 0 (+ i 1))\n"
     "       (acc '() (cons i acc)))\n"
     "      ((= i n) (display \" done\") (newline) (reverse acc))\n"
     "    (display i)))\n"
     "(list (count-up 3) (do ((i 0 (+ i 1))) ((= i 2) 'one-result)))")
def _vm_do_last_result_only() -> None:
    # Realistic: "the value of a do is the value of the last result expression", read as the
    # whole rule; the result expressions are a sequence, like a body.
    edit_function(_derived_class(), "form_do",
                  "self.seq(results, vars_scope, True, test_clause.span)",
                  "self.expr(results[-1], vars_scope, True)")


@bug("blind16-vm-rational-signed-denominator", "vm", "kernel reader", "reader and layout",
     "the rational number rule takes the integer rule on both sides of the slash (zero apart), "
     "so a denominator may carry a minus sign: 3/-4 reads as -3/4 (and string->number "
     "accepts it) instead of being no number (E100 as a literal, #f from string->number)",
     "(define (parse s) (string->number s))\n"
     "(list (parse \"3/4\") (parse \"-3/4\") (parse \"6/3\") (parse \"3/-4\") (parse \"6/-3\")\n"
     "      (parse \"1/0\"))")
def _vm_rational_signed_denominator() -> None:
    import re

    from implementations.lispex import numparse

    # Realistic: `<integer>/<integer>` is how the grammar reads at a glance; the sign of a
    # rational belongs to its numerator only, and the denominator is unsigned.
    numparse._RATIONAL = re.compile(r"(0|-?[1-9][0-9]*)/(-?[1-9][0-9]*)")


# -- topaz-tree ---------------------------------------------------------------------------------


@bug("blind16-tt-qq-vector-items-unmarked", "topaz-tree", "kernel normalizer", "vectors",
     "a quasiquoted vector holding an unquote is expanded through a list of its items that is "
     "not marked as holding the unquote, so the list is quoted whole: `#(point ,x) is the "
     "vector #(point (unquote x)) instead of #(point 1) (list templates are right)",
     "(define (point x y) `#(point ,x ,y))\n"
     "(define p (point 1 2))\n"
     "(list p (vector-ref p 1) `#(a b) `(a ,(+ 1 2)) `#(1 ,@(list 2 3)))")
def _tt_qq_vector_items_unmarked() -> None:
    # Realistic: the marks of which template nodes hold an unquote are keyed by node identity
    # and computed before expansion; the list made on the spot from the vector's items is a new
    # node, so it has no mark unless one is given to it, and an unmarked node is a constant.
    edit_function(_derived_class(), "_qq",
                  "self.unquoted[id(items_list)] = True",
                  "pass")


@bug("blind16-tt-guard-catch-keeps-depth", "topaz-tree", "topaz-tree back end",
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


@bug("blind16-tt-char-eqv-identity", "topaz-tree", "kernel primitives", "strings/chars",
     "eqv? (and eq?, memv, assv, case, and equal? on characters) compares two characters by "
     "identity, as if characters were interned like symbols, so two equal characters made "
     "separately (two literals, a literal and string-ref) are not eqv?: a case on a "
     "character never matches; char=? is right",
     "(define (vowel? c) (case c ((#\\a #\\e #\\i #\\o #\\u) #t) (else #f)))\n"
     "(define word \"lispex\")\n"
     "(list (map vowel? (string->list word)) (memv #\\s (string->list word)) (eqv? #\\x #\\x)\n"
     "      (equal? (string->list \"ab\") '(#\\a #\\b)) (char=? (string-ref word 0) #\\l)\n"
     "      (assv #\\b '((#\\a . 1) (#\\b . 2))))")
def _tt_char_eqv_identity() -> None:
    from implementations.lispex import equality
    from implementations.lispex.primitives import equality as prim_equality
    from implementations.lispex.primitives import pairs

    # Realistic: the comment above the fall-through lists the singletons compared by identity
    # (booleans, (), symbols); characters were taken to be among them, since the reader and
    # integer->char look like they hand out one object per character. They do not.
    edit_function(equality, "eqv",
                  "    if t is Char:\n        return a.code == b.code\n", "")
    equality.eq = equality.eqv
    prim_equality.eqv = prim_equality.eq = equality.eqv
    pairs.eqv = equality.eqv


# -- topaz-vm -----------------------------------------------------------------------------------


@bug("blind16-tv-raise-continuable-no-return", "topaz-vm", "topaz-vm analysis", "handlers",
     "the analysis of what a primitive may return treats raise-continuable like raise, as "
     "never returning several values, so when a handler returns several values to a "
     "raise-continuable used where one value is needed, the E320 check is left out and the "
     "values go on as one",
     "(define (safe-div a b)\n"
     "  (if (= b 0) (raise-continuable 'div-by-zero) (/ a b)))\n"
     "(define (try a b)\n"
     "  (with-exception-handler\n"
     "    (lambda (c) (values 0 c))\n"
     "    (lambda () (let ((q (safe-div a b))) (call-with-values (lambda () q) list)))))\n"
     "(list (try 6 3) (try 1 0))")
def _tv_raise_continuable_no_return() -> None:
    from implementations.topaz.vm import analysis, calls

    # Realistic: "a raise does not return" was written for the raise family by its prefix;
    # raise-continuable exists precisely to return the handler's values.
    edit_function(analysis, "tail_prim_result",
                  'if name == "raise":', 'if name.startswith("raise"):')
    calls.tail_prim_result = analysis.tail_prim_result


@bug("blind16-tv-exact-zero-product", "topaz-vm", "kernel primitives", "numerics",
     "a product with an exact zero among its factors is the exact 0 even when another factor "
     "is inexact, so (* 0 2.5) is 0 instead of 0.0 (contagion: any inexact factor makes the "
     "product inexact); products without an exact zero are right",
     "(define (area w h) (* w h))\n"
     "(list (area 0 2.5) (area 2 2.5) (exact? (area 0 1.5)) (* 1.5 0 2) (* 0 1/2) (area 3 4))")
def _tv_exact_zero_product() -> None:
    # Realistic: R7RS lets an implementation return an exact 0 for an exact zero times
    # anything, and the shortcut was taken from there; Lispex's contagion rule has no such
    # exception. Arguments are still checked by the real primitive first.
    def make(real: Any) -> Any:
        def times(*args: Any) -> Any:
            r = real(*args)
            if type(r) is float and any(type(a) is int and a == 0 for a in args):
                return 0
            return r
        return times
    patch_primitive("topaz-vm", "*", make)


@bug("blind16-tv-own-definition-unchecked", "topaz-vm", "topaz-vm code generator",
     "scoping/set!",
     "a global defined once is taken to be bound from its defining top-level form on rather "
     "than after it, so a read of the global inside its own definition's value (not inside a "
     "procedure) is not checked: (define limit (if (number? limit) limit 100)) gives 100 "
     "instead of E300",
     "(define limit (if (number? limit) limit 100))\n"
     "(list limit)")
def _tv_own_definition_unchecked() -> None:
    from implementations.topaz.vm.codegen import Gen

    # Realistic: an off-by-one in "defined in an earlier form"; the defining form itself only
    # binds the global once its value has been computed.
    edit_function(Gen, "global_known_bound",
                  "return self.form > g.first_form", "return self.form >= g.first_form")
