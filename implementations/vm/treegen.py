"""Evaluators: straight-line Python functions for the call-free parts of a code object.

The linker folds runs of pure instructions (constants, variable reads, closure creation and
calls of kernel primitives the program never rebinds) into expression trees; each tree becomes
one generated Python function ``ev(env) -> value`` whose statements follow Lispex evaluation
order exactly: operands left to right, each application recording its span as the error site
just before the primitive runs, E300/E320/E321 checks where the tree interpreter makes them.
Generated code has no loops and no recursion, so a tree costs one Python call however deep.

Kernel primitives with an obvious common case (fixnum arithmetic and comparison, car, cdr,
cons, ...) are inlined for that case and call the kernel function otherwise; inlining is used
only when the table entry is the unwrapped kernel function itself.
"""

from __future__ import annotations

import builtins
from functools import lru_cache
from types import FunctionType
from typing import Any

from implementations.lispex.errors import LispexError
from implementations.lispex.primitives import table
from implementations.lispex.values import NIL, Pair, Primitive, Values

from .objects import Closure

UNBOUND = object()
UNINIT = object()

# name -> template over operand expressions {a} {b}, the kernel function {F} and result {r}.
_ARITH = "{r} = {a} {op} {b} if {guard} else {F}({a}, {b})"
FAST: dict[str, tuple[int, str, str]] = {
    "+": (2, _ARITH, "+"),
    "-": (2, _ARITH, "-"),
    "*": (2, _ARITH, "*"),
    "<": (2, _ARITH, "<"),
    ">": (2, _ARITH, ">"),
    "<=": (2, _ARITH, "<="),
    ">=": (2, _ARITH, ">="),
    "=": (2, _ARITH, "=="),
    "car": (1, "{r} = {a}.car if type({a}) is Pair else {F}({a})", ""),
    "cdr": (1, "{r} = {a}.cdr if type({a}) is Pair else {F}({a})", ""),
    "cons": (2, "{r} = Pair({a}, {b})", ""),
    "null?": (1, "{r} = {a} is NIL", ""),
    "not": (1, "{r} = {a} is False", ""),
    "pair?": (1, "{r} = type({a}) is Pair", ""),
    "eq?": (2, "{r} = True if {a} is {b} else {F}({a}, {b})", ""),
    "eqv?": (2, "{r} = True if {a} is {b} else {F}({a}, {b})", ""),
    "zero?": (1, "{r} = {a} == 0 if type({a}) is int else {F}({a})", ""),
}

# Kernel primitives that always give exactly one value: no E320 check is needed on their result.
SINGLE_VALUED = frozenset(FAST) | frozenset("""
list length append reverse list-tail list-ref memq memv member assq assv assoc cadr cddr caddr
string-append number->string string->number string-length string-ref substring string=? string<?
string->symbol symbol->string string->list list->string string-upcase string-downcase
char->integer integer->char modulo remainder quotient abs min max square expt sqrt exact inexact
floor ceiling round truncate even? odd? positive? negative? number? integer? rational? real?
symbol? string? char? boolean? procedure? vector? list? equal? vector vector-ref vector-length
list->vector vector->list make-vector error-object? error-object-message error-object-irritants
""".split())


@lru_cache(maxsize=4096)
def _compiled(src: str) -> Any:
    return compile(src, "<lispex-vm-tree>", "exec").co_consts[0]


def _e300(name: str, span: Any) -> None:
    raise LispexError("E300", f"unbound variable {name}", (), span)


def _e321(name: str, span: Any) -> None:
    raise LispexError("E321", f"{name} is read before it is initialised", (), span)


def mv_error(span: Any, v: Values) -> LispexError:
    return LispexError("E320", f"expected one value, got {len(v.items)}", (), span)


def _e320(span: Any, v: Values) -> None:
    raise mv_error(span, v)


def tree_depth(node: tuple) -> int:
    k = node[0]
    if k == "call":
        return 1 + max((tree_depth(c) for c in node[2]), default=0)
    if k == "req1":
        return tree_depth(node[1])
    return 0


class TreeGen:
    """Builds evaluator functions for one run: names in generated code resolve in ``ns``."""

    def __init__(self, gv: list, st: Any, ctx: Any, lams: list) -> None:
        self.ns: dict[str, Any] = {
            "__builtins__": builtins, "UNBOUND": UNBOUND, "UNINIT": UNINIT, "Values": Values, "Pair": Pair, "NIL": NIL,
            "Closure": Closure, "gv": gv, "st": st, "ctx": ctx, "_e300": _e300,
            "_e321": _e321, "_e320": _e320,
        }
        self.lams = lams
        self.count = 0
        self.names: dict[str, Any] = {}
        kernel = table.kernel_implementations()
        self.kernel_fn = {name: fn for name, (fn, _) in kernel.items()}

    def ref(self, value: Any) -> str:
        """A name bound to ``value`` in the namespace (or the literal, for small data)."""
        if type(value) is int and -(1 << 60) < value < (1 << 60):
            return repr(value)
        if value is True or value is False or value is None:
            return repr(value)
        self.count += 1
        name = f"k{self.count}"
        self.names[name] = value
        return name

    def function(self, node: tuple, nstack: int = 0) -> Any:
        """``ev(env, s1, ..., sN)``: the tree's value; ``("stack", k, span)`` leaves stand for
        the parameters, values the machine pops from its stack (checked for one value when
        ``span`` is set)."""
        lines: list[str] = []
        self.temps = 0
        # Names count from one in every evaluator, each with its own globals: trees of the same
        # shape then have the same source, which is compiled once per worker (_compiled), not
        # once per tree.
        self.count = 0
        self.names = {}
        result = self.expr(node, lines)
        body = "".join(f"    {ln}\n" for ln in lines)
        params = "".join(f", s{k}" for k in range(nstack))
        src = f"def ev(env{params}):\n{body}    return {result}\n"
        ns = self.ns
        if self.names:
            ns = dict(ns)
            ns.update(self.names)
        return FunctionType(_compiled(src), ns)

    def bind(self, expr: str, lines: list[str]) -> str:
        t = self.temp()
        lines.append(f"{t} = {expr}")
        return t

    def temp(self) -> str:
        self.temps += 1
        return f"t{self.temps}"

    def expr(self, node: tuple, lines: list[str]) -> str:  # noqa: C901
        k = node[0]
        if k == "const":
            return self.ref(node[1])
        if k == "local":
            _, d, i, checked, name, span = node
            e = "env" + "[0]" * d + f"[{i + 1}]"
            if not checked:
                return e
            t = self.temp()
            lines.append(f"{t} = {e}")
            lines.append(f"if {t} is UNINIT: _e321({self.ref(name)}, {self.ref(span)})")
            return t
        if k == "global":
            _, slot, name, span = node
            t = self.temp()
            lines.append(f"{t} = gv[{slot}]")
            lines.append(f"if {t} is UNBOUND: _e300({self.ref(name)}, {self.ref(span)})")
            return t
        if k == "stack":
            v = f"s{node[1]}"
            if node[2] is not None:
                lines.append(f"if type({v}) is Values: _e320({self.ref(node[2])}, {v})")
            return v
        if k == "closure":
            return f"Closure({self.ref(self.lams[node[1]])}, env)"
        if k == "req1":
            v = self.expr(node[1], lines)
            if node[1][0] == "call" and node[1][1].name in SINGLE_VALUED:
                return v
            lines.append(f"if type({v}) is Values: _e320({self.ref(node[2])}, {v})")
            return v
        if k == "call":
            return self.call(node, lines)
        raise TypeError(f"not a tree node: {k}")

    def call(self, node: tuple, lines: list[str]) -> str:
        _, prim, children, span = node
        args = []
        for c in children:
            a = self.expr(c, lines)
            if c[0] == "closure":  # created in order, like the tree interpreter does
                t = self.temp()
                lines.append(f"{t} = {a}")
                a = t
            args.append(a)
        s = self.ref(span)
        lines.append(f"st.site = {s}")
        r = self.temp()
        fast = FAST.get(prim.name)
        if prim.needs_context:
            lines.append(f"ctx.site = {s}")
            lines.append(f"{r} = {self.ref(prim.fn)}(ctx{''.join(', ' + a for a in args)})")
        elif fast and fast[0] == len(args) and self.kernel_fn.get(prim.name) is prim.fn:
            _, template, op = fast
            if template is not _ARITH:
                # attribute access and `is` need a name, not a literal
                args = [self.bind(x, lines) if _literal(x) else x for x in args]
            a = args[0]
            b = args[1] if len(args) > 1 else ""
            guard = " and ".join(f"type({x}) is int" for x in (a, b)
                                 if x and not x.lstrip("-").isdigit()) or "True"
            if prim.name == "*":  # big operands go to the kernel, which bounds the product
                guard = _word_guard(guard, (a, b))
            lines.append(template.format(r=r, a=a, b=b, op=op, guard=guard,
                                         F=self.ref(prim.fn)))
        else:
            lines.append(f"{r} = {self.ref(prim.fn)}({', '.join(args)})")
        return r


_WORD = 1 << 62


def _word_guard(guard: str, operands: tuple[str, str]) -> str:
    for x in operands:
        if x.lstrip("-").isdigit():
            if abs(int(x)) >= _WORD:
                return "False"
        else:
            guard += f" and -{_WORD} < {x} < {_WORD}"
    return guard


def _literal(expr: str) -> bool:
    return expr.lstrip("-").isdigit() or expr in ("True", "False", "None")


def is_kernel_call(p: Any, n: int) -> bool:
    """A primitive the linker may call inline: kernel code, and ``n`` fits its arity."""
    return type(p) is Primitive and not p.backend and p.accepts(n)
