"""The VM's rarely taken paths: general application, control primitives, conditions, escapes.

Every method takes and returns the machine registers ``(code, pc, env, depth, handlers)`` and
works on ``self.frames`` / ``self.stack``. A call is made in one of three modes:

* ``CALLER`` (0): a non-tail call from the running code; a closure gets a return frame
  ``(code, pc, env, depth)`` and one more unit of depth, a primitive's value is pushed in place.
* ``TAIL`` (1): the value goes to whatever frame is on top; nothing is pushed.
* ``NESTED`` (2): a call the machine makes from a control frame it has just pushed (callbacks,
  handlers, thunks, receivers, producers): it returns into that frame, and counts toward the
  depth as the tree interpreter's non-tail calls do.
"""

from __future__ import annotations

from typing import Any

from implementations.lispex.errors import LispexError, Raised, ResourceExhausted
from implementations.lispex.guest_library import GENERATORS as GUEST
from implementations.lispex.meters import MACHINE, RECURSION_LIMIT
from implementations.lispex.values import (
    ErrorObject,
    Primitive,
    Procedure,
    Str,
    Values,
    list_from,
    list_to_python,
)

from .link import (
    HALT,
    K_CC,
    K_CWV,
    K_DW,
    K_DW_BEFORE,
    K_DW_DONE,
    K_GEN,
    K_HANDLERS,
    K_RAISE,
    K_UNWIND,
)
from .objects import Closure, Continuation, GuardHandler
from .treegen import mv_error

CALLER, TAIL, NESTED = 0, 1, 2

HALT_CODE = [(HALT, 0)]
K_CODES = {k: [(k, 0)] for k in (K_CWV, K_CC, K_DW_BEFORE, K_DW, K_DW_DONE, K_HANDLERS, K_RAISE,
                                 K_GEN, K_UNWIND)}
CC_CODE = K_CODES[K_CC]
DW_CODE = K_CODES[K_DW]
GUARD_MARK: list = []  # the code slot of a guard frame: never returned into


def gather(spec: tuple, nstack: int, stack: list, env: Any) -> list:
    """Operand values in order: stack entries (checked for one value where the compiler asked)
    and evaluators, interleaved as ``spec`` says."""
    if nstack:
        vals = stack[-nstack:]
        del stack[-nstack:]
        out = []
        i = 0
        for kind, x in spec:
            if kind:
                out.append(x(env))
            else:
                v = vals[i]
                i += 1
                if x is not None and type(v) is Values:
                    raise mv_error(x, v)
                out.append(v)
        return out
    return [x(env) for _, x in spec]


def error_object(e: LispexError, span: Any) -> ErrorObject:
    return ErrorObject(e.code, Str(e.message), list_from(e.irritants), e.span or span)


def _arity(name: str | None, expected: str, got: int) -> LispexError:
    return LispexError("E302", f"{name or 'anonymous procedure'}: expected {expected} "
                       f"argument(s), got {got}", ())


def arity_text(p: Primitive) -> str:
    if p.max_args < 0:
        return f"at least {p.min_args}"
    if p.min_args == p.max_args:
        return str(p.min_args)
    return f"{p.min_args} to {p.max_args}"


class Control:
    frames: list
    stack: list
    steps: int
    step_limit: int
    st: Any
    ctx: Any
    meter: Any

    def exhausted(self) -> ResourceExhausted:
        return ResourceExhausted("machine-transition-limit",
                                 f"machine-transition limit of {self.meter.limits[MACHINE]} "
                                 "exceeded")

    def tick(self) -> None:
        """One machine transition for an application the machine makes on its own."""
        self.steps += 1
        if self.steps > self.step_limit:
            raise self.exhausted()

    def ret(self, v: Any, handlers: Any) -> tuple:
        self.stack.append(v)
        code, pc, env, depth = self.frames.pop()
        return code, pc, env, depth, handlers

    def apply(self, fn: Any, args: list, mode: int, code: Any, pc: int, env: Any, depth: int,
              handlers: Any) -> tuple:  # noqa: C901
        frames = self.frames
        while True:
            t = type(fn)
            if t is Closure:
                n = len(args)
                np = fn.np
                if np >= 0:
                    if n != np:
                        raise _arity(fn.name, str(np), n)
                    e = [fn.env, *args]
                else:
                    np = -1 - np
                    if n < np:
                        raise _arity(fn.name, f"at least {np}", n)
                    e = [fn.env, *args[:np], list_from(args[np:])]
                if mode != TAIL:
                    if mode == CALLER:
                        frames.append((code, pc, env, depth))
                    depth += 1
                    if depth > RECURSION_LIMIT:
                        raise ResourceExhausted("recursion-limit",
                                                f"non-tail call depth passed {RECURSION_LIMIT}")
                return fn.ins, 0, e, depth, handlers
            if t is Primitive:
                n = len(args)
                if not (n >= fn.min_args and (fn.max_args < 0 or n <= fn.max_args)):
                    raise LispexError("E302", f"{fn.name}: expected {arity_text(fn)} "
                                      f"argument(s), got {n}", ())
                if not fn.backend:
                    if fn.needs_context:
                        self.ctx.site = self.st.site
                        v = fn.fn(self.ctx, *args)
                    else:
                        v = fn.fn(*args)
                    if mode == CALLER:
                        self.stack.append(v)
                        return code, pc, env, depth, handlers
                    return self.ret(v, handlers)
                name = fn.name
                if name == "apply":
                    spread = list_to_python(args[-1])
                    if spread is None:
                        raise LispexError("E310", "apply: the last argument must be a proper "
                                          "list", (args[-1],))
                    fn, args = args[0], [*args[1:-1], *spread]
                    self.tick()
                    continue
                if name == "values":
                    v = args[0] if n == 1 else Values(tuple(args))
                    if mode == CALLER:
                        self.stack.append(v)
                        return code, pc, env, depth, handlers
                    return self.ret(v, handlers)
                return self.special(name, fn, args, mode, code, pc, env, depth, handlers)
            if t is Continuation:
                if not fn.active:
                    raise LispexError("E340", "escape continuation is no longer active", ())
                v = args[0] if len(args) == 1 else Values(tuple(args))
                return self.unwind(fn.index, ("deliver", v), depth, handlers)
            raise LispexError("E301", "attempt to call a non-procedure", (fn,))

    def special(self, name: str, fn: Primitive, args: list, mode: int, code: Any, pc: int,
                env: Any, depth: int, handlers: Any) -> tuple:
        """The control primitives and the guest-calling library: frames of their own."""
        frames = self.frames
        if name == "raise":
            return self.signal(args[0], False, self.st.site, depth, handlers)
        if name == "with-exception-handler" and not isinstance(args[0], Procedure):
            raise LispexError("E312", "with-exception-handler: expected a procedure as the "
                              "handler", (args[0],))
        if name == "call-with-values":
            data = (args[1], (code, pc, env) if mode == CALLER else None, mode, self.st.site)
            frames.append((K_CODES[K_CWV], 0, data, depth))
            self.tick()
            return self.apply(args[0], [], NESTED, None, 0, None, depth, handlers)
        if mode == CALLER:
            frames.append((code, pc, env, depth))
        if name == "raise-continuable":
            return self.signal(args[0], True, self.st.site, depth, handlers)
        gen_fn = GUEST.get(name)
        if gen_fn is not None:
            return self.resume((gen_fn(*args), self.st.site), None, True, depth, handlers)
        if name == "call-with-current-continuation":
            cont = Continuation(len(frames))
            frames.append((CC_CODE, 0, (cont, handlers, len(self.stack)), depth))
            self.tick()
            return self.apply(args[0], [cont], NESTED, None, 0, None, depth, handlers)
        if name == "dynamic-wind":
            before, thunk, after = args
            frames.append((K_CODES[K_DW_BEFORE], 0, (thunk, after, handlers, self.st.site),
                           depth))
            self.tick()
            return self.apply(before, [], NESTED, None, 0, None, depth, handlers)
        if name == "with-exception-handler":
            handler, thunk = args
            frames.append((K_CODES[K_HANDLERS], 0, handlers, depth))
            self.tick()
            # Calling the thunk is inside the handler's extent: a thunk that is no procedure,
            # or takes arguments, is the new handler's to see.
            return self.call_under(thunk, [], depth, (handler, handlers))
        raise TypeError(f"primitive {name} has no VM implementation")

    def resume(self, data: tuple, value: Any, first: bool, depth: int, handlers: Any) -> tuple:
        """Run a guest-calling primitive's generator (``data``: it and the span of its call) to
        its next callback or its result."""
        gen, span = data
        try:
            f, fargs = next(gen) if first else gen.send(value)
        except StopIteration as stop:
            return self.ret(stop.value, handlers)
        except LispexError as e:
            if e.span is None:  # a fault of the primitive itself belongs to its call site
                e.span = span
            raise
        self.frames.append((K_CODES[K_GEN], 0, data, depth))
        self.tick()
        self.st.site = span  # applying a callback: a fault of that points at the primitive's call
        return self.apply(f, list(fargs), NESTED, None, 0, None, depth, handlers)

    def signal(self, payload: Any, continuable: bool, span: Any, depth: int,
               handlers: Any) -> tuple:
        """Offer ``payload`` to the innermost handler, in place (R7RS style)."""
        if handlers is None:
            raise Raised(payload, span)
        h, outer = handlers
        if type(h) is GuardHandler:
            return self.unwind(h.index, ("guard", payload, continuable, span), depth, handlers)
        self.frames.append((K_CODES[K_RAISE], 0, (continuable, payload, handlers, span), depth))
        self.tick()
        # The handler runs with itself suppressed: a handler that cannot be called (it takes no
        # argument) faults to the handlers outside it.
        return self.call_under(h, [payload], depth, outer)

    def call_under(self, f: Any, args: list, depth: int, handlers: Any) -> tuple:
        """Apply ``f`` (nested) with ``handlers`` in force. A fault of the call itself (no
        procedure, wrong arity, a primitive's own fault) is offered to those handlers too: the
        machine loop only knows the handlers in force before the call."""
        try:
            return self.apply(f, args, NESTED, None, 0, None, depth, handlers)
        except LispexError as err:
            span = err.span if err.span is not None else self.st.site
            return self.signal(error_object(err, span), False, span, depth, handlers)

    def enter_guard(self, target: int, code: Any, env: Any, depth: int, handlers: Any) -> Any:
        frames = self.frames
        frames.append((GUARD_MARK, target, (code, env, len(self.stack), handlers), depth))
        return GuardHandler(len(frames) - 1), handlers

    def unwind(self, target: int, action: tuple, depth: int, handlers: Any) -> tuple:
        """Pop frames down to ``target``, running dynamic-wind ``after`` thunks on the way."""
        frames = self.frames
        while len(frames) > target + 1:
            fr = frames.pop()
            c = fr[0]
            if c is CC_CODE:
                fr[2][0].active = False
            elif c is DW_CODE:
                after, saved, self.st.site = fr[2]
                frames.append((K_CODES[K_UNWIND], 0, (target, action), fr[3]))
                self.tick()
                return self.call_under(after, [], fr[3], saved)
        fr = frames.pop()
        if action[0] == "deliver":
            # Resume in the call/cc frame itself: it deactivates, restores handlers, returns.
            del self.stack[fr[2][2]:]
            self.stack.append(action[1])
            return fr[0], 0, fr[2], fr[3], handlers
        code, env, height, saved = fr[2]
        del self.stack[height:]
        _, payload, continuable, span = action
        return code, fr[1], [env, payload, continuable, span], fr[3], saved

    def control(self, op: int, data: Any, depth: int, handlers: Any) -> tuple:  # noqa: C901
        """A value was returned into a control frame (``data`` is its payload)."""
        stack = self.stack
        if op == K_GEN:
            return self.resume(data, stack.pop(), False, depth, handlers)
        if op == K_CC:
            data[0].active = False
            code, pc, env, depth = self.frames.pop()
            return code, pc, env, depth, data[1]
        if op == K_HANDLERS:
            code, pc, env, depth = self.frames.pop()
            return code, pc, env, depth, data
        if op == K_CWV:
            consumer, caller, mode, self.st.site = data
            v = stack.pop()
            args = list(v.items) if type(v) is Values else [v]
            code, pc, env = caller if caller is not None else (None, 0, None)
            self.tick()
            return self.apply(consumer, args, mode, code, pc, env, depth, handlers)
        if op == K_DW_BEFORE:
            thunk, after, saved, site = data
            stack.pop()
            self.st.site = site
            self.frames.append((DW_CODE, 0, (after, saved, site), depth))
            self.tick()
            return self.apply(thunk, [], NESTED, None, 0, None, depth, handlers)
        if op == K_DW:
            after, saved, self.st.site = data
            v = stack.pop()
            self.frames.append((K_CODES[K_DW_DONE], 0, v, depth))
            self.tick()
            return self.apply(after, [], NESTED, None, 0, None, depth, saved)
        if op == K_DW_DONE:
            stack.pop()
            return self.ret(data, handlers)
        if op == K_RAISE:
            continuable, payload, saved, span = data
            if continuable:
                code, pc, env, depth = self.frames.pop()
                return code, pc, env, depth, saved
            stack.pop()
            err = ErrorObject("E332", Str("exception handler returned from a non-continuable "
                                          "raise"), list_from([payload]), span)
            return self.signal(err, False, span, depth, handlers)
        if op == K_UNWIND:
            stack.pop()
            return self.unwind(data[0], data[1], depth, handlers)
        raise TypeError(f"unknown VM instruction {op}")
