"""Seeded bugs in vm, family "reader and layout"."""

from __future__ import annotations

from bench.seeded_bugs.seeding import bug, edit_function


@bug("block-comment-not-nested", "vm", "kernel reader", "reader and layout",
     "a block comment ends at the first |#, even inside a nested #| ... |#",
     "(list 1 #| a #| b |# c |# 2)")
def _block_comment_not_nested() -> None:
    from implementations.lispex import reader

    def skip(text, file, pos):
        end = text.find("|#", pos + 2)
        return end + 2 if end >= 0 else len(text)
    reader._skip_block_comment = skip


@bug("hex-escape-two-digits", "vm", "kernel reader", "reader and layout",
     "a \\x...; string escape takes at most two hex digits (read from the `\\xHH;` of the "
     "grammar), so \\x3bb; is a malformed escape (E150)",
     '(string->list "\\x41;\\x3bb;")')
def _hex_escape_two_digits() -> None:
    import re

    from implementations.lispex import reader

    # Realistic: the grammar's `\xHH;` taken literally as exactly two digits.
    reader._HEX_ESCAPE = re.compile(r"([0-9A-Fa-f]{0,2})(;?)")


@bug("upper-exponent-not-real", "vm", "kernel reader", "reader and layout",
     "the number grammar recognises a real by a point or a lower-case e only, so a real "
     "written with an upper-case exponent marker (1E3, 2.5E-1 reads fine because of its "
     "point) is not a number: string->number gives #f and the reader rejects the literal (E100)",
     "(list (string->number \"1E3\") (string->number \"2.5E-1\") (string->number \"1e3\")\n"
     "      (string->number \"7E0\"))")
def _upper_exponent_not_real() -> None:
    from implementations.lispex import numparse, reader

    # Realistic: the regular expression takes [eE], the hand-written "is it a real" test next
    # to it was written for the lower-case form everybody types.
    edit_function(numparse, "parse_number",
                  '("." in text or "e" in text or "E" in text)',
                  '("." in text or "e" in text)')
    reader.parse_number = numparse.parse_number


@bug("string-escape-bell-backspace", "vm", "kernel reader", "reader and layout",
     "the reader's table of string escapes holds R7RS's \\a (alarm) and \\b (backspace) too, so "
     "a string literal using them reads as a string with U+0007 or U+0008 instead of being an "
     "unknown string escape (E150)",
     "(define s \"ding\\a!\")\n"
     "(display (string-length s))\n"
     "(write (list s \"x\\by\"))")
def _string_escape_bell_backspace() -> None:
    from implementations.lispex import reader

    # Realistic: the escape table was copied from R7RS section 6.7, which has \a and \b; the
    # Lispex grammar lists only \" \\ \n \t \r and \x...;.
    reader._STRING_ESCAPES["a"] = "\x07"
    reader._STRING_ESCAPES["b"] = "\x08"


@bug("vm-rational-signed-denominator", "vm", "kernel reader", "reader and layout",
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
