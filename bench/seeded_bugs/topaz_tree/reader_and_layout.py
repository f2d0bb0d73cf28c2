"""Seeded bugs in topaz-tree, family "reader and layout"."""

from __future__ import annotations

from bench.seeded_bugs.seeding import bug, edit_function


@bug("exponent-plus-sign", "topaz-tree", "kernel reader", "reader and layout",
     "a real whose exponent has an explicit + sign (1e+3) is not number syntax: the reader "
     "rejects it with E100 and string->number gives #f",
     "(list 2.5e-1 1e3 (string->number \"1e+3\") 1e+3)")
def _exponent_plus_sign() -> None:
    from implementations.topaz.kernel import numparse

    # Realistic: the exponent's sign tested as `-` only, as for the mantissa.
    edit_function(numparse, "_real", 'if k < n and tok[k] in "+-":', 'if k < n and tok[k] == "-":')


@bug("tt-char-names-any-case", "topaz-tree", "kernel reader", "reader and layout",
     "character names are looked up in lower case, so #\\Space, #\\NEWLINE and #\\Tab read as "
     "the named characters instead of being unknown character literals (E150); the names in "
     "lower case and one-character literals (#\\A) are right",
     "(define names (list #\\space #\\newline))\n"
     "(display (length names))\n"
     "(list (char->integer #\\Space) (char->integer #\\NewLine) #\\A)")
def _tt_char_names_any_case() -> None:
    from implementations.topaz.kernel.reader import Scanner

    # Realistic: Common Lisp (#\Space) and several Schemes accept character names in any
    # case, and the hex digits of #\x41 are case-insensitive right below; R7RS and Lispex
    # names are case-sensitive.
    edit_function(Scanner, "char",
                  "    elif name in CHAR_NAMES:\n        code = CHAR_NAMES[name]\n",
                  "    elif name.lower() in CHAR_NAMES:\n        code = CHAR_NAMES[name.lower()]\n")
