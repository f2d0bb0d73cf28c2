"""Signed receipts from `lispex_compare` (``"receipt": true``): the server's side of
court/vouchers/, which makes them exactly as `court compare --receipt` does."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any


def load_key(path: str, log: Callable[[str], None]) -> Any:
    """The signing key named by --signing-key, or None (after saying why) if it cannot be
    used: the server then does not start."""
    from court.vouchers.keys import KeyFileError, load_signing_key

    try:
        return load_signing_key(Path(path))
    except KeyFileError as e:
        log(f"--signing-key: {e}")
        return None


def check_can_sign(key: Any, error: type) -> None:
    if key is None:
        raise error("receipt", "this server was started without --signing-key, so it cannot "
                               "sign receipts; start it with court mcp serve --signing-key KEY, "
                               "or call without \"receipt\"")


def sign(key: Any, res: Any, limits: Any, source: bytes, input_text: str | None, filename: str,
         case: Any, error: type) -> dict[str, Any]:
    from court.vouchers import VoucherError, receipt_for

    try:
        return receipt_for(key, res, limits, source, input_text, filename, case)
    except VoucherError as e:
        raise error("receipt", f"cannot make a receipt of this result: {e.message}") from None
