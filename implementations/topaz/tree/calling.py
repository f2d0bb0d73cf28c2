"""topaz-tree's calling convention: frames, pending tail calls, arity faults.

A callee's frame is ``[env, arg0, arg1, ...]`` (a rest parameter gets the list of the extra
arguments), padded by the callee's body with the slots of its ``let``/``letrec``/guard bindings
(see :class:`.analysis.Scope`). A tail call is the pair ``(body, frame)`` handed back to the
nearest non-tail caller, which runs it with :func:`bounce` until it holds a value.
"""

from __future__ import annotations

from typing import Any

from implementations.topaz.kernel import core_ir as ir
from implementations.topaz.kernel.errors import LispexError
from implementations.topaz.kernel.values import Primitive, list_from

from .objects import Closure


def bounce(r: Any) -> Any:
    """Run pending tail calls until a value comes back."""
    while type(r) is tuple:
        r = r[0](r[1])
    return r


def arity_error(f: Closure, got: int) -> LispexError:
    expected = f"at least {f.nparams}" if f.rest else str(f.nparams)
    return LispexError("E302", f"{f.name or 'anonymous procedure'}: expected {expected} "
                       f"argument(s), got {got}", ())


def prim_arity_error(p: Primitive, got: int) -> LispexError:
    if p.max_args < 0:
        expected = f"at least {p.min_args}"
    elif p.min_args == p.max_args:
        expected = str(p.min_args)
    else:
        expected = f"{p.min_args} to {p.max_args}"
    return LispexError("E302", f"{p.name}: expected {expected} argument(s), got {got}", ())


def bind(f: Closure, args: list) -> list:
    """The callee frame for ``args``, or E302."""
    n = len(args)
    if f.rest:
        np = f.nparams
        if n < np:
            raise arity_error(f, n)
        return [f.env, *args[:np], list_from(args[np:])]
    if n != f.nparams:
        raise arity_error(f, n)
    return [f.env, *args]


def unbound(n: ir.Global) -> LispexError:
    return LispexError("E300", f"unbound variable {n.name}", (), n.span)
