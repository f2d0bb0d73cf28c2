"""Canonical JSON (RFC 8785), strict reading and digests.

Reading fails closed: a duplicate key, a NaN or an infinity, a nesting too deep or a string past
its bound is a :class:`VoucherError` with the code of the check it breaks, never a crash and
never a silent pick of one of two values.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

import rfc8785

# Bounds on what a reader accepts (a receipt is small: digests, datum texts, short outputs).
MAX_RECEIPT_BYTES = 8 << 20
MAX_PAYLOAD_BYTES = 4 << 20
MAX_STRING_CHARS = 1 << 20
MAX_DEPTH = 48
MAX_ITEMS = 100_000
# Exact integers a JSON number can carry unambiguously (RFC 8785 refuses the others).
SAFE_INTEGER = (1 << 53) - 1


class VoucherError(Exception):
    """A receipt, key or policy that cannot be used; ``code`` names the check it breaks."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(f"{code} {message}")
        self.code = code
        self.message = message


def canonical(value: Any) -> bytes:
    """RFC 8785 canonical JSON of ``value`` (UTF-8 bytes)."""
    try:
        return rfc8785.dumps(value)
    except (rfc8785.CanonicalizationError, TypeError, ValueError) as e:
        raise VoucherError("V130", f"not canonicalisable: {e}") from None


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def digest_of(value: Any) -> str:
    """The SHA-256 of the canonical JSON of ``value``: the identity of a receipt's part."""
    return sha256(canonical(value))


def _no_duplicates(code: str, where: str):
    def hook(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for k, v in pairs:
            if k in out:
                raise VoucherError(code, f"{where}: duplicate key {k!r}")
            out[k] = v
        return out
    return hook


def _no_constant(code: str, where: str):
    def hook(name: str) -> Any:
        raise VoucherError(code, f"{where}: {name} is not JSON")
    return hook


def strict_loads(data: bytes, code: str, where: str, max_bytes: int) -> Any:
    """Parse JSON that must be exactly one value: UTF-8, no duplicate key, no NaN/Infinity,
    within ``max_bytes``, strings within MAX_STRING_CHARS and nesting within MAX_DEPTH."""
    if len(data) > max_bytes:
        raise VoucherError(code, f"{where}: {len(data)} bytes, more than the {max_bytes} allowed")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise VoucherError(code, f"{where}: not UTF-8 ({e.reason} at byte {e.start})") from None
    try:
        value = json.loads(text, object_pairs_hook=_no_duplicates(code, where),
                           parse_constant=_no_constant(code, where))
    except json.JSONDecodeError as e:
        raise VoucherError(code, f"{where}: not JSON ({e.msg} at line {e.lineno} column "
                                 f"{e.colno})") from None
    except RecursionError:
        raise VoucherError(code, f"{where}: nested too deeply") from None
    _bounded(value, code, where, 0, [0])
    return value


def _bounded(value: Any, code: str, where: str, depth: int, count: list[int]) -> None:
    count[0] += 1
    if count[0] > MAX_ITEMS:
        raise VoucherError(code, f"{where}: more than {MAX_ITEMS} JSON values")
    if depth > MAX_DEPTH:
        raise VoucherError(code, f"{where}: nested deeper than {MAX_DEPTH}")
    if isinstance(value, str):
        if len(value) > MAX_STRING_CHARS:
            raise VoucherError(code, f"{where}: a string of {len(value)} characters, more than "
                                     f"the {MAX_STRING_CHARS} allowed")
    elif isinstance(value, dict):
        for k, v in value.items():
            _bounded(k, code, where, depth + 1, count)
            _bounded(v, code, where, depth + 1, count)
    elif isinstance(value, list):
        for v in value:
            _bounded(v, code, where, depth + 1, count)


def exact(value: Any) -> Any:
    """``value`` with every number a JSON reader cannot misread: an integer past 2**53 or a
    float becomes its decimal text (observations carry times and byte counts)."""
    if isinstance(value, bool) or value is None or isinstance(value, str):
        return value
    if isinstance(value, int):
        return value if -SAFE_INTEGER <= value <= SAFE_INTEGER else str(value)
    if isinstance(value, float):
        return repr(value)
    if isinstance(value, dict):
        return {str(k): exact(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [exact(v) for v in value]
    return str(value)
