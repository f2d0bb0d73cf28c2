"""Seeded bugs in topaz-tree, family "printing"."""

from __future__ import annotations

from typing import Any

from bench.seeded_bugs.seeding import bug, edit_function


@bug("space-name", "topaz-tree", "topaz-tree printer", "printing",
     "the space character is written as #\\  rather than #\\space", "(write #\\space)")
def _space_name() -> None:
    from implementations.topaz.tree import printer

    printer.CHAR_NAMES.pop(0x20, None)


@bug("tt-small-float-digits", "topaz-tree", "topaz-tree printer", "printing",
     "display and write drop one leading zero after the point of a float below 1e-4 "
     "(0.000025 prints as 0.00025)",
     "(display (list 0.5 (/ 1.0 40000) -0.00002))")
def _tt_small_float_digits() -> None:
    from implementations.topaz.tree import printer

    def real_text(x: float) -> str:
        text = repr(x)
        if "e" not in text:
            return text
        mantissa, _, exponent = text.partition("e")
        sign = "-" if mantissa.startswith("-") else ""
        whole, _, frac = mantissa.lstrip("-").partition(".")
        digits = whole + frac
        point = len(whole) + int(exponent)
        if point <= 0:
            # Realistic off-by-one: the zeros counted from the exponent, not from the point.
            return f"{sign}0.{'0' * (-point - 1)}{digits}"
        if point >= len(digits):
            return f"{sign}{digits}{'0' * (point - len(digits))}.0"
        return f"{sign}{digits[:point]}.{digits[point:]}"
    printer.real_text = real_text


@bug("symbol-bars", "topaz-tree", "topaz-tree printer", "printing",
     "write puts R7RS |bars| round a symbol whose name is empty or holds whitespace or a "
     "delimiter, where Lispex writes every symbol by its bare name",
     '(write (list (string->symbol "hello world") \'plain (string->symbol "")))')
def _symbol_bars() -> None:
    from implementations.topaz.kernel.values import Symbol
    from implementations.topaz.tree import printer

    real = printer._atom
    special = frozenset(" \t\r\n()\";'`,|")

    # Realistic: R7RS write semantics (symbols must read back) applied to Lispex.
    def _atom(x: Any, write: bool) -> str:
        if write and type(x) is Symbol and (not x.name or not special.isdisjoint(x.name)):
            return "|" + x.name.replace("|", "\\|") + "|"
        return real(x, write)
    printer._atom = _atom


@bug("display-writes-elements", "topaz-tree", "topaz-tree printer", "printing",
     "display of a list or vector writes the strings and characters inside it (quoted, #\\c), "
     "raw only at the top level",
     '(display (list "a b" #\\c (quote d) 1.5 (vector "e")))')
def _display_writes_elements() -> None:
    from implementations.topaz.tree import printer

    # Realistic: Python's own str() of a list shows its items with repr(), and the container
    # walk was written the same way.
    edit_function(printer, "render", "out.append(_atom(x, write))", "out.append(_atom(x, True))")


@bug("shared-structure-labels", "topaz-tree", "topaz-tree printer", "printing",
     "write and display give datum labels to every container the walk meets twice (R7RS "
     "write-shared) rather than only to those that contain themselves, so a list or vector that "
     "shares a sub-structure with no cycle prints as #0=... #0# once a mutable vector is in it",
     "(define v (vector 1 2))\n(define p (list 'a 'b))\n"
     "(write (list v v))\n(newline)\n(display (vector p p))")
def _shared_structure_labels() -> None:
    from implementations.topaz.tree import printer

    # Realistic: a container met again was taken for a cycle without asking whether the walk
    # was still inside it (the state kept for exactly that question); R7RS write labels cycles
    # only, and prints shared structure in full.
    edit_function(printer, "back_edges",
                  "        if state is not None:\n"
                  "            if state:\n"
                  "                found.add(key)\n"
                  "            continue\n",
                  "        if state is not None:\n"
                  "            found.add(key)\n"
                  "            continue\n")


@bug("tt-integral-float-loses-zero", "topaz-tree", "topaz-tree printer", "printing",
     "an integral float whose shortest digits exactly fill its integer part (17 significant "
     "digits at 1e16 and above) is printed with a bare trailing point, 16000000000000002., "
     "instead of 16000000000000002.0: the test for appending zeros and .0 is > instead of >=",
     "(display (+ 1.6e16 2.0))\n"
     "(newline)\n"
     "(write (list 1e16 12345678901234568.0 1.5e17))")
def _tt_integral_float_loses_zero() -> None:
    from implementations.topaz.tree import printer

    # Realistic: an off-by-one at the boundary between "pad with zeros" and "insert a point"
    # branches; shorter mantissas (1e16, 1.5e17) have the point past their digits and are
    # right, and floats below 1e16 never reach this code (repr has no exponent).
    edit_function(printer, "real_text",
                  "    if point >= len(digits):\n",
                  "    if point > len(digits):\n")


@bug("tt-named-escapes-overwritten", "topaz-tree", "topaz-tree printer", "printing",
     "write escapes a newline, a tab and a carriage return in a string as \\x0a; \\x09; \\x0d; "
     "instead of \\n \\t \\r: the generic table of control characters was applied after the "
     "named escapes and overwrote them (\" and \\ are still escaped by name)",
     "(write \"line one\\nline\\ttwo\")\n"
     "(newline)\n"
     "(write (list \"a\\rb\" #\\newline \"q\\\"uote\"))\n"
     "(display \"raw\\tshown\")")
def _tt_named_escapes_overwritten() -> None:
    from implementations.topaz.tree import printer

    # Realistic: two dict literals merged in the wrong order; every string without a control
    # character (and the characters, which have their own name table) print as before.
    table = {0x22: '\\"', 0x5C: "\\\\", 0x0A: "\\n", 0x09: "\\t", 0x0D: "\\r"}
    table.update({i: f"\\x{i:02x};" for i in [*range(0x20), 0x7F]})
    printer._ESCAPES.clear()
    printer._ESCAPES.update(table)


@bug("tt-write-fast-path-controls-only", "topaz-tree", "topaz-tree printer",
     "printing",
     "the set of characters that sends a written string to the escaping path was built from "
     "the escape table before the named escapes were added to it, so it holds the control "
     "characters only: a string whose only special characters are \" or \\ is written with "
     "them bare (\"say \"hi\"\"); a string that also holds a control character is right",
     "(define (show label s) (write label) (display \" \") (write s) (newline))\n"
     "(show 'plain \"hello\")\n"
     "(show 'quoted \"say \\\"hi\\\"\")\n"
     "(show 'path \"C:\\\\temp\")\n"
     "(show 'mixed \"tab\\there \\\"q\\\"\")\n"
     "(write (list \"a\\\"b\" #\\\" \"\\\\\"))\n"
     "(newline)")
def _tt_write_fast_path_controls_only() -> None:
    from implementations.topaz.tree import printer

    # Realistic: `_SPECIAL = frozenset(map(chr, _ESCAPES))` one line too early, between the
    # table of \xHH; escapes and the update that adds \" \\ \n \t \r; the three named controls
    # were in the table already, so only the quote and the backslash went missing.
    printer._SPECIAL = frozenset(map(chr, [*range(0x20), 0x7F]))


@bug("tt-labelled-cdr-walked-inline", "topaz-tree", "topaz-tree printer", "printing",
     "when a structure holds a cycle, the walk along a list's cdr chain does not stop at a pair "
     "that needs a datum label, so a labelled tail is printed inline as more elements of the "
     "list, its #n= is written later (or never) and the structure reads differently: "
     "(start a . #0=(b #(head #0#))) comes out (start a b #(head #0=(b #(head #0#))))",
     "(define node (vector 'head '()))\n"
     "(define chain (list 'a 'b node))\n"
     "(vector-set! node 1 (cdr chain))\n"
     "(write (cons 'start chain))\n"
     "(newline)\n"
     "(write (vector-ref node 0))")
def _tt_labelled_cdr_walked_inline() -> None:
    from implementations.topaz.tree import printer

    # Realistic: pairs are immutable, so a cycle was thought to pass through a vector slot or a
    # car, never to be entered through a cdr; but the vector may point back at any tail.
    edit_function(printer, "render",
                  "if type(x) is not Pair or (labelled and id(x) in labelled):",
                  "if type(x) is not Pair:")


@bug("tt-char-name-page", "topaz-tree", "topaz-tree printer", "printing",
     "the printer's table of character names holds page for U+000C, as the reader's does, so "
     "write gives #\\page instead of #\\x0c for a form feed (the reader accepts #\\page, but "
     "Lispex writes only the nine names of the reference; display and the string escape "
     "\\x0c; are right)",
     "(define (show c) (write c) (newline))\n"
     "(show #\\page)\n"
     "(show (integer->char 12))\n"
     "(show #\\tab)\n"
     "(display (list #\\a (integer->char 12) \"a\\x0c;b\"))\n"
     "(newline)\n"
     "(write (list #\\a (integer->char 12) \"a\\x0c;b\"))")
def _tt_char_name_page() -> None:
    from implementations.topaz.tree import printer

    # Realistic: the printer's names were taken from the reader's table (one name per code, the
    # first alias kept), which knows page as well; the written names are the reference's nine.
    printer.CHAR_NAMES[0x0C] = "page"
