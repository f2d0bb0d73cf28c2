"""Seeded bugs written blind, third batch: by a session that did not read the fuzzer (court/fuzz/)
first, so that they measure what the generator reaches rather than what it was written beside
(see bugs.py). This batch leans on printing, numerics, diagnostics and spans, meters, the reader
and strings/characters."""

from __future__ import annotations

from typing import Any

from bench.seeded_bugs.bugs import _err, bug, edit_function

# ---------------------------------------------------------------------------------------------
# tree


@bug("blind3-ratio-float-by-parts", "tree", "kernel numbers", "numerics",
     "exact->inexact of a rational (also through min and max contagion) converts numerator and "
     "denominator to floats separately, so a rational with a part past the float range is E314 "
     "even when its value is an ordinary float",
     "(list (exact->inexact 1/3)\n"
     "      (exact->inexact (/ (expt 10 400) (+ (expt 10 399) 7)))\n"
     "      (inexact (/ 1 (expt 10 400))))")
def _ratio_float_by_parts() -> None:
    from fractions import Fraction

    from implementations.lispex import numbers
    from implementations.lispex.primitives import numeric, numeric_division

    def to_float(x: Any, name: str) -> float:
        if type(x) is float:
            return x
        try:
            # Realistic: n/d done "by hand" in floats; float(Fraction) divides exactly, rounds once.
            f = float(x.numerator) / float(x.denominator) if type(x) is Fraction else float(x)
        except OverflowError:
            raise numbers.nonfinite_error(name, x) from None
        return numbers.check_finite(f, name, x)
    numbers.to_float = numeric.to_float = numeric_division.to_float = to_float


@bug("blind3-let-lambda-free", "tree", "tree back end", "meters/limits",
     "a lambda evaluated on the machine's inline path (a let init, an if test, a non-final body "
     "expression) is closed over without its machine transition",
     "(let ((f (lambda (x) (* x 2)))) (f 21))")
def _let_lambda_free() -> None:
    from implementations.tree import machine

    # Realistic: the inline fast path duplicates the frame path's accounting by hand, and the
    # lambda case was written like a free read instead of a node entry.
    edit_function(machine.Machine, "run",
               "                                elif tx is Lambda:\n"
               "                                    steps += 1\n"
               "                                    if steps > slimit:\n"
               "                                        raise self.exhausted()\n"
               "                                    lv.append(Closure(x, env))\n",
               "                                elif tx is Lambda:\n"
               "                                    lv.append(Closure(x, env))\n")


@bug("blind3-column-byte-offset", "tree", "kernel reader", "diagnostics and spans",
     "a datum's column is computed from its UTF-8 byte offset minus the line start's character "
     "index, so after any non-ASCII character earlier in the source columns are too far right",
     '(define s "naïve")\n(display s)\n(car s)')
def _column_byte_offset() -> None:
    from implementations.lispex import reader

    # Realistic: two units mixed up; `b` (bytes) and `s` (str index) are equal on ASCII text,
    # which is all most tests contain.
    edit_function(reader, "_parse", "        col = s - line_start + 1\n",
               "        col = b - line_start + 1\n")


# ---------------------------------------------------------------------------------------------
# vm


@bug("blind3-hex-escape-two-digits", "vm", "kernel reader", "reader and layout",
     "a \\x...; string escape takes at most two hex digits (read from the `\\xHH;` of the "
     "grammar), so \\x3bb; is a malformed escape (E150)",
     '(string->list "\\x41;\\x3bb;")')
def _hex_escape_two_digits() -> None:
    import re

    from implementations.lispex import reader

    # Realistic: the grammar's `\xHH;` taken literally as exactly two digits.
    reader._HEX_ESCAPE = re.compile(r"([0-9A-Fa-f]{0,2})(;?)")


@bug("blind3-upcase-first-of-full", "vm", "kernel primitives", "strings/chars",
     "char-upcase of a character whose full uppercase is several characters (ß, ŉ, ﬁ) returns "
     "the first of them instead of the simple mapping (the character itself or its titlecase)",
     "(list (char-upcase #\\a) (char-upcase #\\ß) (char-upcase #\\ŉ) (char-upcase #\\ﬁ))")
def _upcase_first_of_full() -> None:
    from implementations.lispex.primitives import chars

    # Realistic: Python only offers the full mapping, and its first character looks "close".
    def upcase(code: int) -> int:
        return ord(chr(code).upper()[0])
    chars.upcase = upcase


@bug("blind3-values-leaf-unpaid", "vm", "vm compiler", "meters/limits",
     "the operands of values that are leaves (constants, variables) are read in place like an "
     "application's, without the machine transition the tree interpreter charges for each",
     "(call-with-values (lambda () (values 1 2)) +)")
def _values_leaf_unpaid() -> None:
    from implementations.vm import compiler

    # Realistic: the ValuesNode branch copied from the App branch, leaf shortcut included.
    edit_function(compiler.Compiler, "expr",
               "        for a in node.args:\n"
               "            self.one(em, a)\n",
               "        for a in node.args:\n"
               "            if isinstance(a, LEAVES):\n"
               "                self.expr(em, a, False, False)\n"
               "            else:\n"
               "                self.one(em, a)\n")


# ---------------------------------------------------------------------------------------------
# topaz-tree


@bug("blind3-symbol-bars", "topaz-tree", "topaz-tree printer", "printing",
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


@bug("blind3-slice-bounds-independent", "topaz-tree", "kernel primitives", "strings/chars",
     "the optional start and end of substring, string-copy, string->list, vector->list and "
     "vector-copy are each checked against the length but not against each other, so start > "
     "end gives an empty result instead of E311",
     '(list (substring "hello" 1 3) (substring "hello" 3 2))')
def _slice_bounds_independent() -> None:
    from implementations.lispex.primitives import errors_util, strings, vectors

    def start_end(name: str, obj: Any, length: int, opt: tuple) -> tuple[int, int]:
        start = errors_util.exact_integer(name, opt[0]) if len(opt) > 0 else 0
        end = errors_util.exact_integer(name, opt[1]) if len(opt) > 1 else length
        if not 0 <= start <= length:
            errors_util.out_of_range(name, start, obj)
        # Realistic: `0 <= end` where `start <= end` is meant; Python slices quietly give "".
        if not 0 <= end <= length:
            errors_util.out_of_range(name, end, obj)
        return start, end
    errors_util.start_end = strings.start_end = vectors.start_end = start_end


@bug("blind3-exponent-plus-sign", "topaz-tree", "kernel reader", "reader and layout",
     "a real whose exponent has an explicit + sign (1e+3) is not number syntax: the reader "
     "rejects it with E100 and string->number gives #f",
     "(list 2.5e-1 1e3 (string->number \"1e+3\") 1e+3)")
def _exponent_plus_sign() -> None:
    import re

    from implementations.lispex import numparse

    # Realistic: the exponent's sign written `-?` as for the mantissa.
    numparse._REAL = re.compile(r"-?[0-9]+(?:\.[0-9]+)?(?:[eE]-?[0-9]+)?")


# ---------------------------------------------------------------------------------------------
# topaz-vm


@bug("blind3-exponent-float-sign", "topaz-vm", "topaz-vm printer", "printing",
     "display and write drop the minus sign of a negative float whose repr has an exponent "
     "(below 1e-4 or from 1e16 in magnitude): -0.00001 prints as 0.00001",
     "(display (list -2.5 -0.00001 -1e21 0.00002))")
def _exponent_float_sign() -> None:
    from implementations.topaz.vm import printer

    # Realistic: the sign is stripped to move the point, and never put back.
    edit_function(printer, "float_text", '    return ("-" if negative else "") + body\n',
               "    return body\n")


@bug("blind3-radix-python-int", "topaz-vm", "kernel numbers", "numerics",
     "string->number with a radix other than 10 parses with Python's int(), so it accepts a "
     "leading +, surrounding blanks, underscores and 0x/0o/0b prefixes instead of giving #f",
     '(list (string->number "ff" 16) (string->number "+17" 8) (string->number "0x1f" 16)\n'
     '      (string->number " 101 " 2))')
def _radix_python_int() -> None:
    from implementations.lispex import numbers
    from implementations.lispex.primitives import numeric

    # Realistic: "int() already knows radixes", and its extra leniency goes unnoticed.
    def parse_integer_radix(text: str, radix: int) -> int | None:
        try:
            return int(text, radix)
        except ValueError:
            return None
    numbers.parse_integer_radix = numeric.parse_integer_radix = parse_integer_radix


@bug("blind3-inexact-zero-divisor", "topaz-vm", "kernel numbers", "diagnostics and spans",
     "division by an inexact zero (0.0, -0.0) reports E314 (result not finite) instead of "
     "E313 (division by zero), which only exact zero divisors get",
     "(list (/ 1 4.0) (/ 5 0.0))")
def _inexact_zero_divisor() -> None:
    from fractions import Fraction

    from implementations.lispex import numbers
    from implementations.lispex.primitives import numeric

    def div(a: Any, b: Any, name: str = "/") -> Any:
        ta, tb = type(a), type(b)
        # Realistic: the zero test written for the exact case, the inexact one left to IEEE
        # (x/0.0 is an infinity) and so to the finiteness check.
        if b == 0 and tb is not float:
            raise _err("E313", f"{name}: division by zero", a, b)
        if ta is not float and tb is not float:
            if ta is int and tb is int:
                return numbers.normalize(Fraction(a, b))
            return numbers.normalize(Fraction(a) / b)
        try:
            r = a / b
        except (OverflowError, ZeroDivisionError):
            raise numbers.nonfinite_error(name, a, b) from None
        return numbers.check_finite(r, name, a, b)
    numbers.div = numeric.div = div
