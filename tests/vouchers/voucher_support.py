"""Helpers for the voucher tests: keys, receipts made through the engine, re-signing."""

from __future__ import annotations

import base64
import json
from pathlib import Path
from typing import Any

from court.catalog import load_config, resolve
from court.session import CourtSession
from court.vouchers import receipt_bytes, receipt_for
from court.vouchers.canonical import canonical, digest_of
from court.vouchers.envelope import PAYLOAD_TYPE, b64, pae
from court.vouchers.keys import generate, load_public_key, load_signing_key
from court.workers.limits import Limits

ROOT = Path(__file__).resolve().parents[2]


def keypair(folder: Path):
    private, public, _ = generate(folder)
    return load_signing_key(private), load_public_key(public)


def compared(source: str, input_text: str | None = None, court: str = "tree-rust",
             config: Path | None = None, filename: str = "rule.lspx",
             limits: Limits | None = None):
    """(resolution, limits, case) of one compare through the engine."""
    res = resolve(load_config(config, search_cwd=False), court)
    assert res.available, res.missing
    limits = limits or Limits(timeout=60.0, profile=None, meter_limits={})
    with CourtSession(res, limits, jobs=2) as session:
        case = session.run_case(source.encode(), input_text, filename)
    return res, limits, case


def receipt(key: Any, source: str, input_text: str | None = None, **kw) -> bytes:
    res, limits, case = compared(source, input_text, **kw)
    return receipt_bytes(receipt_for(key, res, limits, source.encode(), input_text,
                                     kw.get("filename", "rule.lspx"), case))


def statement_of(data: bytes) -> dict[str, Any]:
    return json.loads(base64.b64decode(json.loads(data)["payload"]))


def resign(key: Any, statement: dict[str, Any], *, payload_type: str = PAYLOAD_TYPE,
           payload: bytes | None = None, digests: bool = True) -> bytes:
    """A receipt of ``statement`` signed by ``key`` (an attacker holding a trusted key, or a
    buggy signer): with ``digests`` the subject and part digests are recomputed, so that only
    the field changed is wrong."""
    if digests:
        pred = statement["predicate"]
        statement["subject"][0]["digest"]["sha256"] = digest_of(pred["request"])
        pred["digests"] = {"products": digest_of(pred["products"]),
                           "results": digest_of(pred["results"])}
    body = canonical(statement) if payload is None else payload
    sig = key.sign(pae(payload_type, body))
    env = {"payload": b64(body), "payloadType": payload_type,
           "signatures": [{"keyid": key.id, "sig": b64(sig)}]}
    return canonical(env) + b"\n"


def codes(v: Any, status: str = "failed") -> set[str]:
    """The codes of the checks with ``status``; first, that every check is listed once."""
    from court.vouchers.codes import CHECKS

    assert sorted(c.code for c in v.checks) == sorted(k.code for k in CHECKS), v.lines()
    return {c.code for c in v.checks if c.status == status}


def check(v: Any, name: str) -> Any:
    return next(c for c in v.checks if c.name == name)
