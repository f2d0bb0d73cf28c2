"""Producers of state, loops and procedures (set! on captured variables, letrec and internal
define forward references, do and named let with several variables, vector-set!, rest
parameters and apply, shadowed primitives) and the program-level shapes: counters in closures,
globals assigned and read through closures, rebound primitive names, printer paths, recursion
near the 10,000 limit, and a diagnostic of every code in varied contexts."""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import values as V
from .reduce import parse, render_node
from .signatures import PRIMITIVES

if TYPE_CHECKING:
    from .generate import Scope

# Where a body with leading definitions may stand, and where it may not (E130).
BODIES = ["((lambda () {}))", "(let () {})", "(let* () {})", "(letrec () {})", "(let lp () {})",
          "(guard (e (#t 'caught)) {})", "((lambda args {}) 1 2)"]
NOT_BODIES = ["(when #t {})", "(unless #f {})", "(cond (#t {}))", "(case 1 ((1) {}))",
              "(begin {})", "(guard (e (#t {})) (raise 'x))", "(do ((i 0 1)) (#t {}))",
              "(if #t (begin {}) 0)", "(cond ((= 1 2) 0) (else {}))"]
PROGRAM_SHAPES = ("counter", "global_set", "rebind", "printer", "deep", "mutual", "tailloop")

# One tail position of each form, with {call} where the tail call goes; a loop through it that
# runs past the 10,000 nested calls a non-tail call may use shows whether it is a tail call.
# `apply` and `call-with-values` make the call themselves ({f} is the procedure).
TAIL_STEPS = {
    "if": "(if (= {n} 0) 'done {call})",
    "and": "(and (>= {n} 0) (if (= {n} 0) 'done {call}))",
    "or": "(or (< {n} 0) (if (= {n} 0) 'done {call}))",
    "when": "(if (= {n} 0) 'done (when (> {n} 0) {call}))",
    "unless": "(if (= {n} 0) 'done (unless (< {n} 0) (display \"\") {call}))",
    "cond": "(cond ((= {n} 0) 'done) ((< {n} 0) 'negative) (else {call}))",
    "case": "(case {n} ((0) 'done) ((-1 -2) 'negative) (else {call}))",
    "let": "(if (= {n} 0) 'done (let ((m {n})) {call}))",
    "let*": "(if (= {n} 0) 'done (let* ((m {n}) (j m)) {call}))",
    "letrec": "(if (= {n} 0) 'done (letrec ((m {n})) {call}))",
    "begin": "(if (= {n} 0) 'done (begin (+ {n} 1) {call}))",
    "lambda": "(if (= {n} 0) 'done ((lambda (m) {call}) {n}))",
    "define": "(if (= {n} 0) 'done ((lambda () (define m {n}) {call})))",
    "apply": "(if (= {n} 0) 'done (apply {f} (list (- {n} 1))))",
    "call-with-values": "(if (= {n} 0) 'done (call-with-values (lambda () (- {n} 1)) {f}))",
    # tail positions that are not the last of their form: a then-branch, an early cond or case
    # clause, a do result
    "if-then": "(if (> {n} 0) {call} 'done)",
    "cond-first": "(cond ((> {n} 0) {call}) (else 'done))",
    "cond-middle": "(cond ((= {n} 0) 'done) ((> {n} 0) (display \"\") {call}) (else 'negative))",
    "cond-no-else": "(cond ((> {n} 0) {call}) ((= {n} 0) 'done))",
    "case-first": "(case (zero? {n}) ((#f) {call}) (else 'done))",
    "do-result": "(if (= {n} 0) 'done (do () (#t {call})))",
}

# Positions that look like tail positions and are not: what call/cc, dynamic-wind and
# with-exception-handler run is a nested call (the continuation, the after thunk and the handler
# wait on it), and so is a guard's body. A loop through one ends with recursion-limit.
NESTED_STEPS = {
    "callcc": "(call/cc (lambda (k) {call}))",
    "wind": "(dynamic-wind (lambda () #f) (lambda () {call}) (lambda () #f))",
    "handler": "(with-exception-handler (lambda (e) 0) (lambda () {call}))",
    "guard": "(guard (e (#f 0)) {call})",
}

# A recursive call made on the caller's behalf by a primitive or a control form.
THROUGH = ["(car (map {f} (list (- {n} 1))))", "(apply {f} (list (- {n} 1)))",
           "(call-with-values (lambda () ({f} (- {n} 1))) (lambda (x) x))",
           "(dynamic-wind (lambda () #f) (lambda () ({f} (- {n} 1))) (lambda () #f))",
           "(with-exception-handler (lambda (e) 0) (lambda () ({f} (- {n} 1))))",
           "(call/cc (lambda (k) ({f} (- {n} 1))))", "(guard (e (#t 0)) ({f} (- {n} 1)))",
           "(vector-ref (vector-map {f} (vector (- {n} 1))) 0)",
           "(fold-left (lambda (a x) ({f} x)) 0 (list (- {n} 1)))",
           "((lambda (m) ({f} m)) (- {n} 1))", "(let ((m ({f} (- {n} 1)))) m)"]
# Two levels of depth per level of the recursion: a procedure the primitive calls, which calls
# the recursion's procedure in a non-tail position. Half the limit's levels reach it.
THROUGH2 = ["(car (map (lambda (x) (+ x ({f} (- {n} 1)))) '(0)))",
            "(fold-left (lambda (a x) (+ a ({f} x))) 0 (list (- {n} 1)))",
            "(vector-ref (vector-map (lambda (x) (+ 0 ({f} x))) (vector (- {n} 1))) 0)",
            "(let ((r 0)) (for-each (lambda (x) (set! r (+ 1 ({f} x)))) (list (- {n} 1))) r)",
            "(call-with-values (lambda () (+ 0 ({f} (- {n} 1)))) (lambda (x) x))",
            "(dynamic-wind (lambda () #f) (lambda () (+ 0 ({f} (- {n} 1)))) (lambda () #f))"]
# The recursive call in the tail position of what a primitive or a control form runs, itself in
# the tail position of the procedure: a tail call through apply or a call-with-values consumer;
# a nested call (one level deeper) through call/cc's receiver, a wind's or a handler's
# thunk, a guard's body, a callback.
TAIL_THROUGH = ["(call/cc (lambda (k) ({f} (- {n} 1))))", "(apply {f} (list (- {n} 1)))",
                "(call-with-values (lambda () (- {n} 1)) {f})",
                "(dynamic-wind (lambda () #f) (lambda () ({f} (- {n} 1))) (lambda () #f))",
                "(with-exception-handler (lambda (e) 0) (lambda () ({f} (- {n} 1))))",
                "(guard (e (#t 0)) ({f} (- {n} 1)))", "(car (map {f} (list (- {n} 1))))"]


class ShapesMixin:
    # -- state ---------------------------------------------------------------------------------

    def p_set_local(self, d: int, s: Scope, t: str) -> str:
        x = self.fresh("x")
        inner = s.child(**{x: t})
        if self.chance(50):
            # a captured variable assigned by a closure, seen by the enclosing body
            bump = self.fresh("bump")
            self.tag("shape:set-captured")
            if self.chance(35):
                # operands read the variable before and after a call that assigns it: the
                # earlier read must keep the value it had
                self.tag("shape:set-between-operands")
                reads = f"(list {x} ({bump}) {x})"
                if self.chance(40):  # the same reads as a let's inits
                    a, b, c = self.fresh("a"), self.fresh("b"), self.fresh("c")
                    reads = f"(let (({a} {x}) ({b} ({bump})) ({c} {x})) (list {a} {b} {c}))"
                body = reads if t in ("list", "any") else f"(car {reads})"
                return (f"(let (({x} {self.sub(t, d, s)})) (let (({bump} (lambda () (set! {x} "
                        f"{self.sub(t, d, inner)}) {x}))) {body}))")
            calls = " ".join(f"({bump})" for _ in range(self.small(1, 3)))
            return (f"(let (({x} {self.sub(t, d, s)})) (let (({bump} (lambda () (set! {x} "
                    f"{self.sub(t, d, inner)}) {x}))) {calls} {x}))")
        return f"(let (({x} {self.sub(t, d, s)})) (set! {x} {self.sub(t, d, inner)}) {x})"

    def p_letrec_forward(self, d: int, s: Scope, t: str) -> str:
        """letrec whose earlier procedure calls a later one (mutual recursion, bounded)."""
        ev, od, n = self.fresh("ev"), self.fresh("od"), self.fresh("n")
        k = self.small(0, 12)
        inner = s.child()
        res = self.sub(t, d, inner)
        self.tag("shape:letrec-forward")
        return (f"(letrec (({ev} (lambda ({n}) (if (= {n} 0) #t ({od} (- {n} 1))))) "
                f"({od} (lambda ({n}) (if (= {n} 0) #f ({ev} (- {n} 1)))))) "
                f"(if ({ev} {k}) {res} {self.sub(t, d, inner)}))")

    def p_internal_define(self, d: int, s: Scope, t: str) -> str:
        """Internal defines in a body: a procedure referring forward to a later definition,
        and (in unsafe programs) a read before initialisation, which is E321."""
        a, b, f = self.fresh("a"), self.fresh("b"), self.fresh("f")
        vt = self.pick(["int", "str", "list"])
        self.tag("shape:internal-define")
        # Every form with a body takes leading defines; the forms whose parts merely look like
        # bodies (when, cond clauses, do, guard clauses, begin) refuse them (E130).
        where = self.pick(BODIES)
        if not self.safe and self.chance(40):
            where = self.pick(NOT_BODIES)
            self.tag("fault:E130")
        self.tag("shape:define-in-" + where.split(" ")[0].lstrip("("))
        if not self.safe and self.chance(30):
            self.tag("fault:E321")
            if self.chance(50):
                # an earlier init calls a procedure defined after it: its slot is not yet set
                return where.format(f"(define {a} ({f})) (define ({f}) {self.sub(vt, d, s)}) {a}")
            return where.format(f"(define {a} {b}) (define {b} {self.sub(vt, d, s)}) {a}")
        inner = s.child(**{b: vt})
        body = self.sub(t, d, inner)
        return where.format(f"(define ({f}) {b}) (define {b} {self.sub(vt, d, s)}) "
                            f"(define {a} ({f})) {body}")

    def p_vector_set(self, d: int, s: Scope, t: str) -> str:
        v = self.fresh("vec")
        n = self.small(1, 4)
        items = " ".join(self.sub("any", d, s) for _ in range(n))
        sets = " ".join(f"(vector-set! {v} {self.small(0, n - 1)} {self.sub('any', d, s)})"
                        for _ in range(self.small(1, 3)))
        self.tag("prim:vector-set!")
        if self.chance(25):
            return f"(let (({v} (make-vector {n} 0))) {sets} (vector-set! {v} 0 {v}) " \
                   f"(vector-length {v}) (vector-copy {v} 1))"
        if self.chance(15):
            # a callback that changes the vector being mapped: the map reads what is there when
            # it gets to each element
            e = self.fresh("e")
            walk = self.pick(["vector-map", "vector-for-each"])
            self.tag("shape:vector-mutated-while-mapped")
            return (f"(let (({v} (vector {items}))) (list ({walk} (lambda ({e}) "
                    f"(vector-set! {v} {n - 1} {self.sub('any', d, s)}) {e}) {v}) {v}))")
        if self.chance(40):
            # fresh vectors made from literals (copies, conversions, maps) are mutable even
            # though the literal is not
            lit = " ".join(self.quoted_atom().lstrip("'") for _ in range(n + 1))
            made = self.pick([f"(vector-copy '#({lit}))", f"(vector-copy '#({lit}) 1)",
                              f"(list->vector '({lit}))", f"(vector-map (lambda (e) e) '#({lit}))",
                              f"(vector-copy (vector-copy '#({lit})))"])
            self.tag("shape:vector-from-literal")
            return f"(let (({v} {made})) {sets} {v})"
        return f"(let (({v} (vector {items}))) {sets} {v})"

    # -- loops ---------------------------------------------------------------------------------

    def p_do(self, d: int, s: Scope, t: str) -> str:
        i, acc, lst = self.fresh("i"), self.fresh("acc"), self.fresh("l")
        inner = s.child(**{i: "int", acc: "int", lst: "list"})
        limit = self.small(0, 6)
        extra = f" ({lst} '() (cons {acc} {lst}))" if self.chance(60) else ""
        body = f" (display {i})" if self.on("output") and self.chance(30) else ""
        if extra and self.chance(35):
            # a variable without a step keeps the value the body gave it
            extra = f" ({lst} '())"
            body += f" (set! {lst} (cons {i} {lst}))"
            self.tag("form:do-no-step")
        has_list = bool(extra)
        if not extra and self.chance(40):
            # stepped to the previous value of another variable: every step sees old values
            prev = self.fresh("prev")
            extra = f" ({prev} -1 {i})"
            inner.vars[prev] = "int"
            self.tag("form:do-prev")
        result = acc if t in ("int", "num") else \
            (lst if has_list and t in ("list", "any") else self.sub(t, d, inner))
        self.tag("form:do-multi" if extra else "form:do")
        # the step is (- i -1), not (+ i 1): a program may have rebound + (to *, say), and the
        # loop must still end
        return (f"(do (({i} 0 (- {i} -1)) ({acc} {self.sub('int', d, s)} "
                f"(+ {acc} {self.sub('int', d, inner)})){extra}) "
                f"((>= {i} {limit}) {result}){body})")

    def p_named_let(self, d: int, s: Scope, t: str) -> str:
        """Several variables updated together: the new values are computed from the old."""
        loop, i, a, b = self.fresh("loop"), self.fresh("i"), self.fresh("a"), self.fresh("b")
        inner = s.child(**{i: "int", a: "int", b: "int"})
        self.tag("form:named-let-multi")
        end = a if t in ("int", "num") else (f"(list {a} {b})" if t in ("list", "any")
                                              else self.sub(t, d, inner))
        step = self.pick([f"{b} (+ {a} {b} {self.sub('int', d, inner)})", f"{b} {a}",
                          f"(+ {a} {self.small(1, 3)}) {a}"])
        return (f"(let {loop} (({i} {self.small(0, 8)}) ({a} {self.sub('int', d, s)}) "
                f"({b} {self.small(-3, 3)})) (if (<= {i} 0) {end} "
                f"({loop} (- {i} 1) {step})))")

    def p_loop_closures(self, d: int, s: Scope, t: str) -> str:
        """Closures made in each iteration of a do loop or named let, called after the loop:
        each must see its own iteration's binding (a loop that assigns one variable instead of
        binding a new one shows the last value in all of them), also after a set! through one."""
        i, fs, f, loop = self.fresh("i"), self.fresh("fs"), self.fresh("f"), self.fresh("loop")
        n = self.small(1, 4)
        body = self.pick([i, f"(* {i} 10)", f"(begin (set! {i} (+ {i} 100)) {i})",
                          f"(list {i} {self.sub('int', d, s)})"])
        shape = self.pick(["do", "named-let", "let-in-loop", "define"])
        self.tag("shape:loop-closures-" + shape)
        calls = f"(map (lambda ({f}) ({f})) {fs})"
        if shape == "do":
            text = (f"(do (({i} 0 (- {i} -1)) ({fs} '() (cons (lambda () {body}) {fs}))) "
                    f"((= {i} {n}) (list {calls} {calls} {i})))")
        elif shape == "define":
            # a procedure calling itself in tail position, closing over its parameters
            text = (f"(let () (define ({loop} {i} {fs}) (if (= {i} {n}) (list {calls} {calls}) "
                    f"({loop} (- {i} -1) (cons (lambda () {body}) {fs})))) ({loop} 0 '()))")
        elif shape == "named-let":
            text = (f"(let {loop} (({i} 0) ({fs} '())) (if (= {i} {n}) (list {calls} {calls}) "
                    f"({loop} (- {i} -1) (cons (lambda () {body}) {fs}))))")
        else:
            j = self.fresh("j")
            text = (f"(let (({fs} '())) (do (({j} 0 (- {j} -1))) ((= {j} {n})) (let (({i} {j})) "
                    f"(set! {fs} (cons (lambda () {body}) {fs})))) (list {calls} {calls}))")
        if t in ("list", "any"):
            return text
        return f"(begin {text} {self.sub(t, d, s)})"

    # -- procedures ----------------------------------------------------------------------------

    def p_apply(self, d: int, s: Scope, t: str) -> str:
        fns = {"int": ["+", "*", "max", "min", "gcd", "lcm", "-",
                       "(lambda (a . r) (+ a (length r)))"],
               "num": ["+", "max", "min"],
               "str": ["string-append"], "list": ["list", "append"], "vec": ["vector"],
               "bool": ["=", "<", "equal?"]}
        kind = t if t in fns else self.pick(list(fns))
        fn = self.pick(fns[kind])
        arg_t = {"str": "str", "list": "list" if fn == "append" else "any", "vec": "any",
                 "bool": "int"}.get(kind, "int")
        lead = " ".join(self.sub(arg_t, d, s) for _ in range(self.small(0 if fn not in
                                                                         ("-", "=", "<") else 1, 2)))
        if fn.startswith("(lambda") and not lead:
            lead = self.sub("int", d, s)
        items = " ".join(self.sub(arg_t, d, s) for _ in range(self.small(0, 3)))
        if fn in ("=", "<", "equal?") and not items:
            items = self.sub(arg_t, d, s)
        self.tag("prim:apply")
        return f"(apply {fn}{' ' + lead if lead else ''} (list {items}))"

    def p_rest_lambda(self, d: int, s: Scope, t: str) -> str:
        r = self.fresh("rest")
        shape = self.pick(["args", "one", "two"])
        self.tag("shape:rest-" + shape)
        n = self.small(0, 4)
        actual = " ".join(self.sub("any", d, s) for _ in range(n + (1 if shape != "args" else 0)
                                                                + (1 if shape == "two" else 0)))
        if shape == "args":
            params, inner = r, s.child(**{r: "list"})
        elif shape == "one":
            a = self.fresh("a")
            params, inner = f"({a} . {r})", s.child(**{a: "any", r: "list"})
        else:
            a, b = self.fresh("a"), self.fresh("b")
            params, inner = f"({a} {b} . {r})", s.child(**{a: "any", b: "any", r: "list"})
        body = self.sub(t, d, inner)
        if t in ("int", "num") and self.chance(50):
            body = f"(+ (length {r}) {body})"
        via_apply = self.chance(40)
        if via_apply:
            return f"(apply (lambda {params} {body}) (list {actual}))"
        return f"((lambda {params} {body}){' ' + actual if actual else ''})"

    def p_shadow_prim(self, d: int, s: Scope, t: str) -> str:
        """A primitive's name bound locally to something else; calls must see the binding."""
        name, repl = self.pick(V.REBINDS)
        self.tag("shape:shadow-prim")
        use = self.pick([f"({name} 1 2)" if name in ("+", "max") else f"({name} '(1 2))",
                         f"(procedure? {name})", "0"])
        if name in ("abs", "square", "not"):
            use = f"({name} {self.sub('int', d, s)})"
        if name in ("string-upcase",):
            use = f"({name} {self.sub('str', d, s)})"
        if name in ("display",):
            use = f"(begin ({name} {self.sub('any', d, s)}) 0)"
        if name == "eqv?":
            use = f"(case {self.sub('int', d, s)} ((1) 'one) (else 'other))"
        if name in ("cons", "append", "list->vector"):
            use = f"`(1 ,{self.sub('int', d, s)} ,@(list 2) #(3 ,{self.sub('int', d, s)}))"
        if name == "number->string":
            use = f"({name} {self.sub('int', d, s)})"
        if name == "remainder":
            use = f"(remainder {self.sub('int', d, s)} -3)"
        if name == "cons" or name == "list":
            use = f"(list ({name} 1 2) {use})" if name == "list" else use
        return f"(let (({name} {repl})) (list {use} {self.sub(t, d, s)}))"

    # -- program-level shapes ------------------------------------------------------------------

    def shapes(self, scope: Scope, most: int = 6) -> list[str]:
        forms: list[str] = []
        wanted = {"counter": "state", "global_set": "state", "rebind": "rebind",
                  "printer": "printer", "deep": "recursion", "mutual": "recursion",
                  "tailloop": "loops"}
        for shape in PROGRAM_SHAPES:
            base = 35 if self.on(wanted[shape]) else 3
            if shape in ("deep", "mutual"):
                # deep recursion costs ten to fifty times a typical program: kept rare, but
                # each call path's depth accounting is a place bugs live
                base = (2.5 if self.on(wanted[shape]) else 0.5) if shape == "deep" else \
                    (1 if self.on(wanted[shape]) else 0.2)
            if shape == "tailloop":  # tens of thousands of transitions: rare too
                base = 4 if self.on(wanted[shape]) else 0.5
            weight = self.steer.producers.get("shape:" + shape, 1.0)
            if shape in ("deep", "mutual", "tailloop"):
                # rare by design, because each costs tens of thousands of transitions: the
                # steering, which favours what is rare, must not undo that
                weight = min(weight, 1.0)
            if self.rng.random() * 100 < base * weight and most > 0:
                most -= 1
                self.tag("shape:" + shape)
                forms.extend(getattr(self, "shape_" + shape)(scope))
        return forms

    def shape_counter(self, scope: Scope) -> list[str]:
        mk, n, step, c = self.fresh("make"), self.fresh("n"), self.fresh("step"), self.fresh("c")
        forms = [f"(define ({mk} {n}) (lambda ({step}) (set! {n} (+ {n} {step})) {n}))",
                 f"(define {c} ({mk} {self.literal('int')}))"]
        from .generate import Fn

        scope.fns[c] = Fn(c, [step], ["int"], "int")
        forms.append(f"(display (list ({c} 1) ({c} {self.small(-3, 3)})))")
        if self.chance(50):  # a second counter shares nothing with the first
            c2 = self.fresh("c")
            forms.append(f"(define {c2} ({mk} 0))")
            forms.append(f"(write (list ({c2} 5) ({c} 0) ({c2} 0)))")
            scope.fns[c2] = Fn(c2, [step], ["int"], "int")
        return forms

    def shape_global_set(self, scope: Scope) -> list[str]:
        from .generate import Fn

        g, get, bump, k = self.fresh("g"), self.fresh("get"), self.fresh("bump"), self.fresh("k")
        forms = [f"(define {g} {self.literal('int')})", f"(define ({get}) {g})",
                 f"(define ({bump} {k}) (set! {g} (+ {g} {k})) {g})",
                 f"(set! {g} {self.expr('int', 2, scope)})", f"(display ({get}))",
                 f"(display ({bump} {self.small(1, 5)}))"]
        if self.chance(40):  # re-define at top level reassigns the cell the closures see
            forms.append(f"(define {g} {self.literal('int')})")
            forms.append(f"(write (list ({get}) ({bump} 1)))")
        if self.chance(40):
            # a procedure defined once and then replaced by set! (at top level or from inside
            # another procedure): its callers, tail and non-tail, must call the new one, however
            # fixed the single definition made it look
            p, caller, x = self.fresh("proc"), self.fresh("caller"), self.fresh("x")
            forms += [f"(define ({p} {x}) (list 'first {x}))",
                      f"(define ({caller} {x}) (list ({p} {x}) (car ({p} {x}))))",
                      f"(write ({caller} 1))"]
            new = f"(lambda ({x}) (list 'second {x}))"
            if self.chance(50):
                forms.append(f"(set! {p} {new})")
            else:
                forms.append(f"((lambda () (set! {p} {new})))")
            forms.append(f"(write (list ({caller} 2) ({p} 3)))")
            self.tag("shape:procedure-replaced")
        scope.fns[get] = Fn(get, [], [], "int")
        scope.fns[bump] = Fn(bump, [k], ["int"], "int")
        return forms

    def shape_rebind(self, scope: Scope) -> list[str]:
        name, repl = self.pick(V.REBINDS)
        forms = []
        # Where the binding changes: a top-level define or set!, or a set! made inside a
        # procedure or a let body, which a back end that scans only top-level forms for
        # assignments to primitives' names misses.
        how = self.pick(["define", "define", "set", "set", "in-procedure", "in-let"])
        self.tag("shape:rebind-" + how)
        if how == "define":
            forms.append(f"(define {name} {repl})")
        elif how == "set":  # set! of a primitive's global binding
            forms.append(f"(set! {name} {repl})")
        elif how == "in-procedure":
            p = self.fresh("rebind")
            forms.append(f"(define ({p}) (set! {name} {repl}) 'rebound)")
            forms.append(f"(write ({p}))")
        else:
            forms.append(f"(let ((z 1)) (set! {name} {repl}) z)")
        probe = {"+": "(+ 2 3)", "max": "(max 1 2)", "abs": "(abs -5)", "square": "(square 4)",
                 "eqv?": "(case 2 ((1) 'one) (else 'other))", "not": "(not 5)",
                 "display": "(display \"x\")", "remainder": "(remainder -7 2)",
                 "number->string": "(number->string 5)", "string-upcase": "(string-upcase \"a\")",
                 "cons": "`(1 ,@(list 2) . 3)", "append": "`(1 ,@(list 2 3) 4)",
                 "list->vector": "`#(1 ,(+ 1 1))"}.get(name, f"({name} (list 1 2))")
        if self.chance(40):  # the use in a procedure defined before the binding changed
            use = self.fresh("use")
            forms.insert(0, f"(define ({use}) {probe})")
            probe = f"({use})"
        forms.append(f"(write {probe})" if name != "display" else probe)
        after = self.pick(["(map abs (list -1 2))", "(length (list 1 2))",
                           "(apply + (list 1 2))", "(reverse (list 1 2))", "`(a ,@(list 1 2))",
                           "(case 1 ((1) 1) (else 0))", "(vector 1 2)"])
        forms.append(f"(write (list {after}))")
        return forms

    def shape_printer(self, scope: Scope) -> list[str]:
        return [self.pick(V.PRINTER) for _ in range(self.small(1, 4))]

    def shape_deep(self, scope: Scope) -> list[str]:
        """Non-tail recursion near the recursion limit (10,000 nested calls); past it now and
        then, which ends the run with the recursion-limit resource outcome."""
        f, n = self.fresh("deep"), self.fresh("n")
        # Most often one below the limit, where an off-by-one in counting the depth shows.
        depth = self.pick([100, 500, 9990, 9998, 9999, 9999])
        if not self.safe and self.chance(30):
            depth = self.pick([10000, 10001, 10500])
        # The sweep costs four or five recursions to the limit, the others one.
        kind = self.pick(["count", "build", "sum", "escape", "through", "through2",
                          "tail-through", "tail-through", "bounce", "sweep"])
        if kind == "through2":
            via = self.pick(THROUGH2).format(f=f, n=n)
            depth = self.pick([4999, 5000, 5001])
            self.tag("shape:deep-through2")
            return [f"(define ({f} {n}) (if (= {n} 0) 0 (+ 1 {via})))", f"(display ({f} {depth}))"]
        if kind == "tail-through":
            via = self.pick(TAIL_THROUGH).format(f=f, n=n)
            depth = self.pick([9999, 10000, 10001, 10500])
            self.tag("shape:deep-tail-through")
            return [f"(define ({f} {n}) (if (= {n} 0) 'end {via}))", f"(display ({f} {depth}))"]
        if kind == "bounce":
            # each level's non-tail call reaches a procedure that tail-calls the recursion's
            # procedure: the tail call runs at the depth of the call it replaces
            g, x = self.fresh("step"), self.fresh("x")
            extra = self.pick(["", f" {x}"])
            depth = self.pick([9999, 10000, 10001])
            self.tag("shape:deep-bounce")
            return [f"(define ({f} {n}{extra}) (if (= {n} 0) 0 (+ 1 ({g} {n}{extra}))))",
                    f"(define ({g} {n}{extra}) ({f} (- {n} 1){extra}))",
                    f"(display ({f} {depth}{' 7' if extra else ''}))"]
        if kind == "through":
            # each level's call made by a primitive or a control form (map's callback, apply,
            # a wind's thunk, a handler's thunk, call/cc's receiver): it counts toward the depth
            # all the same
            via = self.pick(THROUGH).format(f=f, n=n)
            depth = self.pick([10000, 10001])  # at the limit, and one past it
            self.tag("shape:deep-through")
            return [f"(define ({f} {n}) (if (= {n} 0) 0 (+ 1 {via})))", f"(display ({f} {depth}))"]
        if kind == "escape":
            # escapes (a continuation, a caught raise) out of deep non-tail recursion, again and
            # again: each must give back the depth of the frames it leaves, or the escapes add
            # up to the recursion limit although no one of them comes near it
            go, i, k, e = self.fresh("go"), self.fresh("i"), self.fresh("k"), self.fresh("e")
            depth, reps = self.pick([1500, 2500, 3300]), self.pick([4, 5, 7])
            if self.chance(50):
                deep = f"(define ({f} {n} {k}) (if (= {n} 0) ({k} 'out) (+ 1 ({f} (- {n} 1) {k}))))"
                once = f"(call/cc (lambda ({k}) ({f} {depth} {k})))"
            else:
                deep = f"(define ({f} {n} {k}) (if (= {n} 0) (raise 'out) (+ 1 ({f} (- {n} 1) {k}))))"
                once = f"(guard ({e} (#t {e})) ({f} {depth} 0))"
            self.tag("shape:deep-escapes")
            return [deep, f"(define ({go} {i}) (if (= {i} 0) 'done (begin {once} ({go} (- {i} 1)))))",
                    f"(display ({go} {reps}))"]
        if kind == "sweep":
            # The deepest recursion that fits, through procedures of one to four parameters:
            # a back end with a call path per arity must count the depth alike on each.
            self.tag("shape:deep-arity-sweep")
            forms = []
            for arity in range(1, 5):
                g = self.fresh("deep")
                ps = [self.fresh("p") for _ in range(arity - 1)]
                carried = "".join(" " + p for p in ps)
                forms += [f"(define ({g} {n}{carried}) (if (= {n} 0) 0 (+ 1 ({g} (- {n} 1){carried}))))",
                          f"(display ({g} 9999{' 0' * (arity - 1)}))"]
            if self.chance(50):  # and through a rest parameter (a general call path)
                g, r = self.fresh("deep"), self.fresh("r")
                forms += [f"(define ({g} {n} . {r}) (if (= {n} 0) 0 (+ 1 ({g} (- {n} 1) 'x))))",
                          f"(display ({g} 9999))"]
            return forms
        # Carried parameters: a back end whose call path differs by arity (a fast path for one,
        # two or three arguments) must count the depth the same way on each.
        extra = [self.fresh("p") for _ in range(self.pick([0, 0, 1, 1, 2, 3]))]
        if extra and kind != "sum" and self.chance(60):
            depth = 9999  # the deepest that fits: where a check one off shows
        params = " ".join([n, *extra])
        carried = "".join(" " + p for p in extra)
        given = "".join(f" {self.small(0, 9)}" for _ in extra)
        if extra:
            self.tag("shape:deep-arity")
        if kind == "count":
            body = f"(if (= {n} 0) 0 (+ 1 ({f} (- {n} 1){carried})))"
            use = f"({f} {depth}{given})"
        elif kind == "build":
            body = f"(if (= {n} 0) '() (cons {n} ({f} (- {n} 1){carried})))"
            use = f"(length ({f} {depth}{given}))"
        else:
            body = f"(if (<= {n} 0) {n} (+ {n} ({f} (- {n} 1){carried})))"
            use = f"({f} {depth}{given})"
        self.tag(f"shape:deep-{depth}")
        return [f"(define ({f} {params}) {body})", f"(display {use})"]

    def shape_tailloop(self, scope: Scope) -> list[str]:
        """A loop of more than 10,000 iterations whose call sits in the tail position of one
        form, or of one form inside another: if that position is not a tail call, the run ends
        with recursion-limit instead of its answer. Now and then a mutual tail loop."""
        f, n = self.fresh("loop"), self.fresh("n")
        count = self.pick([10050, 11000, 12000])  # 12,000 through two forms: ~312,000 transitions
        if self.chance(15):
            a, b = self.fresh("ping"), self.fresh("pong")
            self.tag("shape:tail-mutual")
            return [f"(define ({a} {n}) (if (= {n} 0) 'done ({b} (- {n} 1))))",
                    f"(define ({b} {n}) {self.tail_step(b, n, a)})",
                    f"(display ({a} {count}))"]
        if self.chance(25):
            # a loop of four or five variables: a call that wide must be a tail call too
            vs = [self.fresh("w") for _ in range(self.pick([3, 4]))]
            self.tag("shape:tail-wide")
            if self.chance(50):
                steps = " ".join(f"({v} 0 (+ {v} {j}))" for j, v in enumerate(vs))
                # (- n -1) rather than (+ n 1), as in p_do: + may have been rebound
                return [f"(display (do (({n} 0 (- {n} -1)) {steps}) ((= {n} {count}) "
                        f"(list {' '.join(vs)}))))"]
            step = " ".join(f"(+ {v} {j})" for j, v in enumerate(vs))
            return [f"(define ({f} {n} {' '.join(vs)}) (if (= {n} 0) (list {' '.join(vs)}) "
                    f"({f} (- {n} 1) {step})))",
                    f"(display ({f} {count} {' '.join('0' for _ in vs)}))"]
        return [f"(define ({f} {n}) {self.tail_step(f, n, f)})", f"(display ({f} {count}))"]

    def tail_step(self, f: str, n: str, callee: str) -> str:
        """The loop's step: the recurring call in a tail position of one form, usually inside
        a tail position of one or two more. A loop costs tens of thousands of transitions, so
        each one tries several tail positions at once."""
        step = self.pick(list(TAIL_STEPS))
        self.tag("shape:tail-" + step)
        call = TAIL_STEPS[step].format(n=n, f=callee, call=f"({callee} (- {n} 1))")
        wrappers = [k for k, v in TAIL_STEPS.items() if "{call}" in v]
        for _ in range(self.pick([0, 1, 1, 2, 2])):
            outer = self.pick(wrappers)
            self.tag("shape:tail-" + outer)
            call = TAIL_STEPS[outer].format(n=n, f=callee, call=call)
        recur = f"({callee} (- {n} 1))"
        if recur in call and self.chance(12):
            # the loop's call inside a form that calls it nested: the 10,001st iteration reaches
            # the recursion limit, unless a back end took the position for a tail one
            nested = self.pick(list(NESTED_STEPS))
            self.tag("shape:nested-" + nested)
            call = call.replace(recur, NESTED_STEPS[nested].format(call=recur), 1)
        return call

    def shape_mutual(self, scope: Scope) -> list[str]:
        a, b, n = self.fresh("ping"), self.fresh("pong"), self.fresh("n")
        depth = self.pick([10, 100, 1000])
        return [f"(define ({a} {n}) (if (= {n} 0) '() (cons 'a ({b} (- {n} 1)))))",
                f"(define ({b} {n}) (if (= {n} 0) '() (cons 'b ({a} (- {n} 1)))))",
                f"(write (length ({a} {depth})))", f"(write ({a} {self.small(0, 5)}))"]

    # -- diagnostics ---------------------------------------------------------------------------

    def through_global(self, code: str, fault: str, f: str) -> str:
        """The fault made through a global procedure: its operands become the parameters of
        ``f``, so the faulting call sees locals (where fast paths live) and the program calls a
        global; now and then ``f`` is called with one argument too many or too few (E302 at a
        call of a global), or ``f`` is not a procedure (E301)."""
        if code == "E301":
            return f"(define {f} {self.literal(self.pick(['int', 'str', 'list']))})\n({f} 1)"
        tree = parse(fault)[0]
        if tree[0] != "list" or tree[2] is not None or len(tree[1]) < 2 \
                or tree[1][0][0] != "atom" or tree[1][0][1] not in PRIMITIVES:
            return f"(define ({f}) {fault})\n({f})"
        op, args = tree[1][0][1], [render_node(a) for a in tree[1][1:]]
        params = [self.fresh("p") for _ in args]
        if self.chance(25):
            args = args[:-1] if self.chance(50) else [*args, "0"]
        return (f"(define ({f} {' '.join(params)})\n  ({op} {' '.join(params)}))\n"
                f"({f} {' '.join(args)})")

    def diagnostic(self, scope: Scope) -> str:
        """A form that ends the program with a diagnostic, of a code drawn toward those least
        seen, in one of several contexts (so spans sit at varied lines and columns)."""
        codes = list(V.RUNTIME_FAULTS) + list(V.SOURCE_FAULTS)
        weights = [self.steer.faults.get(c, 1.0) * (0.5 if c in V.SOURCE_FAULTS else 1.0)
                   for c in codes]
        code = self.weighted(codes, weights)
        self.tag("fault:" + code)
        if code in V.SOURCE_FAULTS and code not in V.RUNTIME_FAULTS:
            return self.fault_entry(code, V.SOURCE_FAULTS[code])
        pool = V.RUNTIME_FAULTS.get(code) or V.SOURCE_FAULTS[code]
        fault = self.fault_entry(code, pool)
        if code == "E303" or fault.startswith("(+ 1 later"):
            return fault  # not inside a procedure: later definitions would bind it
        f = self.fresh("bad")
        context = self.pick(["bare", "procedure", "callback", "wind", "guard", "nested",
                             "after-output", "global", "global"])
        self.tag("shape:diag-" + context)
        if context == "global":
            return self.through_global(code, fault, f)
        if context == "procedure":
            return f"(define ({f}) (let ((x 1))\n    {fault}))\n({f})"
        if context == "callback":
            return f"(map (lambda (x)\n  {fault}) '(1 2))"
        if context == "wind":
            return (f"(dynamic-wind (lambda () (display \"b\"))\n  (lambda () {fault})\n"
                    f"  (lambda () (display \"a\")))")
        if context == "guard" and code.startswith("E3"):
            return (f"(guard (e ((error-object? e) (list (error-object-message e) "
                    f"(error-object-irritants e))) (#t (list 'raised e)))\n  {fault})")
        if context == "nested":
            return f"(list 1\n      (if #t\n          {fault} 0))"
        if context == "after-output":
            return f"(display \"before\")\n{fault}"
        return fault
