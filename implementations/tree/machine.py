"""The tree interpreter's machine: walks Core IR with an explicit control stack.

State is ``mode`` plus registers (``node``/``env`` to evaluate, ``val`` to return, ``vals`` to
apply) and the control stack ``k`` of frames (tuples tagged with small ints). Evaluating a
sub-expression that is not a leaf pushes a frame, except where the loop can finish it in place
(a primitive applied to leaves, say) with the same transitions and checks; calling a closure
pushes nothing when the call is in tail position, so tail calls run in constant space, and a
``RET`` marker otherwise, which counts the non-tail depth the recursion limit bounds. No Lispex
call ever recurses in Python.

Conditions (``raise``, primitive faults) are dispatched to the handler chain in place, R7RS style;
escapes (continuations, guard) unwind the stack frame by frame, running dynamic-wind ``after``
thunks on the way. Resource exhaustion is a Python exception that nothing here catches.
"""

from __future__ import annotations

from typing import Any

from implementations.lispex import core_ir as ir
from implementations.lispex.errors import LispexError, ResourceExhausted
from implementations.lispex.guest_library import GENERATORS
from implementations.lispex.meters import MACHINE, RECURSION_LIMIT, Meter
from implementations.lispex.values import NO_VALUES, Primitive, Values, list_from

# Frame tags and modes are re-exported: the seeded bugs and test fakes reach them through here.
from .control import (  # noqa: F401
    APPLY,
    ARGS,
    EVAL,
    F_ARGS,
    F_CC,
    F_CWV,
    F_DEFG,
    F_DW,
    F_DW_BEFORE,
    F_DW_DONE,
    F_GCLAUSE,
    F_GEN,
    F_GUARD,
    F_HANDLERS,
    F_IF,
    F_LET,
    F_LETREC,
    F_RAISE,
    F_RET,
    F_SEQ,
    F_SETG,
    F_SETL,
    F_UNWIND,
    F_VALUES,
    RET,
    RET_FRAME,
    UNBOUND,
    UNINIT,
    UNWIND,
    Control,
    arity_error,
    error_object,
    mv_error,
    prim_arity_error,
    unbound_error,
    uninit_error,
)
from .intops import int_operators
from .objects import Closure, Continuation, GuardHandler

Local, Const, Global, Intrinsic = ir.Local, ir.Const, ir.Global, ir.Intrinsic

App, If, Lambda, Seq, Let = ir.App, ir.If, ir.Lambda, ir.Seq, ir.Let


class Machine(Control):
    def __init__(self, program: ir.Program, prims: dict[str, Primitive], ctx: Any, meter: Meter,
                 input_value: Any = UNBOUND) -> None:
        self.prims = prims
        self.ctx = ctx
        self.meter = meter
        gv = [UNBOUND] * len(program.globals)
        for i, name in enumerate(program.globals):
            p = prims.get(name)
            if p is not None:
                gv[i] = p
            elif name == "input":
                gv[i] = input_value
        self.gv = gv
        self.int2 = int_operators(prims)
        self.steps = 0
        self.step_limit = meter.remaining(MACHINE)

    def settle(self) -> None:
        self.meter.used[MACHINE] += min(self.steps, self.step_limit)
        self.steps = 0
        self.step_limit = self.meter.remaining(MACHINE)

    def exhausted(self) -> ResourceExhausted:
        return ResourceExhausted("machine-transition-limit",
                                 f"machine-transition limit of {self.meter.limits[MACHINE]} "
                                 "exceeded")

    # The loop below is long on purpose: keeping the hot path in one function with local
    # variables is what makes a Python tree-walker fast enough.
    def run(self, form: ir.Node) -> Any:  # noqa: C901
        gv = self.gv
        prims = self.prims
        int2 = self.int2.get
        ctx = self.ctx
        k: list = []
        handlers: Any = None
        depth = 0
        steps = self.steps
        slimit = self.step_limit
        mode = EVAL
        node: Any = form
        env: Any = None
        val: Any = None
        vals: list = []
        tail = True
        site: Any = form
        unwind_target = 0
        unwind_action: Any = None
        try:
            while True:
                try:
                    while True:
                        if mode == EVAL:
                            steps += 1
                            if steps > slimit:
                                raise self.exhausted()
                            t = type(node)
                            if t is App:
                                vals = []
                                i = 0
                                mode = ARGS
                            elif t is If or t is Let or t is Seq:
                                # An if's test, a let's inits and all but the last expression of
                                # a sequence that are leaves, lambdas or primitives applied to
                                # leaves are evaluated here without a frame, with the same
                                # transitions, checks and registers as the frame path (a sequence
                                # discards values unchecked); the first other one is evaluated
                                # under the frame (F_IF, F_LET, F_SEQ) the frame path would have
                                # pushed for it, from the same state.
                                lv = []
                                for x in ((node.test,) if t is If else node.inits if t is Let
                                          else node.exprs[:-1]):
                                    tx = type(x)
                                    if tx is App:
                                        steps += 1
                                        if steps > slimit:
                                            raise self.exhausted()
                                        iv = []
                                        for y in x.parts:
                                            ty = type(y)
                                            if ty is Local:
                                                e = env
                                                d = y.depth
                                                while d:
                                                    e = e[0]
                                                    d -= 1
                                                v = e[y.index + 1]
                                                if v is UNINIT:
                                                    raise uninit_error(y)
                                            elif ty is Const:
                                                v = y.value
                                            elif ty is Global:
                                                v = gv[y.slot]
                                                if v is UNBOUND:
                                                    raise unbound_error(y)
                                            else:
                                                break
                                            iv.append(v)
                                        else:
                                            fn = iv[0]
                                            if type(fn) is Primitive and not fn.backend:
                                                site = x
                                                steps += 1
                                                if steps > slimit:
                                                    raise self.exhausted()
                                                na = len(iv) - 1
                                                # Two exact integers to an operator of the fast table first: those
                                                # primitives take two arguments and no context, so the checks below
                                                # would pass; skipping them is most of an arithmetic step's dispatch.
                                                if na == 2 and type(iv[1]) is int and type(iv[2]) is int \
                                                        and (op := int2(fn)) is not None:
                                                    v = op(iv[1], iv[2])
                                                elif not (na >= fn.min_args
                                                          and (fn.max_args < 0 or na <= fn.max_args)):
                                                    raise prim_arity_error(fn, na)
                                                elif fn.needs_context:
                                                    ctx.site = x.span
                                                    v = fn.fn(ctx, *iv[1:])
                                                elif na == 2:
                                                    v = fn.fn(iv[1], iv[2])
                                                elif na == 1:
                                                    v = fn.fn(iv[1])
                                                else:
                                                    v = fn.fn(*iv[1:])
                                                if type(v) is Values and t is not Seq:
                                                    raise mv_error(x.span, v)
                                                lv.append(v)
                                                continue
                                        vals = iv
                                        i = len(iv)
                                        mode = ARGS
                                    elif tx is Local:
                                        steps += 1
                                        if steps > slimit:
                                            raise self.exhausted()
                                        e = env
                                        d = x.depth
                                        while d:
                                            e = e[0]
                                            d -= 1
                                        v = e[x.index + 1]
                                        if v is UNINIT:
                                            raise uninit_error(x)
                                        if type(v) is Values and t is not Seq:
                                            raise mv_error(x.span, v)
                                        lv.append(v)
                                        continue
                                    elif tx is Const:
                                        steps += 1
                                        if steps > slimit:
                                            raise self.exhausted()
                                        lv.append(x.value)
                                        continue
                                    elif tx is Lambda:
                                        steps += 1
                                        if steps > slimit:
                                            raise self.exhausted()
                                        lv.append(Closure(x, env))
                                        continue
                                    k.append((F_IF, node, env) if t is If
                                             else (F_LET, node, env, lv, len(lv) + 1) if t is Let
                                             else (F_SEQ, node, env, len(lv) + 1))
                                    node = x
                                    break
                                else:
                                    if t is If:
                                        node = node.else_ if lv[0] is False else node.then
                                    elif t is Let:
                                        env = [env, *lv]
                                        node = node.body
                                    else:
                                        node = node.exprs[-1]
                            elif t is Local:
                                e = env
                                d = node.depth
                                while d:
                                    e = e[0]
                                    d -= 1
                                val = e[node.index + 1]
                                if val is UNINIT:
                                    raise uninit_error(node)
                                mode = RET
                            elif t is Const:
                                val = node.value
                                mode = RET
                            elif t is Global:
                                val = gv[node.slot]
                                if val is UNBOUND:
                                    raise unbound_error(node)
                                mode = RET
                            elif t is Lambda:
                                val = Closure(node, env)
                                mode = RET
                            elif t is ir.Letrec:
                                env = [env] + [UNINIT] * len(node.inits)
                                # Lambda inits (named let, internal defines) are closed over in place;
                                # the first other init runs under the frame the frame path would push.
                                for j, x in enumerate(node.inits):
                                    if type(x) is not Lambda:
                                        k.append((F_LETREC, node, env, j))
                                        node = x
                                        break
                                    steps += 1
                                    if steps > slimit:
                                        raise self.exhausted()
                                    env[j + 1] = Closure(x, env)
                                else:
                                    node = node.body
                            elif t is ir.ValuesNode:
                                if node.args:
                                    k.append((F_VALUES, node, env, [], 1))
                                    node = node.args[0]
                                else:
                                    val = NO_VALUES
                                    mode = RET
                            elif t is ir.SetLocal:
                                k.append((F_SETL, node, env))
                                node = node.value
                            elif t is ir.SetGlobal:
                                k.append((F_SETG, node))
                                node = node.value
                            elif t is ir.DefineGlobal:
                                k.append((F_DEFG, node))
                                node = node.value
                            elif t is Intrinsic:
                                val = prims[node.name]
                                mode = RET
                            elif t is ir.Guard:
                                frame = (F_GUARD, node, env, handlers)
                                handlers = (GuardHandler(len(k)), handlers)
                                k.append(frame)
                                node = node.body
                            else:
                                raise TypeError(f"unknown Core IR node {t.__name__}")
                            if t is not App:  # a call goes straight on to its operands
                                continue

                        if mode == ARGS:
                            # Operator and operands left to right; leaves are read in place,
                            # anything else is evaluated under an F_ARGS frame.
                            parts = node.parts
                            n = len(parts)
                            while i < n:
                                x = parts[i]
                                tx = type(x)
                                if tx is Local:
                                    e = env
                                    d = x.depth
                                    while d:
                                        e = e[0]
                                        d -= 1
                                    v = e[x.index + 1]
                                    if v is UNINIT:
                                        raise uninit_error(x)
                                elif tx is Const:
                                    v = x.value
                                elif tx is Global:
                                    v = gv[x.slot]
                                    if v is UNBOUND:
                                        raise unbound_error(x)
                                elif tx is App:
                                    # A primitive applied to leaves runs here without an F_ARGS
                                    # frame, with the same transitions, checks and registers;
                                    # anything else resumes this loop on the inner call, in the
                                    # frame path's state.
                                    steps += 1
                                    if steps > slimit:
                                        raise self.exhausted()
                                    iv = []
                                    for y in x.parts:
                                        ty = type(y)
                                        if ty is Local:
                                            e = env
                                            d = y.depth
                                            while d:
                                                e = e[0]
                                                d -= 1
                                            v = e[y.index + 1]
                                            if v is UNINIT:
                                                raise uninit_error(y)
                                        elif ty is Const:
                                            v = y.value
                                        elif ty is Global:
                                            v = gv[y.slot]
                                            if v is UNBOUND:
                                                raise unbound_error(y)
                                        else:
                                            break
                                        iv.append(v)
                                    else:
                                        fn = iv[0]
                                        if type(fn) is Primitive and not fn.backend:
                                            site = x
                                            steps += 1
                                            if steps > slimit:
                                                raise self.exhausted()
                                            na = len(iv) - 1
                                            # Two exact integers to an operator of the fast table first: those
                                            # primitives take two arguments and no context, so the checks below
                                            # would pass; skipping them is most of an arithmetic step's dispatch.
                                            if na == 2 and type(iv[1]) is int and type(iv[2]) is int \
                                                    and (op := int2(fn)) is not None:
                                                v = op(iv[1], iv[2])
                                            elif not (na >= fn.min_args
                                                      and (fn.max_args < 0 or na <= fn.max_args)):
                                                raise prim_arity_error(fn, na)
                                            elif fn.needs_context:
                                                ctx.site = x.span
                                                v = fn.fn(ctx, *iv[1:])
                                            elif na == 2:
                                                v = fn.fn(iv[1], iv[2])
                                            elif na == 1:
                                                v = fn.fn(iv[1])
                                            else:
                                                v = fn.fn(*iv[1:])
                                            if type(v) is Values:
                                                raise mv_error(x.span, v)
                                            vals.append(v)
                                            i += 1
                                            continue
                                    k.append((F_ARGS, node, env, vals, i))
                                    node = x
                                    vals = iv
                                    i = len(iv)
                                    parts = x.parts
                                    n = len(parts)
                                    continue
                                elif tx is Intrinsic:
                                    v = prims[x.name]
                                elif tx is Lambda:
                                    steps += 1
                                    if steps > slimit:
                                        raise self.exhausted()
                                    v = Closure(x, env)
                                else:
                                    break
                                vals.append(v)
                                i += 1
                            if i < n:
                                k.append((F_ARGS, node, env, vals, i))
                                node = parts[i]
                                mode = EVAL
                                continue
                            site = node
                            tail = node.tail
                            mode = APPLY

                        if mode == RET:
                            if not k:
                                return val
                            fr = k.pop()
                            tag = fr[0]
                            if tag == F_RET:
                                # a closure's return, nearly always followed by the frame that
                                # called it: take that one too without another round of dispatch
                                depth -= 1
                                if not k:
                                    return val
                                fr = k.pop()
                                tag = fr[0]
                            if tag == F_ARGS:
                                node, env, vals, i = fr[1], fr[2], fr[3], fr[4]
                                if type(val) is Values:
                                    raise mv_error(node.parts[i].span, val)
                                vals.append(val)
                                i += 1
                                mode = ARGS
                            elif tag == F_RET:
                                depth -= 1
                            elif tag == F_IF:
                                node = fr[1]
                                if type(val) is Values:
                                    raise mv_error(node.test.span, val)
                                env = fr[2]
                                node = node.else_ if val is False else node.then
                                mode = EVAL
                            elif tag == F_SEQ:
                                node, env, i = fr[1], fr[2], fr[3]
                                exprs = node.exprs
                                if i + 1 < len(exprs):
                                    k.append((F_SEQ, node, env, i + 1))
                                node = exprs[i]
                                mode = EVAL
                            elif tag == F_GEN:
                                gen = fr[1]
                                try:
                                    f, args = gen.send(val)
                                except StopIteration as stop:
                                    val = stop.value
                                except LispexError as e:
                                    # A fault of the primitive itself (say, a callback's result
                                    # of the wrong kind) belongs to the primitive's call site.
                                    if e.span is None:
                                        e.span = fr[2].span
                                    raise
                                else:
                                    k.append(fr)
                                    site = fr[2]  # applying a callback: the primitive's call
                                    vals = [f, *args]
                                    tail = False
                                    mode = APPLY
                            elif tag == F_LET:
                                node, env, lv, i = fr[1], fr[2], fr[3], fr[4]
                                if type(val) is Values:
                                    raise mv_error(node.inits[i - 1].span, val)
                                lv.append(val)
                                if i < len(node.inits):
                                    k.append((F_LET, node, env, lv, i + 1))
                                    node = node.inits[i]
                                else:
                                    env = [env, *lv]
                                    node = node.body
                                mode = EVAL
                            elif tag == F_LETREC:
                                node, env, i = fr[1], fr[2], fr[3]
                                if type(val) is Values:
                                    raise mv_error(node.inits[i].span, val)
                                env[i + 1] = val
                                i += 1
                                if i < len(node.inits):
                                    k.append((F_LETREC, node, env, i))
                                    node = node.inits[i]
                                else:
                                    node = node.body
                                mode = EVAL
                            elif tag == F_VALUES:
                                node, env, vv, i = fr[1], fr[2], fr[3], fr[4]
                                if type(val) is Values:
                                    raise mv_error(node.args[i - 1].span, val)
                                vv.append(val)
                                if i < len(node.args):
                                    k.append((F_VALUES, node, env, vv, i + 1))
                                    node = node.args[i]
                                    mode = EVAL
                                else:
                                    val = vv[0] if len(vv) == 1 else Values(tuple(vv))
                            elif tag == F_SETL:
                                node, e = fr[1], fr[2]
                                if type(val) is Values:
                                    raise mv_error(node.value.span, val)
                                d = node.depth
                                while d:
                                    e = e[0]
                                    d -= 1
                                e[node.index + 1] = val
                                val = NO_VALUES
                            elif tag == F_SETG:
                                node = fr[1]
                                if type(val) is Values:
                                    raise mv_error(node.value.span, val)
                                if gv[node.slot] is UNBOUND:
                                    raise LispexError("E303", f"set! of unbound variable "
                                                      f"{node.name}", (), node.span)
                                gv[node.slot] = val
                                val = NO_VALUES
                            else:
                                if tag == F_CWV or tag == F_DW_BEFORE or tag == F_DW:
                                    # The frame applies a procedure on behalf of a primitive: a
                                    # fault of that application points at the primitive's call.
                                    site = fr[-1]
                                mode, val, vals, tail, handlers, depth, node, env = self.control(
                                    fr, k, val, handlers, depth)
                                if mode == UNWIND:
                                    unwind_target, unwind_action = node
                            continue

                        if mode == APPLY:
                            steps += 1
                            if steps > slimit:
                                raise self.exhausted()
                            fn = vals[0]
                            tf = type(fn)
                            if tf is Closure:
                                lam = fn.lam
                                n = len(vals) - 1
                                if lam.rest:
                                    np = lam.nparams
                                    if n < np:
                                        raise arity_error(fn.name, f"at least {np}", n)
                                    rest = list_from(vals[np + 1:])
                                    del vals[np + 1:]
                                    vals.append(rest)
                                elif n != lam.nparams:
                                    raise arity_error(fn.name, str(lam.nparams), n)
                                vals[0] = fn.env
                                if not tail:
                                    depth += 1
                                    if depth > RECURSION_LIMIT:
                                        raise ResourceExhausted(
                                            "recursion-limit",
                                            f"non-tail call depth passed {RECURSION_LIMIT}")
                                    k.append(RET_FRAME)
                                env = vals
                                node = lam.body
                                mode = EVAL
                                continue
                            if tf is Primitive:
                                n = len(vals) - 1
                                # as in the inline path: the fast table's operators pass the
                                # checks below for two arguments
                                if n == 2 and type(vals[1]) is int and type(vals[2]) is int \
                                        and (op := int2(fn)) is not None:
                                    val = op(vals[1], vals[2])
                                    mode = RET
                                    continue
                                if not (n >= fn.min_args and (fn.max_args < 0 or n <= fn.max_args)):
                                    raise prim_arity_error(fn, n)
                                if not fn.backend:
                                    if fn.needs_context:
                                        ctx.site = site.span
                                        val = fn.fn(ctx, *vals[1:])
                                    elif n == 1:
                                        val = fn.fn(vals[1])
                                    elif n == 2:
                                        val = fn.fn(vals[1], vals[2])
                                    else:
                                        val = fn.fn(*vals[1:])
                                    mode = RET
                                    continue
                                gen_fn = GENERATORS.get(fn.name)
                                if gen_fn is not None:
                                    mode, val, vals = self.start_generator(gen_fn, vals, site, k)
                                    tail = False
                                    continue
                                mode, val, vals, tail, handlers, node = self.special(
                                    fn, vals, tail, k, handlers, site)
                                if mode == UNWIND:
                                    unwind_target, unwind_action = node
                                continue
                            if tf is Continuation:
                                unwind_target, unwind_action = self.escape(fn, vals)
                                mode = UNWIND
                                continue
                            raise LispexError("E301", "attempt to call a non-procedure",
                                              (fn,))

                        # mode == UNWIND
                        mode, val, vals, handlers, depth, s, node, env = self.unwind(
                            k, unwind_target, unwind_action, handlers, depth)
                        tail = False
                        if s is not None:
                            site = s
                        if mode == UNWIND:
                            unwind_target, unwind_action = node
                except LispexError as err:
                    span = err.span if err.span is not None else getattr(site, "span", None)
                    payload = error_object(err, span)
                    mode, val, vals, tail, handlers, node = self.signal(payload, False, span, k,
                                                                        handlers)
                    if mode == UNWIND:
                        unwind_target, unwind_action = node
        finally:
            self.steps = steps
            self.settle()
