"""Helpers primitives use to check arguments and raise catalog errors."""

from __future__ import annotations

from typing import Any, NoReturn

from .. import numbers
from ..errors import LispexError


def wrong_type(name: str, expected: str, value: Any) -> NoReturn:
    raise LispexError("E312", f"{name}: expected {expected}", (value,))


def out_of_range(name: str, index: Any, obj: Any) -> NoReturn:
    raise LispexError("E311", f"{name}: index out of range", (index, obj))


def pair_expected(name: str, value: Any) -> NoReturn:
    raise LispexError("E310", f"{name}: expected a pair", (value,))


def list_expected(name: str, value: Any) -> NoReturn:
    raise LispexError("E310", f"{name}: expected a proper list", (value,))


def division_by_zero(name: str, *args: Any) -> NoReturn:
    raise LispexError("E313", f"{name}: division by zero", args)


def nonfinite(name: str, *args: Any) -> NoReturn:
    raise LispexError("E314", f"{name}: result is not a finite number", args)


def exact_integer(name: str, value: Any) -> int:
    """``value`` when it is an exact integer, else E312."""
    if type(value) is not int:
        wrong_type(name, "an exact integer", value)
    return value


def exact_count(name: str, value: Any) -> int:
    """``value`` when it is an exact non-negative integer (a size or count), else E312."""
    if type(value) is not int or value < 0:
        wrong_type(name, "an exact non-negative integer", value)
    return value


# The largest list, string, vector or bytevector a primitive will make, and the largest exact
# integer `expt` or `*` will compute (in bits). No meter covers the size of one allocation or one
# bignum operation, so these bounds keep a single call from exhausting the host; past them the
# argument is out of range (E311), the same on every implementation.
MAX_LENGTH = 10_000_000
MAX_EXACT_BITS = numbers.MAX_EXACT_BITS


def allocation_length(name: str, value: Any) -> int:
    """A length to allocate: an exact non-negative integer (else E312) no larger than
    MAX_LENGTH (else E311)."""
    n = exact_count(name, value)
    if n > MAX_LENGTH:
        raise LispexError("E311", f"{name}: length {n} is larger than the largest supported "
                          f"length, {MAX_LENGTH}", (value,))
    return n


def start_end(name: str, obj: Any, length: int, opt: tuple) -> tuple[int, int]:
    """The optional ``[start [end]]`` arguments of a sequence primitive, checked.

    Each must be an exact integer (E312); ``0 <= start <= end <= length`` must hold (E311, the
    irritants being the offending index and ``obj``).
    """
    start = exact_integer(name, opt[0]) if len(opt) > 0 else 0
    end = exact_integer(name, opt[1]) if len(opt) > 1 else length
    if not 0 <= start <= length:
        out_of_range(name, start, obj)
    if not start <= end <= length:
        out_of_range(name, end, obj)
    return start, end
