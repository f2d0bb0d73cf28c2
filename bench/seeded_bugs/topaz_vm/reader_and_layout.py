"""Seeded bugs in topaz-vm, family "reader and layout"."""

from __future__ import annotations

from bench.seeded_bugs.seeding import bug, edit_function


@bug("tab-eight-columns", "topaz-vm", "kernel reader", "reader and layout",
     "a tab advances the column to the next multiple of eight instead of by one",
     "(define x 1)\n\t(car x)")
def _tab_eight_columns() -> None:
    from implementations.topaz.kernel.reader import Scanner

    # Realistic: the column counted as an editor shows it, tabs expanded to eight.
    edit_function(Scanner, "pos", "self.i - self.line_start + 1",
                  "len(self.t[self.line_start:self.i].expandtabs(8)) + 1")


@bug("tv-char-upper-x-hex", "topaz-vm", "kernel reader", "reader and layout",
     "a character literal #\\X followed by hex digits is read as a hex scalar value, like "
     "#\\x41, instead of being an unknown character literal (E150): #\\X41 reads as #\\A",
     "(list #\\x41 #\\X (char->integer #\\X41))")
def _tv_char_upper_x_hex() -> None:
    from implementations.topaz.kernel.reader import Scanner

    # Realistic: the string escape next to it accepts both \x and \X; the character literal
    # was made to match, where Lispex (as R7RS) only has the lower-case #\x form.
    edit_function(Scanner, "char", 'elif name[0] == "x" and', 'elif name[0] in "xX" and')
