"""Producers of what only a program's effects show: the order in which the library primitives
call the program's procedures (each back end writes map, the folds and the rest itself, and a
loop run back to front, or past the first true answer of any?, returns the same pure result), and
structures that contain themselves, which the printers must label (#0=) with each element still
printed by display's or write's rules."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .registry import edge_family

if TYPE_CHECKING:
    from .context import Context as G
    from .context import Scope

# A library primitive calling a procedure: its name, the procedure's parameters, what the
# procedure returns (over its parameters), and the arguments after the procedure ({c} is the
# collection).
CALLERS = [
    ("map", "x", "(* x 2)", "{c}"), ("for-each", "x", "x", "{c}"),
    ("filter", "x", "(odd? x)", "{c}"), ("any?", "x", "(> x 1)", "{c}"),
    ("all?", "x", "(< x 2)", "{c}"), ("fold-left", "a x", "(- a x)", "0 {c}"),
    ("fold-right", "x a", "(- x a)", "0 {c}"), ("reduce", "a x", "(+ a x)", "0 {c}"),
    ("vector-map", "x", "(- x)", "(list->vector {c})"),
    ("vector-for-each", "x", "x", "(list->vector {c})"),
    ("string-map", "x", "(char-upcase x)", "{s}"), ("string-for-each", "x", "x", "{s}"),
]
LISTS = ["'(1 2 3)", "'(3 1 2 4)", "'()", "'(1)", "(list 2 1)", "'(1 2 3 4 5)"]
STRINGS = ['"abc"', '""', '"héllo"', '"a"']

# Elements printed differently by display and write, for the cyclic structures.
PRINTED = ['"a b"', "#\\c", "#\\space", '"q\\n"', "'sym", "1.5", '""', "#\\x7f", "'()",
           '(list "in" #\\z)']
CYCLES = [
    # a vector that holds itself
    "(let (({v} (vector {a} {b} 0))) (vector-set! {v} 2 {v}) {use})",
    # two vectors that hold each other
    "(let (({v} (vector {a} 0)) ({w} (vector {b} 0))) (vector-set! {v} 1 {w}) "
    "(vector-set! {w} 1 {v}) {use})",
    # a vector held through a list it holds
    "(let (({v} (make-vector 2 {a}))) (vector-set! {v} 1 (list {v} {b})) {use})",
    # a list whose tail a vector in it holds: the label falls on a pair inside the list, where
    # the walk along its cdrs must stop and write ` . #0=(`
    "(let (({w} (vector {a} 0))) (let (({v} (list 'start {b} {w}))) "
    "(vector-set! {w} 1 (cdr {v})) {use}))",
    # a list that a vector in it holds whole
    "(let (({w} (vector {a} 0))) (let (({v} (list {b} {w} 'end))) (vector-set! {w} 1 {v}) {use}))",
    # shared, not cyclic: no label is due
    "(let (({v} (vector {a} {b}))) (let (({w} (list {v} {v}))) (set! {v} {w}) {use}))",
]
USES = ["(begin (display {v}) (newline) (write {v}) {v})", "(begin (display (list {v} {a})) {v})",
        "(begin (write (vector {v} {b})) (vector-length {v}))", "(list {v} {a})",
        "(begin (display {v}) 'done)"]


@edge_family("order", slots=(45, 46), faults_now_and_then=True, gives_no_value=True)
def edge_order(g: G, d: int, s: Scope) -> str:
    """A library primitive whose procedure logs each call, in a local (set!) or on the
    output (display): the result and the log of the calls, in order."""
    name, params, result, rest = g.pick(CALLERS)
    args = rest.format(c=g.pick(LISTS), s=g.pick(STRINGS))
    g.tag("prim:" + name)
    seen = params.split()
    record = seen[0] if len(seen) == 1 else f"(list {' '.join(seen)})"
    if g.chance(40):
        proc = f"(lambda ({params}) (display {record}) {result})"
        return f"({name} {proc} {args})"
    log, r = g.fresh("log"), g.fresh("r")
    proc = f"(lambda ({params}) (set! {log} (cons {record} {log})) {result})"
    return (f"(let (({log} '())) (let (({r} ({name} {proc} {args}))) "
            f"(list {r} (reverse {log}))))")


@edge_family("cycle", slots=(47,), faults_now_and_then=True)
def edge_cycle(g: G, d: int, s: Scope) -> str:
    """A structure that holds itself (through vector-set!), printed by display and write
    and returned: labels, and the elements inside them, by each printer's rules."""
    v, w = g.fresh("v"), g.fresh("w")
    a, b = g.pick(PRINTED), g.pick(PRINTED)
    use = g.pick(USES).format(v=v, a=a, b=b)
    return g.pick(CYCLES).format(v=v, w=w, a=a, b=b, use=use)
