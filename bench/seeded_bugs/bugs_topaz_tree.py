"""Seeded bugs in `topaz-tree` and its copy of the kernel (see bugs.py)."""

from __future__ import annotations

import dataclasses
import math
import operator
from fractions import Fraction
from importlib import import_module

from bench.seeded_bugs.bugs import bug, patch_primitive


@bug("reader-fraction-float", "topaz-tree", "kernel reader", "numerics",
     "the reader turns an exact fraction literal into a float", "(list 1/3 (* 3 1/3))")
def _reader_fraction_float() -> None:
    from implementations.lispex import reader

    real = reader.parse_number

    def parse_number(word: str):
        value = real(word)
        return float(value) if type(value) is Fraction else value
    reader.parse_number = parse_number


@bug("round-half-up", "topaz-tree", "kernel primitives", "numerics",
     "round rounds halves away from zero instead of to even", "(list (round 2.5) (round 7/2))")
def _round_half_up() -> None:
    def make(real):
        def round_(x):
            if type(x) is float and math.isfinite(x) and x - math.floor(x) == 0.5:
                return math.floor(x) + 1.0 if x > 0 else math.ceil(x) - 1.0
            if type(x) is Fraction and x.denominator == 2:
                return math.floor(x) + 1 if x > 0 else math.ceil(x) - 1
            return real(x)
        return round_
    patch_primitive("topaz-tree", "round", make)


@bug("upcase-ascii", "topaz-tree", "kernel primitives", "strings/chars",
     "char-upcase changes only ASCII letters", "(char-upcase (integer->char 233))")
def _upcase_ascii() -> None:
    def make(real):
        def upcase(c):
            code = getattr(c, "code", None)
            return c if isinstance(code, int) and code > 127 else real(c)
        return upcase
    patch_primitive("topaz-tree", "char-upcase", make)


@bug("length-improper", "topaz-tree", "kernel primitives", "diagnostics and spans",
     "length of an improper list counts its pairs instead of failing",
     "(length (cons 1 (cons 2 3)))")
def _length_improper() -> None:
    from implementations.topaz.kernel.values import Pair

    def make(real):
        def length(x):
            n = 0
            while type(x) is Pair:
                n, x = n + 1, x.cdr
            return n if n else real(x)
        return length
    patch_primitive("topaz-tree", "length", make)


@bug("space-name", "topaz-tree", "topaz-tree printer", "printing",
     "the space character is written as #\\  rather than #\\space", "(write #\\space)")
def _space_name() -> None:
    from implementations.topaz.tree import printer

    printer.CHAR_NAMES.pop(0x20, None)


@bug("fast-greater-equal", "topaz-tree", "topaz-tree fast paths", "control flow",
     "the integer fast path of >= is >", "(let loop ((i 0)) (if (>= i 3) i (loop (+ i 1))))"
     "\n(list (>= 3 3) (>= 2 3))")
def _fast_greater_equal() -> None:
    from implementations.topaz.tree import fastops

    fastops.BINARY[">="] = operator.gt


@bug("rebound-primitive", "topaz-tree", "topaz-tree analysis", "scoping/set!",
     "a top-level define of a primitive's name is not noticed: calls still go to the primitive",
     "(define (abs x) 99)\n(abs -5)")
def _rebound_primitive() -> None:
    from implementations.lispex import core_ir as ir
    from implementations.topaz.tree import analysis, compiler

    def assigned_slots(program):
        slots = set()
        todo = list(program.forms)
        while todo:
            n = todo.pop()
            if type(n) is ir.SetGlobal:
                slots.add(n.slot)
            todo.extend(analysis.children(n))
        return slots
    compiler.assigned_slots = assigned_slots


@bug("rest-drops-first", "topaz-tree", "topaz-tree calling", "apply/rest args",
     "a rest parameter drops the first extra argument when the call has more than one",
     "(define (f a . rest) (list a rest))\n(f 1 2 3)")
def _rest_drops_first() -> None:
    from implementations.topaz.tree import calling, compiler

    real = calling.bind

    def bind(f, args):
        frame = real(f, args)
        if f.rest and len(args) > f.nparams + 1:
            frame[-1] = frame[-1].cdr
        return frame
    calling.bind = bind
    compiler.bind = bind


@bug("column-zero-based", "topaz-tree", "topaz-tree control", "diagnostics and spans",
     "a runtime fault's span has a 0-based column", "(define x 1)\n  (car x)")
def _column_zero_based() -> None:
    from implementations.topaz.tree import control

    real = control.fault

    def fault(rt, err):
        span = err.span if err.span is not None else rt.get_site()
        if span is not None:
            err.span = dataclasses.replace(span, column=span.column - 1)
        return real(rt, err)
    control.fault = fault
    for name in ("compiler", "nodes", "calling", "guest"):
        mod = import_module(f"implementations.topaz.tree.{name}")
        if getattr(mod, "fault", None) is real:
            mod.fault = fault


@bug("max-exact-contagion", "topaz-tree", "kernel primitives", "numerics",
     "max and min return the exact winner even when another argument is inexact",
     "(list (max 3 2.0) (min 1 2.5))")
def _max_exact_contagion() -> None:
    def make(real):
        def extremum(*args):
            out = real(*args)
            winner = [a for a in args if a == out and type(a) is not float]
            return winner[0] if type(out) is float and winner else out
        return extremum
    patch_primitive("topaz-tree", "max", make)
    patch_primitive("topaz-tree", "min", make)


@bug("do-no-step-reinit", "topaz-tree", "kernel normalizer", "scoping/set!",
     "a do variable without a step is re-initialised on every iteration",
     "(do ((i 0 (+ i 1)) (acc '())) ((= i 3) acc) (set! acc (cons i acc)))")
def _do_no_step_reinit() -> None:
    from bench.seeded_bugs.bugs import _derived_class
    from implementations.lispex.syntax import SList

    cls = _derived_class()
    real = cls.form_do

    def form_do(self, d, scope, tail):
        items = d.items
        if len(items) >= 3 and type(items[1]) is SList:
            specs = [SList([*s.items, s.items[1]], None, s.span)
                     if type(s) is SList and len(s.items) == 2 else s for s in items[1].items]
            d = SList([items[0], SList(specs, items[1].tail, items[1].span), *items[2:]],
                      d.tail, d.span)
        return real(self, d, scope, tail)
    cls.form_do = form_do


@bug("exact-truncates", "topaz-tree", "kernel primitives", "numerics",
     "exact of a non-integral float truncates it to an integer instead of giving the ratio",
     "(list (exact 0.5) (exact -2.25) (exact 3.0))")
def _exact_truncates() -> None:
    def make(real):
        def exact(x):
            if type(x) is float and math.isfinite(x) and not x.is_integer():
                return real(float(math.trunc(x)))
            return real(x)
        return exact
    patch_primitive("topaz-tree", "exact", make)


@bug("whitespace-no-tab", "topaz-tree", "kernel primitives", "strings/chars",
     "char-whitespace? is false for a tab", "(list (char-whitespace? #\\tab) (char-whitespace? #\\space))")
def _whitespace_no_tab() -> None:
    def make(real):
        return lambda c: False if getattr(c, "code", None) == 9 else real(c)
    patch_primitive("topaz-tree", "char-whitespace?", make)
