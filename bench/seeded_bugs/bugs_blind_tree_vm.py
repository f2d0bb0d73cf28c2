"""Seeded bugs written blind: by a session that did not read the fuzzer (court/fuzz/) first, so
that they measure what the generator reaches rather than what it was written beside (see
bugs.py)."""

from __future__ import annotations

from bench.seeded_bugs.bugs import bug, edit_function, patch_primitive

# ---------------------------------------------------------------------------------------------
# tree


@bug("blind-dw-after-escape-handlers", "tree", "tree back end", "dynamic-wind",
     "when an escape unwinds through dynamic-wind, the after thunk runs under the handlers in "
     "force at the escape point instead of those of the dynamic-wind call",
     "(with-exception-handler (lambda (e) 10)\n"
     "  (lambda ()\n"
     "    (call/cc (lambda (k)\n"
     "      (dynamic-wind (lambda () 0)\n"
     "        (lambda () (with-exception-handler (lambda (e) 20) (lambda () (k 1))))\n"
     "        (lambda () (display (raise-continuable 'x))))))))")
def _dw_after_escape_handlers() -> None:
    from implementations.tree import control

    # Realistic: the unwind loop passes its live `handlers` register, not the frame's saved one.
    edit_function(control.Control, "unwind", "[fr[1]], fr[2], depth, fr[3]",
          "[fr[1]], handlers, depth, fr[3]")


@bug("blind-handler-outlives-thunk", "tree", "tree back end", "handlers",
     "a with-exception-handler whose thunk returns normally leaves its handler installed for "
     "the rest of the enclosing computation",
     "(define (f)\n  (with-exception-handler (lambda (e) 42) (lambda () 'ok))\n"
     "  (+ 1 (raise-continuable 'late)))\n(f)")
def _handler_outlives_thunk() -> None:
    from implementations.tree import control

    # Realistic: the F_HANDLERS frame's return keeps the live register instead of restoring.
    edit_function(control.Control, "control", "return RET, val, [], False, fr[1], depth, None, None",
          "return RET, val, [], False, handlers, depth, None, None")


@bug("blind-apply-spread-free", "tree", "tree back end", "meters/limits",
     "apply charges no machine transition for the application it makes of its procedure",
     "(define (f a b) (+ a b))\n(apply f 1 (list 2))")
def _apply_spread_free() -> None:
    from implementations.lispex.meters import MACHINE
    from implementations.tree import control

    real = control.Control.special

    def special(self, fn, vals, tail, k, handlers, site):
        out = real(self, fn, vals, tail, k, handlers, site)
        if fn.name == "apply":
            # Realistic: apply's own call is counted, and the spread call is taken to be it.
            self.meter.used[MACHINE] -= 1
        return out
    control.Control.special = special


@bug("blind-quote-shorthand", "tree", "kernel printer", "printing",
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


@bug("blind-vector-copy-alias", "tree", "kernel primitives", "vectors",
     "vector-copy of a whole vector (no start or end) returns the vector itself, not a fresh "
     "mutable copy",
     "(define v (vector 1 2 3))\n(define w (vector-copy v))\n(vector-set! w 0 'x)\n(list v w)")
def _vector_copy_alias() -> None:
    from implementations.lispex.values import Vector

    def make(real):
        def vector_copy(v, *opt):
            # Realistic: a "nothing to slice" shortcut that skips the copy.
            if not opt and type(v) is Vector:
                return v
            return real(v, *opt)
        return vector_copy
    patch_primitive("tree", "vector-copy", make)


@bug("blind-string-newline-lines", "tree", "kernel reader", "diagnostics and spans",
     "the reader counts line breaks only between tokens, so after a string literal that spans "
     "lines every span is reported on too low a line (and column)",
     '(define s "one\ntwo")\n(car s)')
def _string_newline_lines() -> None:
    from implementations.lispex import reader

    # Realistic: the line scan restarts at the end of the previous token, skipping its body.
    edit_function(reader, "_parse", "        last = s\n", "        last = e\n")


# ---------------------------------------------------------------------------------------------
# vm


@bug("blind-linker-defers-locals", "vm", "vm linker", "scoping/set!",
     "the linker treats reading a local variable as unobservable and may evaluate it after a "
     "later operand has assigned that variable",
     "(define (f)\n  (let ((n 0))\n    (define (bump!) (set! n (+ n 1)) n)\n"
     "    (list n (bump!) n)))\n(f)")
def _linker_defers_locals() -> None:
    from implementations.vm import link

    def deferrable(self) -> bool:
        # Realistic: locals lumped in with constants and closure creation as "pure".
        return not self.real and self.node[0] in ("const", "closure", "local")
    link.Item.deferrable = property(deferrable)


@bug("blind-cwv-consumer-not-tail", "vm", "vm back end", "tail calls",
     "the consumer of a call-with-values in tail position is applied as a nested call, so a "
     "loop through call-with-values grows the non-tail depth",
     "(define (loop n)\n  (if (= n 0) 'done\n"
     "      (call-with-values (lambda () n) (lambda (m) (loop (- m 1))))))\n(loop 20000)")
def _cwv_consumer_not_tail() -> None:
    from implementations.vm import control

    # Realistic: the consumer is applied the way the producer was (NESTED) when the caller's
    # mode is TAIL.
    edit_function(control.Control, "control",
          "return self.apply(consumer, args, mode, code, pc, env, depth, handlers)",
          "return self.apply(consumer, args, NESTED if mode == TAIL else mode, code, pc, env, "
          "depth, handlers)")


@bug("blind-continuation-first-value", "vm", "vm back end", "call/cc",
     "an escape continuation called with several values delivers only the first of them",
     "(call-with-values (lambda () (call/cc (lambda (k) (k 1 2)))) list)")
def _continuation_first_value() -> None:
    from implementations.vm import control

    # Realistic: a continuation treated as a one-argument procedure unless it gets none.
    edit_function(control.Control, "apply", "v = args[0] if len(args) == 1 else Values(tuple(args))",
          "v = args[0] if len(args) >= 1 else Values(tuple(args))")


@bug("blind-rest-needs-one", "vm", "vm back end", "apply/rest args",
     "a procedure with a rest parameter demands at least one argument beyond its required ones "
     "(an empty rest list is an arity error)",
     "(define (f a . more) (list a more))\n(list (f 1 2) (f 1))")
def _rest_needs_one() -> None:
    from implementations.vm import control

    # Realistic: off-by-one in the arity check of a variadic closure.
    edit_function(control.Control, "apply", "if n < np:", "if n <= np:")


@bug("blind-cond-test-only-true", "vm", "kernel normalizer", "control flow",
     "a cond clause with a test and no body yields #t instead of the value of its test",
     "(cond ((assv 2 '((1 . a) (2 . b)))) (else #f))")
def _cond_test_only_true() -> None:
    from implementations.lispex import derived

    # Realistic: `(test)` expanded as `(test #t)`.
    edit_function(derived.DerivedForms, "cond_chain", "ir.If(tref, tref, node, cspan)",
          "ir.If(tref, ir.Const(True, cspan), node, cspan)")


@bug("blind-product-not-demoted", "vm", "kernel numbers", "numerics",
     "an exact product of rationals that is an integer is kept as a ratio (2/1), not demoted "
     "to an exact integer",
     "(list (* 1/2 4) (* 2/3 3/2) (exact-integer? (* 1/2 4)))")
def _product_not_demoted() -> None:
    from implementations.lispex import numbers
    from implementations.lispex.primitives import numeric

    def mul(a, b, name="*"):
        numbers.check_product(a, b, name)
        try:
            r = a * b
        except OverflowError:
            raise numbers.nonfinite_error(name, a, b) from None
        if type(r) is float:
            return numbers.check_finite(r, name, a, b)
        return r  # Realistic: the demotion add and sub do (_exact_result) forgotten here.
    numbers.mul = mul
    numeric.mul = mul
