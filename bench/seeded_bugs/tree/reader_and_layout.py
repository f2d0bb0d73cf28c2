"""Seeded bugs in tree, family "reader and layout"."""

from __future__ import annotations

from bench.seeded_bugs.seeding import bug, edit_function


@bug("crlf-two-lines", "tree", "kernel reader", "reader and layout",
     "the reader takes the CR of a CRLF for a line break of its own, so every line of a CRLF "
     "file after the first is reported a line too low", "(define x 1)\r\n(car x)")
def _crlf_two_lines() -> None:
    from implementations.lispex import reader

    real = reader._decode

    def decode(data, file, meter):
        return real(data, file, meter).replace("\r\n", "\n\n")
    reader._decode = decode


@bug("minus-zero-integer", "tree", "kernel reader", "reader and layout",
     "the integer rule lets the minus sign apply to 0, so -0 is read as the integer 0 (the "
     "reader accepts the literal, string->number gives 0) instead of not being number syntax",
     '(list (string->number "-0") (string->number "-0.5") (string->number "-7") -5)')
def _minus_zero_integer() -> None:
    import re

    from implementations.lispex import numparse

    # Realistic: the grammar's `0 | -?[1-9][0-9]*` written the "obvious" way, with the sign
    # factored out in front of both alternatives.
    numparse._INTEGER = re.compile(r"-?(?:0|[1-9][0-9]*)")


@bug("leading-zero-fast-path", "tree", "kernel reader", "reader and layout",
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
