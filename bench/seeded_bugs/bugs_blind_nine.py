"""Seeded bugs written blind, batch nine: by a session that did not read the fuzzer
(court/fuzz/) first, so that they measure what the generator reaches rather than what it was
written beside (see bugs.py). This batch is about the library of primitives (list-ref, apply with
several arguments, string ordering chains of three or more strings, char-numeric? on non-ASCII
digits, the folds' argument order and direction), equality (eqv? across exactness, equal? on
vectors of different lengths), the printers and number formatting (number->string of negative
numbers in a radix, control characters in written strings, integers of more than a thousand
digits) and the reader (integer literals with leading zeros). Most of them are Python pitfalls
leaking into the guest: hex()/bin() prefixes, zip() truncating, str.isdigit() on Unicode, a
fast path that forgets one rule of the grammar. Three bugs per implementation."""

from __future__ import annotations

import operator
from typing import Any

from bench.seeded_bugs.bugs import bug, edit_function, patch_primitive

# -- tree ---------------------------------------------------------------------------------------


@bug("blind9-leading-zero-fast-path", "tree", "kernel reader", "reader and layout",
     "the lexer's fast path for small natural-number tokens does not exclude a leading zero, so "
     "007 reads as the integer 7 instead of being E100 (string->number, which has no fast path, "
     "still gives #f for \"007\")",
     "(define (pad n) (list 007 n))\n"
     "(list (pad 10) 0 (string->number \"007\"))")
def _leading_zero_fast_path() -> None:
    from implementations.lispex import reader

    # Realistic: the fast path skips parse_number for an all-digit token, as int() reads it;
    # the grammar's "no leading zero" rule (0 | -?[1-9][0-9]*) lives only in the regex the fast
    # path bypasses, and its `c0 != "0"` guard was taken for a guard against "0" itself.
    edit_function(reader, "_lex",
                  'if c0 != "0" and len(word) < 19 and word.isascii() and word.isdigit():',
                  "if len(word) < 19 and word.isascii() and word.isdigit():")


@bug("blind9-string-order-against-first", "tree", "kernel primitives", "strings/chars",
     "string<?, string>?, string<=?, string>=? (and the -ci variants) with three or more "
     "arguments compare the first string with each of the others instead of each adjacent "
     "pair, so (string<? \"a\" \"c\" \"b\") is #t",
     '(list (string<? "a" "c" "b") (string<? "a" "b" "c") (string>=? "z" "a" "m")\n'
     '      (string-ci<? "A" "c" "B") (string=? "x" "x" "x"))')
def _string_order_against_first() -> None:
    from implementations.lispex.primitives import strings

    # Realistic: the chain was written as "the first against every other one", which is right
    # for string=? (equality is transitive), the comparison the tests exercise most, and wrong
    # for the orderings, where only adjacent arguments are compared.
    def make_compare(name: str, holds: Any, fold: bool) -> Any:
        def compare(*args: Any) -> bool:
            texts = [strings._str(name, s) for s in args]
            if fold:
                texts = [t.casefold() for t in texts]
            return all(holds(texts[0], t) for t in texts[1:])
        return compare

    for op, holds in (("=", operator.eq), ("<", operator.lt), ("<=", operator.le),
                      (">", operator.gt), (">=", operator.ge)):
        for ci in ("", "-ci"):
            name = f"string{ci}{op}?"
            patch_primitive("tree", name,
                            lambda real, n=name, h=holds, f=bool(ci): make_compare(n, h, f))


@bug("blind9-eqv-across-exactness", "tree", "kernel primitives", "numerics",
     "eqv? (and eq?, memv, assv, memq, assq and case) lets any two numbers through its type "
     "gate and compares them by value, so (eqv? 2 2.0) and (eqv? 1/2 0.5) are #t and a case "
     "clause (3) matches the key 3.0",
     "(define (kind x) (case x ((3) 'exact-three) (else 'other)))\n"
     "(list (eqv? 2 2.0) (eqv? 1/2 0.5) (memv 1.0 '(0 1 2)) (kind 3.0) (kind 3)\n"
     "      (assv 2.0 '((2 . two))) (equal? 2 2.0))")
def _eqv_across_exactness() -> None:
    from implementations.lispex import equality
    from implementations.lispex.primitives import equality as prim_equality
    from implementations.lispex.primitives import pairs

    # Realistic: "eqv? on numbers is numeric equality" remembered without its exactness rule;
    # the gate that refuses two different types was widened to let int, Fraction and float
    # meet, as `=` lets them. equal? keeps its own type gate, so (equal? 2 2.0) stays #f.
    edit_function(equality, "eqv",
                  "    if t is not type(b):\n        return False\n",
                  "    if t is not type(b) and not (t in (int, Fraction, float)\n"
                  "                                 and type(b) in (int, Fraction, float)):\n"
                  "        return False\n")
    equality.eq = equality.eqv
    prim_equality.eqv = prim_equality.eq = equality.eqv
    pairs.eqv = equality.eqv


# -- vm -----------------------------------------------------------------------------------------


@bug("blind9-apply-spreads-second", "vm", "vm back end", "apply/rest args",
     "apply spreads its second argument instead of its last, so (apply f lst) is right but "
     "with arguments between the procedure and the list it spreads the first of them (E310 "
     "when that is not a list, the wrong arguments when it is)",
     "(list (apply + '(1 2 3)) (apply max 1 '(5 3)))\n"
     "(list (apply list '(a) '(b c)) (apply + 1 2 '(3 4)))")
def _apply_spreads_second() -> None:
    from implementations.vm import control

    # Realistic: a one-character slip, args[1] for args[-1]; they are the same argument in
    # the usual two-argument (apply f lst), which is all most programs and tests use.
    edit_function(control.Control, "apply",
                  "spread = list_to_python(args[-1])",
                  "spread = list_to_python(args[1])")


@bug("blind9-radix-prefix-slice", "vm", "kernel numbers", "printing",
     "number->string with radix 2, 8 or 16 takes Python's hex()/oct()/bin() text and slices "
     "off the first two characters as the 0x prefix, which for a negative number leaves the "
     "prefix letter and drops the sign: (number->string -255 16) is \"xff\"",
     "(list (number->string 255 16) (number->string -255 16) (number->string -10 2)\n"
     "      (number->string 64 8) (number->string -64 10))")
def _radix_prefix_slice() -> None:
    from implementations.lispex.primitives import numeric

    # Realistic: hex(n)[2:] is the usual Python idiom for "hex digits without 0x"; it only
    # holds for non-negative n, where the prefix is the first two characters.
    edit_function(numeric, "format_integer_radix",
                  '    if radix == 16:\n        return format(n, "x")\n'
                  '    if radix == 8:\n        return format(n, "o")\n'
                  '    if radix == 2:\n        return format(n, "b")\n',
                  "    if radix in (2, 8, 16):\n"
                  "        return {2: bin, 8: oct, 16: hex}[radix](n)[2:]  # drop the 0x\n")


@bug("blind9-escape-fast-path-named-only", "vm", "kernel printer", "printing",
     "the set of characters that sends a written string to the escaping path holds only the "
     "characters with a named escape (\" \\ newline tab return), so a string whose only control "
     "characters are others (ESC, BEL, NUL, DEL) is written with them raw instead of as \\xHH;",
     '(write "a\\x1b;b")\n(newline)\n(list "a\\x7;" "b\\x7;\\n" "c\\x0;")')
def _escape_fast_path_named_only() -> None:
    from implementations.lispex import printer

    # Realistic: the fast-path test was written from the escapes one thinks of (the named
    # ones); the table itself still escapes every control character, so any string that also
    # holds a quote, backslash or newline comes out right.
    printer._NEEDS_ESCAPE = frozenset('"\\\n\t\r')


# -- topaz-tree ---------------------------------------------------------------------------------


@bug("blind9-fold-left-srfi-order", "topaz-tree", "topaz-tree back end", "control flow",
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


@bug("blind9-char-numeric-isdigit", "topaz-tree", "kernel primitives", "strings/chars",
     "char-numeric? is Python's str.isdigit(), true for every Unicode digit (Arabic-Indic "
     "digits, superscripts, circled digits) where Lispex's is true for the ASCII digits only",
     "(list (char-numeric? #\\7) (char-numeric? #\\x663) (char-numeric? #\\x00B2)\n"
     "      (char-numeric? #\\a) (char-numeric? #\\x2460))")
def _char_numeric_isdigit() -> None:
    from implementations.topaz.kernel.values import Char

    # Realistic: str.isdigit() reads as "is a digit"; it is Unicode-wide (it even accepts
    # characters int() refuses, such as the superscript two). ASCII input cannot tell.
    def make(real: Any) -> Any:
        def char_numeric(c: Any) -> Any:
            if type(c) is not Char:
                return real(c)  # the E312 of the real primitive
            return chr(c.code).isdigit()
        return char_numeric
    patch_primitive("topaz-tree", "char-numeric?", make)


@bug("blind9-equal-vector-zip", "topaz-tree", "kernel primitives", "vectors",
     "equal? compares two vectors with zip() and no length check, so a vector is equal? to any "
     "longer vector it is a prefix of (also inside lists, and for member and assoc)",
     "(list (equal? (vector 1 2) (vector 1 2 3)) (equal? (vector) (vector 'a))\n"
     "      (member (vector 1) (list (vector 1 2) (vector 1)))\n"
     "      (equal? (list (vector 1 2)) (list (vector 1 2))) (equal? \"ab\" \"abc\"))")
def _equal_vector_zip() -> None:
    from implementations.lispex import equality

    # Realistic: pairs of elements are pushed with zip(), as the cars and cdrs of pairs are,
    # and the length test was left to it; zip() stops quietly at the shorter vector.
    edit_function(equality, "_equal_structures",
                  "                if len(xs) != len(ys):\n"
                  "                    return False\n"
                  "                key = (id(x), id(y))\n"
                  "                if key not in seen:\n"
                  "                    seen.add(key)\n"
                  "                    stack.extend(zip(xs, ys, strict=True))\n",
                  "                key = (id(x), id(y))\n"
                  "                if key not in seen:\n"
                  "                    seen.add(key)\n"
                  "                    stack.extend(zip(xs, ys))\n")


# -- topaz-vm -----------------------------------------------------------------------------------


@bug("blind9-fold-right-forward", "topaz-vm", "topaz-vm back end", "control flow",
     "fold-right walks the list from the front, like fold-left, only with the arguments in "
     "fold-right's order (f element accumulator), so (fold-right cons '() '(1 2 3)) is "
     "(3 2 1); on the reference's own example, (fold-right - 0 '(1 2 3)), both orders give 2",
     "(list (fold-right - 0 '(1 2 3)) (fold-right cons '() '(1 2 3))\n"
     "      (fold-right list 'z '(a b)) (fold-left list 'z '(a b)))")
def _fold_right_forward() -> None:
    from implementations.topaz.vm import guest

    # Realistic: g_fold_right was made from a copy of g_fold_left, changing the order of the
    # callback's arguments and forgetting the reversed() of the walk.
    edit_function(guest.GuestPrimitives, "g_fold_right",
                  'for x in reversed(self._elements(d, "fold-right", lst, span)):',
                  'for x in self._elements(d, "fold-right", lst, span):')


@bug("blind9-bigint-halves-unpadded", "topaz-vm", "topaz-vm printer", "printing",
     "display and write of an exact integer of more than a thousand digits join the decimal "
     "texts of its two halves without padding the low half with zeros to its width, so the "
     "zeros at the front of the low half are lost (10^1200 + 7 prints with 602 digits)",
     "(define big (+ (expt 10 1200) 7))\n"
     "(display big)\n(newline)\n(write (list (* big 3) 12345))")
def _bigint_halves_unpadded() -> None:
    from implementations.topaz.vm import printer

    # Realistic: the divide-and-conquer conversion for integers past CPython's str() limit
    # joins str(high) and str(low); the low half's leading zeros are only there with rjust.
    # Numbers below 10^1000 never take this path.
    edit_function(printer, "int_text",
                  'return int_text(high) + int_text(low).rjust(half, "0")',
                  "return int_text(high) + int_text(low)")


@bug("blind9-list-ref-via-list-tail", "topaz-vm", "kernel primitives", "diagnostics and spans",
     "list-ref (and nth) is (car (list-tail lst k)), so an index equal to the length of the "
     "list (or reaching an improper tail) is a car of a non-pair, E310, instead of list-ref's "
     "index out of range, E311",
     "(define xs '(a b c))\n"
     "(list (list-ref xs 2) (nth xs 0))\n"
     "(list-ref xs 3)")
def _list_ref_via_list_tail() -> None:
    from implementations.lispex.primitives import pairs

    # Realistic: the textbook definition of list-ref. list-tail does check its index, but k
    # equal to the length is a valid list-tail (it gives the empty list), so the index that
    # is one past the end is found by car, not by a range check.
    def make(real: Any) -> Any:
        def list_ref(lst: Any, k: Any) -> Any:
            return pairs.car(pairs.list_tail(lst, k))
        return list_ref
    patch_primitive("topaz-vm", "list-ref", make)

