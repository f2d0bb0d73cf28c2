"""Seeded bugs written blind, batch fifteen: by a session that did not read the fuzzer
(court/fuzz/) first, so that they measure what the generator reaches rather than what it was
written beside (see bugs.py). This batch is about the library and the front end, in the places
tests rarely reach: what an implementer gets wrong writing a primitive or a syntax rule from the
spec. Character classes taken from Python's str methods (isalpha for char-alphabetic?, isspace
for char-whitespace?), string->number with a radix that only knows lower-case digits, expt of
an exact integer to a negative power computed by Python's ** (a float), vector indices that
accept an integral float, error taking a symbol first argument in the R6RS (who message ...)
convention, map calling its procedure from the last element to the first, the reader taking
R7RS's \\a and \\b string escapes and character names in any case, the span of a duplicate
binder, and printers: display of a cyclic structure rendered as write, and the named string
escapes (\\n \\t \\r) overwritten by the generic \\xHH; ones. Three bugs per implementation."""

from __future__ import annotations

from typing import Any

from bench.seeded_bugs.bugs import bug, edit_function, patch_primitive

# -- tree ---------------------------------------------------------------------------------------


@bug("blind15-labelled-display-writes", "tree", "kernel printer", "printing",
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


@bug("blind15-radix-digits-lowercase", "tree", "kernel numbers", "numerics",
     "string->number with a radix of 16 looks each digit up in the lower-case digit alphabet "
     "without folding its case, so a hexadecimal string with an upper-case digit (\"FF\", "
     "\"-1A\") is not a number (#f); lower-case hex and radixes 2, 8 and 10 are right",
     "(list (string->number \"ff\" 16) (string->number \"FF\" 16) (string->number \"-1A\" 16)\n"
     "      (string->number \"777\" 8) (string->number \"101\" 2) (number->string 255 16))")
def _radix_digits_lowercase() -> None:
    from implementations.lispex import numbers
    from implementations.lispex.primitives import numeric

    # Realistic: the digit table is the one number->string formats with, which is lower case;
    # the lookup forgot that reading, unlike writing, must accept either case. Digits 0-9
    # have no case, so every radix but 16 is unaffected.
    edit_function(numbers, "parse_integer_radix",
                  "_DIGITS.find(ch.lower())",
                  "_DIGITS.find(ch)")
    numeric.parse_integer_radix = numbers.parse_integer_radix


@bug("blind15-alphabetic-isalpha", "tree", "kernel primitives", "strings/chars",
     "char-alphabetic? is Python's str.isalpha(), which is the letter categories only, so the "
     "characters Unicode's Alphabetic property adds (letter numbers such as the Roman numeral "
     "U+2160, circled letters U+24B6.., combining marks such as U+0345) are not alphabetic; "
     "every letter is still right",
     "(define (alpha? n) (char-alphabetic? (integer->char n)))\n"
     "(list (char-alphabetic? #\\a) (char-alphabetic? #\\1) (alpha? 8544) (alpha? 9398)\n"
     "      (alpha? 837) (alpha? 955))")
def _alphabetic_isalpha() -> None:
    from implementations.lispex.primitives.chars import _char

    # Realistic: isalpha() is "Unicode-aware", and the difference between the letter
    # categories and the Alphabetic property is a footnote of the Unicode standard.
    def make(real: Any) -> Any:
        def char_alphabetic(c: Any) -> bool:
            return chr(_char("char-alphabetic?", c).code).isalpha()
        return char_alphabetic
    patch_primitive("tree", "char-alphabetic?", make)


# -- vm -----------------------------------------------------------------------------------------


@bug("blind15-string-escape-bell-backspace", "vm", "kernel reader", "reader and layout",
     "the reader's table of string escapes holds R7RS's \\a (alarm) and \\b (backspace) too, so "
     "a string literal using them reads as a string with U+0007 or U+0008 instead of being an "
     "unknown string escape (E150)",
     "(define s \"ding\\a!\")\n"
     "(display (string-length s))\n"
     "(write (list s \"x\\by\"))")
def _string_escape_bell_backspace() -> None:
    from implementations.lispex import reader

    # Realistic: the escape table was copied from R7RS section 6.7, which has \a and \b; the
    # Lispex grammar lists only \" \\ \n \t \r and \x...;.
    reader._STRING_ESCAPES["a"] = "\x07"
    reader._STRING_ESCAPES["b"] = "\x08"


@bug("blind15-duplicate-at-first-binder", "vm", "kernel normalizer", "diagnostics and spans",
     "a name bound twice in one binding list (lambda parameters, let bindings, do variables, "
     "a body's internal definitions) is reported (E130) at its first occurrence instead of at "
     "the duplicate",
     "(define (ok a b) (+ a b))\n"
     "(display (ok 1 2))\n"
     "(define (pick first second first)\n"
     "  second)")
def _duplicate_at_first_binder() -> None:
    from implementations.lispex import normalizer

    # Realistic: the atom of the offending name is found again with names.index(n), which
    # is the first occurrence, the one that was fine.
    edit_function(normalizer.Normalizer, "binders",
                  'f"duplicate {what} {n}", a.span)',
                  'f"duplicate {what} {n}", atoms[names.index(n)].span)')


@bug("blind15-error-who-symbol", "vm", "kernel primitives", "handlers",
     "error accepts the R6RS convention (error who message irritant ...): a symbol first "
     "argument followed by a string is taken as the procedure's name and dropped, so "
     "(error 'parse \"bad token\" 7) raises an E330 with message \"bad token\" instead of "
     "failing with E312 (the message must be a string)",
     "(define (check tok)\n"
     "  (guard (e ((error-object? e)\n"
     "             (list (error-object-message e) (error-object-irritants e))))\n"
     "    (error 'parse \"bad token\" tok)))\n"
     "(list (check 7) (check 'x))")
def _error_who_symbol() -> None:
    from implementations.lispex.values import Str, Symbol

    # Realistic: Chez Scheme, R6RS and many libraries write (error 'who "message" ...); the
    # implementer supported both spellings "to be kind". A string message is unchanged.
    def make(real: Any) -> Any:
        def error(message: Any, *irritants: Any) -> Any:
            if type(message) is Symbol and irritants and type(irritants[0]) is Str:
                message, irritants = irritants[0], irritants[1:]
            return real(message, *irritants)
        return error
    patch_primitive("vm", "error", make)


# -- topaz-tree ---------------------------------------------------------------------------------


@bug("blind15-tt-named-escapes-overwritten", "topaz-tree", "topaz-tree printer", "printing",
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


@bug("blind15-tt-expt-negative-float", "topaz-tree", "kernel primitives", "numerics",
     "expt of an exact integer to a negative exact power returns Python's int ** int, which is "
     "a float, so (expt 2 -2) is 0.25 instead of the exact 1/4; a rational base, a float base "
     "and a non-negative power are right",
     "(define (inverse-power b n) (expt b (- n)))\n"
     "(list (inverse-power 2 2) (expt -3 -3) (expt 1/2 -2) (expt 2 10) (expt 2.0 -1)\n"
     "      (exact? (inverse-power 10 1)))")
def _tt_expt_negative_float() -> None:
    # Realistic: Fraction ** int stays exact and int ** non-negative int stays exact, so the
    # negative power of an integer base was assumed to stay exact as well; the argument
    # checks, the zero base and the size limit still go through the real primitive.
    def make(real: Any) -> Any:
        def expt(base: Any, power: Any) -> Any:
            r = real(base, power)
            if type(base) is int and type(power) is int and power < 0:
                return base ** power
            return r
        return expt
    patch_primitive("topaz-tree", "expt", make)


@bug("blind15-tt-char-names-any-case", "topaz-tree", "kernel reader", "reader and layout",
     "character names are looked up in lower case, so #\\Space, #\\NEWLINE and #\\Tab read as "
     "the named characters instead of being unknown character literals (E150); the names in "
     "lower case and one-character literals (#\\A) are right",
     "(define names (list #\\space #\\newline))\n"
     "(display (length names))\n"
     "(list (char->integer #\\Space) (char->integer #\\NewLine) #\\A)")
def _tt_char_names_any_case() -> None:
    from implementations.lispex import reader

    # Realistic: Common Lisp (#\Space) and several Schemes accept character names in any
    # case, and the hex digits of #\x41 are case-insensitive right below; R7RS and Lispex
    # names are case-sensitive.
    edit_function(reader, "_char_value",
                  "code = _CHAR_NAMES.get(name)",
                  "code = _CHAR_NAMES.get(name.lower())")


# -- topaz-vm -----------------------------------------------------------------------------------


@bug("blind15-tv-map-back-to-front", "topaz-vm", "topaz-vm guest library", "control flow",
     "map calls its procedure on the elements from the last to the first (building the result "
     "by consing onto it), so a procedure with an effect (output, a set!, a counter) sees the "
     "elements in reverse order; the result list is in the right order",
     "(define count 0)\n"
     "(define (tag x) (set! count (+ count 1)) (display x) (cons x count))\n"
     "(map tag '(a b c))")
def _tv_map_back_to_front() -> None:
    from implementations.lispex.values import NIL, Pair, Values
    from implementations.topaz.vm import guest

    # Realistic: the classic way to build a list without reversing it at the end; R7RS leaves
    # map's order unspecified, but Lispex (and the other three members) call front to back.
    def g_map(self: Any, d: int, tail: bool, f: Any, lst: Any) -> Any:
        site = self.site_get()
        span = self.sites[site]
        result: Any = NIL
        for x in reversed(self._elements(d, "map", lst, span)):
            v = self.call_at(d, site, f, (x,))
            if type(v) is Values:
                self._one(d, "map", v, span)
            result = Pair(v, result)
        return result

    guest.GuestPrimitives.g_map = g_map


@bug("blind15-tv-vector-index-float", "topaz-vm", "kernel primitives", "vectors",
     "vector-ref, vector-set! and bytevector-u8-ref accept an inexact integral index (1.0) and "
     "use it as the exact one, instead of failing with E312 (an index must be an exact "
     "integer); a non-integral index is still E312",
     "(define v (vector 'a 'b 'c))\n"
     "(define i (/ 4.0 2))\n"
     "(vector-set! v i 'z)\n"
     "(list (vector-ref v 1.0) v (bytevector-u8-ref (bytevector 7 8) 1.0))")
def _tv_vector_index_float() -> None:
    from implementations.lispex.primitives import vectors

    # Realistic: "the index must be an integer", and (integer? 2.0) is #t; the integer
    # division family accepts integral floats, and this check was written the same way.
    edit_function(vectors, "_index",
                  "    exact_integer(name, k)\n",
                  "    k = int(k) if type(k) is float and k.is_integer() else "
                  "exact_integer(name, k)\n")


@bug("blind15-tv-whitespace-isspace", "topaz-vm", "kernel primitives", "strings/chars",
     "char-whitespace? is Python's str.isspace(), which is also true of the information "
     "separators U+001C..U+001F, so they count as white space although they are not in "
     "Unicode's White_Space property; every real white space character is right",
     "(define (space? n) (char-whitespace? (integer->char n)))\n"
     "(list (char-whitespace? #\\space) (char-whitespace? #\\tab) (space? 31) (space? 28)\n"
     "      (space? 160) (char-whitespace? #\\a))")
def _tv_whitespace_isspace() -> None:
    from implementations.lispex.primitives.chars import _char

    # Realistic: isspace() is documented as "whitespace characters" and agrees with the
    # White_Space property on everything but four C0 controls nobody types.
    def make(real: Any) -> Any:
        def char_whitespace(c: Any) -> bool:
            return chr(_char("char-whitespace?", c).code).isspace()
        return char_whitespace
    patch_primitive("topaz-vm", "char-whitespace?", make)
