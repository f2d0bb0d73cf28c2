"""Producers of the core and derived forms and of data: if, let/let*/letrec with several
bindings, cond, case, when/unless, begin, primitive calls, arithmetic, strings, lists, vectors,
characters.

Each producer takes (context, depth, scope, wanted type) and returns source text of that type.
Tests of `if`/`cond`/`when` are often non-boolean values (only #f is false). The order of the
producers in this file is their draw order (registry.py)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import values as V
from .context import Fn
from .pieces import arg, test
from .registry import expression
from .signatures import SIGNATURES

if TYPE_CHECKING:
    from .context import Context as G
    from .context import Scope

BINDABLE = ("int", "str", "list", "num", "any", "bool", "char")


# -- every type ---------------------------------------------------------------------------


@expression("if", {"*": 1.0})
def p_if(g: G, d: int, s: Scope, t: str) -> str:
    return f"(if {test(g, d, s)} {g.sub(t, d, s)} {g.sub(t, d, s)})"


def binder(g: G, s: Scope) -> str:
    """A fresh name, or sometimes one already in scope, so that shadowing is exercised."""
    if s.vars and g.chance(20):
        g.tag("shape:shadowing")
        return g.pick(sorted(s.vars))
    return g.fresh()


@expression("let", {"*": 1.0})
def p_let(g: G, d: int, s: Scope, t: str) -> str:
    form = g.pick(["let", "let", "let*", "letrec"])
    n = g.small(1, 3)
    names: list[str] = []
    binds = []
    inner = s.child()
    for _ in range(n):
        name = binder(g, s)
        if form == "let*" and names and g.chance(25):
            # let* may bind a name again: each binding opens a scope of its own
            name = names[-1]
            g.tag("shape:let*-rebind")
        else:
            while name in names:
                name = g.fresh()
        vt = g.pick(BINDABLE)
        # let: inits see the outer scope; let*: the earlier bindings too; letrec: lambdas
        init_scope = inner if form == "let*" else s
        if form == "letrec" and g.chance(50):
            p = g.fresh("p")
            body = g.sub(vt, d, init_scope.child(**{p: "int"}))
            binds.append(f"({name} (lambda ({p}) {body}))")
            inner.fns[name] = Fn(name, [p], ["int"], vt)
            inner.vars.pop(name, None)
        else:
            if form == "letrec":
                init_scope = s  # letrec inits must not read later slots (E321)
            binds.append(f"({name} {g.sub(vt, d, init_scope)})")
            inner.vars[name] = vt
            inner.fns.pop(name, None)
        names.append(name)
    g.tag(f"form:{form}" + ("-multi" if n > 1 else ""))
    body = g.sub(t, d, inner)
    if g.chance(25):
        body = f"(display {g.sub('any', d, inner)}) {body}"
    return f"({form} ({' '.join(binds)}) {body})"


@expression("call_user", {"*": 1.0})
def p_call_user(g: G, d: int, s: Scope, t: str) -> str:
    fns = [f for f in s.fns.values() if f.ret == t or t == "any" or
           (t == "num" and f.ret == "int")]
    if not fns:
        return g.leaf(t, s)
    f = g.pick(fns)
    if f.rest:
        fixed = [g.sub(pt, d, s) for pt in f.ptypes[:-1]]
        extra = [g.sub(f.ptypes[-1], d, s) for _ in range(g.small(0, 3))]
        args = " ".join(fixed + extra)
    else:
        args = " ".join(g.sub(pt, d, s) for pt in f.ptypes)
    return f"({f.name}{' ' + args if args else ''})"


@expression("prim", {"*": 2.0})
def p_prim(g: G, d: int, s: Scope, t: str) -> str:
    """A call of a primitive from the signature table whose result fits the wanted type.
    For `any`, every primitive fits, including those whose result is `any` (car, member,
    vector-ref, list-ref...)."""
    fits = [sig for sig in SIGNATURES if t == "any" or sig[2] == t or
            (t == "num" and sig[2] == "int")]
    if not fits:
        return g.leaf(t, s)
    if g.focus in fits and g.chance(50):
        name, args, _ = g.focus
    else:
        name, args, _ = g.weighted(fits, [g.steer.primitives.get(f[0], 1.0)
                                          for f in fits])
    g.tag("prim:" + name)
    return f"({name}{''.join(' ' + arg(g, a, d, s) for a in args)})"


@expression("extract", {"*": 1.0})
def p_extract(g: G, d: int, s: Scope, t: str) -> str:
    """An element of the wanted type taken out of a container, so that car, cadr, list-ref,
    vector-ref, ... are drawn for every wanted type."""
    n = g.small(1, 4)
    items = [g.sub(t, d, s) for _ in range(n)]
    k = g.small(0, n - 1)
    how = g.pick(["car", "first", "list-ref", "nth", "vector-ref", "cadr", "caddr",
                  "assq", "list-tail", "apply"])
    g.tag("prim:" + how)
    if how in ("car", "first"):
        return f"({how} (list {' '.join(items)}))"
    if how in ("list-ref", "nth"):
        return f"({how} (list {' '.join(items)}) {k})"
    if how == "vector-ref":
        return f"(vector-ref (vector {' '.join(items)}) {k})"
    if how == "cadr":
        return f"(cadr (list {g.literal('int')} {items[0]}))"
    if how == "caddr":
        return f"(caddr (cons 1 (cons 2 (list {items[0]}))))"
    if how == "assq":
        return f"(cadr (assq 'k{k} (list {' '.join(f'(list {chr(39)}k{i} {x})' for i, x in enumerate(items))})))"
    if how == "list-tail":
        return f"(car (list-tail (list {' '.join(items)}) {k}))"
    return f"(apply (lambda xs (list-ref xs {k})) (list {' '.join(items)}))"


@expression("cond", {"*": 0.6})
def p_cond(g: G, d: int, s: Scope, t: str) -> str:
    clauses = []
    for _ in range(g.small(1, 3)):
        if t in ("bool", "any") and g.chance(20):
            # a test-only clause yields the test's value: for `any`, often not a boolean
            only = g.sub("bool", d, s) if t == "bool" else test(g, d, s)
            clauses.append(f"({only})")
        else:
            body = " ".join(g.sub(t, d, s) for _ in range(g.small(1, 2)))
            clauses.append(f"({test(g, d, s)} {body})")
    clauses.append(f"(else {g.sub(t, d, s)})")
    return f"(cond {' '.join(clauses)})"


@expression("begin", {"*": 0.4})
def p_begin(g: G, d: int, s: Scope, t: str) -> str:
    effects = []
    for _ in range(g.small(1, 2)):
        effects.append(g.pick([f"(display {g.sub('any', d, s)})",
                               f"(write {g.sub('any', d, s)})",
                               g.sub("any", d, s)]))
    return f"(begin {' '.join(effects)} {g.sub(t, d, s)})"


@expression("lambda_app", {"*": 0.5})
def p_lambda_app(g: G, d: int, s: Scope, t: str) -> str:
    n = g.small(0, 3)
    params = [g.fresh("a") for _ in range(n)]
    types = [g.pick(BINDABLE) for _ in params]
    inner = s.child(**dict(zip(params, types, strict=True)))
    args = "".join(" " + g.sub(pt, d, s) for pt in types)
    return f"((lambda ({' '.join(params)}) {g.sub(t, d, inner)}){args})"


# -- integers and numbers -----------------------------------------------------------------


@expression("arith", {"int": 2.0, "num": 1.5})
def p_arith(g: G, d: int, s: Scope, t: str) -> str:
    t = "int" if t == "int" else "num"
    op = g.pick(["+", "-", "*", "max", "min", "abs", "square"] +
                (["gcd", "lcm"] if t == "int" else []))
    g.tag("prim:" + op)
    if op in ("abs", "square"):
        return f"({op} {g.sub(t, d, s)})"
    lo = 1 if op in ("max", "min", "-") else 0
    n = g.small(lo, 3)
    return f"({op}{''.join(' ' + g.sub(t, d, s) for _ in range(n))})"


@expression("divide", {"int": 1.0})
def p_divide(g: G, d: int, s: Scope, t: str) -> str:
    op = g.pick(["quotient", "remainder", "modulo", "floor-quotient", "truncate-remainder",
                 "floor-remainder", "truncate-quotient"])
    g.tag("prim:" + op)
    divisor = str(g.pick([-7, -3, -2, -1, 1, 2, 3, 5, 10])) if g.safe or g.chance(80) \
        else g.sub("int", d, s)
    # signs that differ are where the rounding rules of the six operators part ways
    dividend = g.sub("int", d, s) if g.chance(60) else str(-g.small(1, 30))
    return f"({op} {dividend} {divisor})"


@expression("length", {"int": 1.0})
def p_length(g: G, d: int, s: Scope, t: str) -> str:
    kind = g.pick(["length", "string-length", "vector-length", "char->integer",
                   "bytevector-length"])
    wanted = {"length": "list", "string-length": "str", "vector-length": "vec",
              "char->integer": "char", "bytevector-length": "bytes"}[kind]
    return f"({kind} {arg(g, wanted, d, s)})"


@expression("case", {"int": 0.6})
def p_case(g: G, d: int, s: Scope, t: str) -> str:
    if g.chance(15):
        # data that eqv? never matches although equal? would: strings, lists, vectors
        key = g.pick(['"s"', "(list 1 2)", "(string #\\a)", "(vector 1)", "'(a)"])
        g.tag("shape:case-uncomparable-data")
        return (f"(case {key} ((\"s\" (1 2) \"a\" #(1) (a)) {g.sub(t, d, s)}) "
                f"(else {g.sub(t, d, s)}))")
    kind = g.pick(["int", "sym", "char"])
    key = g.sub(kind, d, s)
    pools = {"int": [str(i) for i in range(-2, 8)],
             "sym": ["a", "b", "deny", "allow", "x->y"],
             "char": ["#\\a", "#\\Z", "#\\space", "#\\0"]}
    clauses = []
    for _ in range(g.small(1, 3)):
        data = {g.pick(pools[kind]) for _ in range(g.small(1, 3))}
        clauses.append(f"(({' '.join(sorted(data))}) {g.sub(t, d, s)})")
    return f"(case {key} {' '.join(clauses)} (else {g.sub(t, d, s)}))"


@expression("when", {"int": 0.4})
def p_when(g: G, d: int, s: Scope, t: str) -> str:
    """when/unless as statements (their false arm is zero values), around a mutable
    result."""
    r = g.fresh("r")
    inner = s.child(**{r: t})
    form = g.pick(["when", "unless"])
    body = " ".join(f"(set! {r} {g.sub(t, d, inner)})" for _ in range(g.small(1, 2)))
    out = f"(let (({r} {g.sub(t, d, s)})) ({form} {test(g, d, inner)} {body})"
    if g.on("output") and g.chance(40):
        out += f" ({g.pick(['when', 'unless'])} {test(g, d, inner)} (display {r}))"
    return out + f" {r})"


@expression("num_op", {"num": 1.0})
def p_num_op(g: G, d: int, s: Scope, t: str) -> str:
    op = g.pick(["/", "exact->inexact", "exact", "round", "floor", "ceiling", "truncate",
                 "*1.5", "expt", "inexact->exact"])
    x = g.sub("num", d, s)
    if op == "/":
        return f"(/ {x} {g.pick(['2', '3', '-4', '0.5', '7/3', '1e10'])})"
    if op == "*1.5":
        return f"(* {x} {g.pick(V.FLOATS) if g.on('floats') else '3/2'})"
    if op in ("exact", "inexact->exact"):
        return f"({op} {g.literal('num')})"
    if op == "expt":
        return f"(expt {g.pick(['2', '-3', '1/2', '1.5', '10'])} {g.small(-3, 8)})"
    return f"({op} {x})"


@expression("fold", {"int": 0.7, "num": 0.5}, needs=("hof",))
def p_fold(g: G, d: int, s: Scope, t: str) -> str:
    fold = g.pick(["fold-left", "fold-right", "reduce"])
    items = " ".join(g.sub("int", d, s) for _ in range(g.small(0, 4)))
    if g.chance(40):
        a, b = g.fresh("a"), g.fresh("b")
        body = g.sub("int", d, s.child(**{a: "int", b: "int"}))
        op = f"(lambda ({a} {b}) (+ {a} {body} (* 2 {b})))"
    else:
        op = g.pick(["+", "*", "max", "-", "min"])
    init = g.sub("int", d, s)
    return f"({fold} {op} {init} (list {items}))"


# -- strings, chars, symbols --------------------------------------------------------------


@expression("string", {"str": 2.0})
def p_string(g: G, d: int, s: Scope, t: str) -> str:
    shape = g.pick(["append", "number", "symbol", "case", "substring", "list", "make",
                    "map", "copy", "vector"])
    if shape == "append":
        return "(string-append " + " ".join(g.sub("str", d, s)
                                           for _ in range(g.small(0, 3))) + ")"
    if shape == "number":
        if g.chance(30):
            return f"(number->string {g.sub('int', d, s)} {arg(g, 'radix', d, s)})"
        return f"(number->string {g.sub('num', d, s)})"
    if shape == "symbol":
        return f"(symbol->string {g.sub('sym', d, s)})"
    if shape == "case":
        return f"({g.pick(['string-upcase', 'string-downcase', 'string-foldcase'])} " \
               f"{g.sub('str', d, s)})"
    if shape == "substring":
        a = g.small(0, 2)
        return f'(substring "hello world" {a} {a + g.small(0, 5)})'
    if shape == "list":
        return f"(list->string (list {g.sub('char', d, s)} {g.sub('char', d, s)}))"
    if shape == "make":
        return f"(make-string {g.small(0, 4)} {g.sub('char', d, s)})"
    if shape == "copy":
        return f'(string-copy "abcdef" {g.small(0, 2)} {g.small(3, 6)})'
    if shape == "vector":
        return f"(vector->string (vector {g.sub('char', d, s)} {g.sub('char', d, s)}))"
    return f"(string-map {g.pick(['char-upcase', 'char-downcase', 'char-foldcase'])} " \
           f"{g.sub('str', d, s)})"


@expression("char", {"char": 2.0})
def p_char(g: G, d: int, s: Scope, t: str) -> str:
    shape = g.pick(["ref", "up", "int"])
    if shape == "ref":
        return f'(string-ref "héllo" {g.small(0, 4)})'
    if shape == "up":
        return f"({g.pick(['char-upcase', 'char-downcase', 'char-foldcase'])} " \
               f"{g.sub('char', d, s)})"
    return f"(integer->char {g.pick(['97', '955', '32', '65', '48', '0', '127', '223'])})"


@expression("symbol", {"sym": 1.0})
def p_symbol(g: G, d: int, s: Scope, t: str) -> str:
    return g.pick([f"(string->symbol {g.sub('str', d, s)})", g.pick(V.SYMBOLS),
                   f"(car '({g.pick(V.SYMBOLS)[1:]} x))"])


# -- booleans -----------------------------------------------------------------------------


@expression("compare", {"bool": 1.0})
def p_compare(g: G, d: int, s: Scope, t: str) -> str:
    kind = g.pick(["num", "num", "str", "char", "any", "sym", "bool"])
    n = g.small(2, 3)
    if kind == "num":
        op = g.pick(["<", "<=", "=", ">", ">="])
    elif kind == "str":
        op = g.pick(["string=?", "string<?", "string-ci=?", "string<=?", "string>?",
                     "string>=?", "string-ci<?", "string-ci>?", "string-ci<=?",
                     "string-ci>=?"])
    elif kind == "char":
        op = g.pick(["char=?", "char<?", "char-ci=?", "char<=?", "char>?", "char>=?",
                     "char-ci<?", "char-ci>?", "char-ci<=?", "char-ci>=?"])
    elif kind == "sym":
        op = "symbol=?"
    elif kind == "bool":
        op = "boolean=?"
    else:
        op, n = g.pick(["equal?", "eqv?", "eq?", "==", "!="]), 2
    g.tag("prim:" + op)
    return f"({op}{''.join(' ' + g.sub(kind, d, s) for _ in range(n))})"


@expression("pred", {"bool": 1.0})
def p_pred(g: G, d: int, s: Scope, t: str) -> str:
    pred = g.pick(["null?", "pair?", "list?", "number?", "string?", "symbol?", "boolean?",
                   "integer?", "exact?", "zero?", "even?", "odd?", "procedure?",
                   "vector?", "char?", "real?", "complex?", "rational?", "inexact?",
                   "exact-integer?", "positive?", "negative?", "empty?", "bytevector?",
                   "error-object?", "char-lower-case?", "char-upper-case?",
                   "char-alphabetic?", "char-numeric?", "char-whitespace?"])
    wanted = {"zero?": "num", "even?": "int", "odd?": "int", "exact?": "num",
              "inexact?": "num", "positive?": "num", "negative?": "num"}.get(pred, "any")
    if pred.startswith("char-"):
        wanted = "char"
    g.tag("prim:" + pred)
    return f"({pred} {g.sub(wanted, d, s)})"


@expression("logic", {"bool": 1.0})
def p_logic(g: G, d: int, s: Scope, t: str) -> str:
    op = g.pick(["and", "or", "not", "any?", "all?"])
    if op == "not":
        return f"(not {g.sub('bool', d, s)})"
    if op in ("any?", "all?"):
        x = g.fresh("x")
        body = g.sub("bool", d, s.child(**{x: "int"}))
        items = " ".join(g.sub("int", d, s) for _ in range(g.small(0, 3)))
        return f"({op} (lambda ({x}) {body}) (list {items}))"
    return f"({op} {' '.join(g.sub('bool', d, s) for _ in range(g.small(0, 3)))})"


# -- lists and vectors --------------------------------------------------------------------


@expression("list", {"list": 2.0})
def p_list(g: G, d: int, s: Scope, t: str) -> str:
    shape = g.pick(["list", "cons", "append", "reverse", "tail", "cdr", "copy", "make",
                    "string->list", "vector->list", "cddr", "improper", "rest"])
    if shape == "list":
        return "(list" + "".join(" " + g.sub("any", d, s)
                                 for _ in range(g.small(0, 4))) + ")"
    if shape == "cons":
        return f"(cons {g.sub('any', d, s)} {g.sub('list', d, s)})"
    if shape == "append":
        return "(append" + "".join(" " + g.sub("list", d, s)
                                   for _ in range(g.small(0, 3))) + ")"
    if shape == "reverse":
        return f"(reverse {g.sub('list', d, s)})"
    if shape == "tail":
        n = g.small(0, 4)
        items = " ".join(g.sub("any", d, s) for _ in range(n))
        return f"(list-tail (list {items}) {g.small(0, n)})"
    if shape in ("cdr", "rest"):
        return f"({shape} (list {g.sub('any', d, s)} {g.sub('any', d, s)}))"
    if shape == "cddr":
        return f"(cddr (list 1 2 {g.sub('any', d, s)}))"
    if shape == "copy":
        return f"(list-copy {g.sub('list', d, s)})"
    if shape == "make":
        return f"(make-list {g.small(0, 3)} {g.sub('any', d, s)})"
    if shape == "string->list":
        return f"(string->list {g.sub('str', d, s)})"
    if shape == "vector->list":
        return f"(vector->list {g.sub('vec', d, s)})"
    g.tag("shape:improper")
    return f"(cons {g.sub('any', d, s)} (cons {g.sub('any', d, s)} " \
           f"{g.sub(g.pick(['int', 'str', 'sym']), d, s)}))"


@expression("quasi", {"list": 0.5})
def p_quasi(g: G, d: int, s: Scope, t: str) -> str:
    return (f"`(q {g.quoted_atom()} ,{g.sub('any', d, s)} "
            f",@{g.sub('list', d, s)} #(v ,{g.sub('int', d, s)}))")


@expression("member", {"list": 0.6, "any": 0.6})
def p_member(g: G, d: int, s: Scope, t: str) -> str:
    """member/memq/assoc results: a tail of the list or #f; an `any` at heart, so it is
    wrapped to stay a list."""
    op = g.pick(["member", "memv", "memq", "assoc", "assv", "assq"])
    g.tag("prim:" + op)
    if op.startswith("mem"):
        key = g.sub(g.pick(["int", "str", "sym"]), d, s)
        call = f"({op} {key} (list 1 \"a\" 'b 2.5 {g.sub('any', d, s)} 3))"
    else:
        key = g.sub(g.pick(["int", "str", "sym"]), d, s)
        call = f"({op} {key} '((1 . one) (\"a\" 2) (b c) (2.5 . r) (3)))"
    if t == "list":
        r = g.fresh("m")
        return f"(let (({r} {call})) (if {r} {r} '()))"
    return call


@expression("map", {"list": 0.7}, needs=("hof",))
def p_map(g: G, d: int, s: Scope, t: str) -> str:
    x = g.fresh("x")
    inner = s.child(**{x: "int"})
    items = " ".join(g.sub("int", d, s) for _ in range(g.small(0, 4)))
    if g.on("vectors") and g.chance(30):
        return f"(vector->list (vector-map (lambda ({x}) {g.sub('any', d, inner)}) " \
               f"(vector {items})))"
    return f"(map (lambda ({x}) {g.sub('any', d, inner)}) (list {items}))"


@expression("filter", {"list": 0.5}, needs=("hof",))
def p_filter(g: G, d: int, s: Scope, t: str) -> str:
    x = g.fresh("x")
    inner = s.child(**{x: "int"})
    items = " ".join(g.sub("int", d, s) for _ in range(g.small(0, 4)))
    return f"(filter (lambda ({x}) {test(g, d, inner)}) (list {items}))"


@expression("vector", {"vec": 2.0})
def p_vector(g: G, d: int, s: Scope, t: str) -> str:
    shape = g.pick(["vector", "make", "from-list", "map", "copy", "string"])
    if shape == "vector":
        return "(vector" + "".join(" " + g.sub("any", d, s)
                                   for _ in range(g.small(0, 3))) + ")"
    if shape == "make":
        return f"(make-vector {g.small(0, 3)} {g.sub('any', d, s)})"
    if shape == "from-list":
        return f"(list->vector {g.sub('list', d, s)})"
    if shape == "copy":
        return f"(vector-copy {g.sub('vec', d, s)})"
    if shape == "string":
        return f"(string->vector {g.sub('str', d, s)})"
    x = g.fresh("x")
    return f"(vector-map (lambda ({x}) (list {x})) {g.sub('vec', d, s)})"
