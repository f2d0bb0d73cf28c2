"""Closures for the Core IR nodes that need none of the run's mutable state.

Variables, constants, ``if``, sequences, frames (``let``/``letrec``), ``lambda``, assignments
and ``values``. Applications and ``guard`` touch the run state, so :mod:`.compiler` builds them
and hands them in as ``app``/``guard`` (and ``if_``, which folds a comparison test into the if
and falls back on :meth:`NodeCompiler.if_`).
"""

from __future__ import annotations

from collections.abc import Callable
from operator import itemgetter
from typing import Any

from implementations.topaz.kernel import core_ir as ir
from implementations.topaz.kernel.errors import LispexError
from implementations.topaz.kernel.values import NO_VALUES, Primitive, Values

from .analysis import Scope, SingleValued
from .objects import UNBOUND, UNINIT, Closure

Code = Callable[[Any], Any]


def multiple(span: Any, v: Values) -> LispexError:
    return LispexError("E320", f"expected one value, got {len(v.items)}", (), span)


def uninitialised(name: str, span: Any) -> LispexError:
    return LispexError("E321", f"{name} is read before it is initialised", (), span)


class NodeCompiler:
    def __init__(self, gv: list, fixed: dict[int, Primitive], prims: dict[str, Primitive],
                 single: SingleValued, app: Callable[[ir.App, Scope], Code],
                 guard: Callable[[ir.Guard, Scope], Code],
                 if_: Callable[[ir.If, Scope], Code]) -> None:
        self.gv = gv
        self.fixed = fixed
        self.prims = prims
        self.single = single
        self.table: dict[type, Callable[[Any, Scope], Code]] = {
            ir.App: app, ir.Local: self.local, ir.Const: self.const, ir.Global: self.global_,
            ir.If: if_, ir.Lambda: self.lambda_, ir.Seq: self.seq, ir.Let: self.let,
            ir.Letrec: self.letrec, ir.Intrinsic: self.intrinsic, ir.SetLocal: self.set_local,
            ir.SetGlobal: self.set_global, ir.DefineGlobal: self.define,
            ir.ValuesNode: self.values, ir.Guard: guard,
        }

    def comp(self, n: Any, sc: Scope) -> Code:
        return self.table[type(n)](n, sc)

    def one(self, n: Any, sc: Scope) -> Code:
        """Code for ``n`` where exactly one value is required (E320 at its span otherwise)."""
        code = self.comp(n, sc)
        if self.single(n):
            return code
        span = n.span

        def checked(e: Any) -> Any:
            v = code(e)
            if type(v) is Values:
                raise multiple(span, v)
            return v
        return checked

    # -- leaves --------------------------------------------------------------------------------

    def local(self, n: ir.Local, sc: Scope) -> Code:
        return local_reader(*sc.address(n.depth, n.index), n.name if n.checked else None, n.span)

    def const(self, n: ir.Const, sc: Scope) -> Code:
        value = n.value
        return lambda e: value

    def intrinsic(self, n: ir.Intrinsic, sc: Scope) -> Code:
        value = self.prims[n.name]
        return lambda e: value

    def global_(self, n: ir.Global, sc: Scope) -> Code:
        p = self.fixed.get(n.slot)
        if p is not None:
            return lambda e: p
        gv, slot, name, span = self.gv, n.slot, n.name, n.span

        def global_ref(e: Any) -> Any:
            v = gv[slot]
            if v is UNBOUND:
                raise LispexError("E300", f"unbound variable {name}", (), span)
            return v
        return global_ref

    # -- control structure ---------------------------------------------------------------------

    def if_(self, n: ir.If, sc: Scope) -> Code:
        test = self.comp(n.test, sc)
        then, else_ = self.comp(n.then, sc), self.comp(n.else_, sc)
        if self.single(n.test):
            def if_(e: Any) -> Any:
                if test(e) is False:
                    return else_(e)
                return then(e)
            return if_
        span = n.test.span

        def if_checked(e: Any) -> Any:
            t = test(e)
            if t is False:
                return else_(e)
            if type(t) is Values:
                raise multiple(span, t)
            return then(e)
        return if_checked

    def seq(self, n: ir.Seq, sc: Scope) -> Code:
        codes = [self.comp(x, sc) for x in n.exprs]
        if len(codes) == 2:
            a, b = codes

            def seq2(e: Any) -> Any:
                a(e)
                return b(e)
            return seq2
        first, last = codes[:-1], codes[-1]

        def seq(e: Any) -> Any:
            for c in first:
                c(e)
            return last(e)
        return seq

    def let(self, n: ir.Let, sc: Scope) -> Code:
        inits = [self.one(x, sc) for x in n.inits]
        inner = sc.bind(len(inits))
        base = inner.base
        body = self.comp(n.body, inner)
        if not inits:
            return body
        if len(inits) == 1:
            a = inits[0]

            def let1(e: Any) -> Any:
                e[base] = a(e)
                return body(e)
            return let1
        if len(inits) == 2:
            a, b = inits
            second = base + 1

            def let2(e: Any) -> Any:
                e[base] = a(e)  # the inits cannot see these slots, so writing early is safe
                e[second] = b(e)
                return body(e)
            return let2
        end = base + len(inits)

        def let(e: Any) -> Any:
            e[base:end] = [c(e) for c in inits]
            return body(e)
        return let

    def letrec(self, n: ir.Letrec, sc: Scope) -> Code:
        # The slots start out UNINIT: a new activation's frame is padded with it.
        inner = sc.bind(len(n.inits))
        base = inner.base
        inits = list(enumerate([self.one(x, inner) for x in n.inits], base))
        body = self.comp(n.body, inner)

        def letrec(e: Any) -> Any:
            for i, c in inits:
                e[i] = c(e)
            return body(e)
        return letrec

    def lambda_(self, n: ir.Lambda, sc: Scope) -> Code:
        nparams, rest, name = n.nparams, n.rest, n.name
        inner = sc.procedure(nparams + rest)
        code = self.comp(n.body, inner)
        pad = [UNINIT] * (inner.size[0] - 1 - nparams - rest)
        if pad:
            def body(e: Any) -> Any:
                e += pad
                return code(e)
        else:
            body = code
        return lambda e: Closure(body, e, nparams, rest, name)

    # -- assignment and values -----------------------------------------------------------------

    def set_local(self, n: ir.SetLocal, sc: Scope) -> Code:
        value = self.one(n.value, sc)
        hops, i = sc.address(n.depth, n.index)

        def set_local(e: Any) -> Any:
            v = value(e)
            for _ in range(hops):
                e = e[0]
            e[i] = v
            return NO_VALUES
        return set_local

    def set_global(self, n: ir.SetGlobal, sc: Scope) -> Code:
        value = self.one(n.value, sc)
        gv, slot, name, span = self.gv, n.slot, n.name, n.span

        def set_global(e: Any) -> Any:
            v = value(e)
            if gv[slot] is UNBOUND:
                raise LispexError("E303", f"set! of unbound variable {name}", (), span)
            gv[slot] = v
            return NO_VALUES
        return set_global

    def define(self, n: ir.DefineGlobal, sc: Scope) -> Code:
        value = self.one(n.value, sc)
        gv, slot = self.gv, n.slot

        def define(e: Any) -> Any:
            gv[slot] = value(e)
            return NO_VALUES
        return define

    def values(self, n: ir.ValuesNode, sc: Scope) -> Code:
        args = [self.one(x, sc) for x in n.args]
        if not args:
            return lambda e: NO_VALUES
        if len(args) == 1:
            return args[0]
        return lambda e: Values(tuple([c(e) for c in args]))


def local_reader(hops: int, i: int, checked_name: str | None, span: Any) -> Code:
    """Read slot ``i`` of the frame ``hops`` frames out; a letrec slot (``checked_name``) may
    still be empty (E321)."""
    if checked_name is not None:
        name = checked_name
        if hops == 0:
            def local0_checked(e: Any) -> Any:
                v = e[i]
                if v is UNINIT:
                    raise uninitialised(name, span)
                return v
            return local0_checked
        if hops == 1:
            def local1_checked(e: Any) -> Any:
                v = e[0][i]
                if v is UNINIT:
                    raise uninitialised(name, span)
                return v
            return local1_checked

        def local_checked(e: Any) -> Any:
            for _ in range(hops):
                e = e[0]
            v = e[i]
            if v is UNINIT:
                raise uninitialised(name, span)
            return v
        return local_checked
    if hops == 0:
        return itemgetter(i)  # a C callable: cheaper to call than any Python function
    if hops == 1:
        return lambda e: e[0][i]
    if hops == 2:
        return lambda e: e[0][0][i]

    def local_far(e: Any) -> Any:
        for _ in range(hops):
            e = e[0]
        return e[i]
    return local_far
