"""Seeded bugs in tree, family "strings/chars"."""

from __future__ import annotations

import operator
from typing import Any

from bench.seeded_bugs.seeding import bug, edit_function, patch_primitive


@bug("substring-inclusive", "tree", "kernel primitives", "strings/chars",
     "substring treats its end index as inclusive", '(substring "hello" 1 3)')
def _substring_inclusive() -> None:
    def make(real):
        def substring(s, start, end):
            try:
                return real(s, start, end + 1) if type(end) is int else real(s, start, end)
            except Exception:
                return real(s, start, end)
        return substring
    patch_primitive("tree", "substring", make)


@bug("downcase-per-character", "tree", "kernel primitives", "strings/chars",
     "string-downcase lowers the string one character at a time, so a capital sigma at the end "
     "of a word becomes σ instead of the final form ς that the full Unicode lowercasing gives",
     '(list (string-downcase "ΟΔΟΣ") (string-downcase "ΣΑΣ ΚΑΙ ΣΑΣ") (string-downcase "AbC"))')
def _downcase_per_character() -> None:
    from implementations.lispex.values import Str

    # Realistic: a string case mapping written as a map of the character mapping over the
    # string (as string-map would do it). Python's str.lower() on the whole string applies
    # Unicode's context-sensitive Final_Sigma rule; per character there is no context.
    def make(real: Any) -> Any:
        def string_downcase(s: Any) -> Any:
            if type(s) is not Str:
                return real(s)  # the E312 of the real primitive
            return Str("".join(ch.lower() for ch in s.s))
        return string_downcase
    patch_primitive("tree", "string-downcase", make)


@bug("string-order-against-first", "tree", "kernel primitives", "strings/chars",
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


@bug("string-copy-shares", "tree", "kernel primitives", "strings/chars",
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


@bug("alphabetic-isalpha", "tree", "kernel primitives", "strings/chars",
     "char-alphabetic? is Python's str.isalpha(), which is the letter categories only, so the "
     "characters Unicode's Alphabetic property adds (letter numbers such as the Roman numeral "
     "U+2160, circled letters U+24B6.., combining marks such as U+0345) are not alphabetic; "
     "every letter is still right",
     "(define (alpha? n) (char-alphabetic? (integer->char n)))\n"
     "(list (char-alphabetic? #\\a) (char-alphabetic? #\\1) (alpha? 8544) (alpha? 9398)\n"
     "      (alpha? 837) (alpha? 955))")
def _alphabetic_isalpha() -> None:
    from implementations.lispex.primitives.chars import _char

    # Realistic: isalpha() is "Unicode-aware", and the difference between the letter
    # categories and the Alphabetic property is a footnote of the Unicode standard.
    def make(real: Any) -> Any:
        def char_alphabetic(c: Any) -> bool:
            return chr(_char("char-alphabetic?", c).code).isalpha()
        return char_alphabetic
    patch_primitive("tree", "char-alphabetic?", make)


@bug("slice-start-below-length", "tree", "kernel primitives", "strings/chars",
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
