"""Seeded bugs written blind: by a session that did not read the fuzzer (court/fuzz/) first, so
that they measure what the generator reaches rather than what it was written beside (see
bugs.py)."""

from __future__ import annotations

from itertools import pairwise

from bench.seeded_bugs.bugs import _derived_class, bug, patch_primitive

# -- topaz-tree ---------------------------------------------------------------------------------


@bug("blind-tt-guard-reraise-noncontinuable", "topaz-tree", "topaz-tree runtime", "handlers",
     "a guard none of whose clauses matches re-raises the condition as non-continuable, so an "
     "outer handler returning from a raise-continuable gives E332",
     "(with-exception-handler\n  (lambda (e) 42)\n"
     "  (lambda () (+ 1 (guard (e ((string? e) 'no)) (raise-continuable 'x)))))")
def _tt_guard_reraise_noncontinuable() -> None:
    from types import SimpleNamespace

    from implementations.topaz.tree import control, guard

    # Realistic: the re-raise was written as a plain `raise` of the payload, forgetting that
    # R7RS re-raises "as if by raise-continuable" in the guard's dynamic environment.
    def signal(rt, payload, continuable, span):
        return control.signal(rt, payload, False, span)
    guard.control = SimpleNamespace(fault=control.fault, signal=signal)


@bug("blind-tt-wind-skips-after-on-k", "topaz-tree", "topaz-tree runtime", "dynamic-wind",
     "dynamic-wind runs its after thunk when a guard unwinds through it but not when a "
     "call/cc continuation escapes through it",
     "(define log '())\n(define r\n  (call/cc (lambda (k)\n"
     "    (dynamic-wind (lambda () (set! log (cons 'before log)))\n"
     "                  (lambda () (k 'escaped))\n"
     "                  (lambda () (set! log (cons 'after log)))))))\n(list r (reverse log))")
def _tt_wind_skips_after_on_k() -> None:
    from implementations.lispex.errors import LispexError
    from implementations.topaz.tree import control
    from implementations.topaz.tree.objects import GuardUnwind

    def p_dynamic_wind(rt, args, tail):
        before, thunk, after = args
        site = rt.get_site()
        rt.call(before, [])
        saved, saved_depth = rt.handlers, rt.get_depth()
        try:
            try:
                v = rt.call_at(thunk, [], site)
            except LispexError as err:
                control.fault(rt, err)
        # Realistic: the unwind handler was written with error unwinding in mind and catches
        # only the guard's exception, not the Escape base class a continuation also uses.
        except GuardUnwind as esc:
            rt.handlers = saved
            rt.set_depth(saved_depth)
            rt.call_at(after, [], site)
            raise esc from None
        rt.handlers = saved
        rt.call_at(after, [], site)
        return v
    control.BACKEND["dynamic-wind"] = p_dynamic_wind


@bug("blind-tt-division-pair-single", "topaz-tree", "topaz-tree analysis", "multiple values",
     "floor/ and truncate/ are listed as single-valued, so their two values used as one "
     "argument reach the primitive (a wrong result, or an E312 whose irritant cannot even be "
     "printed) instead of failing with E320",
     "(define (f x) (not (floor/ x 2)))\n(f 7)")
def _tt_division_pair_single() -> None:
    from implementations.topaz.tree import analysis

    # Realistic: the list was filled in by family ("floor ceiling round truncate ...") and the
    # two-valued division primitives beside them went in too.
    analysis.SINGLE_VALUED = analysis.SINGLE_VALUED | {"floor/", "truncate/"}


@bug("blind-tt-case-not-tail", "topaz-tree", "kernel normalizer", "tail calls",
     "the bodies of case clauses are not in tail position, so a loop through case grows the "
     "stack until the recursion limit",
     "(define (count n) (case n ((0) 'done) (else (count (- n 1)))))\n(count 20000)")
def _tt_case_not_tail() -> None:
    cls = _derived_class()
    real = cls.form_case

    # Realistic: the clause bodies were normalised with the same `False` as the key expression.
    def form_case(self, d, scope, tail):
        return real(self, d, scope, False)
    cls.form_case = form_case


@bug("blind-tt-small-float-digits", "topaz-tree", "topaz-tree printer", "printing",
     "display and write drop one leading zero after the point of a float below 1e-4 "
     "(0.000025 prints as 0.00025)",
     "(display (list 0.5 (/ 1.0 40000) -0.00002))")
def _tt_small_float_digits() -> None:
    from implementations.topaz.tree import printer

    def real_text(x: float) -> str:
        text = repr(x)
        if "e" not in text:
            return text
        mantissa, _, exponent = text.partition("e")
        sign = "-" if mantissa.startswith("-") else ""
        whole, _, frac = mantissa.lstrip("-").partition(".")
        digits = whole + frac
        point = len(whole) + int(exponent)
        if point <= 0:
            # Realistic off-by-one: the zeros counted from the exponent, not from the point.
            return f"{sign}0.{'0' * (-point - 1)}{digits}"
        if point >= len(digits):
            return f"{sign}{digits}{'0' * (point - len(digits))}.0"
        return f"{sign}{digits[:point]}.{digits[point:]}"
    printer.real_text = real_text


@bug("blind-tt-rounding-loses-negative-zero", "topaz-tree", "kernel primitives", "numerics",
     "floor, ceiling, round and truncate of a float that rounds to zero give 0.0 even when "
     "the argument is negative (R7RS and the other members give -0.0)",
     "(list (round -0.4) (ceiling -0.5) (truncate -0.7) (floor 0.3))")
def _tt_rounding_loses_negative_zero() -> None:
    # Realistic: `float(math.trunc(x))` and friends, without the copysign for a zero result.
    def make(real):
        def rounding(x):
            r = real(x)
            return 0.0 if type(r) is float and r == 0.0 else r
        return rounding
    for name in ("floor", "ceiling", "round", "truncate"):
        patch_primitive("topaz-tree", name, make)


# -- topaz-vm -----------------------------------------------------------------------------------


@bug("blind-tv-inline-loop-shares-closure", "topaz-vm", "topaz-vm codegen", "closures",
     "a do loop or named let whose body makes a closure over a loop variable is still run as an "
     "inline while loop, so every closure sees the variable's last value",
     "(define fs '())\n(do ((i 0 (+ i 1))) ((= i 3)) (set! fs (cons (lambda () i) fs)))\n"
     "(map (lambda (f) (f)) fs)")
def _tv_inline_loop_shares_closure() -> None:
    from implementations.topaz.kernel import core_ir as ir
    from implementations.topaz.vm import analysis

    def inline_candidate(self, app, frames):
        op = app.op
        if not app.tail or type(op) is not ir.Letrec or len(op.inits) != 1:
            return None
        lam = op.inits[0]
        body = op.body
        if type(lam) is not ir.Lambda or lam.rest or len(app.args) != lam.nparams:
            return None
        if type(body) is not ir.Local or body.depth != 0 or body.index != 0:
            return None
        # Realistic: the inner-lambda test made for `info.loop` was not repeated here, so Python
        # closures in the loop body capture the one cell the `while` loop keeps rebinding.
        if (id(op), 0) in self.a.mutable:
            return None
        if not analysis._only_self_tail_calls(lam.body, op, lam, 1):
            return None
        return lam
    analysis._Tails.inline_candidate = inline_candidate


@bug("blind-tv-closure-set-not-mutable", "topaz-vm", "topaz-vm analysis", "scoping/set!",
     "a set! made from inside a closure does not mark the variable as assigned, so an earlier "
     "operand reading it is not saved before a later operand calls the closure",
     "(define (probe)\n  (let ((n 0))\n    (define (bump!) (set! n (+ n 1)) n)\n"
     "    (list n (bump!) n)))\n(probe)")
def _tv_closure_set_not_mutable() -> None:
    from implementations.topaz.kernel import core_ir as ir
    from implementations.topaz.vm import analysis

    real = analysis._Walker.walk

    def walk(self, node, frames):
        if type(node) is ir.SetLocal and node.depth > 0 and \
                any(type(f) is ir.Lambda for f in frames[len(frames) - node.depth:]):
            # Realistic: "assigned" was recorded only for a set! in the binding's own procedure.
            self.free(frames[-1 - node.depth], frames)
            self.walk(node.value, frames)
            return
        real(self, node, frames)
    analysis._Walker.walk = walk


@bug("blind-tv-letrec-lambda-assumed-ready", "topaz-vm", "topaz-vm codegen",
     "diagnostics and spans",
     "a letrec or internal-define slot that holds a procedure is assumed initialised wherever "
     "it is read, so calling it from an earlier init runs it instead of failing with E321",
     "(define (f)\n  (define a (g))\n  (define (g) 1)\n  a)\n(f)")
def _tv_letrec_lambda_assumed_ready() -> None:
    from implementations.lispex import core_ir as ir
    from implementations.topaz.vm import codegen

    def local_needs_check(self, node):
        if not node.checked:
            return False
        fr = self.frame_of(node.depth)
        if type(fr.node) is not ir.Letrec or id(fr.node) in self.a.all_lambda_letrecs:
            return False
        # Realistic: "a procedure slot is filled before anyone can call it" taken for granted;
        # the real rule only skips the check inside that procedure's own body.
        return self.a.letrec_lambda.get((id(fr.node), node.index)) is None
    codegen.Gen.local_needs_check = local_needs_check


@bug("blind-tv-rest-needs-extra", "topaz-vm", "topaz-vm runtime", "apply/rest args",
     "a procedure with a rest parameter applied through the runtime (apply, map, an unknown "
     "callee) with exactly its fixed arguments fails with E302 instead of getting '()",
     "(apply (lambda (a . r) (list a r)) '(1))")
def _tv_rest_needs_extra() -> None:
    from implementations.lispex.values import list_from
    from implementations.topaz.vm import runtime

    def fit(self, d, f, args):
        n = len(args)
        if f.rest and n > f.nparams:  # the bug: `>` where `>=` is meant
            k = f.nparams
            return (*args[:k], list_from(args[k:]))
        expected = f"at least {f.nparams}" if f.rest else str(f.nparams)
        who = f.name or "anonymous procedure"
        raise self.err("E302", f"{who}: expected {expected} argument(s), got {n}", (), d)
    runtime.Runtime.fit = fit


@bug("blind-tv-string-prefix-order", "topaz-vm", "kernel primitives", "strings/chars",
     "string<? and string>? compare only the common prefix: a string is not less than a "
     "longer string it is a prefix of",
     '(list (string<? "ab" "abc") (string>? "abc" "ab") (string<? "abd" "abc"))')
def _tv_string_prefix_order() -> None:
    # Realistic: a hand-written zip() comparison with no length tie-break at the end.
    def make(real):
        def compare(*strings):
            result = real(*strings)  # type-checks every argument
            texts = [s.s for s in strings]
            if result and any(a != b and (a.startswith(b) or b.startswith(a))
                              for a, b in pairwise(texts)):
                return False
            return result
        return compare
    patch_primitive("topaz-vm", "string<?", make)
    patch_primitive("topaz-vm", "string>?", make)


@bug("blind-tv-vector-copy-keeps-literal", "topaz-vm", "kernel primitives", "vectors",
     "vector-copy of a quoted (immutable) vector returns an immutable copy, so vector-set! on "
     "the copy fails with E312",
     "(define v (vector-copy '#(1 2 3)))\n(vector-set! v 0 'x)\nv")
def _tv_vector_copy_keeps_literal() -> None:
    from implementations.topaz.kernel.values import Vector

    # Realistic: the copy was made "like the original", mutability flag included.
    def make(real):
        def vector_copy(v, *opt):
            out = real(v, *opt)
            return Vector(out.items, v.mutable) if type(v) is Vector else out
        return vector_copy
    patch_primitive("topaz-vm", "vector-copy", make)

