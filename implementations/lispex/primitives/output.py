"""Output primitives: ``display write println newline``; each yields zero values."""

from __future__ import annotations

from typing import Any

from ..printer import display_string, write_string
from ..values import NO_VALUES, Values
from .table import define


@define("display", context=True)
def display(ctx: Any, x: Any) -> Values:
    ctx.emit(display_string(x))
    return NO_VALUES


@define("write", context=True)
def write(ctx: Any, x: Any) -> Values:
    ctx.emit(write_string(x))
    return NO_VALUES


@define("println", context=True)
def println(ctx: Any, x: Any) -> Values:
    ctx.emit(display_string(x) + "\n")
    return NO_VALUES


@define("newline", context=True)
def newline(ctx: Any) -> Values:
    ctx.emit("\n")
    return NO_VALUES
