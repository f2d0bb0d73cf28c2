"""The Lispex decimal number grammar, shared by the reader and ``string->number``.

Lispex numbers are written in decimal only (no radix or exactness prefixes, no ``+`` sign, no
``#`` digits, no infinities or NaNs)::

    integer   0 | -?[1-9][0-9]*
    rational  <integer>/[1-9][0-9]*          normalised: 4/2 reads as the integer 2
    real      -?[0-9]+(\\.[0-9]+)?([eE][-+]?[0-9]+)?   with a fraction or an exponent

Consequences worth knowing: ``-0``, ``007`` and ``1.`` are not numbers (the integer rule forbids
leading zeros and a bare minus zero, the real rule needs digits after the point), while ``00.5``,
``-0.0`` and ``1e5`` are reals. A real literal that overflows the IEEE double range is E314,
never an infinity; one that underflows reads as 0.0 like any decimal rounding.
"""

from __future__ import annotations

import math
import re
from fractions import Fraction

from .errors import LispexError
from .values import Str

# Only ASCII digits: Python's \d would accept other scripts' digits, which Lispex does not.
_INTEGER = re.compile(r"0|-?[1-9][0-9]*")
_RATIONAL = re.compile(r"(0|-?[1-9][0-9]*)/([1-9][0-9]*)")
_REAL = re.compile(r"-?[0-9]+(?:\.[0-9]+)?(?:[eE][-+]?[0-9]+)?")

# Python refuses int(str) beyond 4300 digits by default (a guard against quadratic parsing);
# Lispex integers are unbounded, so long digit strings are converted in halves instead of
# changing the interpreter-wide limit.
_INT_CHUNK = 4000


def _int10(digits: str) -> int:
    """The integer written by an optional ``-`` and ASCII decimal digits, of any length."""
    if len(digits) <= _INT_CHUNK:
        return int(digits)
    negative = digits[0] == "-"
    if negative:
        digits = digits[1:]
    mid = len(digits) // 2
    low = digits[mid:]
    value = _int10(digits[:mid]) * 10 ** len(low) + _int10(low)
    return -value if negative else value


def parse_number(text: str) -> int | Fraction | float | None:
    """The number ``text`` denotes, or None when ``text`` is not Lispex number syntax.

    Raises LispexError E314 (no span, no phase: the caller adds them) when ``text`` is real
    syntax whose value is not a finite double, such as ``1e9999``.
    """
    if _INTEGER.fullmatch(text):
        return _int10(text)
    m = _RATIONAL.fullmatch(text)
    if m:
        value = Fraction(_int10(m.group(1)), _int10(m.group(2)))
        return value.numerator if value.denominator == 1 else value
    if _REAL.fullmatch(text) and ("." in text or "e" in text or "E" in text):
        value = float(text)
        if math.isinf(value):
            raise LispexError("E314", "real literal is too large to be a finite number",
                              (Str(text),))
        return value
    return None
