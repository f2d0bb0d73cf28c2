"""The statement a receipt signs: an in-toto Statement v1 about one compared case.

    {"_type": "https://in-toto.io/Statement/v1",
     "subject": [{"name": "lispex-request:<filename>", "digest": {"sha256": <request digest>}}],
     "predicateType": PREDICATE_TYPE,
     "predicate": {"request": ..., "products": ..., "results": ..., "digests": ...,
                   "observations": ...}}

The request is what was asked (its digest is the subject: the identity of the request, as an
action digest is the identity of a build step); the products are the builds that answered; the
results are each member's semantic projection and the verdict. ``digests`` holds the SHA-256 of
the canonical JSON of the products and of the results. The observations (meter figures, times,
memory, host) are information: signed with the rest, but inside no digest. Lispex values travel
as datum text (exact integers, rationals, bignums alike), never as JSON numbers.
"""

from __future__ import annotations

import datetime as dt
import platform
from typing import Any

from .canonical import (
    MAX_PAYLOAD_BYTES,
    VoucherError,
    canonical,
    digest_of,
    exact,
    sha256,
    strict_loads,
)

STATEMENT_TYPE = "https://in-toto.io/Statement/v1"
PREDICATE_TYPE = "https://lispex.dev/court-receipt/v1"
SUBJECT_PREFIX = "lispex-request:"
# Program output up to this size travels in the receipt itself; beyond it, its digest only.
SMALL_OUTPUT = 4096
PARTS = ("request", "products", "results", "observations", "digests")


def _digest(data: bytes) -> dict[str, str]:
    return {"sha256": sha256(data)}


def canonical_input(input_text: str) -> str:
    """The input datum as the court's reader reads it and `write` prints it: two spellings of
    one datum (spacing, `#x10` and `16`, `2/4` and `1/2`) have one canonical text."""
    from implementations.lispex.printer import write_string
    from implementations.lispex.reader import read_datum_text
    from implementations.lispex.syntax import to_value

    return write_string(to_value(read_datum_text(input_text, "<input>")))


def request_part(resolution: Any, limits: Any, source: bytes, input_text: str | None,
                 filename: str) -> dict[str, Any]:
    from court import __version__
    from court.workers.adapters import DEFAULT_PROFILE

    inp = None
    if input_text is not None:
        data = input_text.encode("utf-8")
        inp = {"digest": _digest(data), "size": len(data),
               "datum_digest": _digest(canonical_input(input_text).encode("utf-8"))}
    return {
        "source": {"digest": _digest(source), "size": len(source), "filename": filename},
        "input": inp,
        "court": {"name": resolution.court, "members": list(resolution.members)},
        "profile": limits.profile or DEFAULT_PROFILE,
        # Decimal text: a meter limit may be any size, and the wall clock is a float.
        "limits": {"meter_limits": {k: str(v) for k, v in
                                    sorted((limits.meter_limits or {}).items())},
                   "timeout_seconds": repr(float(limits.timeout)),
                   "memory_bytes": str(limits.memory_bytes)},
        "court_version": __version__,
    }


def products_part(resolution: Any, case: Any) -> dict[str, Any]:
    lineages = resolution.lineages()
    out = {}
    for m in resolution.members:
        ids = (case.observations.get(m) or {}).get("products") or {}
        product = resolution.products.get(m)
        out[m] = {"product_id": ids.get("product_id"), "lineage": lineages.get(m, m),
                  "meter_model": product.meter_model if product else None,
                  "core_ir_id": ids.get("core_ir_id"), "bytecode_id": ids.get("bytecode_id")}
    return out


def member_result(obs: dict[str, Any]) -> dict[str, Any]:
    """A member's semantic projection: what re-execution must reproduce exactly."""
    sem = obs["semantic"]
    stdout = (sem.get("stdout") or "").encode("utf-8", "surrogatepass")
    output: dict[str, Any] = {"digest": _digest(stdout), "size": len(stdout)}
    if len(stdout) <= SMALL_OUTPUT:
        output["text"] = sem.get("stdout") or ""
    diagnostics = [{k: exact(d.get(k)) for k in ("code", "severity", "phase", "message",
                                                 "irritants", "span")}
                   for d in sem.get("diagnostics") or []]
    return {"status": sem["status"], "exit_status": sem.get("exit_status"),
            "values": list(sem.get("values") or []), "output": output,
            "warnings": [w.get("code") for w in sem.get("warnings") or []],
            "diagnostics": diagnostics,
            "resource_outcome": exact(sem.get("resource_outcome") or {"status": "unknown"}),
            "uncomparable_axes": sorted(obs.get("uncomparable_axes") or [])}


def verdict_part(verdict: Any) -> dict[str, Any]:
    return {"kind": verdict.kind, "factions": [list(f) for f in verdict.factions],
            "axis": (verdict.divergence or {}).get("axis")}


def results_part(resolution: Any, case: Any) -> dict[str, Any]:
    return {"members": {m: member_result(case.observations[m]) for m in resolution.members
                        if m in case.observations},
            "verdict": verdict_part(case.verdict)}


def observations_part(case: Any) -> dict[str, Any]:
    return {"members": {m: {"resources": exact(o.get("resources") or {}),
                            "faults": exact(o.get("faults") or [])}
                        for m, o in case.observations.items()},
            "wall_seconds": repr(float(case.wall_seconds)),
            "host": {"system": platform.system(), "machine": platform.machine(),
                     "python": platform.python_version()},
            "issued_at": dt.datetime.now(dt.UTC).isoformat(timespec="seconds")}


def assemble(request: dict[str, Any], products: dict[str, Any], results: dict[str, Any],
             observations: dict[str, Any]) -> dict[str, Any]:
    return {"_type": STATEMENT_TYPE,
            "subject": [{"name": SUBJECT_PREFIX + request["source"]["filename"],
                         "digest": {"sha256": digest_of(request)}}],
            "predicateType": PREDICATE_TYPE,
            "predicate": {"request": request, "products": products, "results": results,
                          "digests": {"products": digest_of(products),
                                      "results": digest_of(results)},
                          "observations": observations}}


def build_statement(resolution: Any, limits: Any, source: bytes, input_text: str | None,
                    filename: str, case: Any) -> dict[str, Any]:
    return assemble(request_part(resolution, limits, source, input_text, filename),
                    products_part(resolution, case), results_part(resolution, case),
                    observations_part(case))


# -- reading ----------------------------------------------------------------------------------

def read_payload(payload: bytes) -> dict[str, Any]:
    """The statement in a payload; V130 if it is not canonical JSON (a payload that is not
    byte for byte its own canonical form could mean two things to two readers)."""
    value = strict_loads(payload, "V130", "payload", MAX_PAYLOAD_BYTES)
    if canonical(value) != payload:
        raise VoucherError("V130", "payload: valid JSON but not in RFC 8785 canonical form")
    if not isinstance(value, dict):
        raise VoucherError("V140", "payload: not a JSON object")
    return value


def _need(d: Any, key: str, kind: type | tuple, where: str) -> Any:
    if not isinstance(d, dict) or key not in d:
        raise VoucherError("V140", f"{where}.{key}: missing")
    if not isinstance(d[key], kind):
        raise VoucherError("V140", f"{where}.{key}: not of the expected type")
    return d[key]


def check_statement(st: dict[str, Any]) -> list[tuple[str, Any, Any]]:
    """Raise V140 for a statement not of this receipt's shape; return the digest mismatches
    as (what, expected, got)."""
    if st.get("_type") != STATEMENT_TYPE:
        raise VoucherError("V140", f"_type is {st.get('_type')!r}, not {STATEMENT_TYPE}")
    if st.get("predicateType") != PREDICATE_TYPE:
        raise VoucherError("V140", f"predicateType is {st.get('predicateType')!r}, not "
                                   f"{PREDICATE_TYPE}")
    subject = _need(st, "subject", list, "statement")
    if len(subject) != 1:
        raise VoucherError("V140", f"subject: expected one entry, got {len(subject)}")
    _need(subject[0], "name", str, "subject[0]")
    _need(_need(subject[0], "digest", dict, "subject[0]"), "sha256", str, "subject[0].digest")
    pred = _need(st, "predicate", dict, "statement")
    extra = sorted(set(pred) - set(PARTS))
    if extra:
        raise VoucherError("V140", f"predicate: unknown part(s) {', '.join(extra)}")
    request = _need(pred, "request", dict, "predicate")
    products = _need(pred, "products", dict, "predicate")
    results = _need(pred, "results", dict, "predicate")
    _need(pred, "observations", dict, "predicate")
    digests = _need(pred, "digests", dict, "predicate")
    src = _need(request, "source", dict, "request")
    _need(src, "digest", dict, "request.source")
    _need(src, "size", int, "request.source")
    _need(src, "filename", str, "request.source")
    _need(request, "input", (dict, type(None)), "request")
    court = _need(request, "court", dict, "request")
    _need(court, "name", str, "request.court")
    members = _need(court, "members", list, "request.court")
    _need(request, "profile", str, "request")
    _need(request, "limits", dict, "request")
    _need(request, "court_version", str, "request")
    inp = request["input"]
    if inp is not None:
        _need(inp, "digest", dict, "request.input")
        _need(inp, "size", int, "request.input")
        _need(inp, "datum_digest", dict, "request.input")
    result_members = _need(results, "members", dict, "results")
    verdict = _need(results, "verdict", dict, "results")
    _need(verdict, "kind", str, "results.verdict")
    factions = _need(verdict, "factions", list, "results.verdict")
    if not all(isinstance(f, list) and all(isinstance(m, str) for m in f) for f in factions):
        raise VoucherError("V140", "results.verdict.factions: not lists of member names")
    _need(verdict, "axis", (str, type(None)), "results.verdict")
    for m in members:
        if not isinstance(m, str):
            raise VoucherError("V140", "request.court.members: not a list of product ids")
        _need(products, m, dict, "products")
        _need(products[m], "product_id", (str, type(None)), f"products.{m}")
    for m, r in result_members.items():
        if m not in members or not isinstance(r, dict):
            raise VoucherError("V140", f"results.members.{m}: not a member's result")
    mismatches = []
    got = subject[0]["digest"]["sha256"]
    if got != digest_of(request):
        mismatches.append(("subject digest (of the request)", digest_of(request), got))
    for part, value in (("products", products), ("results", results)):
        if digests.get(part) != digest_of(value):
            mismatches.append((f"digests.{part}", digest_of(value), digests.get(part)))
    return mismatches
