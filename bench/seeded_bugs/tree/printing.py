"""Seeded bugs in tree, family "printing"."""

from __future__ import annotations

from bench.seeded_bugs.seeding import bug, derived_class, edit_function, patch_primitive


@bug("radix-uppercase", "tree", "kernel numbers", "printing",
     "number->string in radix 16 writes upper-case digits", "(number->string 255 16)")
def _radix_uppercase() -> None:
    def make(real):
        def number_to_string(*args):
            out = real(*args)
            return type(out)(out.s.upper()) if len(args) == 2 else out
        return number_to_string
    patch_primitive("tree", "number->string", make)


@bug("write-backslash", "tree", "kernel printer", "printing",
     "write leaves a backslash inside a string unescaped", r'(write "a\\b")')
def _write_backslash() -> None:
    from implementations.lispex import printer

    printer._STRING_ESCAPES.pop(0x5C, None)


@bug("quote-shorthand", "tree", "kernel printer", "printing",
     "a two-element list headed by the symbol quote is printed with the ' shorthand "
     "instead of as (quote x)",
     "(list ''a (list 'quote 1 2) '(1 'b))")
def _quote_shorthand() -> None:
    from implementations.lispex import printer

    # Realistic: the printer abbreviates (quote x) as the reader writes it (Lispex never does).
    edit_function(printer, "_render_plain", '        if t is Pair:\n            emit("(")\n',
          '        if t is Pair:\n'
          '            if type(x.car) is Symbol and x.car.name == "quote" and '
          'type(x.cdr) is Pair and x.cdr.cdr is NIL:\n'
          '                emit("\'")\n'
          '                push(x.cdr.car)\n'
          '                continue\n'
          '            emit("(")\n')


@bug("float-fifteen-digits", "tree", "kernel numbers", "printing",
     "display, write and number->string format a float from its value rounded to 15 "
     "significant digits (DBL_DIG) instead of the shortest digits that read back to the same "
     "float, so 0.1 + 0.2 prints 0.3 and 1/3.0 loses its last digit",
     "(define x (+ 0.1 0.2))\n"
     "(display (list x (/ 1.0 3) 2.5 -0.0))\n"
     "(list (= x 0.3) (number->string x))")
def _float_fifteen_digits() -> None:
    from implementations.lispex import numbers, printer

    # Realistic: "%.15g" is the C idiom for "print a double without noise" (15 digits always
    # survive a round trip through decimal); the shortest round-trip digits need up to 17.
    # Every float with at most 15 significant digits (most literals) prints as before.
    edit_function(numbers, "format_float",
                  "    r = repr(x)\n",
                  "    r = repr(float(format(x, '.15g')))\n")
    printer.format_float = numbers.format_float


@bug("labelled-display-writes", "tree", "kernel printer", "printing",
     "display of a structure that holds a cycle (a vector set into itself) renders it with "
     "write's rules, so the strings and characters inside it are quoted and named "
     "(#0=#(\"a b\" #\\c #0#)) instead of shown raw; display of an acyclic structure is right",
     "(define v (vector \"a b\" #\\c 0))\n"
     "(vector-set! v 2 v)\n"
     "(display v)\n"
     "(newline)\n"
     "(display (list \"x\" #\\y (vector \"z\")))\n"
     "(write v)")
def _labelled_display_writes() -> None:
    from implementations.lispex import printer

    # Realistic: datum labels are R7RS's write-shared feature, so the labelling fallback was
    # written as a writer and called as one; the plain printer, which every program without a
    # cycle uses, passes its `write` flag on correctly.
    edit_function(printer, "_render",
                  "return _render_labelled(x, write)",
                  "return _render_labelled(x, True)")


@bug("let-star-lambda-unnamed", "tree", "kernel normalizer", "printing",
     "a lambda bound by let* is normalized as a plain expression rather than as a named one, "
     "so the procedure does not take its binding's name and prints as #<procedure> instead "
     "of #<procedure inc> (let, letrec, define and set! still name theirs)",
     "(define (compose f g) (lambda (x) (f (g x))))\n"
     "(let* ((inc (lambda (n) (+ n 1)))\n"
     "       (twice (compose inc inc))\n"
     "       (sq (let ((square (lambda (n) (* n n)))) square)))\n"
     "  (display inc)\n"
     "  (list (twice 5) inc twice sq))")
def _let_star_lambda_unnamed() -> None:
    # Realistic: let* is written as a chain of one-binding lets by hand, and its inits went
    # through the ordinary expression entry point; the name only shows when a procedure is
    # printed (or named in an arity message).
    edit_function(derived_class(), "form_let_star",
                  "inits.append(self.named_expr(v, cur, name))",
                  "inits.append(self.expr(v, cur, False))")


@bug("write-char-hex-unpadded", "tree", "kernel printer", "printing",
     "write of a control character that has no name gives its hex scalar value without the "
     "leading zero, #\\x1 and #\\xc instead of #\\x01 and #\\x0c (the string escapes and the "
     "named characters are right, and so are control characters from U+0010 up)",
     "(define soh (integer->char 1))\n"
     "(define page (integer->char 12))\n"
     "(write (list soh #\\a page (integer->char 31) #\\tab))\n"
     "(newline)\n"
     "(list (list->string (list soh)) page)")
def _write_char_hex_unpadded() -> None:
    from implementations.lispex import printer

    # Realistic: R7RS writes a character as #\x<hex scalar value> with no fixed width, and the
    # format spec was written from that; the string escape table two screens up pads to two.
    edit_function(printer, "write_char",
                  'return f"#\\\\x{code:02x}"', 'return f"#\\\\x{code:x}"')


@bug("write-char-c1-controls", "tree", "kernel printer", "printing",
     "write of a character decides whether to give it a hex name with unicodedata's category "
     "Cc, which also holds the C1 controls U+0080..U+009F, so (write (integer->char 133)) is "
     "#\\x85 instead of #\\ and the raw character (the C0 controls, DEL, the named "
     "characters, display and written strings are right)",
     "(define (show c) (write c) (newline))\n"
     "(show (integer->char 133))\n"
     "(show (integer->char 159))\n"
     "(show (integer->char 160))\n"
     "(show (integer->char 7))\n"
     "(show (integer->char 1))\n"
     "(display (integer->char 133))\n"
     "(newline)\n"
     "(write (list #\\a (integer->char 150)))")
def _write_char_c1_controls() -> None:
    import unicodedata

    from implementations.lispex import printer

    # Realistic: "control characters are written #\xHH" was implemented with Unicode's
    # general category, the Python way to ask "is this a control character"; Lispex means the
    # ASCII controls (below U+0020, and U+007F) only, as its string escapes do.
    printer.unicodedata = unicodedata  # the import that came with the edit
    edit_function(printer, "write_char",
                  "if code < 0x20 or code == 0x7F:",
                  'if unicodedata.category(chr(code)) == "Cc":')
