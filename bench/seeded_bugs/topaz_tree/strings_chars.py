"""Seeded bugs in topaz-tree, family "strings/chars"."""

from __future__ import annotations

from typing import Any

from bench.seeded_bugs.seeding import bug, edit_function, patch_primitive, rebind_topaz


@bug("upcase-ascii", "topaz-tree", "kernel primitives", "strings/chars",
     "char-upcase changes only ASCII letters", "(char-upcase (integer->char 233))")
def _upcase_ascii() -> None:
    def make(real):
        def upcase(c):
            code = getattr(c, "code", None)
            return c if isinstance(code, int) and code > 127 else real(c)
        return upcase
    patch_primitive("topaz-tree", "char-upcase", make)


@bug("whitespace-no-tab", "topaz-tree", "kernel primitives", "strings/chars",
     "char-whitespace? is false for a tab", "(list (char-whitespace? #\\tab) (char-whitespace? #\\space))")
def _whitespace_no_tab() -> None:
    def make(real):
        return lambda c: False if getattr(c, "code", None) == 9 else real(c)
    patch_primitive("topaz-tree", "char-whitespace?", make)


@bug("slice-bounds-independent", "topaz-tree", "kernel primitives", "strings/chars",
     "the optional start and end of substring, string-copy, string->list, vector->list and "
     "vector-copy are each checked against the length but not against each other, so start > "
     "end gives an empty result instead of E311",
     '(list (substring "hello" 1 3) (substring "hello" 3 2))')
def _slice_bounds_independent() -> None:
    from implementations.topaz.kernel.primitives import objects, text

    # Realistic: `0 <= end` where `start <= end` is meant; Python slices quietly give "". The
    # range helper is one function, copied into the string and the vector primitives.
    for module in (text, objects):
        edit_function(module, "_range", "if not start <= end <= n:", "if not 0 <= end <= n:")


@bug("char-numeric-isdigit", "topaz-tree", "kernel primitives", "strings/chars",
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


@bug("tt-char-eqv-identity", "topaz-tree", "kernel primitives", "strings/chars",
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
    from implementations.topaz.kernel import equality

    # Realistic: the comment at the fall-through lists the singletons compared by identity
    # (booleans, symbols); characters were taken to be among them, since the reader and
    # integer->char look like they hand out one object per character. They do not.
    old = equality.eqv
    edit_function(equality, "eqv", "    if ta is Char:\n        return a.code == b.code\n", "")
    rebind_topaz("topaz-tree", old, equality.eqv)
