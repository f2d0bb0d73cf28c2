"""The primitive table (data/primitives.toml) and the registry that binds rows to Python code.

Kernel modules register implementations with :func:`define`; back ends supply the rows marked
``backend`` (guest-calling and control-transfer primitives) to :func:`build`. Aliases become the
very same :class:`Primitive` object as their target, and a row with a ``warning`` is wrapped so
the warning is emitted each time the real primitive runs.
"""

from __future__ import annotations

import os
import tomllib
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache

from ..values import Primitive


@dataclass(frozen=True)
class PrimitiveRow:
    name: str
    family: str
    min: int
    max: int
    alias_of: str | None = None
    warning: str | None = None
    guest: bool = False
    backend: bool = False

    @property
    def arity(self) -> str:
        if self.max < 0:
            return f"{self.min}+"
        return str(self.min) if self.min == self.max else f"{self.min}-{self.max}"


@cache
def rows() -> tuple[PrimitiveRow, ...]:
    """All 205 rows in guest-name codepoint order."""
    # A plain file read beside the package (importlib.resources costs a worker more to import).
    path = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "data",
                        "primitives.toml")
    with open(path, "rb") as f:
        return tuple(PrimitiveRow(**r) for r in tomllib.load(f)["primitive"])


@cache
def row_map() -> dict[str, PrimitiveRow]:
    return {r.name: r for r in rows()}


# name -> (function, needs_context)
_KERNEL: dict[str, tuple[Callable, bool]] = {}


def define(name: str, *, context: bool = False) -> Callable[[Callable], Callable]:
    """Register the kernel implementation of primitive ``name``.

    With ``context=True`` the function receives the run context first (for output).
    """

    def register(fn: Callable) -> Callable:
        if name not in row_map():
            raise KeyError(f"{name} is not in the primitive table")
        if name in _KERNEL:
            raise KeyError(f"{name} is defined twice")
        _KERNEL[name] = (fn, context)
        return fn

    return register


def kernel_implementations() -> dict[str, tuple[Callable, bool]]:
    # Complete by the time anyone can call this: importing this module first runs the package's
    # __init__, which imports every family module, and each registers its rows here.
    return dict(_KERNEL)


def _with_warning(fn: Callable, needs_context: bool, code: str) -> Callable:
    if needs_context:
        def warned(ctx, *args):
            ctx.warn(code)
            return fn(ctx, *args)
    else:
        def warned(ctx, *args):
            ctx.warn(code)
            return fn(*args)
    return warned


def build(backend_impls: dict[str, tuple[Callable, bool]]) -> dict[str, Primitive]:
    """One Primitive per name (aliases share their target's object).

    ``backend_impls`` maps each ``backend`` row's name to ``(function, needs_context)``;
    a back end may also override kernel rows. Missing implementations are an error here, at
    start-up, so a back end can never run with a hole in its table.
    """
    impls = kernel_implementations()
    impls.update(backend_impls)
    table: dict[str, Primitive] = {}
    for row in rows():
        if row.alias_of:
            continue
        if row.name not in impls:
            raise KeyError(f"primitive {row.name} has no implementation")
        fn, needs_context = impls[row.name]
        if row.warning:
            fn = _with_warning(fn, needs_context, row.warning)
            needs_context = True
        table[row.name] = Primitive(
            row.name, fn, row.min, row.max, warning=row.warning, guest=row.guest,
            backend=row.backend, family=row.family, needs_context=needs_context)
    for row in rows():
        if row.alias_of:
            table[row.name] = table[row.alias_of]
    return table
