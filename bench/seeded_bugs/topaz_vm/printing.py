"""Seeded bugs in topaz-vm, family "printing"."""

from __future__ import annotations

from bench.seeded_bugs.seeding import bug, edit_function, patch_primitive


@bug("float-no-point", "topaz-vm", "topaz-vm printer", "printing",
     "an integral float is written without its .0", "(display (list 1.0 (* 2 1.5) -3.0))")
def _float_no_point() -> None:
    from implementations.topaz.vm import printer

    real = printer.float_text

    def float_text(x: float) -> str:
        out = real(x)
        return out[:-2] if out.endswith(".0") else out
    printer.float_text = float_text


@bug("exponent-float-sign", "topaz-vm", "topaz-vm printer", "printing",
     "display and write drop the minus sign of a negative float whose repr has an exponent "
     "(below 1e-4 or from 1e16 in magnitude): -0.00001 prints as 0.00001",
     "(display (list -2.5 -0.00001 -1e21 0.00002))")
def _exponent_float_sign() -> None:
    from implementations.topaz.vm import printer

    # Realistic: the sign is stripped to move the point, and never put back.
    edit_function(printer, "float_text", '    return ("-" if negative else "") + body\n',
               "    return body\n")


@bug("write-escapes-unprintable", "topaz-vm", "topaz-vm printer", "printing",
     "write decides what to escape in a string with str.isprintable(), so a no-break space, a "
     "soft hyphen, a format character or an unassigned code point is written as \\xHH; instead "
     "of raw (Lispex escapes only the C0 controls, DEL, \" and \\)",
     "(write (list->string (list #\\a (integer->char 160) (integer->char 173) #\\b)))")
def _write_escapes_unprintable() -> None:
    from implementations.topaz.vm import printer

    escapes = printer._ESCAPES
    plain = printer._PLAIN

    # Realistic: "not printable" taken as "a control character that needs escaping".
    def string_literal(s: str) -> str:
        if s.isprintable() and plain.isdisjoint(s):
            return '"' + s + '"'
        return '"' + "".join(escapes.get(ord(ch)) or
                             (ch if ch.isprintable() else f"\\x{ord(ch):x};")
                             for ch in s) + '"'
    printer.string_literal = string_literal


@bug("display-error-message-raw", "topaz-vm", "topaz-vm printer", "printing",
     "display of an error object shows its message raw, #<error-object disk full>, instead of "
     "written in quotes as write (and every other member) shows it",
     "(define e (guard (c (#t c)) (error \"disk full\" 'sda1)))\n"
     "(display e)\n(newline)\n(display (list e))\n(newline)\n(write e)")
def _display_error_message_raw() -> None:
    from implementations.topaz.vm import printer

    # Realistic: the message is a string, and display shows strings raw; but the error object's
    # printed form is one opaque token that quotes its message under both write and display.
    edit_function(printer, "_atom",
                  "        return \"#<error-object \" + string_literal(m.s if type(m) is Str "
                  "else str(m)) + \">\"\n",
                  "        text = m.s if type(m) is Str else str(m)\n"
                  "        return \"#<error-object \" + (string_literal(text) if write else text) "
                  "+ \">\"\n")


@bug("bigint-halves-unpadded", "topaz-vm", "topaz-vm printer", "printing",
     "display and write of an exact integer of more than a thousand digits join the decimal "
     "texts of its two halves without padding the low half with zeros to its width, so the "
     "zeros at the front of the low half are lost (10^1200 + 7 prints with 602 digits)",
     "(define big (+ (expt 10 1200) 7))\n"
     "(display big)\n(newline)\n(write (list (* big 3) 12345))")
def _bigint_halves_unpadded() -> None:
    from implementations.topaz.vm import printer

    # Realistic: the divide-and-conquer conversion for integers past CPython's str() limit
    # joins str(high) and str(low); the low half's leading zeros are only there with rjust.
    # Numbers below 10^1000 never take this path.
    edit_function(printer, "int_text",
                  'return int_text(high) + int_text(low).rjust(half, "0")',
                  "return int_text(high) + int_text(low)")


@bug("tv-char-names-last-alias", "topaz-vm", "topaz-vm printer", "printing",
     "write names characters from the reader's table inverted, where the alias listed last "
     "wins: #\\newline is written #\\linefeed, #\\null #\\nul, #\\delete #\\rubout, #\\escape "
     "#\\esc, and U+000C #\\page instead of #\\x0c",
     "(write (list #\\newline #\\x0 #\\delete #\\escape #\\space #\\xc #\\a))\n"
     "(newline)\n"
     "(write (string->list \"a\\nb\"))")
def _tv_char_names_last_alias() -> None:
    from implementations.lispex import reader
    from implementations.topaz.vm import printer

    # Realistic: one table for both directions, made by inverting the reader's; the reader
    # lists each canonical name before its alias, so the dict comprehension keeps the alias.
    printer.CHAR_NAMES = {code: name for name, code in reader._CHAR_NAMES.items()}


@bug("tv-del-unescaped", "topaz-vm", "topaz-vm printer", "printing",
     "write escapes the control characters below U+0020 in a string but not DEL (U+007F), "
     "which is written raw instead of as \\x7f; (the character #\\delete is still named)",
     "(define s (list->string (list #\\a (integer->char 127) #\\b)))\n"
     "(write s)\n"
     "(write (list \"x\\x7f;\" #\\delete))\n"
     "(string-length s)")
def _tv_del_unescaped() -> None:
    from implementations.topaz.vm import printer

    # Realistic: the escape table was built from "the C0 controls", range(0x20), and DEL,
    # which sits at the other end of ASCII, was left out of it (and so of the fast-path set).
    del printer._ESCAPES[0x7F]
    printer._PLAIN = frozenset(chr(c) for c in printer._ESCAPES)


@bug("tv-println-writes", "topaz-vm", "topaz-vm printer", "printing",
     "println renders its argument with write instead of display, so a string is printed in "
     "quotes with its escapes and a character as #\\c (display, write and newline are right, "
     "and so is println of a number or a symbol)",
     "(define (report label value) (println label) (println value))\n"
     "(report \"total:\" 42)\n"
     "(report 'grade #\\A)\n"
     "(println (list \"a\" 'b))")
def _tv_println_writes() -> None:
    from implementations.topaz import vm as tv

    # Realistic: println sits right under write in the table of output primitives and took its
    # printer from there; the reference defines it as display followed by a newline.
    edit_function(tv, "_println", "ctx.emit(display_text(x) + ", "ctx.emit(write_text(x) + ")
    patch_primitive("topaz-vm", "println", lambda real: tv._println)


@bug("tv-float-point-after-digits", "topaz-vm", "topaz-vm printer", "printing",
     "display and write place the decimal point of a float whose repr has an exponent after "
     "all of the mantissa's digits instead of after its integer part, so a float below 1e-4 or "
     "from 1e16 up with more than one significant digit is printed ten times too large per "
     "extra digit: 0.000015 prints as 0.00015 (one-digit mantissas such as 1e-05 are right, "
     "and so are the values a program returns)",
     "(define (show x) (display x) (newline))\n"
     "(show 0.000015)\n"
     "(show (/ 1.5 10000000.0))\n"
     "(show 25000000000000000.0)\n"
     "(show (* 1.25 1e20))\n"
     "(show 0.00001)\n"
     "(show 1e-7)\n"
     "(list 0.000015 (exact->inexact 1/64))")
def _tv_float_point_after_digits() -> None:
    from implementations.topaz.vm import printer

    # Realistic: "value = 0.digits * 10**point" was filled in with the length of the digit
    # string; the tests printed 1e-07 and 1e+30, whose one-digit mantissas make the two the
    # same.
    edit_function(printer, "float_text",
                  "point = len(whole) + int(exponent) - ",
                  "point = len(whole + frac) + int(exponent) - ")


@bug("tv-char-hex-upper", "topaz-vm", "topaz-vm printer", "printing",
     "write of a control character that has no name gives its hex scalar value in upper-case "
     "digits, #\\x0B and #\\x1F instead of #\\x0b and #\\x1f, as the reference's #\\x03B1 example "
     "is spelt (characters whose hex has no letter, the named ones and string escapes are right)",
     "(define (show c) (write c) (newline))\n"
     "(show (integer->char 11))\n"
     "(show (integer->char 31))\n"
     "(show (integer->char 1))\n"
     "(show #\\tab)\n"
     "(write (list (integer->char 12) \"a\\x0b;b\"))")
def _tv_char_hex_upper() -> None:
    from implementations.topaz.vm import printer

    # Realistic: the format spec was copied from the language reference's character literal
    # example, which writes its hex digits in upper case; Lispex prints them in lower case.
    edit_function(printer, "char_literal",
                  'f"#\\\\x{code:02x}"', 'f"#\\\\x{code:02X}"')
