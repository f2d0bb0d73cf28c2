"""Seeded bugs in vm, family "printing"."""

from __future__ import annotations

from typing import Any

from bench.seeded_bugs.seeding import bug, edit_function, patch_primitive


@bug("char-name-nul", "vm", "kernel printer", "printing",
     "the character U+0000 is written #\\nul instead of #\\null", "(write (integer->char 0))")
def _char_name_nul() -> None:
    from implementations.lispex import printer

    printer._CHAR_NAMES[0x00] = "nul"


@bug("radix-prefix-slice", "vm", "kernel numbers", "printing",
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


@bug("escape-fast-path-named-only", "vm", "kernel printer", "printing",
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


@bug("radix-ten-any-number", "vm", "kernel primitives", "printing",
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
