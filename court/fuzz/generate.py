"""Hypothesis strategies for Lispex programs that are valid and terminate most of the time.

Generation is type-directed and scope-aware: an expression is drawn for a wanted type (int,
number, string, boolean, list, vector, char, any) from producers that only reference names bound
in scope, with the right arity. Each program draws a set of feature toggles first, so rare
features (call/cc escapes through dynamic-wind, handlers, multiple values, input) meet each other
often. "Safe" mode (most programs) keeps types and arities right; "error" mode also plants faults.
Recursion is bounded by construction (small counters), and whatever escapes that is caught by the
meters, whose outcome is never a finding.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from hypothesis import strategies as st

from . import values as V
from .signatures import SIGNATURES

FEATURES = ("closures", "recursion", "strings", "lists", "vectors", "floats", "rationals",
            "errors", "handlers", "callcc", "dynwind", "multivalues", "output", "input",
            "chars", "hof", "quasiquote", "loops", "bignums")

TYPES = ("int", "num", "str", "bool", "list", "vec", "char", "any")


@dataclass
class Case:
    source: str
    input: str | None
    features: tuple[str, ...]
    safe: bool


@dataclass
class Fn:
    name: str
    params: list[str]
    ptypes: list[str]
    ret: str


@dataclass
class Scope:
    vars: dict[str, str] = field(default_factory=dict)  # name -> type
    fns: dict[str, Fn] = field(default_factory=dict)

    def child(self, **extra: str) -> Scope:
        s = Scope(dict(self.vars), dict(self.fns))
        s.vars.update(extra)
        return s


class Gen:
    def __init__(self, draw, features: set[str], safe: bool) -> None:
        self.draw = draw
        self.f = features
        self.safe = safe
        self.n = 0
        # One primitive each program leans on, so that every primitive is exercised in depth
        # in some programs rather than thinly in all.
        self.focus = draw(st.sampled_from(SIGNATURES))

    # -- drawing helpers ---------------------------------------------------------------------

    def pick(self, seq):
        return self.draw(st.sampled_from(list(seq)))

    def chance(self, percent: int) -> bool:
        return self.draw(st.integers(0, 99)) < percent

    def small(self, lo: int = 0, hi: int = 5) -> int:
        return self.draw(st.integers(lo, hi))

    def fresh(self, base: str = "v") -> str:
        self.n += 1
        return f"{base}{self.n}"

    def on(self, feature: str) -> bool:
        return feature in self.f

    # -- leaves --------------------------------------------------------------------------------

    def literal(self, t: str) -> str:
        if t == "int":
            if self.on("bignums") and self.chance(30):
                return self.pick(V.INTS)
            return str(self.draw(st.integers(-20, 20)))
        if t == "num":
            pool = ["int"] + (["float"] if self.on("floats") else []) + \
                (["rat"] if self.on("rationals") else [])
            kind = self.pick(pool)
            if kind == "float":
                return self.pick(V.FLOATS)
            if kind == "rat":
                return self.pick(V.RATIONALS)
            return self.literal("int")
        if t == "str":
            return self.pick(V.STRINGS)
        if t == "bool":
            return self.pick(["#t", "#f"])
        if t == "char":
            return self.pick(V.CHARS)
        if t == "list":
            items = [self.quoted_atom() for _ in range(self.small(0, 4))]
            return "'(" + " ".join(items) + ")"
        if t == "vec":
            return "(vector " + " ".join(self.literal("int") for _ in range(self.small(0, 3))) + ")"
        return self.literal(self.pick(["int", "num", "str", "bool", "char", "list"]))

    def quoted_atom(self) -> str:
        kind = self.pick(["int", "sym", "str", "list"] + (["float"] if self.on("floats") else []))
        if kind == "sym":
            return self.pick(V.SYMBOLS)[1:]
        if kind == "str":
            return self.pick(V.STRINGS)
        if kind == "float":
            return self.pick(V.FLOATS)
        if kind == "list":
            return "(" + " ".join(str(self.small(0, 9)) for _ in range(self.small(0, 2))) + ")"
        return self.literal("int")

    def leaf(self, t: str, scope: Scope) -> str:
        names = [n for n, nt in scope.vars.items()
                 if nt == t or (t == "any") or (t == "num" and nt == "int")]
        if names and self.chance(60):
            return self.pick(names)
        return self.literal(t)

    # -- expressions ---------------------------------------------------------------------------

    def expr(self, t: str, depth: int, scope: Scope) -> str:
        if depth <= 0 or self.chance(25):
            return self.leaf(t, scope)
        if not self.safe and self.chance(4):
            return self.fault(depth, scope)
        producer = self.pick(self.producers(t))
        prev, self._want = self._want, t
        try:
            return producer(depth - 1, scope)
        finally:
            self._want = prev

    def producers(self, t: str) -> list:
        common = [self.p_if, self.p_let, self.p_call_user, self.p_prim, self.p_prim]
        if self.on("callcc"):
            common.append(self.p_callcc)
        if self.on("handlers"):
            common.append(self.p_handler)
        if self.on("errors"):
            common.append(self.p_guard)
        if self.on("dynwind"):
            common.append(self.p_dynwind)
        if self.on("multivalues"):
            common.append(self.p_values)
        table = {
            "int": [self.p_arith, self.p_arith, self.p_divide, self.p_length, self.p_case] +
                   ([self.p_fold, self.p_apply] if self.on("hof") else []) +
                   ([self.p_loop, self.p_named_let] if self.on("loops") else []),
            "num": [self.p_arith, self.p_num_op] + ([self.p_fold] if self.on("hof") else []),
            "str": [self.p_string] if self.on("strings") or True else [],
            "bool": [self.p_compare, self.p_pred, self.p_logic],
            "list": [self.p_list] + ([self.p_map, self.p_filter] if self.on("hof") else []) +
                    ([self.p_quasi] if self.on("quasiquote") else []),
            "vec": [self.p_vector],
            "char": [self.p_char],
        }
        if t == "any":
            kind = self.pick([k for k in table if k != "vec" or self.on("vectors")])
            return [lambda d, s, k=kind: self.expr(k, d + 1, s)]
        return table[t] + common

    def sub(self, t: str, depth: int, scope: Scope) -> str:
        return self.expr(t, depth, scope)

    def p_prim(self, d: int, s: Scope) -> str:
        """A call of a primitive from the signature table whose result fits the wanted type."""
        want = self._want
        fits = [sig for sig in SIGNATURES if want == "any" or sig[2] == want or
                (want == "num" and sig[2] == "int")]
        if not fits:
            return self.leaf(want, s)
        if self.focus in fits and self.chance(50):
            name, args, _ = self.focus
        else:
            name, args, _ = self.pick(fits)
        return f"({name}{''.join(' ' + self.arg(a, d, s) for a in args)})"

    def arg(self, a: str, d: int, s: Scope) -> str:
        if a.startswith("idx:"):
            return str(self.small(0, int(a[4:]) - 1))
        if a == "nz":
            return str(self.pick([-7, -3, -2, -1, 1, 2, 3, 5, 10]))
        if a.startswith("nelist"):
            n = int(a[6:] or 1)
            return "(list" + "".join(" " + self.sub("any", d, s)
                                     for _ in range(n + self.small(0, 2))) + ")"
        if a == "vec3":
            return "(vector" + "".join(" " + self.sub("any", d, s) for _ in range(3)) + ")"
        if a == "alist":
            return "'((a 1) (b . 2) (3 c) (\"k\" v))"
        if a == "sym":
            return self.pick(V.SYMBOLS)
        if a == "hello":
            return '"héllo"'
        if a == "chars":
            return f"(list {self.sub('char', d, s)} {self.sub('char', d, s)})"
        if a == "charvec":
            return f"(vector {self.sub('char', d, s)})"
        if a == "bytes":
            return f"(bytevector {self.small(0, 255)} {self.small(0, 255)})"
        return self.sub(a, d, s)

    def p_if(self, d: int, s: Scope, t: str | None = None) -> str:
        t = t or self._want
        return f"(if {self.sub('bool', d, s)} {self.sub(t, d, s)} {self.sub(t, d, s)})"

    _want = "any"

    def p_let(self, d: int, s: Scope) -> str:
        t = self._want
        vt = self.pick(["int", "str", "list", "num"])
        name = self.fresh()
        form = self.pick(["let", "let*", "letrec"])
        inner = s.child(**{name: vt})
        return f"({form} (({name} {self.sub(vt, d, s)})) {self.sub(t, d, inner)})"

    def p_call_user(self, d: int, s: Scope) -> str:
        fns = [f for f in s.fns.values() if f.ret == self._want or self._want == "any"]
        if not fns:
            return self.leaf(self._want, s)
        f = self.pick(fns)
        args = " ".join(self.sub(pt, d, s) for pt in f.ptypes)
        return f"({f.name}{' ' + args if args else ''})"

    def p_callcc(self, d: int, s: Scope) -> str:
        k = self.fresh("k")
        t = self._want
        body = self.sub(t, d, s)
        if t in ("int", "num") and self.chance(60):
            return f"(call/cc (lambda ({k}) (+ 1 ({k} {body}))))"
        return f"(call-with-current-continuation (lambda ({k}) {body}))"

    def p_handler(self, d: int, s: Scope) -> str:
        if self._want in ("int", "num"):
            return (f"(with-exception-handler (lambda (e) {self.sub('int', d, s)}) "
                    f"(lambda () (+ {self.sub('int', d, s)} (raise-continuable "
                    f"{self.pick(V.SYMBOLS)}))))")
        e = self.fresh("e")
        return (f"(guard ({e} ((symbol? {e}) {self.sub(self._want, d, s)}) "
                f"((error-object? {e}) {self.sub(self._want, d, s)}) "
                f"(else {self.sub(self._want, d, s)})) "
                f"(with-exception-handler (lambda ({self.fresh('c')}) {self.pick(V.SYMBOLS)}) "
                f"(lambda () (raise {self.pick(V.SYMBOLS)}))))")

    def p_guard(self, d: int, s: Scope) -> str:
        e = self.fresh("e")
        t = self._want
        raiser = self.pick([f"(raise {self.pick(V.SYMBOLS)})",
                            f"(error {self.pick(V.STRINGS)} {self.sub('any', d, s)})",
                            f"(raise {self.sub('int', d, s)})",
                            self.sub(t, d, s)])
        body = f"(begin {raiser} {self.sub(t, d, s)})" if self.chance(50) else raiser
        inner = s.child(**{e: "any"})
        clauses = [f"((symbol? {e}) {self.sub(t, d, inner)})",
                   f"((string? {e}) {self.sub(t, d, inner)})"]
        if t in ("str", "any"):
            clauses.append(f"((error-object? {e}) (error-object-message {e}))")
        tail = f" (else {self.sub(t, d, inner)})" if self.chance(70) else ""
        return f"(guard ({e} {' '.join(clauses)}{tail}) {body})"

    def p_dynwind(self, d: int, s: Scope) -> str:
        t = self._want
        before = f'(lambda () (display "{self.pick(["<", "[", "in "])}"))'
        after = f'(lambda () (display "{self.pick([">", "]", " out"])}"))'
        shape = self.pick(["plain", "escape", "raise"])
        if shape == "escape" and self.on("callcc"):
            k = self.fresh("k")
            return (f"(call/cc (lambda ({k}) (dynamic-wind {before} "
                    f"(lambda () ({k} {self.sub(t, d, s)})) {after})))")
        if shape == "raise" and self.on("errors"):
            e = self.fresh("e")
            return (f"(guard ({e} (#t {self.sub(t, d, s)})) (dynamic-wind {before} "
                    f"(lambda () (raise {self.pick(V.SYMBOLS)})) {after}))")
        return f"(dynamic-wind {before} (lambda () {self.sub(t, d, s)}) {after})"

    def p_values(self, d: int, s: Scope) -> str:
        t = self._want
        a, b = self.fresh("a"), self.fresh("b")
        inner = s.child(**{a: "int", b: t})
        return (f"(call-with-values (lambda () (values {self.sub('int', d, s)} "
                f"{self.sub(t, d, s)})) (lambda ({a} {b}) {self.sub(t, d, inner)}))")

    def p_arith(self, d: int, s: Scope) -> str:
        t = "int" if self._want == "int" else "num"
        op = self.pick(["+", "-", "*", "max", "min", "abs", "square"] +
                       (["gcd", "lcm"] if t == "int" else []))
        if op in ("abs", "square"):
            return f"({op} {self.sub(t, d, s)})"
        n = self.small(1 if op in ("max", "min") else 0, 3)
        return f"({op}{''.join(' ' + self.sub(t, d, s) for _ in range(n))})"

    def p_divide(self, d: int, s: Scope) -> str:
        op = self.pick(["quotient", "remainder", "modulo", "floor-quotient", "truncate-remainder",
                        "floor-remainder"])
        divisor = str(self.pick([-7, -3, -2, -1, 1, 2, 3, 5, 10])) if self.safe or self.chance(80) \
            else self.sub("int", d, s)
        return f"({op} {self.sub('int', d, s)} {divisor})"

    def p_num_op(self, d: int, s: Scope) -> str:
        op = self.pick(["/", "exact->inexact", "exact", "round", "floor", "ceiling", "truncate",
                        "*1.5"])
        x = self.sub("num", d, s)
        if op == "/":
            return f"(/ {x} {self.pick(['2', '3', '-4', '0.5', '7/3', '1e10'])})"
        if op == "*1.5":
            return f"(* {x} {self.pick(V.FLOATS) if self.on('floats') else '3/2'})"
        if op == "exact":
            return f"(exact {self.literal('num')})"
        return f"({op} {x})"

    def p_length(self, d: int, s: Scope) -> str:
        kind = self.pick(["length", "string-length"] +
                         (["vector-length"] if self.on("vectors") else []) +
                         (["char->integer"] if self.on("chars") else []))
        arg = {"length": "list", "string-length": "str", "vector-length": "vec",
               "char->integer": "char"}[kind]
        return f"({kind} {self.sub(arg, d, s)})"

    def p_case(self, d: int, s: Scope) -> str:
        t = self._want
        return (f"(case {self.sub('int', d, s)} (({self.small(-2, 3)} {self.small(4, 9)}) "
                f"{self.sub(t, d, s)}) (else {self.sub(t, d, s)}))")

    def p_fold(self, d: int, s: Scope) -> str:
        op = self.pick(["+", "*", "max", "-"])
        fold = self.pick(["fold-left", "fold-right", "reduce"])
        items = " ".join(self.sub("int", d, s) for _ in range(self.small(0, 4)))
        init = self.sub("int", d, s) if op != "max" else "0"
        return f"({fold} {op} {init} (list {items}))"

    def p_apply(self, d: int, s: Scope) -> str:
        items = " ".join(self.sub("int", d, s) for _ in range(self.small(0, 3)))
        return f"(apply + {self.sub('int', d, s)} (list {items}))"

    def p_loop(self, d: int, s: Scope) -> str:
        i, acc = self.fresh("i"), self.fresh("acc")
        inner = s.child(**{i: "int", acc: "int"})
        return (f"(do (({i} 0 (+ {i} 1)) ({acc} 0 (+ {acc} {self.sub('int', d, inner)}))) "
                f"((>= {i} {self.small(0, 6)}) {acc}))")

    def p_named_let(self, d: int, s: Scope) -> str:
        loop, i, acc = self.fresh("loop"), self.fresh("i"), self.fresh("acc")
        inner = s.child(**{i: "int", acc: "int"})
        return (f"(let {loop} (({i} {self.small(0, 8)}) ({acc} {self.sub('int', d, s)})) "
                f"(if (<= {i} 0) {acc} ({loop} (- {i} 1) (+ {acc} {self.sub('int', d, inner)}))))")

    def p_string(self, d: int, s: Scope) -> str:
        shape = self.pick(["append", "number", "symbol", "case", "substring", "list", "make",
                           "map"])
        if shape == "append":
            return "(string-append " + " ".join(self.sub("str", d, s)
                                               for _ in range(self.small(0, 3))) + ")"
        if shape == "number":
            return f"(number->string {self.sub('num', d, s)})"
        if shape == "symbol":
            return f"(symbol->string {self.pick(V.SYMBOLS)})"
        if shape == "case":
            return f"({self.pick(['string-upcase', 'string-downcase', 'string-foldcase'])} " \
                   f"{self.sub('str', d, s)})"
        if shape == "substring":
            a = self.small(0, 2)
            return f'(substring "hello world" {a} {a + self.small(0, 5)})'
        if shape == "list":
            return f"(list->string (list {self.sub('char', d, s)} {self.sub('char', d, s)}))"
        if shape == "make":
            return f"(make-string {self.small(0, 4)} {self.sub('char', d, s)})"
        return f"(string-map char-upcase {self.sub('str', d, s)})"

    def p_compare(self, d: int, s: Scope) -> str:
        kind = self.pick(["num", "num", "str", "char", "any"])
        if kind == "num":
            op = self.pick(["<", "<=", "=", ">", ">="])
            return f"({op} {self.sub('num', d, s)} {self.sub('num', d, s)})"
        if kind == "str":
            op = self.pick(["string=?", "string<?", "string-ci=?"])
            return f"({op} {self.sub('str', d, s)} {self.sub('str', d, s)})"
        if kind == "char":
            op = self.pick(["char=?", "char<?", "char-ci=?"])
            return f"({op} {self.sub('char', d, s)} {self.sub('char', d, s)})"
        op = self.pick(["equal?", "eqv?", "eq?"])
        return f"({op} {self.sub('any', d, s)} {self.sub('any', d, s)})"

    def p_pred(self, d: int, s: Scope) -> str:
        pred = self.pick(["null?", "pair?", "list?", "number?", "string?", "symbol?", "boolean?",
                          "integer?", "exact?", "zero?", "even?", "procedure?", "vector?"])
        arg = {"zero?": "num", "even?": "int", "exact?": "num"}.get(pred, "any")
        return f"({pred} {self.sub(arg, d, s)})"

    def p_logic(self, d: int, s: Scope) -> str:
        op = self.pick(["and", "or", "not"])
        if op == "not":
            return f"(not {self.sub('bool', d, s)})"
        return f"({op} {' '.join(self.sub('bool', d, s) for _ in range(self.small(0, 3)))})"

    def p_list(self, d: int, s: Scope) -> str:
        shape = self.pick(["list", "cons", "append", "reverse", "tail", "cdr", "copy", "make",
                           "string->list", "assq"])
        if shape == "list":
            return "(list" + "".join(" " + self.sub("any", d, s)
                                     for _ in range(self.small(0, 4))) + ")"
        if shape == "cons":
            return f"(cons {self.sub('any', d, s)} {self.sub('list', d, s)})"
        if shape == "append":
            return f"(append {self.sub('list', d, s)} {self.sub('list', d, s)})"
        if shape == "reverse":
            return f"(reverse {self.sub('list', d, s)})"
        if shape == "tail":
            n = self.small(0, 4)
            items = " ".join(self.sub("any", d, s) for _ in range(n))
            k = self.small(0, n) if self.safe else self.small(0, n + 1)
            return f"(list-tail (list {items}) {k})"
        if shape == "cdr":
            return f"(cdr (list {self.sub('any', d, s)} {self.sub('any', d, s)}))"
        if shape == "copy":
            return f"(list-copy {self.sub('list', d, s)})"
        if shape == "make":
            return f"(make-list {self.small(0, 3)} {self.sub('any', d, s)})"
        if shape == "string->list":
            return f"(string->list {self.sub('str', d, s)})"
        return f"(list (assq 'b '((a 1) (b 2))) (assoc {self.sub('str', d, s)} '((\"a\" . 1))))"

    def p_map(self, d: int, s: Scope) -> str:
        x = self.fresh("x")
        inner = s.child(**{x: "int"})
        items = " ".join(self.sub("int", d, s) for _ in range(self.small(0, 4)))
        fn = self.pick(["map", "vector-map"]) if self.on("vectors") and False else "map"
        return f"({fn} (lambda ({x}) {self.sub('any', d, inner)}) (list {items}))"

    def p_filter(self, d: int, s: Scope) -> str:
        x = self.fresh("x")
        inner = s.child(**{x: "int"})
        items = " ".join(self.sub("int", d, s) for _ in range(self.small(0, 4)))
        return f"(filter (lambda ({x}) {self.sub('bool', d, inner)}) (list {items}))"

    def p_quasi(self, d: int, s: Scope) -> str:
        return (f"`(q {self.quoted_atom()} ,{self.sub('any', d, s)} "
                f",@{self.sub('list', d, s)} #(v ,{self.sub('int', d, s)}))")

    def p_vector(self, d: int, s: Scope) -> str:
        shape = self.pick(["vector", "make", "from-list", "map", "copy"])
        if shape == "vector":
            return "(vector" + "".join(" " + self.sub("any", d, s)
                                       for _ in range(self.small(0, 3))) + ")"
        if shape == "make":
            return f"(make-vector {self.small(0, 3)} {self.sub('any', d, s)})"
        if shape == "from-list":
            return f"(list->vector {self.sub('list', d, s)})"
        if shape == "copy":
            return f"(vector-copy {self.sub('vec', d, s)})"
        x = self.fresh("x")
        return (f"(vector-map (lambda ({x}) (list {x})) "
                f"{self.sub('vec', d, s)})")

    def p_char(self, d: int, s: Scope) -> str:
        shape = self.pick(["ref", "up", "int"])
        if shape == "ref":
            return f'(string-ref "héllo" {self.small(0, 4)})'
        if shape == "up":
            return f"({self.pick(['char-upcase', 'char-downcase'])} {self.sub('char', d, s)})"
        return f"(integer->char {self.pick(['97', '955', '32', '65', '48'])})"

    def fault(self, d: int, s: Scope) -> str:
        return self.pick([
            "(car '())", "(vector-ref (vector 1 2) 5)", "(/ 1 0)", "(undefined-name)",
            f"(+ 1 {self.pick(V.STRINGS)})", f"(error {self.pick(V.STRINGS)} 1 'x)",
            f"(raise {self.pick(V.SYMBOLS)})", "(string-ref \"\" 0)", "(exact 1e400)",
            "((lambda (x) x))", "(list-tail '(1 2) 3)", "(+ (values 1 2) 1)",
            "(letrec ((a b) (b 1)) a)", "(integer->char -1)", "(% 7 2)", "(list-first '(1))",
        ])

    # -- statements and programs ------------------------------------------------------------------

    def function(self, scope: Scope) -> tuple[str, Fn]:
        name = self.fresh("f")
        if self.on("recursion") and self.chance(50):
            n, acc = self.fresh("n"), self.fresh("acc")
            inner = scope.child(**{n: "int", acc: "int"})
            if self.chance(50):
                fn = Fn(name, [n, acc], ["int", "int"], "int")
                inner.fns[name] = fn
                body = (f"(if (<= {n} 0) {acc} ({name} (- {n} 1) "
                        f"(+ {acc} {self.expr('int', 2, inner)})))")
                return f"(define ({name} {n} {acc}) {body})", Fn(name, [n, acc],
                                                                 ["int", "int"], "int")
            fn = Fn(name, [n], ["int"], "int")
            inner = scope.child(**{n: "int"})
            inner.fns[name] = fn
            body = (f"(if (<= {n} 0) {self.expr('int', 1, inner)} "
                    f"(+ {self.expr('int', 1, inner)} ({name} (- {n} 1))))")
            return f"(define ({name} {n}) {body})", fn
        ptypes = [self.pick(["int", "str", "list", "num"]) for _ in range(self.small(0, 3))]
        params = [self.fresh("p") for _ in ptypes]
        ret = self.pick(["int", "str", "list", "bool", "any"])
        inner = scope.child(**dict(zip(params, ptypes, strict=True)))
        body = self.expr(ret, 3, inner)
        if self.on("closures") and self.chance(30) and ret == "int":
            k = self.fresh("k")
            return (f"(define ({name} {' '.join(params)}) (let (({k} (lambda (z) (+ z 1)))) "
                    f"({k} {body})))", Fn(name, params, ptypes, ret))
        return f"(define ({name}{''.join(' ' + p for p in params)}) {body})", \
            Fn(name, params, ptypes, ret)

    def statement(self, scope: Scope) -> str:
        shape = self.pick(["display", "write", "newline", "for-each"]) if self.on("output") \
            else "display"
        if shape == "newline":
            return "(newline)"
        if shape == "for-each":
            x = self.fresh("x")
            return f"(for-each (lambda ({x}) (display {x})) {self.expr('list', 2, scope)})"
        return f"({shape} {self.expr('any', 3, scope)})"

    def input_datum(self) -> tuple[str, dict[str, str]]:
        age = self.draw(st.integers(-5, 130))
        score = self.pick(["3/2", "0", "-1", "2.5", "100"])
        name = self.pick(V.STRINGS)
        return f"((age {age}) (score {score}) (name {name}) (tags a b))", \
            {"age": "int", "score": "num", "name": "str"}

    def program(self) -> tuple[str, str | None]:
        scope = Scope()
        forms: list[str] = []
        input_text = None
        if self.on("input"):
            input_text, fields = self.input_datum()
            for fieldname, t in fields.items():
                g = self.fresh(fieldname)
                forms.append(f"(define {g} (cadr (assq '{fieldname} input)))")
                scope.vars[g] = t
        for _ in range(self.small(0, 3)):
            text, fn = self.function(scope)
            forms.append(text)
            scope.fns[fn.name] = fn
        for _ in range(self.small(0, 2)):
            t = self.pick(["int", "str", "list", "num"])
            g = self.fresh("g")
            forms.append(f"(define {g} {self.expr(t, 3, scope)})")
            scope.vars[g] = t
        for _ in range(self.small(0, 3)):
            forms.append(self.statement(scope))
        if not self.safe and self.chance(30):
            forms.append(self.fault(2, scope))
        forms.append(self.expr(self.pick(TYPES), 4, scope))
        return "\n".join(forms) + "\n", input_text


@st.composite
def cases(draw, *, only_safe: bool = False) -> Case:
    features = {f for f in FEATURES if draw(st.integers(0, 99)) < 45}
    safe = only_safe or draw(st.integers(0, 99)) < 80
    gen = Gen(draw, features, safe)
    source, input_text = gen.program()
    return Case(source, input_text, tuple(sorted(features)), safe)
