"""The tree machine's hot tier: a procedure body entered often is turned into Python closures.

Once the machine has entered a lambda's body ``HOT`` times in a run, the body is compiled, once,
into nested closures for the part of it the walker would evaluate without calling anything the
program defines: leaves, lambdas, primitives that touch nothing but their arguments, and the
``if``, ``let`` and sequences around them. A compiled body ends in one of three ways: a value, an
application for the machine to make (a call in tail position, whatever its operator turns out to
be), or a node handed back to the walker in the environment reached so far.

The closures charge exactly the transitions the walker charges for the same nodes, and the
machine runs them only when its remaining budget covers the most the body could take, so a
limit is always met on the walker's own path. They never report anything either: whatever would
be a diagnostic (an unbound or uninitialised variable, several values where one is needed, a
primitive's fault, the bignum bound) abandons the attempt, which changed nothing, because only
pure primitives run here; the walker then evaluates the body from its start and reports it.

Compiled code lives in the machine, so nothing outlives the run that compiled it, and it is
built from the program and the primitive table that run was given: a global the program never
assigns keeps the primitive the machine installed, so ``(+ x 1)`` is a call of ``+`` known at
compile time, and a program that redefines ``+`` gets no such call.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from implementations.lispex import core_ir as ir
from implementations.lispex.values import Primitive, Values

from .control import APPLY, EVAL, RET, UNBOUND, UNINIT
from .objects import Closure

# Entries of a body before it is compiled: small programs, and the first calls of every
# procedure, stay on the walker's path, which the meter and the diagnostics are defined on.
HOT = 2

# Deeper pure expressions than this are left to the walker: compiling recurses in Python.
_MAX_DEPTH = 60

# Pure primitives that still change something a later evaluation could see: an attempt that is
# abandoned after one of them ran would run it twice.
_EFFECTS = frozenset({"vector-set!"})


class Bail(Exception):
    """Abandon a compiled attempt; the walker evaluates the body again."""


Pure = tuple[Callable[[list], Any], int]  # value of the expression, transitions it charges


def assigned_slots(forms: list[ir.Node]) -> frozenset[int]:
    """Global slots some ``set!`` or ``define`` of the program writes."""
    out: set[int] = set()
    stack: list[Any] = list(forms)
    while stack:
        n = stack.pop()
        t = type(n)
        if t is ir.SetGlobal or t is ir.DefineGlobal:
            out.add(n.slot)
            stack.append(n.value)
        elif t is ir.App:
            stack.extend(n.parts)
        elif t is ir.If:
            stack.extend((n.test, n.then, n.else_))
        elif t is ir.Lambda or t is ir.Let or t is ir.Letrec:
            stack.append(n.body)
            if t is not ir.Lambda:
                stack.extend(n.inits)
        elif t is ir.Seq:
            stack.extend(n.exprs)
        elif t is ir.SetLocal:
            stack.append(n.value)
        elif t is ir.ValuesNode:
            stack.extend(n.args)
        elif t is ir.Guard:
            stack.append(n.body)
            for test, body in n.clauses:
                stack.append(test)
                if body is not None:
                    stack.append(body)
            if n.else_body is not None:
                stack.append(n.else_body)
    return frozenset(out)


class Compiler:
    """Compiles the bodies of one run's hot lambdas against that run's globals."""

    def __init__(self, gv: list, prims: dict[str, Primitive], int2: dict[Primitive, Any],
                 forms: list[ir.Node]) -> None:
        self.gv = gv
        self.prims = prims
        self.int2 = int2
        self.assigned = assigned_slots(forms)

    def body(self, lam: ir.Lambda) -> tuple[Callable, int] | None:
        """``(run, most)``: ``run(env, 0)`` gives ``(mode, a, b, transitions)``; None when the
        body starts with something only the walker evaluates."""
        run, most = self.tail(lam.body, 0)
        return None if most < 0 else (run, most)

    # -- pure expressions: a value, or Bail ------------------------------------------------------

    def static_primitive(self, op: ir.Node) -> Primitive | None:
        if type(op) is ir.Intrinsic:
            p = self.prims.get(op.name)
        elif type(op) is ir.Global and op.slot not in self.assigned:
            p = self.gv[op.slot]
        else:
            return None
        if type(p) is not Primitive or p.backend or p.needs_context or p.name in _EFFECTS:
            return None
        return p

    def pure(self, x: ir.Node, operand: bool, depth: int) -> Pure | None:
        """``operand``: read as an operand of a call, where the walker charges leaves nothing and
        an application's several values are an error."""
        t = type(x)
        leaf = 0 if operand else 1
        if t is ir.Const:
            value = x.value
            return (lambda env: value), leaf
        if t is ir.Local:
            return _local(x.depth, x.index + 1), leaf
        if t is ir.Global:
            if x.slot in self.assigned:
                return _global(self.gv, x.slot), leaf
            value = self.gv[x.slot]
            if value is UNBOUND:  # always an error: the walker reports it
                return None
            return (lambda env: value), leaf
        if t is ir.Intrinsic:
            value = self.prims[x.name]
            return (lambda env: value), leaf
        if t is ir.Lambda:
            return (lambda env: Closure(x, env)), 1
        if t is not ir.App or depth > _MAX_DEPTH:
            return None
        p = self.static_primitive(x.op)
        if p is None or not p.accepts(len(x.args)):
            return None
        args = [self.pure(a, True, depth + 1) for a in x.args]
        if None in args:
            return None
        cost = 2 + sum(c for _, c in args)  # entering the call, applying the primitive
        op = self.int2.get(p)
        if op is not None and len(x.args) == 2:
            a, b = x.args
            if type(a) is ir.Local and a.depth == 0:
                if type(b) is ir.Const and type(b.value) is int:
                    return _int2_local_const(p.fn, op, a.index + 1, b.value, operand), cost
                if type(b) is ir.Local and b.depth == 0:
                    return _int2_locals(p.fn, op, a.index + 1, b.index + 1, operand), cost
        return _call(p.fn, op, [f for f, _ in args], operand), cost

    # -- bodies: (run, most); most < 0 marks a node handed straight back ------------------------

    def tail(self, x: ir.Node, depth: int) -> tuple[Callable, int]:
        t = type(x)
        pe = self.pure(x, False, depth)
        if pe is not None:
            f, c = pe

            def value(env: list, acc: int) -> tuple:
                return RET, f(env), None, acc + c
            return value, c
        if depth > _MAX_DEPTH:
            return _handoff(x), -1
        if t is ir.If:
            test = self.pure(x.test, False, depth + 1)
            if test is None:
                return _handoff(x), -1
            tf, tc = test
            then, then_most = self.tail(x.then, depth + 1)
            else_, else_most = self.tail(x.else_, depth + 1)
            c0 = 1 + tc
            return _if(tf, then, else_, c0), c0 + max(then_most, else_most, 0)
        if t is ir.Let:
            inits = [self.pure(i, False, depth + 1) for i in x.inits]
            if None in inits:
                return _handoff(x), -1
            body, body_most = self.tail(x.body, depth + 1)
            c0 = 1 + sum(c for _, c in inits)
            return _let([f for f, _ in inits], body, c0), c0 + max(body_most, 0)
        if t is ir.Seq:
            first = [self.pure(e, False, depth + 1) for e in x.exprs[:-1]]
            if None in first:
                return _handoff(x), -1
            last, last_most = self.tail(x.exprs[-1], depth + 1)
            c0 = 1 + sum(c for _, c in first)
            return _seq([f for f, _ in first], last, c0), c0 + max(last_most, 0)
        if t is ir.App:
            parts = [self.pure(p, True, depth + 1) for p in x.parts]
            if None in parts:
                return _handoff(x), -1
            c0 = 1 + sum(c for _, c in parts)
            op = x.op
            if type(op) is ir.Global and op.slot in self.assigned and len(parts) <= 3:
                return _apply_global(self.gv, op.slot, [f for f, _ in parts[1:]], x, c0), c0
            return _apply([f for f, _ in parts], x, c0), c0
        return _handoff(x), -1


# -- the closures ---------------------------------------------------------------------------------

def _local(depth: int, slot: int) -> Callable:
    if depth == 0:
        def read0(env: list) -> Any:
            v = env[slot]
            if v is UNINIT:
                raise Bail
            return v
        return read0
    if depth == 1:
        def read1(env: list) -> Any:
            v = env[0][slot]
            if v is UNINIT:
                raise Bail
            return v
        return read1

    def read(env: list) -> Any:
        d = depth
        while d:
            env = env[0]
            d -= 1
        v = env[slot]
        if v is UNINIT:
            raise Bail
        return v
    return read


def _global(gv: list, slot: int) -> Callable:
    def read(env: list) -> Any:
        v = gv[slot]
        if v is UNBOUND:
            raise Bail
        return v
    return read


def _int2_local_const(fn: Callable, op: Any, slot: int, b: int, operand: bool) -> Callable:
    def int2(env: list) -> Any:
        a = env[slot]
        if type(a) is int:
            return op(a, b)
        if a is UNINIT:
            raise Bail
        v = fn(a, b)
        if operand and type(v) is Values:
            raise Bail
        return v
    return int2


def _int2_locals(fn: Callable, op: Any, sa: int, sb: int, operand: bool) -> Callable:
    def int2(env: list) -> Any:
        a = env[sa]
        b = env[sb]
        if type(a) is int and type(b) is int:
            return op(a, b)
        if a is UNINIT or b is UNINIT:
            raise Bail
        v = fn(a, b)
        if operand and type(v) is Values:
            raise Bail
        return v
    return int2


def _call(fn: Callable, op: Any, args: list[Callable], operand: bool) -> Callable:
    n = len(args)
    if n == 2 and op is not None:
        fa, fb = args

        def int2(env: list) -> Any:
            a = fa(env)
            b = fb(env)
            if type(a) is int and type(b) is int:
                return op(a, b)
            v = fn(a, b)
            if operand and type(v) is Values:
                raise Bail
            return v
        return int2
    if n == 1:
        fa = args[0]

        def call1(env: list) -> Any:
            v = fn(fa(env))
            if operand and type(v) is Values:
                raise Bail
            return v
        return call1
    if n == 2:
        fa, fb = args

        def call2(env: list) -> Any:
            v = fn(fa(env), fb(env))
            if operand and type(v) is Values:
                raise Bail
            return v
        return call2

    def call(env: list) -> Any:
        v = fn(*[f(env) for f in args])
        if operand and type(v) is Values:
            raise Bail
        return v
    return call


def _handoff(x: ir.Node) -> Callable:
    def handoff(env: list, acc: int) -> tuple:
        return EVAL, x, env, acc
    return handoff


def _if(test: Callable, then: Callable, else_: Callable, c0: int) -> Callable:
    def if_(env: list, acc: int) -> tuple:
        v = test(env)
        if v is False:
            return else_(env, acc + c0)
        if type(v) is Values:
            raise Bail
        return then(env, acc + c0)
    return if_


def _let(inits: list[Callable], body: Callable, c0: int) -> Callable:
    def let(env: list, acc: int) -> tuple:
        frame = [env]
        for f in inits:
            v = f(env)
            if type(v) is Values:
                raise Bail
            frame.append(v)
        return body(frame, acc + c0)
    return let


def _seq(first: list[Callable], last: Callable, c0: int) -> Callable:
    def seq(env: list, acc: int) -> tuple:
        for f in first:
            f(env)
        return last(env, acc + c0)
    return seq


def _apply(parts: list[Callable], x: ir.App, c0: int) -> Callable:
    if len(parts) == 2:
        f0, f1 = parts

        def apply2(env: list, acc: int) -> tuple:
            return APPLY, [f0(env), f1(env)], x, acc + c0
        return apply2
    if len(parts) == 3:
        f0, f1, f2 = parts

        def apply3(env: list, acc: int) -> tuple:
            return APPLY, [f0(env), f1(env), f2(env)], x, acc + c0
        return apply3

    def apply(env: list, acc: int) -> tuple:
        return APPLY, [f(env) for f in parts], x, acc + c0
    return apply


def _apply_global(gv: list, slot: int, args: list[Callable], x: ir.App, c0: int) -> Callable:
    if len(args) == 1:
        fa = args[0]

        def apply1(env: list, acc: int) -> tuple:
            f = gv[slot]
            if f is UNBOUND:
                raise Bail
            return APPLY, [f, fa(env)], x, acc + c0
        return apply1
    if len(args) == 2:
        fa, fb = args

        def apply2(env: list, acc: int) -> tuple:
            f = gv[slot]
            if f is UNBOUND:
                raise Bail
            return APPLY, [f, fa(env), fb(env)], x, acc + c0
        return apply2

    def apply(env: list, acc: int) -> tuple:
        f = gv[slot]
        if f is UNBOUND:
            raise Bail
        return APPLY, [f, *[g(env) for g in args]], x, acc + c0
    return apply
