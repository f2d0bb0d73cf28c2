"""The primitive table (data: primitives.toml) bound to the kernel's implementations."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Any

from ..data import table as data_table
from ..values import Primitive
from . import lists, numeric, objects, text


@dataclass(frozen=True)
class Row:
    name: str
    family: str
    min: int
    max: int
    alias_of: str | None
    warning: str | None
    guest: bool
    backend: bool


@cache
def rows() -> tuple[Row, ...]:
    return tuple(Row(r["name"], r["family"], r["min"], r["max"], r.get("alias_of"),
                     r.get("warning"), bool(r.get("guest")), bool(r.get("backend")))
                 for r in data_table("primitives")["primitive"])


@cache
def row_map() -> dict[str, Row]:
    return {r.name: r for r in rows()}


def kernel_impls() -> dict[str, tuple[Any, bool]]:
    """name -> (function, needs the run context) for every primitive the kernel implements."""
    out: dict[str, tuple[Any, bool]] = {}
    for module in (numeric, lists, text, objects):
        for name, fn in module.IMPLS.items():
            out[name] = (fn, False)
        for name, fn in getattr(module, "CONTEXT", {}).items():
            out[name] = (fn, True)
    return out


def build(overrides: dict[str, tuple[Any, bool]]) -> dict[str, Primitive]:
    """Every primitive of the table, the back end's ``overrides`` taking precedence; an alias
    is the very object of the primitive it names. A row nothing implements is a build error."""
    impls = kernel_impls()
    impls.update(overrides)
    out: dict[str, Primitive] = {}
    for r in rows():
        if r.alias_of:
            continue
        if r.name not in impls:
            raise KeyError(f"primitive {r.name} has no implementation")
        fn, ctx = impls[r.name]
        out[r.name] = Primitive(r.name, fn, r.min, r.max, backend=r.backend, needs_context=ctx,
                                guest=r.guest, warning=r.warning)
    for r in rows():
        if r.alias_of:
            out[r.name] = out[r.alias_of]
    return out
