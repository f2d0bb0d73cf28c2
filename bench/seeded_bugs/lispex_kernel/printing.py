"""Seeded bugs in the lispex kernel, family "printing"."""

from __future__ import annotations

from bench.seeded_bugs.seeding import bug


@bug("lk-tab-written-as-hex", "lispex-kernel", "kernel printer", "printing",
     "a written string shows a tab as \\x09; instead of \\t",
     '(list "a\\tb")')
def _tab_written_as_hex() -> None:
    from implementations.lispex import printer

    printer._STRING_ESCAPES[0x09] = "\\x09;"


@bug("lk-delete-char-unnamed", "lispex-kernel", "kernel printer", "printing",
     "the character 127 is written #\\x7f, its name delete forgotten",
     "(list (integer->char 127) (integer->char 27))")
def _delete_char_unnamed() -> None:
    from implementations.lispex import printer

    del printer._CHAR_NAMES[0x7F]
