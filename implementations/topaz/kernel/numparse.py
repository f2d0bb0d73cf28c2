"""The decimal number grammar, shared by the reader and ``string->number``.

A hand-written scanner over the token rather than a regular expression:

    integer  = "0" | ["-"] nonzero-digit {digit}
    rational = integer "/" nonzero-digit {digit}
    real     = ["-"] digit {digit} ( "." digit {digit} [exponent] | exponent )
    exponent = ("e" | "E") ["+" | "-"] digit {digit}
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

DIGITS = frozenset("0123456789")


class NotFinite(Exception):
    """The text is a real whose value is too large for a double."""


def looks_numeric(tok: str) -> bool:
    """A token is a number iff it starts with a digit, or with ``-`` and a digit."""
    if not tok:
        return False
    c = tok[0]
    if c in DIGITS:
        return True
    return c == "-" and len(tok) > 1 and tok[1] in DIGITS


def _digits(tok: str, i: int) -> int:
    """Index after the run of digits starting at ``i``."""
    n = len(tok)
    while i < n and tok[i] in DIGITS:
        i += 1
    return i


def _integer_end(tok: str, i: int) -> int:
    """End of an integer starting at ``i`` (after an optional sign), or -1."""
    if i < len(tok) and tok[i] == "-":
        i += 1
    if i >= len(tok) or tok[i] not in DIGITS:
        return -1
    if tok[i] == "0":
        return i + 1
    return _digits(tok, i)


def decimal_int(digits: str) -> int:
    """``int(digits)`` for any length: CPython refuses strings past 4300 digits, so long ones
    are converted in halves."""
    if len(digits) <= 4000:
        return int(digits)
    sign = -1 if digits.startswith("-") else 1
    body = digits.lstrip("-")
    half = len(body) // 2
    return sign * (decimal_int(body[:half]) * 10 ** (len(body) - half) + decimal_int(body[half:]))


def parse_decimal(tok: str) -> Any:
    """The number ``tok`` denotes, or None when it is not one. Raises NotFinite for a real
    literal out of double range."""
    n = len(tok)
    end = _integer_end(tok, 0)
    if end == n:
        if tok == "-0":
            return None
        return decimal_int(tok)
    if end > 0 and tok[end] == "/" and tok != "-0" and tok[:end] != "-0":
        d = end + 1
        if d < n and tok[d] in DIGITS and tok[d] != "0" and _digits(tok, d) == n:
            q = Fraction(decimal_int(tok[:end]), decimal_int(tok[d:]))
            return q.numerator if q.denominator == 1 else q
        return None
    return _real(tok)


def _real(tok: str) -> Any:
    n = len(tok)
    i = 1 if tok.startswith("-") else 0
    j = _digits(tok, i)
    if j == i:
        return None
    fraction = exponent = False
    if j < n and tok[j] == ".":
        k = _digits(tok, j + 1)
        if k == j + 1:
            return None
        j, fraction = k, True
    if j < n and tok[j] in "eE":
        k = j + 1
        if k < n and tok[k] in "+-":
            k += 1
        m = _digits(tok, k)
        if m == k:
            return None
        j, exponent = m, True
    if j != n or not (fraction or exponent):
        return None
    x = float(tok)
    if x in (float("inf"), float("-inf")):
        raise NotFinite(tok)
    return x


def parse_radix_integer(text: str, radix: int) -> int | None:
    """An integer in ``radix`` (2, 8 or 16): optional ``-``, digits of that radix, no leading
    zeros (as in the decimal grammar)."""
    body = text[1:] if text.startswith("-") else text
    if not body:
        return None
    allowed = "0123456789abcdef"[:radix]
    if any(c.lower() not in allowed for c in body):
        return None
    return int(text, radix)
