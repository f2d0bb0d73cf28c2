"""Datums with spans: what the reader produces and the normalizer consumes.

Atoms carry their Lispex value (bool, int, Fraction, float, Char, Str, Symbol, Bytevector);
lists carry their items and, for a dotted list, the tail. Quote shorthands are read as the
two-element list ``(quote x)`` whose head symbol has the span of the ``'`` mark.
"""

from __future__ import annotations

from typing import Any

from .span import Span
from .values import NIL, Pair, Str, Vector


class SAtom:
    __slots__ = ("value", "span")

    def __init__(self, value: Any, span: Span) -> None:
        self.value = value
        self.span = span

    def __repr__(self) -> str:
        return f"SAtom({self.value!r})"


class SList:
    __slots__ = ("items", "tail", "span")

    def __init__(self, items: list, tail: Any, span: Span) -> None:
        self.items = items  # list of syntax nodes
        self.tail = tail  # None for a proper list, else the syntax node after the dot
        self.span = span

    def __repr__(self) -> str:
        return f"SList({self.items!r}, tail={self.tail!r})"


class SVector:
    __slots__ = ("items", "span")

    def __init__(self, items: list, span: Span) -> None:
        self.items = items
        self.span = span

    def __repr__(self) -> str:
        return f"SVector({self.items!r})"


def to_value(node: Any, *, fresh_strings: bool = True) -> Any:
    """The Lispex value a datum denotes when quoted (iterative: any nesting depth).

    Vectors made here are literal and therefore immutable. Strings are copied into new Str
    objects so that one quoted datum is one set of objects.
    """
    # Post-order construction with an explicit stack of (node, state).
    results: list[Any] = []
    stack: list[tuple[Any, bool]] = [(node, False)]
    while stack:
        n, built = stack.pop()
        t = type(n)
        if t is SAtom:
            v = n.value
            results.append(Str(v.s) if (fresh_strings and type(v) is Str) else v)
        elif not built:
            stack.append((n, True))
            children = n.items if t is SVector else (
                n.items + ([n.tail] if n.tail is not None else []))
            for child in reversed(children):
                stack.append((child, False))
        elif t is SVector:
            k = len(n.items)
            items = results[len(results) - k:] if k else []
            del results[len(results) - k:]
            results.append(Vector(list(items), mutable=False))
        else:
            k = len(n.items) + (1 if n.tail is not None else 0)
            items = results[len(results) - k:] if k else []
            del results[len(results) - k:]
            tail = items.pop() if n.tail is not None else NIL
            for x in reversed(items):
                tail = Pair(x, tail)
            results.append(tail)
    return results[0]
