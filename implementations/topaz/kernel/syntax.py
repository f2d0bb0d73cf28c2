"""What the reader hands the normalizer: datums that remember where they were written.

A datum is an :class:`Atom` (a number, string, character, boolean or symbol, held as the kernel
value it denotes), a :class:`Seq` (a list, possibly dotted) or a :class:`Vec`/:class:`Bytes`.
:func:`to_value` strips the positions off, for ``quote`` and for the input datum.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .span import Span
from .values import NIL, Bytevector, Pair, Symbol, Vector


@dataclass(slots=True)
class Atom:
    value: Any
    span: Span


@dataclass(slots=True)
class Seq:
    items: list
    tail: Any  # None for a proper list, else the datum after the dot
    span: Span


@dataclass(slots=True)
class Vec:
    items: list
    span: Span


@dataclass(slots=True)
class Bytes:
    data: bytes
    span: Span


def symbol_name(d: Any) -> str | None:
    if type(d) is Atom and type(d.value) is Symbol:
        return d.value.name
    return None


def to_value(d: Any) -> Any:
    """The value a datum stands for; vectors written in source are immutable. Iterative, since
    a datum may nest as deep as the source does."""
    out: list = []
    # work items: ("d", datum) converts; ("seq", n, tail?) / ("vec", n) assemble from `out`
    work: list = [("d", d)]
    while work:
        item = work.pop()
        kind = item[0]
        if kind == "d":
            x = item[1]
            t = type(x)
            if t is Atom:
                out.append(x.value)
            elif t is Bytes:
                out.append(Bytevector(x.data))
            elif t is Vec:
                work.append(("vec", len(x.items)))
                for sub in reversed(x.items):
                    work.append(("d", sub))
            else:
                has_tail = x.tail is not None
                work.append(("seq", len(x.items), has_tail))
                if has_tail:
                    work.append(("d", x.tail))
                for sub in reversed(x.items):
                    work.append(("d", sub))
        elif kind == "vec":
            n = item[1]
            items = out[len(out) - n:] if n else []
            del out[len(out) - n:]
            out.append(Vector(items, mutable=False))
        else:
            n, has_tail = item[1], item[2]
            tail = out.pop() if has_tail else NIL
            items = out[len(out) - n:] if n else []
            del out[len(out) - n:]
            for x in reversed(items):
                tail = Pair(x, tail)
            out.append(tail)
    return out[0]
