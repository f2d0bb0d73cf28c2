"""Producers of the core and derived forms and of data: if, let/let*/letrec with several
bindings, cond, case, when/unless, begin, arithmetic, strings, lists, vectors, characters.

Each producer takes (depth, scope, wanted type) and returns source text of that type. Tests of
`if`/`cond`/`when` are often non-boolean values (only #f is false)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import values as V

if TYPE_CHECKING:
    from .generate import Scope

BINDABLE = ("int", "str", "list", "num", "any", "bool", "char")


class FormsMixin:
    # -- control of flow -----------------------------------------------------------------------

    def test(self, d: int, s: Scope) -> str:
        """A test for if/cond/when: a boolean, or any value at all (only #f is false)."""
        r = self.rng.randrange(100)
        if r < 55:
            return self.sub("bool", d, s)
        self.tag("shape:nonboolean-test")
        if r < 80:
            return self.sub("any", d, s)
        return self.pick([f"(member {self.sub('int', d, s)} '(1 2 3))",
                          f"(assv {self.sub('int', d, s)} '((0 . a) (1 . b)))",
                          f"(memq {self.pick(V.SYMBOLS)} '(a b deny))",
                          "0", "'()", '""', "(vector)", f"(string->number {self.sub('str', d, s)})"])

    def p_if(self, d: int, s: Scope, t: str) -> str:
        return f"(if {self.test(d, s)} {self.sub(t, d, s)} {self.sub(t, d, s)})"

    def p_cond(self, d: int, s: Scope, t: str) -> str:
        clauses = []
        for _ in range(self.small(1, 3)):
            if t in ("bool", "any") and self.chance(20):
                # a test-only clause yields the test's value: for `any`, often not a boolean
                test = self.sub("bool", d, s) if t == "bool" else self.test(d, s)
                clauses.append(f"({test})")
            else:
                body = " ".join(self.sub(t, d, s) for _ in range(self.small(1, 2)))
                clauses.append(f"({self.test(d, s)} {body})")
        clauses.append(f"(else {self.sub(t, d, s)})")
        return f"(cond {' '.join(clauses)})"

    def p_case(self, d: int, s: Scope, t: str) -> str:
        if self.chance(15):
            # data that eqv? never matches although equal? would: strings, lists, vectors
            key = self.pick(['"s"', "(list 1 2)", "(string #\\a)", "(vector 1)", "'(a)"])
            self.tag("shape:case-uncomparable-data")
            return (f"(case {key} ((\"s\" (1 2) \"a\" #(1) (a)) {self.sub(t, d, s)}) "
                    f"(else {self.sub(t, d, s)}))")
        kind = self.pick(["int", "sym", "char"])
        key = self.sub(kind, d, s)
        pools = {"int": [str(i) for i in range(-2, 8)],
                 "sym": ["a", "b", "deny", "allow", "x->y"],
                 "char": ["#\\a", "#\\Z", "#\\space", "#\\0"]}
        clauses = []
        for _ in range(self.small(1, 3)):
            data = {self.pick(pools[kind]) for _ in range(self.small(1, 3))}
            clauses.append(f"(({' '.join(sorted(data))}) {self.sub(t, d, s)})")
        return f"(case {key} {' '.join(clauses)} (else {self.sub(t, d, s)}))"

    def p_when(self, d: int, s: Scope, t: str) -> str:
        """when/unless as statements (their false arm is zero values), around a mutable
        result."""
        r = self.fresh("r")
        inner = s.child(**{r: t})
        form = self.pick(["when", "unless"])
        body = " ".join(f"(set! {r} {self.sub(t, d, inner)})" for _ in range(self.small(1, 2)))
        out = f"(let (({r} {self.sub(t, d, s)})) ({form} {self.test(d, inner)} {body})"
        if self.on("output") and self.chance(40):
            out += f" ({self.pick(['when', 'unless'])} {self.test(d, inner)} (display {r}))"
        return out + f" {r})"

    def p_begin(self, d: int, s: Scope, t: str) -> str:
        effects = []
        for _ in range(self.small(1, 2)):
            effects.append(self.pick([f"(display {self.sub('any', d, s)})",
                                      f"(write {self.sub('any', d, s)})",
                                      self.sub("any", d, s)]))
        return f"(begin {' '.join(effects)} {self.sub(t, d, s)})"

    # -- binding -------------------------------------------------------------------------------

    def binder(self, s: Scope) -> str:
        """A fresh name, or sometimes one already in scope, so that shadowing is exercised."""
        if s.vars and self.chance(20):
            self.tag("shape:shadowing")
            return self.pick(sorted(s.vars))
        return self.fresh()

    def p_let(self, d: int, s: Scope, t: str) -> str:
        form = self.pick(["let", "let", "let*", "letrec"])
        n = self.small(1, 3)
        names: list[str] = []
        binds = []
        inner = s.child()
        for _ in range(n):
            name = self.binder(s)
            if form == "let*" and names and self.chance(25):
                # let* may bind a name again: each binding opens a scope of its own
                name = names[-1]
                self.tag("shape:let*-rebind")
            else:
                while name in names:
                    name = self.fresh()
            vt = self.pick(BINDABLE)
            # let: inits see the outer scope; let*: the earlier bindings too; letrec: lambdas
            init_scope = inner if form == "let*" else s
            if form == "letrec" and self.chance(50):
                p = self.fresh("p")
                body = self.sub(vt, d, init_scope.child(**{p: "int"}))
                binds.append(f"({name} (lambda ({p}) {body}))")
                inner.fns[name] = _fn(name, [p], ["int"], vt)
                inner.vars.pop(name, None)
            else:
                if form == "letrec":
                    init_scope = s  # letrec inits must not read later slots (E321)
                binds.append(f"({name} {self.sub(vt, d, init_scope)})")
                inner.vars[name] = vt
                inner.fns.pop(name, None)
            names.append(name)
        self.tag(f"form:{form}" + ("-multi" if n > 1 else ""))
        body = self.sub(t, d, inner)
        if self.chance(25):
            body = f"(display {self.sub('any', d, inner)}) {body}"
        return f"({form} ({' '.join(binds)}) {body})"

    def p_call_user(self, d: int, s: Scope, t: str) -> str:
        fns = [f for f in s.fns.values() if f.ret == t or t == "any" or
               (t == "num" and f.ret == "int")]
        if not fns:
            return self.leaf(t, s)
        f = self.pick(fns)
        if f.rest:
            fixed = [self.sub(pt, d, s) for pt in f.ptypes[:-1]]
            extra = [self.sub(f.ptypes[-1], d, s) for _ in range(self.small(0, 3))]
            args = " ".join(fixed + extra)
        else:
            args = " ".join(self.sub(pt, d, s) for pt in f.ptypes)
        return f"({f.name}{' ' + args if args else ''})"

    def p_lambda_app(self, d: int, s: Scope, t: str) -> str:
        n = self.small(0, 3)
        params = [self.fresh("a") for _ in range(n)]
        types = [self.pick(BINDABLE) for _ in params]
        inner = s.child(**dict(zip(params, types, strict=True)))
        args = "".join(" " + self.sub(pt, d, s) for pt in types)
        return f"((lambda ({' '.join(params)}) {self.sub(t, d, inner)}){args})"

    # -- numbers -------------------------------------------------------------------------------

    def p_arith(self, d: int, s: Scope, t: str) -> str:
        t = "int" if t == "int" else "num"
        op = self.pick(["+", "-", "*", "max", "min", "abs", "square"] +
                       (["gcd", "lcm"] if t == "int" else []))
        self.tag("prim:" + op)
        if op in ("abs", "square"):
            return f"({op} {self.sub(t, d, s)})"
        lo = 1 if op in ("max", "min", "-") else 0
        n = self.small(lo, 3)
        return f"({op}{''.join(' ' + self.sub(t, d, s) for _ in range(n))})"

    def p_divide(self, d: int, s: Scope, t: str) -> str:
        op = self.pick(["quotient", "remainder", "modulo", "floor-quotient", "truncate-remainder",
                        "floor-remainder", "truncate-quotient"])
        self.tag("prim:" + op)
        divisor = str(self.pick([-7, -3, -2, -1, 1, 2, 3, 5, 10])) if self.safe or self.chance(80) \
            else self.sub("int", d, s)
        # signs that differ are where the rounding rules of the six operators part ways
        dividend = self.sub("int", d, s) if self.chance(60) else str(-self.small(1, 30))
        return f"({op} {dividend} {divisor})"

    def p_num_op(self, d: int, s: Scope, t: str) -> str:
        op = self.pick(["/", "exact->inexact", "exact", "round", "floor", "ceiling", "truncate",
                        "*1.5", "expt", "inexact->exact"])
        x = self.sub("num", d, s)
        if op == "/":
            return f"(/ {x} {self.pick(['2', '3', '-4', '0.5', '7/3', '1e10'])})"
        if op == "*1.5":
            return f"(* {x} {self.pick(V.FLOATS) if self.on('floats') else '3/2'})"
        if op in ("exact", "inexact->exact"):
            return f"({op} {self.literal('num')})"
        if op == "expt":
            return f"(expt {self.pick(['2', '-3', '1/2', '1.5', '10'])} {self.small(-3, 8)})"
        return f"({op} {x})"

    def p_length(self, d: int, s: Scope, t: str) -> str:
        kind = self.pick(["length", "string-length", "vector-length", "char->integer",
                          "bytevector-length"])
        arg = {"length": "list", "string-length": "str", "vector-length": "vec",
               "char->integer": "char", "bytevector-length": "bytes"}[kind]
        return f"({kind} {self.arg(arg, d, s)})"

    # -- strings, chars, symbols ---------------------------------------------------------------

    def p_string(self, d: int, s: Scope, t: str) -> str:
        shape = self.pick(["append", "number", "symbol", "case", "substring", "list", "make",
                           "map", "copy", "vector"])
        if shape == "append":
            return "(string-append " + " ".join(self.sub("str", d, s)
                                               for _ in range(self.small(0, 3))) + ")"
        if shape == "number":
            if self.chance(30):
                return f"(number->string {self.sub('int', d, s)} {self.arg('radix', d, s)})"
            return f"(number->string {self.sub('num', d, s)})"
        if shape == "symbol":
            return f"(symbol->string {self.sub('sym', d, s)})"
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
        if shape == "copy":
            return f'(string-copy "abcdef" {self.small(0, 2)} {self.small(3, 6)})'
        if shape == "vector":
            return f"(vector->string (vector {self.sub('char', d, s)} {self.sub('char', d, s)}))"
        return f"(string-map {self.pick(['char-upcase', 'char-downcase', 'char-foldcase'])} " \
               f"{self.sub('str', d, s)})"

    def p_char(self, d: int, s: Scope, t: str) -> str:
        shape = self.pick(["ref", "up", "int"])
        if shape == "ref":
            return f'(string-ref "héllo" {self.small(0, 4)})'
        if shape == "up":
            return f"({self.pick(['char-upcase', 'char-downcase', 'char-foldcase'])} " \
                   f"{self.sub('char', d, s)})"
        return f"(integer->char {self.pick(['97', '955', '32', '65', '48', '0', '127', '223'])})"

    def p_symbol(self, d: int, s: Scope, t: str) -> str:
        return self.pick([f"(string->symbol {self.sub('str', d, s)})", self.pick(V.SYMBOLS),
                          f"(car '({self.pick(V.SYMBOLS)[1:]} x))"])

    def p_compare(self, d: int, s: Scope, t: str) -> str:
        kind = self.pick(["num", "num", "str", "char", "any", "sym", "bool"])
        n = self.small(2, 3)
        if kind == "num":
            op = self.pick(["<", "<=", "=", ">", ">="])
        elif kind == "str":
            op = self.pick(["string=?", "string<?", "string-ci=?", "string<=?", "string>?",
                            "string>=?", "string-ci<?", "string-ci>?", "string-ci<=?",
                            "string-ci>=?"])
        elif kind == "char":
            op = self.pick(["char=?", "char<?", "char-ci=?", "char<=?", "char>?", "char>=?",
                            "char-ci<?", "char-ci>?", "char-ci<=?", "char-ci>=?"])
        elif kind == "sym":
            op = "symbol=?"
        elif kind == "bool":
            op = "boolean=?"
        else:
            op, n = self.pick(["equal?", "eqv?", "eq?", "==", "!="]), 2
        self.tag("prim:" + op)
        return f"({op}{''.join(' ' + self.sub(kind, d, s) for _ in range(n))})"

    def p_pred(self, d: int, s: Scope, t: str) -> str:
        pred = self.pick(["null?", "pair?", "list?", "number?", "string?", "symbol?", "boolean?",
                          "integer?", "exact?", "zero?", "even?", "odd?", "procedure?",
                          "vector?", "char?", "real?", "complex?", "rational?", "inexact?",
                          "exact-integer?", "positive?", "negative?", "empty?", "bytevector?",
                          "error-object?", "char-lower-case?", "char-upper-case?",
                          "char-alphabetic?", "char-numeric?", "char-whitespace?"])
        arg = {"zero?": "num", "even?": "int", "odd?": "int", "exact?": "num",
               "inexact?": "num", "positive?": "num", "negative?": "num"}.get(pred, "any")
        if pred.startswith("char-"):
            arg = "char"
        self.tag("prim:" + pred)
        return f"({pred} {self.sub(arg, d, s)})"

    def p_logic(self, d: int, s: Scope, t: str) -> str:
        op = self.pick(["and", "or", "not", "any?", "all?"])
        if op == "not":
            return f"(not {self.sub('bool', d, s)})"
        if op in ("any?", "all?"):
            x = self.fresh("x")
            body = self.sub("bool", d, s.child(**{x: "int"}))
            items = " ".join(self.sub("int", d, s) for _ in range(self.small(0, 3)))
            return f"({op} (lambda ({x}) {body}) (list {items}))"
        return f"({op} {' '.join(self.sub('bool', d, s) for _ in range(self.small(0, 3)))})"

    # -- lists and vectors -------------------------------------------------------------------

    def p_list(self, d: int, s: Scope, t: str) -> str:
        shape = self.pick(["list", "cons", "append", "reverse", "tail", "cdr", "copy", "make",
                           "string->list", "vector->list", "cddr", "improper", "rest"])
        if shape == "list":
            return "(list" + "".join(" " + self.sub("any", d, s)
                                     for _ in range(self.small(0, 4))) + ")"
        if shape == "cons":
            return f"(cons {self.sub('any', d, s)} {self.sub('list', d, s)})"
        if shape == "append":
            return "(append" + "".join(" " + self.sub("list", d, s)
                                       for _ in range(self.small(0, 3))) + ")"
        if shape == "reverse":
            return f"(reverse {self.sub('list', d, s)})"
        if shape == "tail":
            n = self.small(0, 4)
            items = " ".join(self.sub("any", d, s) for _ in range(n))
            return f"(list-tail (list {items}) {self.small(0, n)})"
        if shape in ("cdr", "rest"):
            return f"({shape} (list {self.sub('any', d, s)} {self.sub('any', d, s)}))"
        if shape == "cddr":
            return f"(cddr (list 1 2 {self.sub('any', d, s)}))"
        if shape == "copy":
            return f"(list-copy {self.sub('list', d, s)})"
        if shape == "make":
            return f"(make-list {self.small(0, 3)} {self.sub('any', d, s)})"
        if shape == "string->list":
            return f"(string->list {self.sub('str', d, s)})"
        if shape == "vector->list":
            return f"(vector->list {self.sub('vec', d, s)})"
        self.tag("shape:improper")
        return f"(cons {self.sub('any', d, s)} (cons {self.sub('any', d, s)} " \
               f"{self.sub(self.pick(['int', 'str', 'sym']), d, s)}))"

    def p_member(self, d: int, s: Scope, t: str) -> str:
        """member/memq/assoc results: a tail of the list or #f; an `any` at heart, so it is
        wrapped to stay a list."""
        op = self.pick(["member", "memv", "memq", "assoc", "assv", "assq"])
        self.tag("prim:" + op)
        if op.startswith("mem"):
            key = self.sub(self.pick(["int", "str", "sym"]), d, s)
            call = f"({op} {key} (list 1 \"a\" 'b 2.5 {self.sub('any', d, s)} 3))"
        else:
            key = self.sub(self.pick(["int", "str", "sym"]), d, s)
            call = f"({op} {key} '((1 . one) (\"a\" 2) (b c) (2.5 . r) (3)))"
        if t == "list":
            r = self.fresh("m")
            return f"(let (({r} {call})) (if {r} {r} '()))"
        return call

    def p_map(self, d: int, s: Scope, t: str) -> str:
        x = self.fresh("x")
        inner = s.child(**{x: "int"})
        items = " ".join(self.sub("int", d, s) for _ in range(self.small(0, 4)))
        if self.on("vectors") and self.chance(30):
            return f"(vector->list (vector-map (lambda ({x}) {self.sub('any', d, inner)}) " \
                   f"(vector {items})))"
        return f"(map (lambda ({x}) {self.sub('any', d, inner)}) (list {items}))"

    def p_filter(self, d: int, s: Scope, t: str) -> str:
        x = self.fresh("x")
        inner = s.child(**{x: "int"})
        items = " ".join(self.sub("int", d, s) for _ in range(self.small(0, 4)))
        return f"(filter (lambda ({x}) {self.test(d, inner)}) (list {items}))"

    def p_fold(self, d: int, s: Scope, t: str) -> str:
        fold = self.pick(["fold-left", "fold-right", "reduce"])
        items = " ".join(self.sub("int", d, s) for _ in range(self.small(0, 4)))
        if self.chance(40):
            a, b = self.fresh("a"), self.fresh("b")
            body = self.sub("int", d, s.child(**{a: "int", b: "int"}))
            op = f"(lambda ({a} {b}) (+ {a} {body} (* 2 {b})))"
        else:
            op = self.pick(["+", "*", "max", "-", "min"])
        init = self.sub("int", d, s)
        return f"({fold} {op} {init} (list {items}))"

    def p_quasi(self, d: int, s: Scope, t: str) -> str:
        return (f"`(q {self.quoted_atom()} ,{self.sub('any', d, s)} "
                f",@{self.sub('list', d, s)} #(v ,{self.sub('int', d, s)}))")

    def p_vector(self, d: int, s: Scope, t: str) -> str:
        shape = self.pick(["vector", "make", "from-list", "map", "copy", "string"])
        if shape == "vector":
            return "(vector" + "".join(" " + self.sub("any", d, s)
                                       for _ in range(self.small(0, 3))) + ")"
        if shape == "make":
            return f"(make-vector {self.small(0, 3)} {self.sub('any', d, s)})"
        if shape == "from-list":
            return f"(list->vector {self.sub('list', d, s)})"
        if shape == "copy":
            return f"(vector-copy {self.sub('vec', d, s)})"
        if shape == "string":
            return f"(string->vector {self.sub('str', d, s)})"
        x = self.fresh("x")
        return f"(vector-map (lambda ({x}) (list {x})) {self.sub('vec', d, s)})"


def _fn(name, params, ptypes, ret):
    from .generate import Fn

    return Fn(name, params, ptypes, ret)
