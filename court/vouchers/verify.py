"""`court verify`: the checks of a receipt, in order, each performed or listed as not performed.

1. envelope, 2. signature, 3. payload type, 4. canonical form, 5. statement: a receipt that fails
one of these says nothing trustworthy, so the checks after it are listed as not performed.
6. policy (with a trust policy), 7. request (with the source and input), then, on this machine,
8. court, 9. products, 10. re-execution with 11. observations, and 12. the verdict (reexec.py).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .canonical import VoucherError, sha256
from .codes import FAILED, NOT_PERFORMED, PASSED, UNABLE
from .envelope import PAYLOAD_TYPE, pae, read_envelope
from .keys import PublicKey
from .policy import Policy
from .report import Finding, Verification
from .statement import canonical_input, check_statement, read_payload


@dataclass
class Request:
    """What the verifier was given of the request: None for a part not given."""

    source: bytes | None = None
    input_text: str | None = None
    input_given: bool = False


def verify(receipt: bytes, *, keys: list[PublicKey] | None = None, policy: Policy | None = None,
           request: Request | None = None, reexec: bool = True,
           config_path: Path | None = None, local: bool = True) -> Verification:
    """Verify ``receipt`` against trusted ``keys`` or a ``policy`` (one of them), optionally
    the ``request`` it claims to answer, and re-execute it unless ``reexec`` is false. With
    ``local`` false nothing runs here: the court, products and re-execution are listed as not
    performed (a receiver without the implementations checks the rest)."""
    request = request or Request()
    v = Verification(receipt_digest=sha256(receipt),
                     policy_digest=policy.digest if policy else None)
    trusted = list(policy.keys.values()) if policy else []
    candidates = [t.public for t in trusted] if policy else list(keys or [])
    if not candidates:
        v.add("signature", UNABLE, "no key to verify with: give --key PUB or --policy FILE")
        v.skip_rest("no trusted key")
        return v
    try:
        env = read_envelope(receipt)
    except VoucherError as e:
        v.add("envelope", UNABLE, f"not a readable DSSE envelope: {e.message}")
        v.skip_rest("the receipt could not be read")
        return v
    v.add("envelope", PASSED, f"a DSSE envelope with {len(env.signatures)} signature(s), "
                              f"{len(env.payload)} payload bytes")
    if not _signature(v, env, candidates):
        v.skip_rest("the signature did not verify: nothing in the payload is vouched for")
        return v
    if env.payload_type != PAYLOAD_TYPE:
        v.add("payload-type", FAILED, "unknown payload type: this verifier reads court "
              "receipts only", [Finding("payloadType", PAYLOAD_TYPE, env.payload_type, False)])
        v.skip_rest("unknown payload type")
        return v
    v.add("payload-type", PASSED, PAYLOAD_TYPE)
    try:
        statement = read_payload(env.payload)
    except VoucherError as e:
        if e.code != "V130":
            v.add("canonical", PASSED, "RFC 8785 canonical JSON")
        v.add("canonical" if e.code == "V130" else "statement", FAILED, e.message)
        v.skip_rest(f"the payload is not a well-formed receipt ({e.code})")
        return v
    v.add("canonical", PASSED, "RFC 8785 canonical JSON")
    try:
        mismatches = check_statement(statement)
        from .reexec import receipt_limits

        receipt_limits(statement["predicate"]["request"])
    except VoucherError as e:
        v.add("statement", FAILED, e.message)
        v.skip_rest("the statement is malformed (V140)")
        return v
    if mismatches:
        v.add("statement", FAILED, "a digest in the statement is not the digest of its part",
              [Finding(what, exp, got, False) for what, exp, got in mismatches])
        v.skip_rest("the statement's digests do not match its parts (V140)")
        return v
    pred = statement["predicate"]
    v.add("statement", PASSED, f"in-toto Statement v1; subject {statement['subject'][0]['name']} "
                               f"sha256:{statement['subject'][0]['digest']['sha256'][:16]}...")
    v.statement = statement
    if policy is not None:
        key = policy.keys[v.key_id]  # type: ignore[index]
        broken = key.broken_rules(env.payload_type, pred["request"], pred["products"])
        if broken:
            v.add("policy", FAILED, "outside the trust policy: " +
                  ", ".join(rule for rule, _, _ in broken),
                  [Finding(f"rule {rule}", allowed, got, False) for rule, allowed, got in broken])
            v.skip_rest("the receipt is outside the trust policy (V150)")
            return v
        v.add("policy", PASSED, f"admitted by {policy.origin} (key {v.key_id[:16]}...)")
    else:
        v.add("policy", NOT_PERFORMED, "no --policy: the key given is trusted for any court, "
                                       "profile and product")
    request_ok = _request(v, pred["request"], request)
    if not local:
        v.skip_rest("not checked on this machine (local checks off)")
        return v
    from .reexec import run_checks

    run_checks(v, statement, request, reexec=reexec, request_ok=request_ok,
               config_path=config_path)
    return v


def _signature(v: Verification, env: Any, candidates: list[PublicKey]) -> bool:
    message = pae(env.payload_type, env.payload)
    tried: list[Finding] = []
    for i, sig in enumerate(env.signatures):
        for key in candidates:
            if sig.keyid and sig.keyid != key.id:
                tried.append(Finding(f"signature {i} with key {key.id[:16]}...", key.id,
                                     sig.keyid, False, "the signature names another key id"))
                continue
            if key.verifies(sig.sig, message):
                v.key_id = key.id
                v.add("signature", PASSED, f"Ed25519 over DSSE PAE, key {key.id}",
                      [*tried, Finding(f"signature {i} with key {key.id[:16]}...")])
                return True
            tried.append(Finding(f"signature {i} with key {key.id[:16]}...", None, None, False,
                                 "the signature does not verify: the payload, its type or "
                                 "the signature was changed, or another key signed it"))
    v.add("signature", FAILED, f"no signature verifies with the {len(candidates)} trusted "
                               "key(s)", tried)
    return False


def _request(v: Verification, req: dict[str, Any], given: Request) -> bool:
    """Check the source and input given against the request's digests; False if they
    differ."""
    if given.source is None and not given.input_given:
        v.add("request", NOT_PERFORMED, "no --source or --input given: the request's digests "
                                        "were not compared with anything")
        return True
    findings = []
    if given.source is not None:
        src = req["source"]
        findings.append(_same("source sha256", src["digest"].get("sha256"),
                              sha256(given.source)))
        findings.append(_same("source size", src["size"], len(given.source)))
    else:
        findings.append(Finding("source", why="not given (--source)"))
    want = req.get("input")
    if given.input_given:
        if want is None:
            findings.append(Finding("input", "no input", "an input", False,
                                    "the request had no input datum"))
        elif given.input_text is None:
            findings.append(Finding("input", "an input", "no input", False))
        else:
            data = given.input_text.encode("utf-8")
            try:
                datum = sha256(canonical_input(given.input_text).encode("utf-8"))
            except Exception as e:  # noqa: BLE001 - the reader's error: not the receipt's datum
                datum = f"unreadable datum ({getattr(e, 'code', type(e).__name__)})"
            raw = _same("input sha256", want["digest"].get("sha256"), sha256(data))
            canon = _same("input datum sha256 (canonical)", want.get("datum_digest", {}).get(
                "sha256"), datum)
            if not raw.ok and canon.ok:
                raw.why = "the same datum spelled differently: the receipt binds the exact text"
            findings += [raw, _same("input size", want["size"], len(data)), canon]
    elif want is not None:
        findings.append(Finding("input", why="not given (--input)"))
    bad = [f for f in findings if not f.ok]
    if bad:
        v.add("request", FAILED, "the request given is not the receipt's: " +
              ", ".join(f.what for f in bad), findings)
        return False
    v.add("request", PASSED, "the source and input given are the receipt's", findings)
    return True


def _same(what: str, expected: Any, got: Any) -> Finding:
    return Finding(what, expected, got, expected == got)
