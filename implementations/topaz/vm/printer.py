"""topaz-vm's own ``write``/``display``: the printed forms of Lispex values, from the reference.

Written independently of the kernel printer on purpose: a printing bug in one implementation
must show up as a divergence, not hide in shared code. The rules (language reference §9 and the
project's docs/language.md §11):

* ``#t``/``#f``; ``()``; proper lists ``(1 2 3)``, improper ``(1 . 2)``; quote is never
  abbreviated; vectors ``#(1 2)``; bytevectors ``#u8(1 2)``; symbols by their name.
* numbers: exact integers in decimal (however long), rationals ``n/d``, inexact reals
  positionally with the shortest round-tripping digits and always a fraction part.
* strings: written in double quotes, escaping ``"`` ``\\`` and LF/TAB/CR as ``\\n \\t \\r``, every
  other control character (below U+0020, and U+007F) as ``\\xHH;``; displayed raw.
* characters: written ``#\\`` plus a name (space newline tab return null delete escape backspace
  alarm), ``xHH`` for other control characters, else the character; displayed raw.
* procedures ``#<procedure NAME>`` or ``#<procedure>``; error objects
  ``#<error-object "message">``.
* a vector that (through mutation) contains itself gets R7RS datum labels: ``#n=`` on each
  container a depth-first walk enters again while still inside it, ``#n#`` for each later visit.
  Shared structure without a cycle is printed in full.

Nothing here recurses in Python: containers are walked with an explicit work list.
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
    Values,
    Vector,
)

CHAR_NAMES = {0x07: "alarm", 0x08: "backspace", 0x09: "tab", 0x0A: "newline", 0x0D: "return",
              0x1B: "escape", 0x20: "space", 0x7F: "delete", 0x00: "null"}

_ESCAPES: dict[int, str] = {}
for _c in list(range(0x20)) + [0x7F]:
    _ESCAPES[_c] = f"\\x{_c:02x};"
_ESCAPES.update({0x22: '\\"', 0x5C: "\\\\", 0x0A: "\\n", 0x09: "\\t", 0x0D: "\\r"})
_PLAIN = frozenset(chr(c) for c in _ESCAPES)


# -- numbers ------------------------------------------------------------------------------------

# CPython will not turn an int of more than ~4300 digits into text in one go; split it instead.
_CHUNK = 10 ** 1000


def int_text(n: int) -> str:
    if -_CHUNK < n < _CHUNK:
        return str(n)
    if n < 0:
        return "-" + int_text(-n)
    half = max(int(n.bit_length() * 0.30103) // 2, 1)  # about half the decimal digits
    high, low = divmod(n, 10 ** half)
    return int_text(high) + int_text(low).rjust(half, "0")


def float_text(x: float) -> str:
    """Positional text of a finite float: the digits of ``repr``, the point moved by hand."""
    text = repr(x)
    mantissa, e, exponent = text.partition("e")
    if not e:
        return text
    negative = mantissa.startswith("-")
    if negative:
        mantissa = mantissa[1:]
    whole, _, frac = mantissa.partition(".")
    digits = (whole + frac).lstrip("0") or "0"
    # value = 0.digits * 10**point
    point = len(whole) + int(exponent) - (len(whole + frac) - len((whole + frac).lstrip("0")))
    if point <= 0:
        body = "0." + "0" * (-point) + digits
    elif point >= len(digits):
        body = digits + "0" * (point - len(digits)) + ".0"
    else:
        body = digits[:point] + "." + digits[point:]
    return ("-" if negative else "") + body


def number_text(x: Any) -> str:
    t = type(x)
    if t is int:
        return int_text(x)
    if t is float:
        return float_text(x)
    return int_text(x.numerator) + "/" + int_text(x.denominator)


# -- atoms --------------------------------------------------------------------------------------

def string_literal(s: str) -> str:
    if _PLAIN.isdisjoint(s):
        return '"' + s + '"'
    return '"' + "".join(_ESCAPES.get(ord(ch), ch) for ch in s) + '"'


def char_literal(code: int) -> str:
    name = CHAR_NAMES.get(code)
    if name is not None:
        return "#\\" + name
    if code < 0x20 or code == 0x7F:
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
        if t is Primitive:
            return "#<procedure " + x.name + ">"
        name = getattr(x, "name", None)
        if type(name) is Symbol:
            name = name.name
        return "#<procedure " + name + ">" if name else "#<procedure>"
    if t is Values:
        raise TypeError("several values are not one printable value")
    raise TypeError(f"not a Lispex value: {x!r}")


# -- containers ---------------------------------------------------------------------------------

def _cycle_heads(root: Any) -> set[int]:
    """Containers reached again while the walk is still inside them (empty: no cycle)."""
    heads: set[int] = set()
    inside: set[int] = set()
    done: set[int] = set()
    work: list[Any] = [root]
    while work:
        x = work.pop()
        if type(x) is tuple:  # ("leave", id)
            inside.discard(x[1])
            done.add(x[1])
            continue
        key = id(x)
        if key in inside:
            heads.add(key)
            continue
        if key in done:
            continue
        inside.add(key)
        work.append(("leave", key))
        kids = (x.car, x.cdr) if type(x) is Pair else x.items
        for kid in reversed(kids):
            if type(kid) is Pair or type(kid) is Vector:
                work.append(kid)
    return heads


def _may_cycle(root: Any) -> bool:
    """Whether ``root`` holds any mutable vector at all (only those can close a cycle)."""
    work = [root]
    seen: set[int] = set()
    while work:
        x = work.pop()
        t = type(x)
        if t is Pair:
            while type(x) is Pair:
                if type(x.car) is Pair or type(x.car) is Vector:
                    work.append(x.car)
                x = x.cdr
            if type(x) is Vector:
                work.append(x)
        elif t is Vector:
            if x.mutable:
                return True
            if id(x) not in seen:
                seen.add(id(x))
                work.extend(k for k in x.items if type(k) is Pair or type(k) is Vector)
    return False


def render(root: Any, write: bool) -> str:
    t = type(root)
    if t is not Pair and t is not Vector:
        return _atom(root, write)
    heads = _cycle_heads(root) if _may_cycle(root) else set()
    labels: dict[int, int] = {}
    out: list[str] = []
    work: list[Any] = [root]
    while work:
        x = work.pop()
        t = type(x)
        if t is str:
            out.append(x)
            continue
        if t is not Pair and t is not Vector:
            out.append(_atom(x, write))
            continue
        if heads and id(x) in heads:
            n = labels.get(id(x))
            if n is not None:
                out.append(f"#{n}#")
                continue
            n = labels[id(x)] = len(labels)
            out.append(f"#{n}=")
        if t is Vector:
            out.append("#(")
            seq = x.items
            tail: list[Any] = [")"]
        else:
            out.append("(")
            seq = []
            while True:
                seq.append(x.car)
                x = x.cdr
                if type(x) is not Pair or (heads and id(x) in heads):
                    break
            tail = [")"] if x is NIL else [" . ", x, ")"]
        # Push in reverse so that the work list pops them in order.
        pending: list[Any] = []
        for i, item in enumerate(seq):
            if i:
                pending.append(" ")
            pending.append(item)
        pending.extend(tail)
        work.extend(reversed(pending))
    return "".join(out)


def write_text(x: Any) -> str:
    return render(x, True)


def display_text(x: Any) -> str:
    if type(x) is Str:
        return x.s
    return render(x, False)
