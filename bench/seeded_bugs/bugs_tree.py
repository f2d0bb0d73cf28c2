"""Seeded bugs in `tree` and its copy of the kernel (see bugs.py)."""

from __future__ import annotations

from bench.seeded_bugs.bugs import _err, bug, patch_primitive


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


@bug("nary-less-first-pair", "tree", "kernel primitives", "numerics",
     "< with three or more arguments compares only the first two",
     "(list (< 1 2 0) (< 1 2 3))")
def _nary_less_first_pair() -> None:
    patch_primitive("tree", "<", lambda real: lambda *args: real(*args[:2]))


@bug("gcd-sign", "tree", "kernel numbers", "numerics",
     "gcd keeps the sign of its first argument (Euclid on signed integers)",
     "(list (gcd -4 6) (gcd 4 -6))")
def _gcd_sign() -> None:
    def make(real):
        def gcd(*args):
            out = real(*args)
            if args and type(args[0]) is int and args[0] < 0 and type(out) is int:
                return -out
            return out
        return gcd
    patch_primitive("tree", "gcd", make)


@bug("crlf-two-lines", "tree", "kernel reader", "reader and layout",
     "the reader takes the CR of a CRLF for a line break of its own, so every line of a CRLF "
     "file after the first is reported a line too low", "(define x 1)\r\n(car x)")
def _crlf_two_lines() -> None:
    from implementations.lispex import reader

    real = reader._decode

    def decode(data, file, meter):
        return real(data, file, meter).replace("\r\n", "\n\n")
    reader._decode = decode


@bug("exact-integer-float", "tree", "kernel primitives", "numerics",
     "exact-integer? is true of an inexact integral number", "(list (exact-integer? 2.0) (exact-integer? 2))")
def _exact_integer_float() -> None:
    patch_primitive("tree", "exact-integer?",
                    lambda real: lambda x: True if type(x) is float and x.is_integer() else real(x))
