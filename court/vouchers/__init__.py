"""Vouchers: signed receipts of a comparison, bound to the exact request, and their verification.

A receipt is a DSSE envelope (Ed25519, signature over DSSE's pre-authentication encoding) whose
payload is an in-toto Statement v1 in RFC 8785 canonical JSON. Its subject is the digest of the
request (source, input, court, limits, profile, court version); its predicate holds the request,
the products, the results and the verdict, and, outside every digest, the observations.

The modules, lowest first:

- ``codes``: the verification checks, in order, each with its stable code (data);
- ``canonical``: canonical JSON, strict reading (duplicate keys, sizes) and digests;
- ``envelope``: DSSE's pre-authentication encoding, signing and reading envelopes;
- ``keys``: Ed25519 key pairs and key ids;
- ``statement``: the statement of one compared case, and reading one back;
- ``policy``: the receiving side's trust policy (TOML);
- ``verify``: the ordered checks, re-execution included.

The command line, the MCP server and the benchmarks use it the same way:
:func:`receipt_for` makes a receipt, :func:`verify.verify` checks one.
"""

from __future__ import annotations

from typing import Any

from .canonical import VoucherError
from .envelope import PAYLOAD_TYPE, sign_envelope
from .keys import SigningKey, generate, load_public_key, load_signing_key
from .statement import build_statement

__all__ = ["PAYLOAD_TYPE", "SigningKey", "VoucherError", "build_statement", "generate",
           "load_public_key", "load_signing_key", "receipt_for", "receipt_bytes"]


def receipt_for(key: SigningKey, resolution: Any, limits: Any, source: bytes,
                input_text: str | None, filename: str, case: Any) -> dict[str, Any]:
    """The signed receipt (a DSSE envelope, as JSON data) of one compared case."""
    statement = build_statement(resolution, limits, source, input_text, filename, case)
    return sign_envelope(key, statement)


def receipt_bytes(envelope: dict[str, Any]) -> bytes:
    """The receipt as a file holds it: the envelope in canonical JSON, newline-terminated."""
    from .canonical import canonical

    return canonical(envelope) + b"\n"
