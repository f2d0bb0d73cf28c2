"""Scopes, hygienic temporaries and small syntax helpers shared by the normalizer's modules."""

from __future__ import annotations

from typing import Any

from .errors import LispexError
from .meters import RECURSION_LIMIT
from .span import Span
from .syntax import SAtom, SList
from .values import Symbol

# Source nesting deeper than this ends the run with the `recursion-limit` resource outcome,
# the same threshold as non-tail call depth: a host-safety limit, never a Python crash.
MAX_NESTING = RECURSION_LIMIT


class Temp:
    """A hygienic temporary: a scope key no source symbol can equal."""

    __slots__ = ("n",)

    def __init__(self, n: int) -> None:
        self.n = n

    def __str__(self) -> str:
        return f"#:t{self.n}"


class Scope:
    __slots__ = ("names", "letrec", "parent")

    def __init__(self, keys: list, parent: Scope | None, letrec: bool = False) -> None:
        self.names = {k: i for i, k in enumerate(keys)}
        self.letrec = letrec
        self.parent = parent


def normalizer_error(code: str, message: str, span: Span, *irritants: Any) -> LispexError:
    return LispexError(code, message, irritants, span, phase="normalizer")


def head_name(d: Any) -> str | None:
    if type(d) is SList and d.items and type(d.items[0]) is SAtom:
        v = d.items[0].value
        if type(v) is Symbol:
            return v.name
    return None


def is_symbol(d: Any) -> bool:
    return type(d) is SAtom and type(d.value) is Symbol
