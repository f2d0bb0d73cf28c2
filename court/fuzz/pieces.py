"""Pieces of expressions that producers of several families share: a test for a conditional,
something to raise, a call guarded so that its condition comes back as a value, and an argument
of each kind the signature table names. Each takes the generation context first."""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import values as V

if TYPE_CHECKING:
    from .context import Context as G
    from .context import Scope

# A pair tree four levels deep: every c[ad]{2,4}r is defined on it.
DEEP = ("'((((1 . 2) . (3 . 4)) . ((5 . 6) . (7 . 8))) . "
        "(((9 . 10) . (11 . 12)) . ((13 . 14) . (15 . 16))))")


def test(g: G, d: int, s: Scope) -> str:
    """A test for if/cond/when: a boolean, or any value at all (only #f is false)."""
    r = g.rng.randrange(100)
    if r < 55:
        return g.sub("bool", d, s)
    g.tag("shape:nonboolean-test")
    if r < 80:
        return g.sub("any", d, s)
    return g.pick([f"(member {g.sub('int', d, s)} '(1 2 3))",
                   f"(assv {g.sub('int', d, s)} '((0 . a) (1 . b)))",
                   f"(memq {g.pick(V.SYMBOLS)} '(a b deny))",
                   "0", "'()", '""', "(vector)", f"(string->number {g.sub('str', d, s)})"])


def raised(g: G, d: int, s: Scope) -> str:
    """Something to raise: a symbol, a number, a list, a string, or an error object."""
    return g.pick([g.pick(V.SYMBOLS), g.sub("int", d, s),
                   f"(list {g.pick(V.SYMBOLS)} {g.sub('int', d, s)})",
                   g.pick(V.STRINGS)])


def caught(g: G, call: str) -> str:
    e = g.fresh("e")
    return (f"(guard ({e} ((error-object? {e}) (list 'fault (error-object-message {e}) "
            f"(error-object-irritants {e}))) (#t (list 'raised {e}))) {call})")


# Arguments of the signature table's kinds drawn from a fixed list, or fixed.
PICKED = {
    "nz": ["-7", "-3", "-2", "-1", "1", "2", "3", "5", "10"],
    "charproc": ["char-upcase", "char-downcase", "(lambda (c) c)",
                 "(lambda (c) (if (char-alphabetic? c) #\\* c))"],
    "pred1": ["number?", "symbol?", "(lambda (x) (equal? x 1))", "pair?", "(lambda (x) x)",
              "string?"],
    "proc2": ["cons", "list", "(lambda (a b) (list b a))", "eqv?", "(lambda (a b) a)"],
    "proc1": ["car", "abs", "(lambda (x) x)", "list", "number?", "not"],
    "radix": ["2", "8", "10", "16"],
}
FIXED = {"alist": "'((a 1) (b . 2) (3 c) (\"k\" v) (2.5 r))", "hello": '"héllo"'}
# Arguments of the kinds made of drawn expressions.
BUILT = {
    "list1": lambda g, d, s: f"(list {g.sub('any', d, s)})",
    "errobj": lambda g, d, s: f"(guard (e (#t e)) (error {g.pick(V.STRINGS)} {g.sub('any', d, s)}))",
    "escaper": lambda g, d, s: (lambda k: f"(lambda ({k}) ({k} {g.sub('any', d, s)}))")(g.fresh("k")),
    "thunk": lambda g, d, s: f"(lambda () {g.sub('any', d, s)})",
    "vec3": lambda g, d, s: "(vector" + "".join(" " + g.sub("any", d, s) for _ in range(3)) + ")",
    "chars": lambda g, d, s: f"(list {g.sub('char', d, s)} {g.sub('char', d, s)})",
    "charvec": lambda g, d, s: f"(vector {g.sub('char', d, s)})",
    "bytes": lambda g, d, s: f"(bytevector {g.small(0, 255)} {g.small(0, 255)})",
    "deep": lambda g, d, s: g.pick([
        DEEP, "(quote " + DEEP[1:] + ")",
        f"(cons (cons (cons (cons {g.sub('any', d, s)} 1) (cons 2 3)) "
        f"(cons (cons 4 5) (cons 6 7))) (cons (cons (cons 8 9) (cons 10 11)) "
        f"(cons (cons 12 13) (cons 14 15))))"]),
}


def arg(g: G, a: str, d: int, s: Scope) -> str:
    """An argument of kind ``a``: a type, or one of the kinds the signature table names (an
    index below a bound, a non-zero divisor, a non-empty list, a procedure of some arity...)."""
    if a in PICKED:
        return g.pick(PICKED[a])
    if a in FIXED:
        return FIXED[a]
    if a in BUILT:
        return BUILT[a](g, d, s)
    if a.startswith("idx:"):
        bound = int(a[4:])
        if not g.safe and g.chance(10):  # just outside the domain: a fault to compare
            g.tag("edge:index-arg")
            return str(g.pick([-1, bound, bound + 1]))
        return str(g.small(0, bound - 1))
    if a.startswith("nelist"):
        n = int(a[6:] or 1)
        return "(list" + "".join(" " + g.sub("any", d, s)
                                 for _ in range(n + g.small(0, 2))) + ")"
    return g.sub(a, d, s)
