"""Seeded bugs in vm, family "strings/chars"."""

from __future__ import annotations

import operator

from bench.seeded_bugs.seeding import bug, edit_function, patch_primitive


@bug("string-less-prefix", "vm", "kernel primitives", "strings/chars",
     "string<? is false when the first string is a proper prefix of the second",
     '(list (string<? "ab" "abc") (string<? "abc" "ab"))')
def _string_less_prefix() -> None:
    def make(real):
        def less(*args):
            texts = [a.s for a in args if hasattr(a, "s")]
            if len(texts) == len(args) and any(b.startswith(a) and a != b
                                               for a, b in zip(texts, texts[1:], strict=False)):
                return False
            return real(*args)
        return less
    patch_primitive("vm", "string<?", make)


@bug("string-length-bytes", "vm", "kernel primitives", "strings/chars",
     "string-length counts UTF-8 bytes, not characters",
     '(list (string-length "héllo") (string-length "abc"))')
def _string_length_bytes() -> None:
    def make(real):
        def length(s):
            text = getattr(s, "s", None)
            return len(text.encode("utf-8")) if type(text) is str else real(s)
        return length
    patch_primitive("vm", "string-length", make)


@bug("upcase-first-of-full", "vm", "kernel primitives", "strings/chars",
     "char-upcase of a character whose full uppercase is several characters (ß, ŉ, ﬁ) returns "
     "the first of them instead of the simple mapping (the character itself or its titlecase)",
     "(list (char-upcase #\\a) (char-upcase #\\ß) (char-upcase #\\ŉ) (char-upcase #\\ﬁ))")
def _upcase_first_of_full() -> None:
    from implementations.lispex.primitives import chars

    # Realistic: Python only offers the full mapping, and its first character looks "close".
    def upcase(code: int) -> int:
        return ord(chr(code).upper()[0])
    chars.upcase = upcase


@bug("string-ci-lower", "vm", "kernel primitives", "strings/chars",
     "string-ci=? and the other string-ci comparisons compare the lower-case forms instead of "
     "the case-folded ones, so ß does not match SS and orders after every ASCII letter",
     '(list (string-ci=? "Straße" "STRASSE") (string-ci=? "abc" "ABC") (string-ci<? "ß" "st"))')
def _string_ci_lower() -> None:
    from implementations.lispex.primitives import strings

    # Realistic: `lower()` is what most code uses for "ignore case"; casefold() is what Unicode
    # case-insensitive comparison needs.
    edit_function(strings, "_comparison", "t.casefold()", "t.lower()")
    for op, holds in (("=", operator.eq), ("<", operator.lt), ("<=", operator.le),
                      (">", operator.gt), (">=", operator.ge)):
        name = f"string-ci{op}?"
        patch_primitive("vm", name, lambda real, name=name, holds=holds:
                        strings._comparison(name, holds, True))
