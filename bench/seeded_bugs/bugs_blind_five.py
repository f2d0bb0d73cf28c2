"""Seeded bugs written blind, batch five: by a session that did not read the fuzzer
(court/fuzz/) first, so that they measure what the generator reaches rather than what it was
written beside (see bugs.py). This batch is about numerics, printing, strings and characters,
the reader and its spans, meters and limits, and diagnostics."""

from __future__ import annotations

import operator
from fractions import Fraction
from typing import Any

from bench.seeded_bugs.bugs import bug, edit_function, patch_primitive

# -- tree ---------------------------------------------------------------------------------------


@bug("blind5-division-exactness-from-dividend", "tree", "kernel primitives", "numerics",
     "the integer-division family (quotient, remainder, modulo, floor/, truncate/ and their "
     "halves) takes the exactness of its result from the dividend only, so an inexact divisor "
     "gives an exact result: (modulo 7 2.0) is 1, not 1.0",
     "(list (modulo 7 2.0) (quotient 9 2.0) (remainder 7 -2.0) (modulo 7.0 2))")
def _division_exactness_from_dividend() -> None:
    from implementations.lispex.primitives import numeric_division

    # Realistic: the divisor thought of as "just a count", so only the dividend's type is
    # looked at when deciding whether the result is inexact.
    edit_function(numeric_division, "_operands", "type(a) is float or type(b) is float",
                  "type(a) is float")


@bug("blind5-minus-zero-integer", "tree", "kernel reader", "reader and layout",
     "the integer rule lets the minus sign apply to 0, so -0 is read as the integer 0 (the "
     "reader accepts the literal, string->number gives 0) instead of not being number syntax",
     '(list (string->number "-0") (string->number "-0.5") (string->number "-7") -5)')
def _minus_zero_integer() -> None:
    import re

    from implementations.lispex import numparse

    # Realistic: the grammar's `0 | -?[1-9][0-9]*` written the "obvious" way, with the sign
    # factored out in front of both alternatives.
    numparse._INTEGER = re.compile(r"-?(?:0|[1-9][0-9]*)")


@bug("blind5-library-fault-callback-site", "tree", "tree back end", "diagnostics and spans",
     "a fault raised by a guest-calling library primitive after a callback has returned (a "
     "callback result of the wrong type or of several values) is reported at the last "
     "application made inside the callback instead of at the primitive's call",
     "(define (code c)\n  (char->integer c))\n(string-map code \"ab\")")
def _library_fault_callback_site() -> None:
    from implementations.tree import machine

    # Realistic: the F_GEN return path was written like an ordinary return, so the fault falls
    # back to the machine's `site` register, which the callback's own calls have moved.
    edit_function(machine.Machine, "run",
                  "                                if e.span is None:\n"
                  "                                    e.span = fr[2].span\n"
                  "                                raise\n",
                  "                                raise\n")


# -- vm -----------------------------------------------------------------------------------------


@bug("blind5-call-site-operator-span", "vm", "vm back end", "diagnostics and spans",
     "a call of a global procedure records the span of the operator name, not of the whole "
     "application, as its error site, so an arity fault (or a fault of a primitive bound to a "
     "user global) is reported one column to the right",
     "(define (area w h) (* w h))\n(area 3)")
def _call_site_operator_span() -> None:
    from implementations.vm import machine

    # Realistic: the CALLG instruction carries two spans (the global's, for its E300 check, and
    # the call's), and the site register was set from the wrong one.
    edit_function(machine.Machine, "run",
                  "                                a.append(e(env))\n"
                  "                        st.site = span\n",
                  "                                a.append(e(env))\n"
                  "                        st.site = gspan\n")


@bug("blind5-nested-calls-not-deep", "vm", "vm back end", "meters/limits",
     "a closure the machine applies from a control frame of its own (a map or fold callback, a "
     "handler, a dynamic-wind thunk, a call/cc receiver) does not count toward the non-tail "
     "depth, so recursion through map passes the recursion limit",
     "(define (f n) (if (= n 0) 0 (+ 1 (car (map f (list (- n 1)))))))\n(f 10001)")
def _nested_calls_not_deep() -> None:
    from implementations.vm import control

    # Realistic: one level of indentation: the depth increment went under `if mode == CALLER`
    # with the frame push it sits beside.
    edit_function(control.Control, "apply",
                  "                    frames.append((code, pc, env, depth))\n"
                  "                depth += 1\n",
                  "                    frames.append((code, pc, env, depth))\n"
                  "                    depth += 1\n")


@bug("blind5-string-ci-lower", "vm", "kernel primitives", "strings/chars",
     "string-ci=? and the other string-ci comparisons compare the lower-case forms instead of "
     "the case-folded ones, so ß does not match SS and orders after every ASCII letter",
     '(list (string-ci=? "Straße" "STRASSE") (string-ci=? "abc" "ABC") (string-ci<? "ß" "st"))')
def _string_ci_lower() -> None:
    from implementations.lispex.primitives import strings

    # Realistic: `lower()` is what most code uses for "ignore case"; casefold() is what Unicode
    # case-insensitive comparison needs.
    edit_function(strings, "_comparison", "t.casefold()", "t.lower()")
    for op, holds in (("=", operator.eq), ("<", operator.lt), ("<=", operator.le),
                      (">", operator.gt), (">=", operator.ge)):
        name = f"string-ci{op}?"
        patch_primitive("vm", name, lambda real, name=name, holds=holds:
                        strings._comparison(name, holds, True))


# -- topaz-tree ---------------------------------------------------------------------------------


@bug("blind5-fast-path-bool-is-int", "topaz-tree", "topaz-tree fast paths",
     "diagnostics and spans",
     "the exact-integer fast path of two-argument arithmetic and comparison on two local "
     "variables tests isinstance(x, int), which Python's booleans pass, so (+ #t 1) is 2 "
     "instead of E312",
     "(define (add a b) (+ a b))\n(list (add 1 2) (add #t 1))")
def _fast_path_bool_is_int() -> None:
    import implementations.topaz.tree as topaz_tree
    from implementations.topaz.tree import compiler

    # Realistic: isinstance() is the idiomatic type test in Python, and bool subclasses int.
    edit_function(compiler, "compile_program",
                  "                    if type(a) is int and type(b) is int:\n"
                  "                        return op(a, b)\n"
                  "                    return fn(a, b)\n"
                  "                return local_local\n",
                  "                    if isinstance(a, int) and isinstance(b, int):\n"
                  "                        return op(a, b)\n"
                  "                    return fn(a, b)\n"
                  "                return local_local\n")
    topaz_tree.compile_program = compiler.compile_program


@bug("blind5-display-writes-elements", "topaz-tree", "topaz-tree printer", "printing",
     "display of a list or vector writes the strings and characters inside it (quoted, #\\c), "
     "raw only at the top level",
     '(display (list "a b" #\\c (quote d) 1.5 (vector "e")))')
def _display_writes_elements() -> None:
    from implementations.topaz.tree import printer

    # Realistic: Python's own str() of a list shows its items with repr(), and the container
    # walk was written the same way.
    edit_function(printer, "render", "out.append(_atom(x, write))", "out.append(_atom(x, True))")


@bug("blind5-mixed-compare-inexact", "topaz-tree", "kernel primitives", "numerics",
     "= < > <= >= with an inexact argument convert the exact ones to floats first (contagion as "
     "for arithmetic) instead of comparing exactly, so 1/3 = 0.3333333333333333 and 2^53 + 1 "
     "is not greater than 2^53 as a float",
     "(list (= 1/3 0.3333333333333333) (< 9007199254740992.0 9007199254740993)\n"
     "      (= 1/2 0.5) (< 1 2.5))")
def _mixed_compare_inexact() -> None:
    from implementations.lispex.numbers import to_float

    numeric = (int, float, Fraction)

    # Realistic: "any inexact operand makes the operation inexact" applied to comparisons too.
    def make(name: str):
        def wrap(real: Any) -> Any:
            def compare(*args: Any) -> Any:
                if any(type(a) is float for a in args) and \
                        all(type(a) in numeric for a in args):
                    return real(*[to_float(a, name) for a in args])
                return real(*args)
            return compare
        return wrap
    for name in ("=", "<", ">", "<=", ">="):
        patch_primitive("topaz-tree", name, make(name))


# -- topaz-vm -----------------------------------------------------------------------------------


@bug("blind5-write-escapes-unprintable", "topaz-vm", "topaz-vm printer", "printing",
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


@bug("blind5-single-index-is-end", "topaz-vm", "kernel primitives", "strings/chars",
     "a sequence primitive given only one optional index (string-copy, string->list, "
     "string->vector, vector->string, vector->list, vector-copy) takes it as the end, as "
     "Python's range(stop) does, instead of as the start",
     '(list (string->list "hello" 3) (string-copy "hello" 1) (string->list "ab" 0 1))')
def _single_index_is_end() -> None:
    from implementations.lispex.primitives import errors_util, strings, vectors

    exact_integer, out_of_range = errors_util.exact_integer, errors_util.out_of_range

    def start_end(name: str, obj: Any, length: int, opt: tuple) -> tuple[int, int]:
        if len(opt) == 1:
            # Realistic: one optional argument read like range(n): an end, counted from 0.
            start, end = 0, exact_integer(name, opt[0])
        else:
            start = exact_integer(name, opt[0]) if len(opt) > 0 else 0
            end = exact_integer(name, opt[1]) if len(opt) > 1 else length
        if not 0 <= start <= length:
            out_of_range(name, start, obj)
        if not start <= end <= length:
            out_of_range(name, end, obj)
        return start, end
    errors_util.start_end = strings.start_end = vectors.start_end = start_end


@bug("blind5-unclosed-list-outermost", "topaz-vm", "kernel reader", "diagnostics and spans",
     "a source that ends inside unclosed lists reports E100 at the outermost unclosed opening "
     "(where the top-level form began) instead of the innermost one",
     "(define (f x)\n  (display x)\n  (g x")
def _unclosed_list_outermost() -> None:
    from implementations.lispex import reader

    # Realistic: the bottom of the parser stack taken for "the list that is open", as an
    # editor reporting the form that never ended would.
    edit_function(reader, "_parse", "    if stack:\n        top = stack[-1]\n",
                  "    if stack:\n        top = stack[0]\n")
