"""topaz-tree's own ``write`` and ``display``, written from the language reference (printing).

Deliberately not the kernel printer: each implementation prints for itself, so a printing bug
shows up as a disagreement between implementations instead of hiding in shared code.

* ``#t``/``#f``, ``()``, proper and dotted lists ``(1 2 . 3)``, ``(quote x)`` spelt out,
  vectors ``#(1 2)``, bytevectors ``#u8(1 2)``, symbols by name.
* numbers: exact integers in decimal (any size), rationals ``n/d``, reals positional with the
  shortest round-tripping digits and never an exponent (``1e-7`` is ``0.0000001``, ``3.0``).
* ``write`` quotes strings (escaping ``"`` ``\\`` newline, tab, return, and other controls as
  ``\\xHH;``) and names characters (``#\\space``, ``#\\x01``); ``display`` shows both raw.
* procedures ``#<procedure NAME>`` or ``#<procedure>``; error objects
  ``#<error-object "message">``.
* A vector may contain itself (``vector-set!``); such cycles print with datum labels
  (``#0=#(1 #0#)``) on the containers a left-to-right depth-first walk re-enters.

Everything is iterative: a list nested a hundred thousand deep prints without Python recursion.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from implementations.topaz.kernel.values import (
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

CHAR_NAMES = {0x00: "null", 0x07: "alarm", 0x08: "backspace", 0x09: "tab", 0x0A: "newline",
              0x0D: "return", 0x1B: "escape", 0x20: "space", 0x7F: "delete"}

_ESCAPES = {i: f"\\x{i:02x};" for i in [*range(0x20), 0x7F]}
_ESCAPES.update({0x22: '\\"', 0x5C: "\\\\", 0x0A: "\\n", 0x09: "\\t", 0x0D: "\\r"})
_SPECIAL = frozenset(map(chr, _ESCAPES))


# -- numbers -----------------------------------------------------------------------------------

def integer_text(n: int) -> str:
    try:
        return str(n)
    except ValueError:  # past CPython's digit limit for str(int): split the number in halves
        if n < 0:
            return "-" + _long_digits(-n)
        return _long_digits(n)


_SMALL = 10**3000


def _long_digits(n: int) -> str:
    parts: list[tuple[int, int]] = [(n, 0)]  # (number, digits it must fill; 0 = as many as it has)
    out: list[str] = []
    while parts:
        m, width = parts.pop()
        if m < _SMALL:
            text = str(m)
            out.append(text.zfill(width) if width else text)
            continue
        k = max(1, int(m.bit_length() * 0.30103) // 2)
        high, low = divmod(m, 10**k)
        if width:
            # the high half then fills what the low half leaves of this piece's width
            parts.append((low, k))
            parts.append((high, width - k))
        else:
            parts.append((low, k))
            parts.append((high, 0))
    return "".join(out)


def real_text(x: float) -> str:
    # repr gives the shortest digits that read back to x; only the decimal point is moved here.
    text = repr(x)
    if "e" not in text:
        return text
    mantissa, _, exponent = text.partition("e")
    sign = "-" if mantissa.startswith("-") else ""
    whole, _, frac = mantissa.lstrip("-").partition(".")
    digits = whole + frac
    point = len(whole) + int(exponent)
    if point <= 0:
        return f"{sign}0.{'0' * -point}{digits}"
    if point >= len(digits):
        return f"{sign}{digits}{'0' * (point - len(digits))}.0"
    return f"{sign}{digits[:point]}.{digits[point:]}"


def number_text(x: Any) -> str:
    t = type(x)
    if t is int:
        return integer_text(x)
    if t is float:
        return real_text(x)
    return f"{integer_text(x.numerator)}/{integer_text(x.denominator)}"


# -- atoms -------------------------------------------------------------------------------------

def string_literal(s: str) -> str:
    if _SPECIAL.isdisjoint(s):
        return '"' + s + '"'
    return '"' + s.translate(_ESCAPES) + '"'


def char_literal(code: int) -> str:
    name = CHAR_NAMES.get(code)
    if name is not None:
        return "#\\" + name
    if code < 0x20:
        return f"#\\x{code:02x}"
    return "#\\" + chr(code)


def _atom(x: Any, write: bool) -> str:
    t = type(x)
    if t is int or t is float or t is Fraction:
        return number_text(x)
    if t is bool:
        return "#t" if x else "#f"
    if t is Str:
        return string_literal(x.s) if write else x.s
    if t is Symbol:
        return x.name
    if t is Char:
        return char_literal(x.code) if write else chr(x.code)
    if x is NIL:
        return "()"
    if t is Bytevector:
        return "#u8(" + " ".join(str(b) for b in x.data) + ")"
    if t is ErrorObject:
        m = x.message
        return "#<error-object " + string_literal(m.s if type(m) is Str else str(m)) + ">"
    if isinstance(x, Procedure):
        name = x.name if type(x) is Primitive else getattr(x, "name", None)
        if type(name) is Symbol:
            name = name.name
        return f"#<procedure {name}>" if name else "#<procedure>"
    raise TypeError(f"topaz-tree cannot print {x!r}")


# -- containers --------------------------------------------------------------------------------

def back_edges(root: Any) -> set[int]:
    """Ids of the pairs and vectors a depth-first walk reaches again while still inside them."""
    inside: dict[int, bool] = {}
    found: set[int] = set()
    todo: list[Any] = [root]
    while todo:
        x = todo.pop()
        if type(x) is int:  # marks the end of the container with that id
            inside[x] = False
            continue
        key = id(x)
        state = inside.get(key)
        if state is not None:
            if state:
                found.add(key)
            continue
        inside[key] = True
        todo.append(key)
        kids = (x.car, x.cdr) if type(x) is Pair else x.items
        for kid in reversed(kids):
            tk = type(kid)
            if tk is Pair or tk is Vector:
                todo.append(kid)
    return found


def _has_mutable_vector(root: Any) -> bool:
    seen: set[int] = set()
    todo = [root]
    while todo:
        x = todo.pop()
        t = type(x)
        if t is Pair:
            if id(x) in seen:
                continue
            seen.add(id(x))
            todo.append(x.cdr)
            todo.append(x.car)
        elif t is Vector:
            if x.mutable:
                return True
            if id(x) in seen:
                continue
            seen.add(id(x))
            todo.extend(x.items)
    return False


def render(x: Any, write: bool) -> str:
    t = type(x)
    if t is not Pair and t is not Vector:
        return _atom(x, write)
    # Only a mutable vector can close a cycle (pairs and literal vectors are immutable).
    labelled = back_edges(x) if _has_mutable_vector(x) else set()
    labels: dict[int, int] = {}
    out: list[str] = []
    todo: list[Any] = [x]
    while todo:
        x = todo.pop()
        t = type(x)
        if t is str:  # text queued by an enclosing container
            out.append(x)
            continue
        if t is not Pair and t is not Vector:
            out.append(_atom(x, write))
            continue
        if labelled and id(x) in labelled:
            n = labels.get(id(x))
            if n is not None:
                out.append(f"#{n}#")
                continue
            n = labels[id(x)] = len(labels)
            out.append(f"#{n}=")
        if t is Vector:
            out.append("#(")
            todo.append(")")
            items = x.items
        else:
            out.append("(")
            todo.append(")")
            items = []
            while True:
                items.append(x.car)
                x = x.cdr
                if type(x) is not Pair or (labelled and id(x) in labelled):
                    break
            if x is not NIL:
                todo.append(x)
                todo.append(" . ")
        for i in range(len(items) - 1, 0, -1):
            todo.append(items[i])
            todo.append(" ")
        if items:
            todo.append(items[0])
    return "".join(out)


def write_text(x: Any) -> str:
    return render(x, True)


def display_text(x: Any) -> str:
    return render(x, False)
