"""``write`` and ``display`` renderings of Lispex values.

Both are iterative (an explicit stack, so a 100,000-deep nested list prints without Python
recursion) and cycle-safe. Pairs and strings are immutable in Lispex, so a cycle can only be made
with ``vector-set!``: the plain printer tracks the mutable vectors on its current path and, when
one comes round again, starts over with the labelling printer, which writes R7RS datum labels
(``#0=#(1 #0#)``) on exactly the objects that a depth-first walk reaches again while still inside
them. Shared structure that is not cyclic is printed in full, as R7RS ``write`` does.

Rendering rules (write / display where they differ):

* ``#t`` ``#f``, ``()``, ``(1 2 3)``, ``(1 . 2)``, ``(quote a)`` (no ``'`` shorthand), ``#(1 2)``,
  ``#u8(1 2 3)``, symbols by name, numbers by :func:`numbers.format_number`.
* strings: written in double quotes with ``\\"`` ``\\\\`` ``\\n`` ``\\t`` ``\\r`` and other control
  characters (below U+0020, and U+007F) as ``\\xHH;``; displayed raw.
* characters: written ``#\\a``, ``#\\space`` ``#\\newline`` ``#\\tab`` ``#\\return`` ``#\\null``
  ``#\\delete`` ``#\\escape`` ``#\\backspace`` ``#\\alarm``, other control characters ``#\\xHH``;
  displayed as the bare character.
* procedures: ``#<procedure NAME>`` for primitives and named closures, else ``#<procedure>``.
* error objects: ``#<error-object "message">`` (the message always written).
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from .numbers import format_float, format_int
from .values import (
    NIL,
    Bytevector,
    Char,
    ErrorObject,
    Pair,
    Primitive,
    Procedure,
    Str,
    Symbol,
    Values,
    Vector,
)

_CHAR_NAMES = {
    0x20: "space",
    0x0A: "newline",
    0x09: "tab",
    0x0D: "return",
    0x00: "null",
    0x7F: "delete",
    0x1B: "escape",
    0x08: "backspace",
    0x07: "alarm",
}


def _string_escape_table() -> dict[int, str]:
    table = {c: f"\\x{c:02x};" for c in range(0x20)}
    table[0x7F] = "\\x7f;"
    table[ord('"')] = '\\"'
    table[ord("\\")] = "\\\\"
    table[ord("\n")] = "\\n"
    table[ord("\t")] = "\\t"
    table[ord("\r")] = "\\r"
    return table


_STRING_ESCAPES = _string_escape_table()
# Characters that force the slow path of written strings.
_NEEDS_ESCAPE = frozenset(chr(c) for c in _STRING_ESCAPES)


def write_str(s: str) -> str:
    """The written form of the string contents ``s``, quotes included."""
    if _NEEDS_ESCAPE.isdisjoint(s):
        return f'"{s}"'
    return '"' + s.translate(_STRING_ESCAPES) + '"'


def write_char(code: int) -> str:
    name = _CHAR_NAMES.get(code)
    if name is not None:
        return "#\\" + name
    if code < 0x20 or code == 0x7F:
        return f"#\\x{code:02x}"
    return "#\\" + chr(code)


def _procedure_text(p: Procedure) -> str:
    if type(p) is Primitive:
        return f"#<procedure {p.name}>"
    name = getattr(p, "name", None)
    if isinstance(name, Symbol):
        name = name.name
    if name:
        return f"#<procedure {name}>"
    return "#<procedure>"


def _other_atom(x: Any, write: bool) -> str:
    """Everything that is neither a container nor a fast-path atom."""
    if isinstance(x, Procedure):
        return _procedure_text(x)
    t = type(x)
    if t is ErrorObject:
        msg = x.message
        return f"#<error-object {write_str(msg.s if type(msg) is Str else str(msg))}>"
    if t is Bytevector:
        return "#u8(" + " ".join(map(str, x.data)) + ")"
    if t is Values:
        raise TypeError("multiple values are an outcome, not a printable value")
    if t is Fraction:
        return f"{format_int(x.numerator)}/{format_int(x.denominator)}"
    raise TypeError(f"not a Lispex value: {x!r}")


def _atom(x: Any, t: type, write: bool) -> str | None:
    """The text of a non-container value, or None for pairs and vectors."""
    if t is int:
        return format_int(x)
    if t is Str:
        return write_str(x.s) if write else x.s
    if t is Symbol:
        return x.name
    if t is bool:
        return "#t" if x else "#f"
    if t is float:
        return format_float(x)
    if x is NIL:
        return "()"
    if t is Char:
        return write_char(x.code) if write else chr(x.code)
    if t is Pair or t is Vector:
        return None
    return _other_atom(x, write)


class _Cycle(Exception):
    pass


class _Close:
    """Stack marker: the end of a mutable vector currently being printed."""

    __slots__ = ("vid",)

    def __init__(self, vid: int) -> None:
        self.vid = vid


def _render_plain(root: Any, write: bool) -> str:
    """Render without labels; raise :class:`_Cycle` when a mutable vector contains itself."""
    out: list[str] = []
    emit = out.append
    stack: list[Any] = [root]
    push = stack.append
    pop = stack.pop
    open_vectors: set[int] = set()
    while stack:
        x = pop()
        t = type(x)
        if t is str:  # literal text queued by a container
            emit(x)
            continue
        if t is Pair:
            emit("(")
            items = []
            while True:
                items.append(x.car)
                x = x.cdr
                if type(x) is not Pair:
                    break
            push(")")
            if x is not NIL:
                push(x)
                push(" . ")
            for item in reversed(items[1:]):
                push(item)
                push(" ")
            push(items[0])
            continue
        if t is Vector:
            items = x.items
            if x.mutable:
                vid = id(x)
                if vid in open_vectors:
                    raise _Cycle
                open_vectors.add(vid)
                push(_Close(vid))
            else:
                push(")")
            emit("#(")
            if items:
                for item in reversed(items[1:]):
                    push(item)
                    push(" ")
                push(items[0])
            continue
        if t is _Close:
            open_vectors.discard(x.vid)
            emit(")")
            continue
        emit(_atom(x, t, write))
    return "".join(out)


def cycle_targets(root: Any) -> set[int]:
    """Ids of the pairs and vectors a depth-first walk from ``root`` re-enters (back edges)."""
    state: dict[int, bool] = {}  # id -> True while on the current path, False once finished
    targets: set[int] = set()
    stack: list[Any] = [root]
    push = stack.append
    pop = stack.pop
    while stack:
        x = pop()
        t = type(x)
        if t is int:  # exit marker: the id of a finished container
            state[x] = False
            continue
        if t is Pair:
            children = (x.car, x.cdr)
        elif t is Vector:
            children = x.items
        else:
            continue
        xid = id(x)
        s = state.get(xid)
        if s is not None:
            if s:
                targets.add(xid)
            continue
        state[xid] = True
        push(xid)
        for child in reversed(children):
            ct = type(child)
            if ct is Pair or ct is Vector:
                push(child)
    return targets


def _render_labelled(root: Any, write: bool) -> str:
    targets = cycle_targets(root)
    labels: dict[int, int] = {}
    out: list[str] = []
    emit = out.append
    stack: list[Any] = [root]
    push = stack.append
    pop = stack.pop
    while stack:
        x = pop()
        t = type(x)
        if t is str:
            emit(x)
            continue
        if t is Pair or t is Vector:
            xid = id(x)
            if xid in targets:
                n = labels.get(xid)
                if n is not None:
                    emit(f"#{n}#")
                    continue
                n = labels[xid] = len(labels)
                emit(f"#{n}=")
            if t is Vector:
                items = x.items
                emit("#(")
                push(")")
                if items:
                    for item in reversed(items[1:]):
                        push(item)
                        push(" ")
                    push(items[0])
                continue
            emit("(")
            items = []
            while True:
                items.append(x.car)
                x = x.cdr
                if type(x) is not Pair or id(x) in targets:
                    break
            push(")")
            if x is not NIL:
                push(x)
                push(" . ")
            for item in reversed(items[1:]):
                push(item)
                push(" ")
            push(items[0])
            continue
        emit(_atom(x, t, write))
    return "".join(out)


def _render(x: Any, write: bool) -> str:
    try:
        return _render_plain(x, write)
    except _Cycle:
        return _render_labelled(x, write)


def write_string(v: Any) -> str:
    """The ``write`` form of ``v`` (strings quoted and escaped, characters as ``#\\x``)."""
    t = type(v)
    if t is int:
        return format_int(v)
    if t is Str:
        return write_str(v.s)
    if t is Pair or t is Vector:
        return _render(v, True)
    return _atom(v, t, True)


def display_string(v: Any) -> str:
    """The ``display`` form of ``v`` (strings and characters raw, everything else as write)."""
    t = type(v)
    if t is Str:
        return v.s
    if t is int:
        return format_int(v)
    if t is Pair or t is Vector:
        return _render(v, False)
    return _atom(v, t, False)
