"""Seeded bugs in the topaz kernel, family "printing"."""

from __future__ import annotations

from bench.seeded_bugs.seeding import bug


@bug("tk-delete-char-raw", "topaz-kernel", "kernel printer", "printing",
     "the character 127 is written as itself after #\\, its name delete forgotten",
     "(list (integer->char 127) (integer->char 7))")
def _delete_char_raw() -> None:
    from implementations.topaz.kernel import printer

    del printer.WRITE_CHAR_NAMES[0x7F]


@bug("tk-return-written-as-hex", "topaz-kernel", "kernel printer", "printing",
     "a written string shows a carriage return as \\x0d; instead of \\r",
     '(list "a\\rb")')
def _return_written_as_hex() -> None:
    from implementations.topaz.kernel import printer

    printer._ESCAPE[0x0D] = "\\x0d;"
