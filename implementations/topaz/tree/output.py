"""The four output primitives, printing with topaz-tree's own printer."""

from __future__ import annotations

from typing import Any

from implementations.topaz.kernel.values import NO_VALUES, Values

from .printer import display_text, write_text


def display(ctx: Any, x: Any) -> Values:
    ctx.emit(display_text(x))
    return NO_VALUES


def write(ctx: Any, x: Any) -> Values:
    ctx.emit(write_text(x))
    return NO_VALUES


def println(ctx: Any, x: Any) -> Values:
    ctx.emit(display_text(x) + "\n")
    return NO_VALUES


def newline(ctx: Any) -> Values:
    ctx.emit("\n")
    return NO_VALUES


# name -> (function, needs the run context)
OUTPUT = {
    "display": (display, True),
    "write": (write, True),
    "println": (println, True),
    "newline": (newline, True),
}
