"""topaz-tree's compiler: Core IR -> nested Python closures, built once per program.

Each node becomes a callable ``code(frame)``; a frame is ``[parent, slot0, slot1, ...]``. Names,
frame addresses and the primitives a program cannot rebind are resolved at compile time, so
running a program is only calling closures.

The run's mutable state (non-tail depth, transition count, the span of the last application)
lives in cells of :func:`compile_program`: a closure updates a cell faster than anything else,
which is why applications (the hot path) are built in here while the other nodes come from
:mod:`.nodes` and ``guard`` from :mod:`.guard`. Control code reaches the same state through
:class:`Runtime`.

Tail calls: an application in tail position returns ``(body, frame)`` instead of calling; the
nearest non-tail caller loops until it holds a value (see :mod:`.objects`). Escapes and guard
unwinding are Python exceptions; Lispex faults are dispatched to handlers by :mod:`.control` at
the innermost dynamic boundary, where the dynamic state is still the one of the fault.

Machine transitions: one per closure entered and per continuation invoked. Every loop in a
Lispex program goes through a closure call, so this bounds any run.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from implementations.topaz.kernel import core_ir as ir
from implementations.topaz.kernel.errors import LispexError, ResourceExhausted
from implementations.topaz.kernel.meters import MACHINE, RECURSION_LIMIT, Meter
from implementations.topaz.kernel.values import NO_VALUES, Primitive, Values

from . import control
from .analysis import Scope, SingleValued, assigned_slots, here
from .calling import bind, bounce, prim_arity_error, unbound
from .control import Runtime
from .fastops import BINARY, UNARY
from .guard import compile_guard
from .nodes import NodeCompiler, multiple
from .objects import (
    UNBOUND,
    UNINIT,
    Closure,
    Continuation,
    ContinuationInvoked,
)

Code = Callable[[Any], Any]
Runner = Callable[[Any, Any, Meter], Any]


def compile_program(program: ir.Program, prims: dict[str, Primitive]) -> Runner:  # noqa: C901
    """Compile ``program``; the result runs it: ``runner(input_value, ctx, meter)``."""
    gv: list = [UNBOUND] * len(program.globals)
    assigned = assigned_slots(program)
    fixed = {slot: prims[name] for slot, name in enumerate(program.globals)
             if slot not in assigned and name in prims}

    def constant(n: Any) -> Primitive | None:
        t = type(n)
        if t is ir.Global:
            return fixed.get(n.slot)
        if t is ir.Intrinsic:
            return prims[n.name]
        return None

    single = SingleValued(constant)
    rt = Runtime()
    meter: Any = None
    depth = 0
    steps = 0
    slimit = 0
    site: Any = None

    def exhausted() -> ResourceExhausted:
        return ResourceExhausted("machine-transition-limit", f"machine-transition limit of "
                                 f"{meter.limits[MACHINE]} exceeded")

    def too_deep() -> ResourceExhausted:
        return ResourceExhausted("recursion-limit",
                                 f"non-tail call depth passed {RECURSION_LIMIT}")

    def get_depth() -> int:
        return depth

    def set_depth(d: int) -> None:
        nonlocal depth
        depth = d

    def get_site() -> Any:
        return site

    def apply(f: Any, args: list, tail: bool) -> Any:
        """Apply any procedure; in tail position a closure call comes back as a tail call."""
        nonlocal steps, depth
        tf = type(f)
        if tf is Closure:
            steps += 1
            if steps > slimit:
                raise exhausted()
            frame = [f.env, *args] if f.fixed == len(args) else bind(f, args)
            if tail:
                return (f.body, frame)
            depth += 1
            if depth > RECURSION_LIMIT:
                raise too_deep()
            r = f.body(frame)
            if type(r) is tuple:
                r = bounce(r)
            depth -= 1
            return r
        if tf is Primitive:
            n = len(args)
            if n < f.min_args or (f.max_args >= 0 and n > f.max_args):
                raise prim_arity_error(f, n)
            if not f.backend:
                if f.needs_context:
                    ctx = rt.ctx
                    ctx.site = site
                    return f.fn(ctx, *args)
                return f.fn(*args)
            return control.BACKEND[f.name](rt, args, tail)
        if tf is Continuation:
            steps += 1
            if steps > slimit:
                raise exhausted()
            if not f.active:
                raise LispexError("E340", "escape continuation is no longer active", ())
            raise ContinuationInvoked(f, args[0] if len(args) == 1 else Values(tuple(args)))
        raise LispexError("E301", "attempt to call a non-procedure", (f,))

    def call(f: Any, args: list) -> Any:
        return apply(f, args, False)

    def call_at(f: Any, args: list, at: Any) -> Any:
        """A non-tail application on behalf of a primitive called at ``at``: a fault of the
        application itself (E301, E302) points there."""
        nonlocal site
        site = at
        return apply(f, args, False)

    def set_site(at: Any) -> None:
        nonlocal site
        site = at

    rt.apply = apply
    rt.call = call
    rt.call_at = call_at
    rt.get_depth = get_depth
    rt.set_depth = set_depth
    rt.get_site = get_site
    rt.set_site = set_site

    # -- applications of primitives known at compile time ---------------------------------------

    def c_prim_app(n: ir.App, p: Primitive, sc: Scope) -> Code:
        span, k, fn = n.span, len(n.args), p.fn
        if k == 2 and p.name in BINARY and not p.needs_context:
            return c_binary(n, BINARY[p.name], fn, sc)
        # Each argument is compiled exactly once (compiling one twice would double the work at
        # every level of nesting).
        args = [nodes.one(a, sc) for a in n.args]
        if not p.accepts(k):
            def wrong_arity(e: Any) -> Any:
                nonlocal site
                for a in args:
                    a(e)
                site = span
                raise prim_arity_error(p, k)
            return wrong_arity
        if p.needs_context:
            def with_context(e: Any) -> Any:
                nonlocal site
                vals = [a(e) for a in args]
                site = span
                ctx = rt.ctx
                ctx.site = span
                return fn(ctx, *vals)
            return with_context
        if k == 1 and p.name in UNARY:
            kind, fast = UNARY[p.name]
            a = args[0]

            def unary(e: Any) -> Any:
                nonlocal site
                x = a(e)
                site = span
                if type(x) is kind:
                    return fast(x)
                return fn(x)
            return unary
        if k == 0:
            def prim0(e: Any) -> Any:
                nonlocal site
                site = span
                return fn()
            return prim0
        if k == 1:
            a = args[0]

            def prim1(e: Any) -> Any:
                nonlocal site
                x = a(e)
                site = span
                return fn(x)
            return prim1
        if k == 2:
            a, b = args

            def prim2(e: Any) -> Any:
                nonlocal site
                x = a(e)
                y = b(e)
                site = span
                return fn(x, y)
            return prim2
        if k == 3:
            a, b, c = args

            def prim3(e: Any) -> Any:
                nonlocal site
                x = a(e)
                y = b(e)
                z = c(e)
                site = span
                return fn(x, y, z)
            return prim3

        def prim_n(e: Any) -> Any:
            nonlocal site
            vals = [a(e) for a in args]
            site = span
            return fn(*vals)
        return prim_n

    def c_binary(n: ir.App, op: Callable, fn: Callable, sc: Scope) -> Code:
        """Two-argument arithmetic and comparison: exact integers inline, the rest by ``fn``."""
        span = n.span
        x, y = n.args
        i = here(x, sc)
        if i:
            if type(y) is ir.Const and type(y.value) is int:
                c = y.value

                def local_const(e: Any) -> Any:
                    nonlocal site
                    a = e[i]
                    site = span
                    if type(a) is int:
                        return op(a, c)
                    return fn(a, c)
                return local_const
            j = here(y, sc)
            if j:
                def local_local(e: Any) -> Any:
                    nonlocal site
                    a = e[i]
                    b = e[j]
                    site = span
                    if type(a) is int and type(b) is int:
                        return op(a, b)
                    return fn(a, b)
                return local_local
        ca, cb = nodes.comp(x, sc), nodes.comp(y, sc)
        if single(x) and single(y):
            def binary(e: Any) -> Any:
                nonlocal site
                a = ca(e)
                b = cb(e)
                site = span
                if type(a) is int and type(b) is int:
                    return op(a, b)
                return fn(a, b)
            return binary
        sa, sb = x.span, y.span

        def binary_checked(e: Any) -> Any:
            nonlocal site
            a = ca(e)
            if type(a) is Values:
                raise multiple(sa, a)
            b = cb(e)
            if type(b) is Values:
                raise multiple(sb, b)
            site = span
            if type(a) is int and type(b) is int:
                return op(a, b)
            return fn(a, b)
        return binary_checked

    def c_if(n: ir.If, sc: Scope) -> Code:
        """``if`` whose test compares two values: the comparison is done in the if itself."""
        t = n.test
        p = constant(t.op) if type(t) is ir.App and len(t.args) == 2 else None
        if p is None or p.backend or p.needs_context or p.name not in BINARY:
            return nodes.if_(n, sc)
        op, fn, span = BINARY[p.name], p.fn, t.span
        then, else_ = nodes.comp(n.then, sc), nodes.comp(n.else_, sc)
        x, y = t.args
        i = here(x, sc)
        if i and type(y) is ir.Const and type(y.value) is int:
            c = y.value

            def if_local_const(e: Any) -> Any:
                nonlocal site
                a = e[i]
                site = span
                if (op(a, c) if type(a) is int else fn(a, c)) is False:
                    return else_(e)
                return then(e)
            return if_local_const
        j = here(y, sc)
        if i and j:
            def if_local_local(e: Any) -> Any:
                nonlocal site
                a = e[i]
                b = e[j]
                site = span
                if (op(a, b) if type(a) is int and type(b) is int else fn(a, b)) is False:
                    return else_(e)
                return then(e)
            return if_local_local
        ca, cb = nodes.one(x, sc), nodes.one(y, sc)

        def if_compare(e: Any) -> Any:
            nonlocal site
            a = ca(e)
            b = cb(e)
            site = span
            if (op(a, b) if type(a) is int and type(b) is int else fn(a, b)) is False:
                return else_(e)
            return then(e)
        return if_compare

    # -- applications of anything else ---------------------------------------------------------

    def c_call(n: ir.App, sc: Scope) -> Code:  # noqa: C901
        """Any call whose callee is not a primitive known at compile time. A closure with the
        right fixed arity is entered inline; everything else goes through ``apply``."""
        span, tail, k, op = n.span, n.tail, len(n.args), n.op
        gslot = op.slot if type(op) is ir.Global and op.slot not in fixed else -1
        opc = nodes.one(op, sc)
        if k > 3:
            args = [nodes.one(a, sc) for a in n.args]

            def call_n(e: Any) -> Any:
                nonlocal site
                f = gv[gslot] if gslot >= 0 else opc(e)
                if f is UNBOUND:
                    raise unbound(op)
                vals = [a(e) for a in args]
                site = span
                return apply(f, vals, tail)
            return call_n
        # Arguments: their code, whether the value needs the one-value check, and its span.
        a, b, c = ([nodes.comp(x, sc) for x in n.args] + [None] * 3)[:3]
        ca, cb, cc = ([not single(x) for x in n.args] + [False] * 3)[:3]
        sa, sb, sc_ = ([x.span for x in n.args] + [None] * 3)[:3]

        if k == 0 and tail:
            def tail0(e: Any) -> Any:
                nonlocal site, steps
                f = gv[gslot] if gslot >= 0 else opc(e)
                if f is UNBOUND:
                    raise unbound(op)
                site = span
                if type(f) is Closure and f.fixed == 0:
                    steps += 1
                    if steps > slimit:
                        raise exhausted()
                    return (f.body, [f.env])
                return apply(f, [], True)
            return tail0
        if k == 0:
            def call0(e: Any) -> Any:
                nonlocal site, steps, depth
                f = gv[gslot] if gslot >= 0 else opc(e)
                if f is UNBOUND:
                    raise unbound(op)
                site = span
                if type(f) is Closure and f.fixed == 0:
                    steps += 1
                    if steps > slimit:
                        raise exhausted()
                    depth += 1
                    if depth > RECURSION_LIMIT:
                        raise too_deep()
                    r = f.body([f.env])
                    if type(r) is tuple:
                        r = bounce(r)
                    depth -= 1
                    return r
                return apply(f, [], False)
            return call0
        if k == 1 and tail:
            def tail1(e: Any) -> Any:
                nonlocal site, steps
                f = gv[gslot] if gslot >= 0 else opc(e)
                if f is UNBOUND:
                    raise unbound(op)
                x = a(e)
                if ca and type(x) is Values:
                    raise multiple(sa, x)
                site = span
                if type(f) is Closure and f.fixed == 1:
                    steps += 1
                    if steps > slimit:
                        raise exhausted()
                    return (f.body, [f.env, x])
                return apply(f, [x], True)
            return tail1
        if k == 1:
            def call1(e: Any) -> Any:
                nonlocal site, steps, depth
                f = gv[gslot] if gslot >= 0 else opc(e)
                if f is UNBOUND:
                    raise unbound(op)
                x = a(e)
                if ca and type(x) is Values:
                    raise multiple(sa, x)
                site = span
                if type(f) is Closure and f.fixed == 1:
                    steps += 1
                    if steps > slimit:
                        raise exhausted()
                    depth += 1
                    if depth > RECURSION_LIMIT:
                        raise too_deep()
                    r = f.body([f.env, x])
                    if type(r) is tuple:
                        r = bounce(r)
                    depth -= 1
                    return r
                return apply(f, [x], False)
            return call1
        if k == 2 and tail:
            def tail2(e: Any) -> Any:
                nonlocal site, steps
                f = gv[gslot] if gslot >= 0 else opc(e)
                if f is UNBOUND:
                    raise unbound(op)
                x = a(e)
                if ca and type(x) is Values:
                    raise multiple(sa, x)
                y = b(e)
                if cb and type(y) is Values:
                    raise multiple(sb, y)
                site = span
                if type(f) is Closure and f.fixed == 2:
                    steps += 1
                    if steps > slimit:
                        raise exhausted()
                    return (f.body, [f.env, x, y])
                return apply(f, [x, y], True)
            return tail2
        if k == 2:
            def call2(e: Any) -> Any:
                nonlocal site, steps, depth
                f = gv[gslot] if gslot >= 0 else opc(e)
                if f is UNBOUND:
                    raise unbound(op)
                x = a(e)
                if ca and type(x) is Values:
                    raise multiple(sa, x)
                y = b(e)
                if cb and type(y) is Values:
                    raise multiple(sb, y)
                site = span
                if type(f) is Closure and f.fixed == 2:
                    steps += 1
                    if steps > slimit:
                        raise exhausted()
                    depth += 1
                    if depth > RECURSION_LIMIT:
                        raise too_deep()
                    r = f.body([f.env, x, y])
                    if type(r) is tuple:
                        r = bounce(r)
                    depth -= 1
                    return r
                return apply(f, [x, y], False)
            return call2
        if tail:
            def tail3(e: Any) -> Any:
                nonlocal site, steps
                f = gv[gslot] if gslot >= 0 else opc(e)
                if f is UNBOUND:
                    raise unbound(op)
                x = a(e)
                if ca and type(x) is Values:
                    raise multiple(sa, x)
                y = b(e)
                if cb and type(y) is Values:
                    raise multiple(sb, y)
                z = c(e)
                if cc and type(z) is Values:
                    raise multiple(sc_, z)
                site = span
                if type(f) is Closure and f.fixed == 3:
                    steps += 1
                    if steps > slimit:
                        raise exhausted()
                    return (f.body, [f.env, x, y, z])
                return apply(f, [x, y, z], True)
            return tail3

        def call3(e: Any) -> Any:
            nonlocal site, steps, depth
            f = gv[gslot] if gslot >= 0 else opc(e)
            if f is UNBOUND:
                raise unbound(op)
            x = a(e)
            if ca and type(x) is Values:
                raise multiple(sa, x)
            y = b(e)
            if cb and type(y) is Values:
                raise multiple(sb, y)
            z = c(e)
            if cc and type(z) is Values:
                raise multiple(sc_, z)
            site = span
            if type(f) is Closure and f.fixed == 3:
                steps += 1
                if steps > slimit:
                    raise exhausted()
                depth += 1
                if depth > RECURSION_LIMIT:
                    raise too_deep()
                r = f.body([f.env, x, y, z])
                if type(r) is tuple:
                    r = bounce(r)
                depth -= 1
                return r
            return apply(f, [x, y, z], False)
        return call3

    def c_app(n: ir.App, sc: Scope) -> Code:
        p = constant(n.op)
        if p is not None and not p.backend:
            return c_prim_app(n, p, sc)
        return c_call(n, sc)

    def c_guard(n: ir.Guard, sc: Scope) -> Code:
        return compile_guard(n, sc, nodes.comp, single, rt)

    nodes = NodeCompiler(gv, fixed, prims, single, c_app, c_guard, c_if)
    forms = []
    for form in program.forms:
        sc = Scope.top()
        code = nodes.comp(form, sc)
        forms.append((code, [None] + [UNINIT] * (sc.size[0] - 1), form.span))
    start = [UNBOUND] * len(gv)
    input_slots = []
    for slot, name in enumerate(program.globals):
        if name in prims:
            start[slot] = prims[name]
        elif name == "input":
            input_slots.append(slot)

    def run(input_value: Any, ctx: Any, m: Meter) -> Any:
        nonlocal meter, depth, steps, slimit, site
        meter = m
        gv[:] = start
        for slot in input_slots:
            gv[slot] = input_value
        rt.ctx = ctx
        steps, slimit = 0, m.remaining(MACHINE)
        result: Any = NO_VALUES
        try:
            for code, frame, form_span in forms:
                rt.handlers, depth, site = None, 0, form_span
                try:
                    r = code(frame[:])
                    if type(r) is tuple:
                        r = bounce(r)
                except LispexError as err:
                    control.fault(rt, err)
                result = r
        finally:
            m.used[MACHINE] += min(steps, slimit)
        return result

    return run
