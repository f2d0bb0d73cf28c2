"""Seeded bugs: realistic single-point mistakes, each applied to one implementation by a patch.

Each bug names the implementation it is seeded into (`tree`, `vm`, `topaz-tree`, `topaz-vm`), the
part of the code it sits in (`where`: a back end, or a kernel module of that member's own copy:
reader, normalizer, printer, numbers, primitives, meters), its feature family, and a small
witness program on which it changes the result (tests/test_seeded_bugs.py checks that it does,
so the benchmark cannot pass vacuously). ``apply()`` patches the running process; the worker in
``worker.py`` applies one bug and then serves the ordinary worker protocol.

The bugs are written for this benchmark and are not the four in tests/harness/fakes.
"""

from __future__ import annotations

import dataclasses
import math
import operator
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from importlib import import_module
from typing import Any

BACKENDS = {"tree": "implementations.tree", "vm": "implementations.vm",
            "topaz-tree": "implementations.topaz.tree", "topaz-vm": "implementations.topaz.vm"}
FAMILIES = ("control flow", "scoping/set!", "closures", "tail calls", "numerics", "printing",
            "strings/chars", "vectors", "diagnostics and spans", "meters/limits", "call/cc",
            "dynamic-wind", "handlers", "multiple values", "apply/rest args")


@dataclass(frozen=True)
class Bug:
    name: str
    impl: str
    where: str
    family: str
    what: str
    witness: str
    apply: Callable[[], None]


BUGS: dict[str, Bug] = {}


def bug(name: str, impl: str, where: str, family: str, what: str, witness: str):
    def register(fn: Callable[[], None]) -> Callable[[], None]:
        assert name not in BUGS and impl in BACKENDS and family in FAMILIES, name
        BUGS[name] = Bug(name, impl, where, family, what, witness, fn)
        return fn
    return register


def _prims(impl: str) -> dict:
    return import_module(BACKENDS[impl]).primitives()


def patch_primitive(impl: str, name: str, make: Callable[[Callable], Callable]) -> None:
    """Replace primitive ``name`` (and its aliases) in ``impl``'s table with ``make(real)``,
    called the same way as the real function."""
    from implementations.lispex.values import Primitive

    prims = _prims(impl)
    old = prims[name]
    new = Primitive(name, make(old.fn), old.min_args, old.max_args, warning=old.warning,
                    guest=old.guest, backend=old.backend, family=old.family,
                    needs_context=old.needs_context)
    for k, v in list(prims.items()):
        if v is old:
            prims[k] = new


def _err(code: str, message: str, *irritants: Any) -> Exception:
    from implementations.lispex.errors import LispexError

    return LispexError(code, message, irritants)


# -- tree ----------------------------------------------------------------------------------

@bug("remainder-sign", "tree", "kernel primitives", "numerics",
     "remainder takes the divisor's sign (Python %), not the dividend's",
     "(list (remainder -7 2) (remainder 7 -2))")
def _remainder_sign() -> None:
    def make(real):
        def remainder(a, b):
            if type(a) is int and type(b) is int and b != 0:
                return a % b
            return real(a, b)
        return remainder
    patch_primitive("tree", "remainder", make)


@bug("substring-inclusive", "tree", "kernel primitives", "strings/chars",
     "substring treats its end index as inclusive", '(substring "hello" 1 3)')
def _substring_inclusive() -> None:
    def make(real):
        def substring(s, start, end):
            try:
                return real(s, start, end + 1) if type(end) is int else real(s, start, end)
            except Exception:
                return real(s, start, end)
        return substring
    patch_primitive("tree", "substring", make)


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


@bug("negative-zero", "tree", "kernel numbers", "numerics",
     "-0.0 is printed as 0.0 (the sign of zero is dropped)", "(- 0.0)")
def _negative_zero() -> None:
    from implementations.lispex import numbers, printer

    real = numbers.format_float

    def format_float(x: float) -> str:
        return real(0.0) if x == 0 else real(x)
    numbers.format_float = format_float
    printer.format_float = format_float


@bug("continuable-loses-handler", "tree", "tree machine", "handlers",
     "returning from a raise-continuable handler reinstates the outer handlers, not the ones "
     "in force at the raise",
     "(with-exception-handler (lambda (e) 1)\n"
     "  (lambda () (+ (raise-continuable 'a) (raise-continuable 'b))))")
def _continuable_loses_handler() -> None:
    from implementations.tree import machine

    real = machine.Machine.control

    def control(self, fr, k, val, handlers, depth):
        if fr[0] == machine.F_RAISE and fr[1]:
            outer = fr[3][1] if fr[3] else None
            return machine.RET, val, [], False, outer, depth, None, None
        return real(self, fr, k, val, handlers, depth)
    machine.Machine.control = control


@bug("guard-reraise-noncontinuable", "tree", "tree machine", "handlers",
     "a guard with no matching clause re-raises as non-continuable",
     "(with-exception-handler (lambda (e) 5)\n"
     "  (lambda () (+ 1 (guard (e ((string? e) 0)) (raise-continuable 'sym)))))")
def _guard_reraise() -> None:
    from implementations.tree import machine

    real = machine.Machine.control

    def control(self, fr, k, val, handlers, depth):
        if fr[0] == machine.F_GCLAUSE:
            fr = (*fr[:5], False, fr[6])  # forgets how the condition was raised
        return real(self, fr, k, val, handlers, depth)
    machine.Machine.control = control


@bug("apply-not-tail", "tree", "tree machine", "tail calls",
     "apply in tail position is not a tail call: loops through apply use the stack",
     "(define (f n) (if (= n 0) 'done (apply f (list (- n 1)))))\n(f 20000)")
def _apply_not_tail() -> None:
    from implementations.tree import machine

    real = machine.Machine.special

    def special(self, fn, vals, tail, k, handlers, site):
        out = real(self, fn, vals, tail, k, handlers, site)
        if fn.name == "apply":
            mode, val, v, _, h, node = out
            return mode, val, v, False, h, node
        return out
    machine.Machine.special = special


@bug("output-chars", "tree", "kernel meters", "meters/limits",
     "the output meter counts characters, not UTF-8 bytes", '(display "héllo")')
def _output_chars() -> None:
    from implementations.lispex import context
    from implementations.lispex.meters import OUTPUT

    def emit(self, text: str) -> None:
        self.meter.charge(OUTPUT, len(text))
        self.out.append(text)
    context.RunContext.emit = emit


@bug("vector-index-code", "tree", "kernel primitives", "diagnostics and spans",
     "vector-ref out of range reports a type error (E310) instead of its own code",
     "(vector-ref (vector 1 2 3) 3)")
def _vector_index_code() -> None:
    from implementations.lispex.errors import LispexError

    def make(real):
        def vector_ref(v, i):
            try:
                return real(v, i)
            except LispexError as e:
                if e.code != "E310":
                    raise _err("E310", e.message, v, i) from None
                raise
        return vector_ref
    patch_primitive("tree", "vector-ref", make)


# -- vm ------------------------------------------------------------------------------------

@bug("expt-negative", "vm", "kernel numbers", "numerics",
     "expt with a negative exact exponent floors to an integer", "(expt 2 -2)")
def _expt_negative() -> None:
    def make(real):
        def expt(a, b):
            if type(a) is int and type(b) is int and b < 0 and a != 0:
                return 1 // (a ** -b)
            return real(a, b)
        return expt
    patch_primitive("vm", "expt", make)


@bug("string-less-prefix", "vm", "kernel primitives", "strings/chars",
     "string<? is false when the first string is a proper prefix of the second",
     '(list (string<? "ab" "abc") (string<? "abc" "ab"))')
def _string_less_prefix() -> None:
    def make(real):
        def less(*args):
            texts = [a.s for a in args if hasattr(a, "s")]
            if len(texts) == len(args) and any(b.startswith(a) and a != b
                                               for a, b in zip(texts, texts[1:], strict=False)):
                return False
            return real(*args)
        return less
    patch_primitive("vm", "string<?", make)


@bug("assoc-eqv", "vm", "kernel primitives", "control flow",
     "assoc compares keys with eqv?, so string keys never match",
     "(assoc \"b\" (list (cons \"a\" 1) (cons \"b\" 2)))")
def _assoc_eqv() -> None:
    prims = _prims("vm")
    assv = prims["assv"].fn
    patch_primitive("vm", "assoc", lambda real: lambda key, alist: assv(key, alist))


@bug("char-name-nul", "vm", "kernel printer", "printing",
     "the character U+0000 is written #\\nul instead of #\\null", "(write (integer->char 0))")
def _char_name_nul() -> None:
    from implementations.lispex import printer

    printer._CHAR_NAMES[0x00] = "nul"


@bug("fast-less-equal", "vm", "vm code generator", "control flow",
     "the inline fast path of <= on two integers compiles to <",
     "(define (f a b) (if (<= a b) 'yes 'no))\n(list (f 2 2) (f 1 2))")
def _fast_less_equal() -> None:
    from implementations.vm import treegen

    n, template, _ = treegen.FAST["<="]
    treegen.FAST["<="] = (n, template, "<")


@bug("eqv-identity", "vm", "vm code generator", "numerics",
     "the inline eqv? compares by identity only, so equal big integers are not eqv?",
     "(define (same? a b) (eqv? a b))\n(same? (* 100000 100000) (* 100000 100000))")
def _eqv_identity() -> None:
    from implementations.vm import treegen

    treegen.FAST["eqv?"] = (2, "{r} = {a} is {b}", "")


@bug("letrec-no-init-check", "vm", "vm code generator", "scoping/set!",
     "reading a letrec variable before its initialisation is not an error",
     "(define (f)\n  (define a (+ b 1))\n  (define b 2)\n  a)\n(f)")
def _letrec_no_init_check() -> None:
    from implementations.vm import treegen

    treegen._e321 = lambda name, span: None


@bug("handler-sees-itself", "vm", "vm control", "handlers",
     "a handler runs with itself still installed, so a raise inside it comes back to it",
     "(with-exception-handler (lambda (e) 100)\n"
     "  (lambda () (with-exception-handler\n"
     "               (lambda (e) (if (eq? e 'x) (+ 1 (raise-continuable 'inner)) 7))\n"
     "               (lambda () (raise-continuable 'x)))))")
def _handler_sees_itself() -> None:
    from implementations.vm import control

    def signal(self, payload, continuable, span, depth, handlers):
        if handlers is None:
            raise control.Raised(payload, span)
        h, outer = handlers
        if type(h) is control.GuardHandler:
            return self.unwind(h.index, ("guard", payload, continuable, span), depth, handlers)
        self.frames.append((control.K_CODES[control.K_RAISE], 0,
                            (continuable, payload, handlers, span), depth))
        self.tick()
        # The bug: the handler should run with the outer handlers.
        return self.apply(h, [payload], control.NESTED, None, 0, None, depth, handlers)
    control.Control.signal = signal


@bug("dynamic-wind-free", "vm", "vm control", "meters/limits",
     "dynamic-wind charges no machine transition for entering its frame",
     "(dynamic-wind (lambda () 1) (lambda () 2) (lambda () 3))")
def _dynamic_wind_free() -> None:
    from implementations.lispex.meters import MACHINE
    from implementations.vm import control

    real = control.Control.special

    def special(self, name, fn, args, *rest):
        out = real(self, name, fn, args, *rest)
        if name == "dynamic-wind":
            self.meter.used[MACHINE] -= 1
        return out
    control.Control.special = special


@bug("recursion-limit-early", "vm", "vm machine", "meters/limits",
     "the recursion limit counts the top-level frame: depth 10,000 is already too deep",
     "(define (f n) (if (= n 0) 0 (+ 1 (f (- n 1)))))\n(f 9999)")
def _recursion_limit_early() -> None:
    from implementations.vm import control, machine

    control.RECURSION_LIMIT = 9_998
    machine.RECURSION_LIMIT = 9_998


@bug("vector-list-end", "vm", "kernel primitives", "vectors",
     "vector->list ignores its end index", "(vector->list (vector 1 2 3 4) 1 3)")
def _vector_list_end() -> None:
    def make(real):
        return lambda v, *args: real(v, *args[:1])
    patch_primitive("vm", "vector->list", make)


@bug("procedure-closures", "vm", "kernel primitives", "closures",
     "procedure? recognises primitives only, not closures",
     "(define (adder n) (lambda (x) (+ x n)))\n(list (procedure? car) (procedure? (adder 1)))")
def _procedure_closures() -> None:
    from implementations.lispex.values import Primitive

    patch_primitive("vm", "procedure?", lambda real: lambda x: type(x) is Primitive)


@bug("when-false-value", "vm", "kernel normalizer", "control flow",
     "(when #f ...) yields #f instead of no value",
     "(define x 0)\n(list (when (> x 1) 'big))")
def _when_false_value() -> None:
    from implementations.lispex import core_ir as ir

    cls = _derived_class()
    real = cls.form_when

    def form_when(self, d, scope, tail):
        node = real(self, d, scope, tail)
        return ir.If(node.test, node.then, ir.Const(False, d.span), d.span) \
            if type(node) is ir.If else node
    cls.form_when = form_when


def _derived_class() -> type:
    from implementations.lispex import derived

    return next(v for v in vars(derived).values()
                if isinstance(v, type) and hasattr(v, "form_when"))


@bug("reader-fraction-float", "topaz-tree", "kernel reader", "numerics",
     "the reader turns an exact fraction literal into a float", "(list 1/3 (* 3 1/3))")
def _reader_fraction_float() -> None:
    from implementations.lispex import reader

    real = reader.parse_number

    def parse_number(word: str):
        value = real(word)
        return float(value) if type(value) is Fraction else value
    reader.parse_number = parse_number


# -- topaz-tree ----------------------------------------------------------------------------

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
    from implementations.lispex.values import Pair

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


# -- topaz-vm ------------------------------------------------------------------------------

@bug("append-drops-last", "topaz-vm", "kernel primitives", "strings/chars",
     "string-append of three or more strings drops the last one",
     '(string-append "a" "b" "c")')
def _append_drops_last() -> None:
    patch_primitive("topaz-vm", "string-append",
                    lambda real: lambda *a: real(*a[:-1]) if len(a) > 2 else real(*a))


@bug("vector-negative-index", "topaz-vm", "kernel primitives", "vectors",
     "vector-ref accepts a negative index (Python indexing from the end)",
     "(vector-ref (vector 1 2 3) -1)")
def _vector_negative_index() -> None:
    def make(real):
        def vector_ref(v, i):
            items = getattr(v, "items", None)
            if type(i) is int and i < 0 and items is not None and -i <= len(items):
                return items[i]
            return real(v, i)
        return vector_ref
    patch_primitive("topaz-vm", "vector-ref", make)


@bug("isqrt-float", "topaz-vm", "kernel numbers", "multiple values",
     "exact-integer-sqrt goes through a float and is wrong for large integers",
     "(call-with-values (lambda () (exact-integer-sqrt (- (expt 10 40) 1))) list)")
def _isqrt_float() -> None:
    from implementations.lispex.values import Values

    def make(real):
        def isqrt(n):
            if type(n) is int and n >= 0:
                s = int(math.sqrt(n))
                return Values((s, n - s * s))
            return real(n)
        return isqrt
    patch_primitive("topaz-vm", "exact-integer-sqrt", make)


@bug("float-no-point", "topaz-vm", "topaz-vm printer", "printing",
     "an integral float is written without its .0", "(display (list 1.0 (* 2 1.5) -3.0))")
def _float_no_point() -> None:
    from implementations.topaz.vm import printer

    real = printer.float_text

    def float_text(x: float) -> str:
        out = real(x)
        return out[:-2] if out.endswith(".0") else out
    printer.float_text = float_text


@bug("apply-drops-middle", "topaz-vm", "topaz-vm runtime", "apply/rest args",
     "apply passes only the spread list, dropping the arguments before it",
     "(apply + 1 2 (list 3 4))")
def _apply_drops_middle() -> None:
    from implementations.topaz.vm import runtime

    real = runtime.Runtime.p_apply

    def p_apply(self, d, tail, f, *args):
        return real(self, d, tail, f, args[-1])
    runtime.Runtime.p_apply = p_apply


@bug("values-first-only", "topaz-vm", "topaz-vm runtime", "multiple values",
     "call-with-values passes only the first of several values to the consumer",
     "(call-with-values (lambda () (values 1 2)) (lambda args args))")
def _values_first_only() -> None:
    from implementations.lispex.values import Values
    from implementations.topaz.vm import runtime

    def p_call_with_values(self, d, tail, producer, consumer):
        site = self.site_get()
        v = self.call(d, producer, ())
        args = v.items[:1] if type(v) is Values else (v,)  # the bug: only the first value
        if tail:
            self.site_set(site)
            return runtime.TailCall(consumer, args)
        return self.call_at(d, site, consumer, args)
    runtime.Runtime.p_call_with_values = p_call_with_values


@bug("continuable-as-raise", "topaz-vm", "topaz-vm runtime", "handlers",
     "raise-continuable is treated as raise: a handler's return is an error",
     "(with-exception-handler (lambda (e) 10)\n  (lambda () (+ 1 (raise-continuable 'x))))")
def _continuable_as_raise() -> None:
    from implementations.topaz.vm import runtime

    runtime.Runtime.p_raise_continuable = runtime.Runtime.p_raise


@bug("escape-keeps-handlers", "topaz-vm", "topaz-vm runtime", "call/cc",
     "escaping through call/cc does not restore the handlers of the call/cc call",
     "(guard (e (#t (list 'guarded e)))\n  (call/cc (lambda (k)\n"
     "    (with-exception-handler (lambda (e) 'inner) (lambda () (k 1)))))\n"
     "  (raise-continuable 'x))")
def _escape_keeps_handlers() -> None:
    from implementations.topaz.vm import runtime

    def p_call_cc(self, d, tail, receiver):
        k = runtime.Continuation()
        try:
            try:
                value = self.call(d, receiver, (k,))
            except runtime.LispexError as e:
                self.fault(e)
        except runtime.ContinuationEscape as x:
            if x.k is not k:
                raise
            value = x.value  # the bug: the handlers of the call/cc call are not restored
        finally:
            k.active = False
        return value
    runtime.Runtime.p_call_cc = p_call_cc


@bug("and-not-tail", "topaz-vm", "kernel normalizer", "tail calls",
     "the last operand of and is not in tail position",
     "(define (loop n) (and (>= n 0) (if (= n 0) 'done (loop (- n 1)))))\n(loop 20000)")
def _and_not_tail() -> None:
    cls = _derived_class()
    real = cls.form_and

    def form_and(self, d, scope, tail):
        return real(self, d, scope, False)
    cls.form_and = form_and


@bug("dynamic-wind-after-skipped", "topaz-vm", "topaz-vm runtime", "dynamic-wind",
     "dynamic-wind does not run the after thunk when the body escapes with an error caught "
     "outside",
     "(define log '())\n(guard (e (#t (reverse log)))\n  (dynamic-wind\n"
     "    (lambda () (set! log (cons 'in log)))\n    (lambda () (car '()))\n"
     "    (lambda () (set! log (cons 'out log)))))")
def _dynamic_wind_after_skipped() -> None:
    from implementations.topaz.vm import runtime

    def p_dynamic_wind(self, d, tail, before, thunk, after):
        site = self.site_get()
        self.call(d, before, ())
        try:
            value = self.call_at(d, site, thunk, ())
        except Exception:
            raise
        self.call_at(d, site, after, ())
        return value
    runtime.Runtime.p_dynamic_wind = p_dynamic_wind
