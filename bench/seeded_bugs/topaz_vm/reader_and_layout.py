"""Seeded bugs in topaz-vm, family "reader and layout"."""

from __future__ import annotations

from bench.seeded_bugs.seeding import bug, edit_function


@bug("tab-eight-columns", "topaz-vm", "kernel reader", "reader and layout",
     "a tab advances the column to the next multiple of eight instead of by one",
     "(define x 1)\n\t(car x)")
def _tab_eight_columns() -> None:
    from implementations.lispex import reader

    real = reader._decode

    def decode(data, file, meter):
        return real(data, file, meter).expandtabs(8)
    reader._decode = decode


@bug("tv-char-upper-x-hex", "topaz-vm", "kernel reader", "reader and layout",
     "a character literal #\\X followed by hex digits is read as a hex scalar value, like "
     "#\\x41, instead of being an unknown character literal (E150): #\\X41 reads as #\\A",
     "(list #\\x41 #\\X (char->integer #\\X41))")
def _tv_char_upper_x_hex() -> None:
    from implementations.lispex import reader

    # Realistic: the string escape next to it accepts both \x and \X; the character literal
    # was made to match, where Lispex (as R7RS) only has the lower-case #\x form.
    edit_function(reader, "_char_value", 'if name[0] == "x":', 'if name[0] in "xX":')
