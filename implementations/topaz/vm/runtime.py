"""What generated code calls when it cannot do the work inline: application of an unknown
procedure, trampolines, conditions and handlers, and the control primitives.

Conventions shared with the code generator:

* ``d`` is always the non-tail depth of the frame doing the work; a non-tail call runs its
  callee at ``d + 1`` (the callee's prologue checks the recursion limit), a tail call at ``d``.
* the *site* is the application most recently started (a cell of the generated program, read
  and written through ``site_get``/``site_set``); an application the runtime makes on behalf of
  a primitive (a call-with-values consumer, a dynamic-wind thunk, a library callback) reports a
  fault of its own (E301, E302) at the primitive's call, as the tree interpreter does.
* a fault travels as a Python :class:`LispexError` only until the first frame with dynamic
  state (a handler, guard, call/cc, dynamic-wind or the top level) catches it and calls
  :meth:`Runtime.fault`, which offers it to the handlers *in place* (R7RS style): nothing with
  an observable unwinding effect lies between the fault and that frame. A fault raised by a
  kernel primitive that generated code called directly carries no depth or span; they are read
  back from the traceback (the innermost generated frame's ``d`` and the call position).
"""

from __future__ import annotations

from typing import Any

from implementations.topaz.kernel.errors import LispexError, Raised, ResourceExhausted
from implementations.topaz.kernel.meters import RECURSION_LIMIT
from implementations.topaz.kernel.values import (
    ErrorObject,
    Primitive,
    Procedure,
    Str,
    Values,
    list_from,
    list_to_python,
)

from .guest import GuestPrimitives
from .objects import (
    ESCAPES,
    Closure,
    Continuation,
    ContinuationEscape,
    GuardEscape,
    GuardHandler,
    TailCall,
)


def arity_text(p: Primitive) -> str:
    if p.max_args < 0:
        return f"at least {p.min_args}"
    if p.min_args == p.max_args:
        return str(p.min_args)
    return f"{p.min_args} to {p.max_args}"


class Runtime(GuestPrimitives):
    """The per-run state generated code shares: handlers, the site cell, the output context."""

    def __init__(self, ctx: Any, sites: list, positions: dict, filename: str,
                 machine_limit: int) -> None:
        self.ctx = ctx
        self.sites = sites  # site index -> span (index 0: no span)
        self.positions = positions  # (line, column) of a primitive call -> site index
        self.filename = filename
        self.machine_limit = machine_limit
        self.h: Any = None  # handler chain: None or (handler, outer chain)
        self.site_get: Any = None
        self.site_set: Any = None
        self._code_positions: dict[Any, list] = {}
        self.control = {
            "apply": self.p_apply,
            "values": self.p_values,
            "call-with-values": self.p_call_with_values,
            "call-with-current-continuation": self.p_call_cc,
            "dynamic-wind": self.p_dynamic_wind,
            "with-exception-handler": self.p_with_handler,
            "raise": self.p_raise,
            "raise-continuable": self.p_raise_continuable,
            **self.guest_table(),
        }

    # -- errors ---------------------------------------------------------------------------------

    def span_now(self) -> Any:
        return self.sites[self.site_get()]

    def err(self, code: str, message: str, irritants: tuple, d: int, span: Any = None) -> LispexError:
        e = LispexError(code, message, irritants, span if span is not None else self.span_now())
        e.tz_depth = d  # type: ignore[attr-defined]
        return e

    def e300(self, d: int, site: int, name: str) -> None:
        raise self.err("E300", f"unbound variable {name}", (), d, self.sites[site])

    def e303(self, d: int, site: int, name: str) -> None:
        raise self.err("E303", f"set! of unbound variable {name}", (), d, self.sites[site])

    def e321(self, d: int, site: int, name: str) -> None:
        raise self.err("E321", f"{name} is read before it is initialised", (), d,
                       self.sites[site])

    def e320(self, d: int, site: int, v: Values) -> None:
        raise self.err("E320", f"expected one value, got {len(v.items)}", (), d,
                       self.sites[site])

    def fuel_out(self) -> None:
        raise ResourceExhausted("machine-transition-limit",
                                f"machine-transition limit of {self.machine_limit} exceeded")

    def too_deep(self) -> None:
        raise ResourceExhausted("recursion-limit",
                                f"non-tail call depth passed {RECURSION_LIMIT}")

    def locate(self, tb: Any) -> tuple[int, int]:
        """(site, depth) of the innermost generated frame in a traceback."""
        found = None
        while tb is not None:
            if tb.tb_frame.f_code.co_filename == self.filename:
                found = tb
            tb = tb.tb_next
        if found is None:
            return 0, 0
        code = found.tb_frame.f_code
        table = self._code_positions.get(code)
        if table is None:
            table = self._code_positions[code] = list(code.co_positions())
        line, _, col, _ = table[found.tb_lasti // 2]
        return self.positions.get((line, col), 0), found.tb_frame.f_locals.get("d", 0)

    def fault(self, e: LispexError) -> Any:
        """Offer a fault to the handlers where it happened; never returns normally."""
        d = getattr(e, "tz_depth", None)
        span = e.span
        if d is None:
            # A kernel primitive called straight from generated code: that call is the site.
            site, d = self.locate(e.__traceback__)
            if site:
                self.site_set(site)
                if span is None:
                    span = self.sites[site]
        if span is None:
            span = self.span_now()
        payload = ErrorObject(e.code, Str(e.message), list_from(e.irritants), span)
        return self.signal(d, payload, False, span)

    def signal(self, d: int, payload: Any, continuable: bool, span: Any) -> Any:
        """Offer ``payload`` to the innermost handler; the handler's value if it may return."""
        chain = self.h
        if chain is None:
            raise Raised(payload, span)
        handler, outer = chain
        if type(handler) is GuardHandler:
            raise GuardEscape(handler, payload, continuable, span)
        self.h = outer  # a handler runs with itself removed
        try:
            value = self.call(d, handler, (payload,))
        except LispexError as e:
            self.fault(e)
        if continuable:
            self.h = chain
            return value
        err = ErrorObject("E332", Str("exception handler returned from a non-continuable "
                                      "raise"), list_from([payload]), span)
        return self.signal(d, err, False, span)

    # -- application ----------------------------------------------------------------------------

    def fit(self, d: int, f: Closure, args: tuple) -> tuple:
        """``args`` for a closure whose arity they do not match plainly: pack a rest list or
        raise E302."""
        n = len(args)
        if f.rest and n >= f.nparams:
            k = f.nparams
            return (*args[:k], list_from(args[k:]))
        expected = f"at least {f.nparams}" if f.rest else str(f.nparams)
        who = f.name or "anonymous procedure"
        raise self.err("E302", f"{who}: expected {expected} argument(s), got {n}", (), d)

    def apply(self, d: int, f: Any, args: tuple, tail: bool) -> Any:
        """One application from a frame at depth ``d``; may return a TailCall."""
        t = type(f)
        if t is Closure:
            if f.ar != len(args):
                args = self.fit(d, f, args)
            return f.fn(d if tail else d + 1, *args)
        if t is Primitive:
            n = len(args)
            if n < f.min_args or (f.max_args >= 0 and n > f.max_args):
                raise self.err("E302", f"{f.name}: expected {arity_text(f)} argument(s), got {n}",
                               (), d)
            if f.backend:
                return self.control[f.name](d, tail, *args)
            try:
                if f.needs_context:
                    self.ctx.site = self.span_now()
                    return f.fn(self.ctx, *args)
                return f.fn(*args)
            except LispexError as e:
                if e.span is None:
                    e.span = self.span_now()
                e.tz_depth = d  # type: ignore[attr-defined]
                raise
        if t is Continuation:
            if not f.active:
                raise self.err("E340", "escape continuation is no longer active", (), d)
            raise ContinuationEscape(f, args[0] if len(args) == 1 else Values(tuple(args)))
        raise self.err("E301", "attempt to call a non-procedure", (f,), d)

    def call(self, d: int, f: Any, args: tuple) -> Any:
        """A non-tail application from depth ``d``, run to its final value."""
        if type(f) is Closure and f.ar == len(args):
            r = f.fn(d + 1, *args)
        else:
            r = self.apply(d, f, args, False)
        if type(r) is TailCall:
            return self.tramp(d + 1, r)
        return r

    def call_at(self, d: int, site: int, f: Any, args: tuple) -> Any:
        """``call`` on behalf of the primitive applied at ``site``: a fault of the application
        itself points there. A closure that fits records its own sites before any look."""
        if type(f) is Closure and f.ar == len(args):
            r = f.fn(d + 1, *args)
        else:
            self.site_set(site)
            r = self.apply(d, f, args, False)
        if type(r) is TailCall:
            return self.tramp(d + 1, r)
        return r

    def tramp(self, d: int, r: Any) -> Any:
        """Run the tail calls a body at depth ``d`` returned until a value comes back."""
        while type(r) is TailCall:
            f = r.f
            args = r.args
            if type(f) is Closure and f.ar == len(args):
                r = f.fn(d, *args)
            else:
                r = self.apply(d, f, args, True)
        return r

    # -- control primitives ---------------------------------------------------------------------
    # Each takes (d, tail, *args); ``tail`` says whether the primitive was applied in tail
    # position, which `apply` and the call-with-values consumer inherit.

    def p_apply(self, d: int, tail: bool, f: Any, *args: Any) -> Any:
        last = args[-1]
        spread = list_to_python(last)
        if spread is None:
            raise self.err("E310", "apply: the last argument must be a proper list", (last,), d)
        full = (*args[:-1], *spread)
        if tail:
            return TailCall(f, full)
        return self.call(d, f, full)

    def p_values(self, d: int, tail: bool, *args: Any) -> Any:
        return args[0] if len(args) == 1 else Values(args)

    def p_call_with_values(self, d: int, tail: bool, producer: Any, consumer: Any) -> Any:
        site = self.site_get()
        v = self.call(d, producer, ())
        args = v.items if type(v) is Values else (v,)
        if tail:
            self.site_set(site)
            return TailCall(consumer, args)
        return self.call_at(d, site, consumer, args)

    def p_call_cc(self, d: int, tail: bool, receiver: Any) -> Any:
        k = Continuation()
        saved = self.h
        try:
            try:
                value = self.call(d, receiver, (k,))
            except LispexError as e:
                self.fault(e)
        except ContinuationEscape as x:
            if x.k is not k:
                raise
            self.h = saved
            value = x.value
        finally:
            k.active = False
        return value

    def p_dynamic_wind(self, d: int, tail: bool, before: Any, thunk: Any, after: Any) -> Any:
        site = self.site_get()
        self.call(d, before, ())
        saved = self.h
        try:
            try:
                value = self.call_at(d, site, thunk, ())
            except LispexError as e:
                self.fault(e)
        except ESCAPES:
            # Unwinding through: `after` runs with the handlers of the dynamic-wind call. An
            # uncaught error or an exhausted meter ends the run and runs nothing.
            self.h = saved
            self.call_at(d, site, after, ())
            raise
        self.call_at(d, site, after, ())
        return value

    def p_with_handler(self, d: int, tail: bool, handler: Any, thunk: Any) -> Any:
        if not isinstance(handler, Procedure):
            raise self.err("E312", "with-exception-handler: expected a procedure as the handler",
                           (handler,), d)
        saved = self.h
        self.h = (handler, saved)
        try:
            value = self.call(d, thunk, ())
        except LispexError as e:
            self.fault(e)
        self.h = saved
        return value

    def p_raise(self, d: int, tail: bool, obj: Any) -> Any:
        return self.signal(d, obj, False, self.span_now())

    def p_raise_continuable(self, d: int, tail: bool, obj: Any) -> Any:
        return self.signal(d, obj, True, self.span_now())

    def reraise(self, d: int, x: GuardEscape) -> Any:
        """A guard none of whose clauses matched: raise again, as continuable as before."""
        return self.signal(d, x.payload, x.continuable, x.span)
