"""topaz-tree's ``guard``: a handler token on the dynamic chain around the body; an unwind to
this token runs the clauses in the guard's own dynamic state, and no clause matching re-signals
the condition from there (R7RS ``raise-continuable`` semantics for the re-raise)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from implementations.topaz.kernel import core_ir as ir
from implementations.topaz.kernel.errors import LispexError
from implementations.topaz.kernel.values import Values

from . import control
from .analysis import Scope
from .calling import bounce
from .control import Runtime
from .nodes import multiple
from .objects import GuardToken, GuardUnwind

Code = Callable[[Any], Any]


def compile_guard(n: ir.Guard, sc: Scope, comp: Callable[[Any, Scope], Code],
                  single: Callable[[Any], bool], rt: Runtime) -> Code:
    """The code of guard ``n``; ``comp`` compiles its parts, ``rt`` holds the run's state (its
    depth through ``rt.get_depth``/``rt.set_depth``: entering a guard is not the hot path)."""
    body = comp(n.body, sc)
    inner = sc.bind(1)  # the clauses' frame: the condition
    slot = inner.base
    clauses = [(comp(t, inner), t.span, single(t), None if b is None else comp(b, inner))
               for t, b in n.clauses]
    else_ = None if n.else_body is None else comp(n.else_body, inner)

    def guard(e: Any) -> Any:
        saved, saved_depth = rt.handlers, rt.get_depth()
        token = GuardToken()
        rt.handlers = (token, saved)
        try:
            try:
                v = body(e)
                if type(v) is tuple:
                    v = bounce(v)
            except LispexError as err:
                control.fault(rt, err)
        except GuardUnwind as g:
            if g.token is not token:
                raise
            # Unwound to this guard: its handler is gone, the depth is the guard's own.
            rt.handlers = saved
            rt.set_depth(saved_depth)
            e[slot] = g.payload
            for test, tspan, test_single, clause_body in clauses:
                t = test(e)
                if not test_single and type(t) is Values:
                    raise multiple(tspan, t) from None
                if t is not False:
                    return t if clause_body is None else clause_body(e)
            if else_ is not None:
                return else_(e)
            return control.signal(rt, g.payload, g.continuable, g.span)
        rt.handlers = saved
        return v
    return guard
