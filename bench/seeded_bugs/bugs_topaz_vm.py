"""Seeded bugs in `topaz-vm` and its copy of the kernel (see bugs.py)."""

from __future__ import annotations

import math

from bench.seeded_bugs.bugs import _derived_class, bug, patch_primitive


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



@bug("tab-eight-columns", "topaz-vm", "kernel reader", "reader and layout",
     "a tab advances the column to the next multiple of eight instead of by one",
     "(define x 1)\n\t(car x)")
def _tab_eight_columns() -> None:
    from implementations.lispex import reader

    real = reader._decode

    def decode(data, file, meter):
        return real(data, file, meter).expandtabs(8)
    reader._decode = decode


@bug("list-tail-whole", "topaz-vm", "kernel primitives", "vectors",
     "list-tail of a list by its own length is out of range instead of giving '()",
     "(list (list-tail '(1 2) 2) (list-tail '(1 2 3) 1))")
def _list_tail_whole() -> None:
    def make(real):
        def tail(lst, k):
            n, cur = 0, lst
            while hasattr(cur, "cdr"):
                n, cur = n + 1, cur.cdr
            return real(lst, k + 1) if type(k) is int and k > 0 and k == n else real(lst, k)
        return tail
    patch_primitive("topaz-vm", "list-tail", make)
