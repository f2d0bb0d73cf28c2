"""Seeded bugs in the lispex kernel, family "reader and layout"."""

from __future__ import annotations

from bench.seeded_bugs.seeding import bug


@bug("lk-reader-cr-escape-newline", "lispex-kernel", "kernel reader", "reader and layout",
     "the string escape \\r reads as a newline (a copy of the \\n line left unchanged)",
     '(char->integer (string-ref "a\\rb" 1))')
def _reader_cr_escape_newline() -> None:
    from implementations.lispex import reader

    reader._STRING_ESCAPES["r"] = "\n"
