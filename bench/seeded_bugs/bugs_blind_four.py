"""Seeded bugs written blind, fourth batch: by a session that did not read the fuzzer
(court/fuzz/) first, so that they measure what the generator reaches rather than what it was
written beside (see bugs.py). This batch is about derived forms, scoping, tail positions,
escapes and the list and higher-order library."""

from __future__ import annotations

from typing import Any

from bench.seeded_bugs.bugs import _derived_class, bug, edit_function, patch_primitive

# -- tree ---------------------------------------------------------------------------------------


@bug("blind4-let-star-duplicate", "tree", "kernel normalizer", "scoping/set!",
     "let* rejects a name bound twice (E130 duplicate binding) as let does, although each "
     "let* binding opens a scope of its own and may shadow an earlier one",
     "(let* ((x 1) (x (+ x 1))) (* x 10))")
def _let_star_duplicate() -> None:
    # Realistic: the binding list of let* was parsed with the same helper as let's, which also
    # checks the names are distinct.
    edit_function(_derived_class(), "form_let_star", 'pairs = self.bindings(d.items[1], "let*")\n',
          'pairs = self.bindings(d.items[1], "let*")\n'
          '    self.binders([a for a, _ in pairs], "binding of")\n')


@bug("blind4-filter-python-truthy", "tree", "kernel primitives", "control flow",
     "filter keeps an element when the predicate's result is true in Python, so a predicate "
     "returning 0 or 0.0 drops the element (only #f is false in Lispex)",
     "(filter (lambda (x) (- x 2)) '(1 2 3 4))")
def _filter_python_truthy() -> None:
    from implementations.lispex import guest_library as gl

    # Realistic: `if result:` written in the host language instead of `is not False`.
    def lib_filter(f: Any, lst: Any) -> Any:
        out = []
        for x in gl.elements("filter", lst):
            if gl.single("filter", (yield f, (x,))):
                out.append(x)
        return gl.list_from(out)
    gl.GENERATORS["filter"] = lib_filter


@bug("blind4-escape-keeps-depth", "tree", "tree back end", "call/cc",
     "an escape (a continuation call, or a guard catching a raise) that unwinds through "
     "non-tail frames does not give back their depth, so repeated escapes from deep recursion "
     "reach the recursion limit",
     "(define (dive n k) (if (= n 0) (k n) (+ 1 (dive (- n 1) k))))\n"
     "(define (go i) (if (= i 0) 'ok (begin (call/cc (lambda (k) (dive 500 k))) (go (- i 1)))))\n"
     "(go 30)")
def _escape_keeps_depth() -> None:
    from implementations.tree.control import Control

    # Realistic: the unwinder pops return frames as so much garbage, forgetting that each one
    # was counted in the non-tail depth when it was pushed.
    edit_function(Control, "unwind", "if tag == F_RET:\n            depth -= 1\n",
          "if tag == F_RET:\n            pass\n")


# -- vm -----------------------------------------------------------------------------------------


@bug("blind4-case-equal", "vm", "kernel normalizer", "control flow",
     "case compares the key with its data by equal? instead of eqv?, so string and list "
     "data match a key with the same contents",
     "(define (f k) (case k ((\"a\") 'one) (((1 2)) 'two) (else 'other)))\n"
     "(list (f \"a\") (f (list 1 2)) (f 3))")
def _case_equal() -> None:
    # Realistic: older Lispex documentation said case uses equal? (the spec notes the
    # conflict), and the hidden intrinsic was picked from that.
    edit_function(_derived_class(), "form_case", 'ir.Intrinsic("eqv?", datum.span)',
          'ir.Intrinsic("equal?", datum.span)')


@bug("blind4-assoc-last-match", "vm", "kernel primitives", "control flow",
     "assq, assv and assoc return the last entry whose key matches instead of the first, so "
     "an association list whose newer entries are consed on the front finds the oldest",
     "(define env '((x . 1) (y . 2) (x . 3)))\n(list (assq 'x env) (assoc \"k\" '((\"k\" 1) (\"k\" 2))))")
def _assoc_last_match() -> None:
    from implementations.lispex.primitives import pairs
    from implementations.lispex.primitives.errors_util import list_expected, pair_expected
    from implementations.lispex.values import Pair

    NIL = pairs.NIL

    # Realistic: the search loop records the match and goes on (no early return / break).
    def _assoc(name: str, same: Any, key: Any, alist: Any) -> Any:
        found: Any = False
        fast = slow = alist
        step = 0
        while type(fast) is Pair:
            entry = fast.car
            if type(entry) is not Pair:
                pair_expected(name, entry)
            if same(key, entry.car):
                found = entry
            fast = fast.cdr
            step += 1
            if step % 2 == 0:
                slow = slow.cdr
                if fast is slow:
                    list_expected(name, alist)
        if fast is not NIL:
            list_expected(name, alist)
        return found
    pairs._assoc = _assoc


@bug("blind4-unless-not-tail", "vm", "kernel normalizer", "tail calls",
     "the body of unless is not in tail position, so a loop that recurs through unless grows "
     "the non-tail depth until the recursion limit",
     "(define (count-down n) (unless (= n 0) (count-down (- n 1))))\n(count-down 20000)\n'done")
def _unless_not_tail() -> None:
    # Realistic: unless was written by hand beside when, with the body's tail flag copied from
    # the test's (False) rather than passed on.
    edit_function(_derived_class(), "form_unless", "self.seq(d.items[2:], scope, tail, d.span)",
          "self.seq(d.items[2:], scope, False, d.span)")


# -- topaz-tree ---------------------------------------------------------------------------------


@bug("blind4-any-returns-value", "topaz-tree", "topaz-tree guest library", "control flow",
     "any? returns the first true result of the predicate (as SRFI-1 any does) instead of #t",
     "(any? (lambda (x) (and (> x 1) (* x 10))) '(1 2 3))")
def _any_returns_value() -> None:
    from implementations.topaz.tree import control, guest

    # Realistic: written after SRFI-1's `any`, which returns the predicate's value.
    def g_any(rt: Any, args: list, tail: bool) -> Any:
        f, lst = args
        site = rt.get_site()
        for x in guest.elements("any?", lst, site):
            v = guest.one("any?", rt.call_at(f, [x], site), site)
            if v is not False:
                return v
        return False
    control.BACKEND["any?"] = g_any


@bug("blind4-nested-quasiquote-depth", "topaz-tree", "kernel normalizer", "control flow",
     "a quasiquote nested in a quasiquote template does not raise the nesting level, so an "
     "unquote inside the inner template is evaluated instead of kept as data",
     "(define x 5)\n(list `(a `(b ,x)) `(c ,x))")
def _nested_quasiquote_depth() -> None:
    # Realistic: the level is lowered for unquote but the matching raise for a nested
    # quasiquote was forgotten.
    edit_function(_derived_class(), "_qq",
          'inner_depth = depth + 1 if head == "quasiquote" else depth - 1',
          'inner_depth = depth if head == "quasiquote" else depth - 1')


@bug("blind4-body-defines-anywhere", "topaz-tree", "kernel normalizer", "scoping/set!",
     "an internal define after an expression of a body is hoisted into the body's letrec* "
     "instead of being an E130 (definitions must lead the body)",
     "(define (f)\n  (display \"a\")\n  (define y 2)\n  y)\n(f)")
def _body_defines_anywhere() -> None:
    from implementations.lispex.normalizer import Normalizer

    # Realistic: the body was split into definitions and expressions by filtering, not by
    # taking the leading run of definitions.
    edit_function(Normalizer, "body",
          '    while i < len(forms) and head_name(forms[i]) == "define":\n'
          '        defs.append(forms[i])\n'
          '        i += 1\n'
          '    rest = forms[i:]\n',
          '    defs = [f for f in forms if head_name(f) == "define"]\n'
          '    rest = [f for f in forms if head_name(f) != "define"]\n')


# -- topaz-vm -----------------------------------------------------------------------------------


@bug("blind4-vector-map-live", "topaz-vm", "topaz-vm guest library", "vectors",
     "vector-map walks the vector itself rather than a snapshot, so a callback that sets a "
     "later element changes what the later callbacks see",
     "(define v (vector 1 2 3))\n(vector-map (lambda (x) (vector-set! v 2 30) (* x 2)) v)")
def _vector_map_live() -> None:
    from implementations.topaz.vm.guest import GuestPrimitives

    # Realistic: `for x in vec.items` looked harmless; the copy is what R7RS's "the order of
    # application is unspecified but the result is as if ..." needs.
    def g_vector_map(self: Any, d: int, tail: bool, f: Any, vec: Any) -> Any:
        from implementations.lispex.values import Vector

        site = self.site_get()
        span = self.sites[site]
        if type(vec) is not Vector:
            self._expect(d, "vector-map", "a vector", vec, span)
        return Vector([self._one(d, "vector-map", self.call_at(d, site, f, (x,)), span)
                       for x in vec.items])
    GuestPrimitives.g_vector_map = g_vector_map


@bug("blind4-eqv-signed-zero", "topaz-vm", "kernel primitives", "numerics",
     "eqv? (and eq?, memv, assv, case and equal? on atoms) compares floats by value only, so "
     "0.0 and -0.0 are eqv?",
     "(list (eqv? 0.0 -0.0) (memv -0.0 '(1 0.0)) (equal? '(0.0) '(-0.0)))")
def _eqv_signed_zero() -> None:
    from fractions import Fraction

    from implementations.lispex import equality
    from implementations.lispex.primitives import equality as prim_equality
    from implementations.lispex.primitives import pairs
    from implementations.lispex.values import Char

    # Realistic: numbers of one type compared with ==, without the sign-of-zero check that
    # eqv? on floats needs.
    def eqv(a: Any, b: Any) -> bool:
        if a is b:
            return True
        t = type(a)
        if t is not type(b):
            return False
        if t is int or t is Fraction or t is float:
            return a == b
        if t is Char:
            return a.code == b.code
        return False
    equality.eqv = equality.eq = eqv
    prim_equality.eqv = prim_equality.eq = eqv
    pairs.eqv = eqv


@bug("blind4-append-last-proper", "topaz-vm", "kernel primitives", "diagnostics and spans",
     "append demands that its last argument be a proper list too (E310), where R7RS lets it "
     "be any object and shares it as the result's tail",
     "(list (append '(1 2) 3) (append '() 'x))")
def _append_last_proper() -> None:
    from implementations.lispex.primitives.errors_util import list_expected
    from implementations.lispex.values import list_to_python

    # Realistic: every argument is validated in one loop, the last one included.
    def make(real: Any) -> Any:
        def append(*args: Any) -> Any:
            for a in args:
                if list_to_python(a) is None:
                    list_expected("append", a)
            return real(*args)
        return append
    patch_primitive("topaz-vm", "append", make)
