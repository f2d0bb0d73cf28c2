"""DSSE envelopes: the pre-authentication encoding, signing, and reading an envelope strictly.

    PAE(type, body) = "DSSEv1" SP LEN(type) SP type SP LEN(body) SP body

(LEN: the byte length as ASCII decimal without leading zeros.) The signature is over PAE, never
over the bare payload, so a payload cannot be passed off under another payload type.
"""

from __future__ import annotations

import base64
import binascii
import re
from dataclasses import dataclass
from typing import Any

from .canonical import (
    MAX_PAYLOAD_BYTES,
    MAX_RECEIPT_BYTES,
    VoucherError,
    canonical,
    strict_loads,
)
from .keys import SigningKey

PAYLOAD_TYPE = "application/vnd.lispex.court-receipt.v1+json"
MAX_SIGNATURES = 16
MAX_KEYID_CHARS = 256
MAX_SIG_CHARS = 512  # an Ed25519 signature is 64 bytes: 88 characters of base64
_B64 = re.compile(r"[A-Za-z0-9+/]*={0,2}")


def pae(payload_type: str, payload: bytes) -> bytes:
    t = payload_type.encode("utf-8")
    return b"DSSEv1 %d %s %d %s" % (len(t), t, len(payload), payload)


def b64(data: bytes) -> str:
    return base64.b64encode(data).decode("ascii")


def sign_envelope(key: SigningKey, statement: dict[str, Any],
                  payload_type: str = PAYLOAD_TYPE) -> dict[str, Any]:
    """The envelope of ``statement`` signed by ``key``. Raises VoucherError for a statement a
    reader would refuse (past a size bound): a receipt is never issued that cannot be read."""
    payload = canonical(statement)
    strict_loads(payload, "V130", "payload", MAX_PAYLOAD_BYTES)
    sig = key.sign(pae(payload_type, payload))
    return {"payload": b64(payload), "payloadType": payload_type,
            "signatures": [{"keyid": key.id, "sig": b64(sig)}]}


@dataclass
class Signature:
    keyid: str
    sig: bytes


@dataclass
class Envelope:
    payload_type: str
    payload: bytes
    signatures: list[Signature]


def _unb64(text: str, where: str, max_chars: int) -> bytes:
    if len(text) > max_chars:
        raise VoucherError("V100", f"{where}: {len(text)} characters, more than the "
                                   f"{max_chars} allowed")
    if not _B64.fullmatch(text) or len(text) % 4:
        raise VoucherError("V100", f"{where}: not standard base64")
    try:
        return base64.b64decode(text, validate=True)
    except (binascii.Error, ValueError):
        raise VoucherError("V100", f"{where}: not standard base64") from None


def read_envelope(data: bytes) -> Envelope:
    """The envelope in ``data``; raises VoucherError V100 for anything but one DSSE envelope
    of bounded size (DSSE's own fields only: a stray field could carry unsigned claims)."""
    doc = strict_loads(data, "V100", "receipt", MAX_RECEIPT_BYTES)
    if not isinstance(doc, dict):
        raise VoucherError("V100", "receipt: not a JSON object (a DSSE envelope)")
    extra = sorted(set(doc) - {"payload", "payloadType", "signatures"})
    if extra:
        raise VoucherError("V100", f"receipt: unknown envelope field(s) {', '.join(extra)}")
    for name, kind in (("payload", str), ("payloadType", str), ("signatures", list)):
        if not isinstance(doc.get(name), kind):
            raise VoucherError("V100", f"receipt: {name} missing or not a {kind.__name__}")
    if len(doc["payloadType"]) > 256:
        raise VoucherError("V100", "receipt: payloadType longer than 256 characters")
    payload = _unb64(doc["payload"], "payload", (MAX_PAYLOAD_BYTES * 4) // 3 + 4)
    sigs = doc["signatures"]
    if not sigs:
        raise VoucherError("V100", "receipt: no signature")
    if len(sigs) > MAX_SIGNATURES:
        raise VoucherError("V100", f"receipt: {len(sigs)} signatures, more than the "
                                   f"{MAX_SIGNATURES} allowed")
    out = []
    for i, s in enumerate(sigs):
        where = f"signatures[{i}]"
        if not isinstance(s, dict) or set(s) - {"keyid", "sig"} or \
                not isinstance(s.get("sig"), str) or not isinstance(s.get("keyid", ""), str):
            raise VoucherError("V100", f"{where}: expected {{keyid, sig}} strings")
        keyid = s.get("keyid", "")
        if len(keyid) > MAX_KEYID_CHARS:
            raise VoucherError("V100", f"{where}.keyid: longer than {MAX_KEYID_CHARS} characters")
        out.append(Signature(keyid, _unb64(s["sig"], f"{where}.sig", MAX_SIG_CHARS)))
    return Envelope(doc["payloadType"], payload, out)
