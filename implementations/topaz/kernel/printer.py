"""The kernel's ``write`` and ``display``: for constants in the canonical Core IR text, for
irritants, and for ``number->string``.

Reals are printed from the shortest round-tripping digits (``repr``) re-laid by
:class:`decimal.Decimal` in positional form, never with an exponent and always with a fraction
part. Output is built by an explicit work stack, so nesting depth costs no recursion; vectors a
depth-first walk re-enters (the only possible cycles) get datum labels.
"""

from __future__ import annotations

import sys
from decimal import Decimal
from fractions import Fraction
from typing import Any

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
    Vector,
)

WRITE_CHAR_NAMES = {0x00: "null", 0x07: "alarm", 0x08: "backspace", 0x09: "tab",
                    0x0A: "newline", 0x0D: "return", 0x1B: "escape", 0x20: "space",
                    0x7F: "delete"}
_STRING_ESCAPES = {0x22: '\\"', 0x5C: "\\\\", 0x0A: "\\n", 0x09: "\\t", 0x0D: "\\r"}


def _escape_table() -> dict[int, str]:
    table = {c: f"\\x{c:02x};" for c in range(0x20)}
    table[0x7F] = "\\x7f;"
    table.update(_STRING_ESCAPES)
    return table


_ESCAPE = _escape_table()


def write_string(s: str) -> str:
    return '"' + s.translate(_ESCAPE) + '"'


def write_char(code: int) -> str:
    name = WRITE_CHAR_NAMES.get(code)
    if name is not None:
        return "#\\" + name
    if code < 0x20:
        return f"#\\x{code:02x}"
    return "#\\" + chr(code)


def integer_text(n: int) -> str:
    try:
        return str(n)
    except ValueError:  # CPython's int->str digit limit: go through Decimal's own conversion
        return _big_integer_text(n)


def _big_integer_text(n: int) -> str:
    old = sys.get_int_max_str_digits()
    sys.set_int_max_str_digits(0)
    try:
        return str(n)
    finally:
        sys.set_int_max_str_digits(old)


def real_text(x: float) -> str:
    d = Decimal(repr(x))
    text = format(d, "f")
    if "." not in text:
        text += ".0"
    if text.startswith("-") is False and x == 0.0 and str(x).startswith("-"):
        text = "-" + text
    return text


def number_text(x: Any) -> str:
    t = type(x)
    if t is int:
        return integer_text(x)
    if t is float:
        return real_text(x)
    if t is Fraction:
        return integer_text(x.numerator) + "/" + integer_text(x.denominator)
    raise TypeError(f"not a number: {x!r}")


def _atom(x: Any, write: bool) -> str | None:
    t = type(x)
    if t is bool:
        return "#t" if x else "#f"
    if t is int or t is float or t is Fraction:
        return number_text(x)
    if t is Symbol:
        return x.name
    if t is Str:
        return write_string(x.s) if write else x.s
    if t is Char:
        return write_char(x.code) if write else chr(x.code)
    if x is NIL:
        return "()"
    if t is Bytevector:
        return "#u8(" + " ".join(map(str, x.data)) + ")"
    if t is ErrorObject:
        m = x.message
        return "#<error-object " + write_string(m.s if type(m) is Str else str(m)) + ">"
    if isinstance(x, Procedure):
        name = x.name if type(x) is Primitive else getattr(x, "name", None)
        return f"#<procedure {name}>" if name else "#<procedure>"
    return None


def _reentered(x: Any) -> set[int]:
    """Ids of the containers (pairs, vectors) that one depth-first walk, visiting each
    container once, reaches again while still inside it."""
    state: dict[int, bool] = {}  # id -> still inside it
    found: set[int] = set()
    work: list = [x]
    while work:
        v = work.pop()
        if type(v) is int:
            state[v] = False
            continue
        t = type(v)
        if t is not Pair and t is not Vector:
            continue
        key = id(v)
        inside = state.get(key)
        if inside is not None:
            if inside:
                found.add(key)
            continue
        state[key] = True
        work.append(key)
        if t is Pair:
            work.append(v.cdr)
            work.append(v.car)
        else:
            work.extend(reversed(v.items))
    return found


def to_text(x: Any, write: bool = True) -> str:  # noqa: C901
    """A container the walk re-enters gets a label ``#n=`` where it is first written and is
    written ``#n#`` wherever it comes again; only a mutable vector can close such a cycle."""
    cyclic = _reentered(x) if _has_vector(x) else set()
    labels: dict[int, int] = {}
    out: list[str] = []
    work: list = [x]
    while work:
        v = work.pop()
        t = type(v)
        if t is str:
            out.append(v)
            continue
        if t is not Pair and t is not Vector:
            text = _atom(v, write)
            out.append(text if text is not None else f"#<{t.__name__}>")
            continue
        if cyclic and id(v) in cyclic:
            if id(v) in labels:
                out.append(f"#{labels[id(v)]}#")
                continue
            labels[id(v)] = len(labels)
            out.append(f"#{labels[id(v)]}=")
        parts: list = []
        if t is Vector:
            parts.append("#(")
            for i, item in enumerate(v.items):
                if i:
                    parts.append(" ")
                parts.append(item)
        else:
            parts.append("(")
            parts.append(v.car)
            rest = v.cdr
            # the list goes on inline until its end or a pair that carries a label
            while type(rest) is Pair and not (cyclic and id(rest) in cyclic):
                parts.append(" ")
                parts.append(rest.car)
                rest = rest.cdr
            if rest is not NIL:
                parts.append(" . ")
                parts.append(rest)
        parts.append(")")
        work.extend(reversed(parts))
    return "".join(out)


def _has_vector(x: Any) -> bool:
    seen: set[int] = set()
    work = [x]
    while work:
        v = work.pop()
        t = type(v)
        if t is Vector:
            return True
        if t is Pair and id(v) not in seen:
            seen.add(id(v))
            work.append(v.car)
            work.append(v.cdr)
    return False


def write_text(x: Any) -> str:
    return to_text(x, True)


def display_text(x: Any) -> str:
    return to_text(x, False)
