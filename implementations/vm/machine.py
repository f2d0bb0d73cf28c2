"""The VM: runs linked code with its own value stack and frame stack.

Registers are locals of :meth:`Machine.run`: ``code``/``pc`` (the instruction list and the next
index), ``env`` (the lexical frame: ``[parent, slot...]``), ``depth`` (non-tail call depth),
``handlers`` (the handler chain) and ``steps``. A non-tail call pushes ``(code, pc, env, depth)``
on the frame stack; a tail call pushes nothing, so tail calls run in constant space; ``return``
leaves its value on the value stack and pops a frame. Control primitives push frames whose code
is a one-instruction list (``K_*``) that runs when a value is returned into it, so escapes,
handlers, dynamic-wind and guest-calling primitives all live on the same frame stack and no
Lispex call ever recurses in Python.

The hot instructions are handled inline in one loop; everything rare is a method of
:class:`~implementations.vm.control.Control`, which returns the new registers.
"""

from __future__ import annotations

from typing import Any

from implementations.lispex.errors import LispexError, ResourceExhausted
from implementations.lispex.meters import MACHINE, RECURSION_LIMIT, Meter
from implementations.lispex.values import NO_VALUES, Primitive, Values

from .code import Compiled
from .control import HALT_CODE, Control, error_object, gather
from .link import (
    CALLE,
    CALLG,
    CALLS,
    CALLX,
    DEFG,
    DISCARD,
    DISCARDE,
    ENTERLET,
    ENTERREC,
    GUARD,
    HALT,
    INITL,
    JF,
    JFKEEP,
    JFS,
    JUMP,
    LEAVE,
    LEAVEGUARD,
    MKVALS,
    NOP,
    PRIMF,
    PUSHC,
    PUSHE,
    PUSHL,
    REQ1,
    RERAISE,
    RET,
    RETE,
    SETG,
    SETL,
    Linker,
)
from .objects import Closure
from .stepwise import run_to_limit
from .treegen import UNBOUND, UNINIT, mv_error


class SiteRegister:
    """The span of the last application made: where a fault without its own span is reported."""

    __slots__ = ("site",)

    def __init__(self) -> None:
        self.site = None


def _deep() -> ResourceExhausted:
    return ResourceExhausted("recursion-limit", f"non-tail call depth passed {RECURSION_LIMIT}")


class Machine(Control):
    def __init__(self, compiled: Compiled, prims: dict[str, Primitive], ctx: Any, meter: Meter,
                 input_value: Any = UNBOUND) -> None:
        gv = [UNBOUND] * len(compiled.globals)
        for i, name in enumerate(compiled.globals):
            p = prims.get(name)
            if p is not None:
                gv[i] = p
            elif name == "input":
                gv[i] = input_value
        self.gv = gv
        self.ctx = ctx
        self.meter = meter
        self.st = SiteRegister()
        linker = Linker(compiled, prims, gv, self.st, ctx)
        self.forms = linker.link()
        self.ledgers = linker.ledgers
        self.lams = linker.lams
        self.form_spans = [compiled.codes[i].span for i in compiled.forms]
        self.steps = 0
        self.step_limit = meter.remaining(MACHINE)

    def settle(self) -> None:
        self.meter.used[MACHINE] += min(self.steps, self.step_limit)
        self.steps = 0
        self.step_limit = self.meter.remaining(MACHINE)

    def unreached(self, ins: Any, span: Any) -> int:
        """What ``ins``, paid in full before it ran, had not reached when it faulted at the
        point ``span``: the weights after that point in its ledger (none when the fault is not
        at one of its points, i.e. came once it had done all it pays for)."""
        led = self.ledgers.get(id(ins)) if ins is not None and span is not None else None
        if led:
            paid = 0
            for w, at, _ in led:
                paid += w
                if at is span:
                    return ins[1] - paid
        return 0

    def run_all(self) -> Any:
        result: Any = NO_VALUES
        for code, span in zip(self.forms, self.form_spans, strict=True):
            result = self.run(code, span)
        return result

    # One long loop on purpose: registers in locals and the hot instructions inline are what
    # make a CPython VM fast. Instructions are ordered by how often they run.
    def run(self, code: list, span: Any) -> Any:  # noqa: C901
        st = self.st
        st.site = span
        gv = self.gv
        self.frames = frames = [(HALT_CODE, 0, None, 0)]
        self.stack = stack = []
        push = stack.append
        pop = stack.pop
        fpush = frames.append
        fpop = frames.pop
        handlers: Any = None
        depth = 0
        env: Any = None
        pc = 0
        steps = self.steps
        slimit = self.step_limit
        gfn: Any = None  # a call the loop hands to Control.apply
        gargs: list = []
        gmode = 0
        fault: Any = None  # (error object, span) of a fault to offer to the handlers
        try:
            while True:
                ins = None  # no instruction of this loop has run yet (a fault is before them)
                try:
                    if fault is not None:
                        # Offered inside the try: a fault while it unwinds (an `after` thunk
                        # that fails) replaces it and is offered in turn.
                        (payload, span), fault = fault, None
                        code, pc, env, depth, handlers = self.signal(payload, False, span,
                                                                     depth, handlers)
                        steps = self.steps
                    if gfn is not None:
                        self.steps = steps
                        f, gfn = gfn, None
                        code, pc, env, depth, handlers = self.apply(
                            f, gargs, gmode, code, pc, env, depth, handlers)
                        steps = self.steps
                    while True:
                        ins = code[pc]
                        pc += 1
                        steps += ins[1]
                        if steps > slimit:
                            self.steps = steps
                            run_to_limit(self, ins, env, slimit - steps + ins[1])
                        op = ins[0]
                        if op == CALLG:
                            _, _, slot, name, gspan, evs, n, span, tail, chk = ins
                            if chk is not None and type(stack[-1]) is Values:
                                raise mv_error(chk, stack[-1])
                            f = gv[slot]
                            if f is UNBOUND:
                                raise LispexError("E300", f"unbound variable {name}", (), gspan)
                            if n == 1:
                                a = [None, evs[0](env)]
                            elif n == 2:
                                a = [None, evs[0](env), evs[1](env)]
                            else:
                                a = [None]
                                for e in evs:
                                    a.append(e(env))
                            st.site = span
                            if type(f) is Closure and f.np == n:
                                a[0] = f.env
                                if not tail:
                                    fpush((code, pc, env, depth))
                                    depth += 1
                                    if depth > RECURSION_LIMIT:
                                        raise _deep()
                                code = f.ins
                                pc = 0
                                env = a
                                continue
                            gfn, gargs, gmode = f, a[1:], tail
                            break
                        if op == JF:
                            if ins[2](env) is False:
                                pc = ins[3]
                            continue
                        if op == RETE:
                            push(ins[2](env))
                            code, pc, env, depth = fpop()
                            continue
                        if op == RET:
                            code, pc, env, depth = fpop()
                            continue
                        if op == PUSHE:
                            push(ins[2](env))
                            continue
                        if op == CALLE:
                            _, _, evf, evs, n, span, tail, chk = ins
                            if chk is not None and type(stack[-1]) is Values:
                                raise mv_error(chk, stack[-1])
                            f = evf(env)
                            a = [None]
                            for e in evs:
                                a.append(e(env))
                            st.site = span
                            if type(f) is Closure and f.np == n:
                                a[0] = f.env
                                if not tail:
                                    fpush((code, pc, env, depth))
                                    depth += 1
                                    if depth > RECURSION_LIMIT:
                                        raise _deep()
                                code = f.ins
                                pc = 0
                                env = a
                                continue
                            gfn, gargs, gmode = f, a[1:], tail
                            break
                        if op == PRIMF:
                            _, _, f, n, ret = ins
                            if n == 2:
                                b = pop()
                                stack[-1] = f(env, stack[-1], b)
                            elif n == 1:
                                stack[-1] = f(env, stack[-1])
                            else:
                                a = stack[-n:]
                                del stack[-n:]
                                push(f(env, *a))
                            if ret:
                                code, pc, env, depth = fpop()
                            continue
                        if op == CALLX:
                            _, _, spec, nstack, n, span, tail = ins
                            a = gather(spec, nstack, stack, env)
                            st.site = span
                            f = a[0]
                            if type(f) is Closure and f.np == n:
                                a[0] = f.env
                                if not tail:
                                    fpush((code, pc, env, depth))
                                    depth += 1
                                    if depth > RECURSION_LIMIT:
                                        raise _deep()
                                code = f.ins
                                pc = 0
                                env = a
                                continue
                            gfn, gargs, gmode = f, a[1:], tail
                            break
                        if op == JFS:
                            v = pop()
                            if ins[2] is not None and type(v) is Values:
                                raise mv_error(ins[2], v)
                            if v is False:
                                pc = ins[3]
                            continue
                        if op == PUSHL:
                            _, _, d, i, checked, name, span = ins
                            e = env
                            while d:
                                e = e[0]
                                d -= 1
                            v = e[i]
                            if v is UNINIT and checked:
                                raise LispexError("E321", f"{name} is read before it is "
                                                  "initialised", (), span)
                            push(v)
                            continue
                        if op == CALLS:
                            _, _, n, checks, span, tail = ins
                            a = stack[-n - 1:]
                            del stack[-n - 1:]
                            for k, sp in checks:
                                if type(a[k]) is Values:
                                    raise mv_error(sp, a[k])
                            st.site = span
                            f = a[0]
                            if type(f) is Closure and f.np == n:
                                a[0] = f.env
                                if not tail:
                                    fpush((code, pc, env, depth))
                                    depth += 1
                                    if depth > RECURSION_LIMIT:
                                        raise _deep()
                                code = f.ins
                                pc = 0
                                env = a
                                continue
                            gfn, gargs, gmode = f, a[1:], tail
                            break
                        if op == PUSHC:
                            push(ins[2])
                            continue
                        if op == ENTERLET:
                            a = gather(ins[2], ins[3], stack, env)
                            a.insert(0, env)
                            env = a
                            continue
                        if op == LEAVE:
                            env = env[0]
                            continue
                        if op == JUMP:
                            pc = ins[2]
                            continue
                        if op == REQ1:
                            if type(stack[-1]) is Values:
                                raise mv_error(ins[2], stack[-1])
                            continue
                        if op == ENTERREC:
                            env = [env] + [UNINIT] * ins[2]
                            continue
                        if op == INITL:
                            env[ins[2] + 1] = gather(ins[3], ins[4], stack, env)[0]
                            continue
                        if op == DISCARDE:
                            ins[2](env)
                            continue
                        if op == DISCARD:
                            pop()
                            continue
                        if op == DEFG:
                            gv[ins[2]] = gather(ins[3], ins[4], stack, env)[0]
                            continue
                        if op == SETL:
                            _, _, d, i, spec, nstack = ins
                            v = gather(spec, nstack, stack, env)[0]
                            e = env
                            while d:
                                e = e[0]
                                d -= 1
                            e[i + 1] = v
                            continue
                        if op == SETG:
                            _, _, slot, name, span, spec, nstack = ins
                            v = gather(spec, nstack, stack, env)[0]
                            if gv[slot] is UNBOUND:
                                raise LispexError("E303", f"set! of unbound variable {name}", (),
                                                  span)
                            gv[slot] = v
                            continue
                        if op == MKVALS:
                            a = gather(ins[2], ins[3], stack, env)
                            push(a[0] if len(a) == 1 else Values(tuple(a)) if a else NO_VALUES)
                            continue
                        if op == JFKEEP:
                            if stack[-1] is False:
                                pop()
                                pc = ins[2]
                            continue
                        if op == NOP:
                            continue
                        if op == GUARD:
                            handlers = self.enter_guard(ins[2], code, env, depth, handlers)
                            continue
                        if op == LEAVEGUARD:
                            handlers = fpop()[2][3]
                            continue
                        if op == HALT:
                            return pop()
                        self.steps = steps
                        if op == RERAISE:
                            if ins[2] >= 0:
                                fpush((code, ins[2], env, depth))
                            code, pc, env, depth, handlers = self.signal(
                                env[1], env[2], env[3], depth, handlers)
                        else:
                            code, pc, env, depth, handlers = self.control(op, env, depth,
                                                                          handlers)
                        steps = self.steps
                except LispexError as err:
                    span = err.span if err.span is not None else st.site
                    # a slow path that failed may have counted applications of its own; the
                    # faulting instruction was paid in full, where the canonical code stops
                    # paying at the fault
                    self.steps = steps = max(steps, self.steps) - self.unreached(ins, span)
                    fault = (error_object(err, span), span)
                    gfn = None
        except ResourceExhausted as x:
            if x.code != "machine-transition-limit":
                # the output limit (in a primitive) or the recursion limit (at a call) stops the
                # instruction where the canonical code stops paying
                steps = max(steps, self.steps) - self.unreached(ins, st.site)
                self.steps = steps
            raise
        finally:
            # A slow path that ended the run (an uncaught raise, a limit) counted its own
            # applications in self.steps, past this loop's local.
            self.steps = max(steps, self.steps)
            self.settle()
