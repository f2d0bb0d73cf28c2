"""topaz-tree's control primitives and condition dispatch.

Conditions follow R7RS: a handler runs *at the raise*, with the handler chain cut back to the
handlers outside it. Here a Lispex fault travels as a ``LispexError`` only up to the innermost
construct that changes the dynamic state (a guard body, a ``with-exception-handler`` thunk, a
``dynamic-wind`` thunk, a call/cc receiver, a running handler, a top-level form). Between the
fault and that point nothing can have changed the handler chain, the non-tail depth or the
last call site, so :func:`fault` offers the condition there exactly as if at the fault.

Escapes are exceptions (:class:`~.objects.Escape`): ``dynamic-wind`` runs its ``after`` thunk on
the way out, and the catcher restores the handler chain and depth it had. An uncaught condition
(``Raised``) and resource exhaustion pass through everything: no ``after`` thunk runs for them.
"""

from __future__ import annotations

from typing import Any, NoReturn

from implementations.topaz.kernel.errors import LispexError, Raised
from implementations.topaz.kernel.values import (
    ErrorObject,
    Procedure,
    Str,
    Values,
    list_from,
    list_to_python,
)

from .guest import GUEST
from .objects import Continuation, ContinuationInvoked, Escape, GuardToken, GuardUnwind


class Runtime:
    """The run state as control code sees it; :func:`.compiler.compile_program` fills it in."""

    # apply(f, args, tail): an application; in tail position a closure call comes back as a
    # pending tail call. call(f, args): a non-tail application (callbacks, thunks, handlers).
    # call_at(f, args, site): a non-tail application on behalf of a primitive called at site
    # (a fault of the application itself points there). The others read and restore the
    # compiler's cells (non-tail depth, last call site).
    __slots__ = ("handlers", "ctx", "apply", "call", "call_at", "get_depth", "set_depth",
                 "get_site", "set_site")

    def __init__(self) -> None:
        self.handlers: Any = None  # (handler, outer) chain; a GuardToken stands for a guard
        self.ctx: Any = None


def signal(rt: Any, payload: Any, continuable: bool, span: Any) -> Any:
    """Offer ``payload`` to the innermost handler; returns only for a continuable raise."""
    chain = rt.handlers
    if chain is None:
        raise Raised(payload, span)
    handler, outer = chain
    if type(handler) is GuardToken:
        raise GuardUnwind(handler, payload, continuable, span)
    rt.handlers = outer  # the handler runs with itself removed from the chain
    try:
        v = rt.call(handler, [payload])
    except LispexError as err:
        fault(rt, err)
    if continuable:
        rt.handlers = chain
        return v
    e332 = ErrorObject("E332", Str("exception handler returned from a non-continuable raise"),
                       list_from([payload]), span)
    return signal(rt, e332, False, span)


def fault(rt: Any, err: LispexError) -> NoReturn:
    """Dispatch a Lispex fault as the error object handlers and ``guard`` see."""
    span = err.span if err.span is not None else rt.get_site()
    payload = ErrorObject(err.code, Str(err.message), list_from(err.irritants), span)
    signal(rt, payload, False, span)
    raise AssertionError("a non-continuable condition was resumed")


def p_apply(rt: Any, args: list, tail: bool) -> Any:
    spread = list_to_python(args[-1])
    if spread is None:
        raise LispexError("E310", "apply: the last argument must be a proper list",
                          (args[-1],))
    return rt.apply(args[0], [*args[1:-1], *spread], tail)


def p_values(rt: Any, args: list, tail: bool) -> Any:
    return args[0] if len(args) == 1 else Values(tuple(args))


def p_call_with_values(rt: Any, args: list, tail: bool) -> Any:
    site = rt.get_site()
    v = rt.call(args[0], [])
    # the consumer takes the place of call-with-values itself, tail position included
    rt.set_site(site)
    return rt.apply(args[1], list(v.items) if type(v) is Values else [v], tail)


def p_call_cc(rt: Any, args: list, tail: bool) -> Any:
    k = Continuation()
    saved, saved_depth = rt.handlers, rt.get_depth()
    try:
        try:
            return rt.call(args[0], [k])
        except LispexError as err:
            fault(rt, err)
    except ContinuationInvoked as x:
        if x.cont is not k:
            raise
        rt.handlers = saved
        rt.set_depth(saved_depth)
        return x.value
    finally:
        k.active = False


def p_dynamic_wind(rt: Any, args: list, tail: bool) -> Any:
    before, thunk, after = args
    site = rt.get_site()  # the thunks are applied at the dynamic-wind call
    rt.call(before, [])
    saved, saved_depth = rt.handlers, rt.get_depth()
    try:
        try:
            v = rt.call_at(thunk, [], site)
        except LispexError as err:
            fault(rt, err)
    except Escape as esc:
        rt.handlers = saved
        rt.set_depth(saved_depth)
        rt.call_at(after, [], site)  # a fault here replaces the escape in flight
        raise esc from None
    rt.handlers = saved
    rt.call_at(after, [], site)
    return v


def p_with_exception_handler(rt: Any, args: list, tail: bool) -> Any:
    handler, thunk = args
    if not isinstance(handler, Procedure):
        raise LispexError("E312", "with-exception-handler: expected a procedure as the handler",
                          (handler,))
    saved = rt.handlers
    rt.handlers = (handler, saved)
    try:
        v = rt.call(thunk, [])
    except LispexError as err:
        fault(rt, err)
    rt.handlers = saved
    return v


def p_raise(rt: Any, args: list, tail: bool) -> Any:
    return signal(rt, args[0], False, rt.get_site())


def p_raise_continuable(rt: Any, args: list, tail: bool) -> Any:
    return signal(rt, args[0], True, rt.get_site())


BACKEND = {
    "apply": p_apply,
    "values": p_values,
    "call-with-values": p_call_with_values,
    "call-with-current-continuation": p_call_cc,
    "dynamic-wind": p_dynamic_wind,
    "with-exception-handler": p_with_exception_handler,
    "raise": p_raise,
    "raise-continuable": p_raise_continuable,
    **GUEST,
}
