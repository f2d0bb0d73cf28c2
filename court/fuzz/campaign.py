"""A fuzzing campaign: generated cases through a court, findings confirmed, minimised, saved.

A finding is a verdict of one of the FINDING_KINDS (a confirmed disagreement, a one-sided limit, a
member fault), identified by its divergence signature: the kind, the first differing axis, and
each member's status and diagnostic code (or fault kind). One finding per signature; signatures listed in the quarantine file
are known and skipped.
"""

from __future__ import annotations

import hashlib
import json
import time
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..differences import KnownDifferences
from ..session import CaseResult, CourtSession
from ..verdict import FINDING_KINDS
from .generate import Case
from .reduce import reduce


def signature(result: CaseResult) -> dict[str, Any] | None:
    v = result.verdict
    if v.kind not in FINDING_KINDS or not v.divergence:
        return None
    codes = {}
    for m, o in sorted(result.observations.items()):
        sem = o["semantic"]
        diag = (sem.get("diagnostics") or [None])[0]
        fault = (o.get("faults") or [None])[0]
        codes[m] = [sem["status"], diag["code"] if diag else (fault["kind"] if fault else None)]
    return {"kind": v.kind, "axis": v.divergence["axis"], "codes": codes}


def signature_id(sig: dict[str, Any]) -> str:
    return hashlib.sha256(json.dumps(sig, sort_keys=True).encode()).hexdigest()[:12]


def load_quarantine(path: Path | None) -> dict[str, str]:
    if path is None or not path.exists():
        return {}
    data = tomllib.loads(path.read_text("utf-8"))
    return {k["signature"]: k.get("note", "") for k in data.get("known", [])}


@dataclass
class Finding:
    id: str
    signature: dict[str, Any]
    original: str
    minimized: str
    input: str | None
    features: tuple[str, ...]
    observations: dict[str, Any]
    reduce_tests: int
    path: Path | None = None


@dataclass
class Stats:
    generated: int = 0
    agree: int = 0
    not_comparable: int = 0
    infrastructure: int = 0
    unconfirmed: int = 0
    quarantined: int = 0
    duplicates: int = 0
    known_differences: int = 0  # disagreements a witness's known-differences file explains
    outside_subset: int = 0  # programs skipped: outside the shared subset of a witness
    eval_seconds: float = 0.0
    reduce_seconds: float = 0.0
    findings: list[Finding] = field(default_factory=list)
    # (member, fault kind, message, program) of the first infrastructure errors, for the summary
    infra_examples: list[tuple[str, str, str, str]] = field(default_factory=list)


class Campaign:
    def __init__(self, session: CourtSession, save_dir: Path | None, quarantine: dict[str, str],
                 reduce_seconds: float = 30.0, seed: int | None = None) -> None:
        self.session = session
        self.save_dir = save_dir
        self.quarantine = quarantine
        self.reduce_seconds = reduce_seconds
        self.seed = seed
        self.stats = Stats()
        self.seen: set[str] = set()
        self.known = KnownDifferences.for_products(session.resolution.products)

    def examine(self, case: Case) -> Finding | None:
        s = self.stats
        s.generated += 1
        t0 = time.perf_counter()
        result = self.session.run_case(case.source.encode("utf-8"), case.input, "fuzz.lspx")
        s.eval_seconds += time.perf_counter() - t0
        kind = result.verdict.kind
        if kind not in FINDING_KINDS and kind != "not-comparable":
            s.agree += 1
            return None
        if kind == "not-comparable":
            broken = [(m, f) for m, o in result.observations.items()
                      for f in o.get("faults", [])]
            if broken and self.known and self.known.match_resource(
                    result.observations, case.source) is not None:
                s.not_comparable += 1  # the witness ran on where a Lispex meter stopped
            elif broken:
                s.infrastructure += 1
                if len(s.infra_examples) < 5:
                    m, f = broken[0]
                    s.infra_examples.append((m, f["kind"], f["message"], case.source))
            elif result.verdict.confirmed is False:
                s.unconfirmed += 1
            else:
                s.not_comparable += 1
            return None
        if self.known and self.known.match(result.observations, result.verdict.factions,
                                           case.source) is not None:
            s.known_differences += 1
            return None
        sig = signature(result)
        assert sig is not None
        sid = signature_id(sig)
        if sid in self.quarantine:
            s.quarantined += 1
            return None
        if sid in self.seen:
            s.duplicates += 1
            return None
        self.seen.add(sid)
        t1 = time.perf_counter()
        minimized, tests = reduce(case.source, lambda text: self.holds(text, case.input, sig),
                                  seconds=self.reduce_seconds)
        final = self.session.run_case(minimized.encode("utf-8"), case.input, "fuzz.lspx")
        s.reduce_seconds += time.perf_counter() - t1
        if self.known and self.known.match(final.observations, final.verdict.factions,
                                           minimized) is not None:
            # Reduced, the program shows a listed difference its first shape hid.
            s.known_differences += 1
            return None
        finding = Finding(sid, sig, case.source, minimized, case.input, case.features,
                          final.observations, tests)
        if self.save_dir is not None:
            finding.path = self.save(finding)
        s.findings.append(finding)
        return finding

    def holds(self, text: str, input_text: str | None, sig: dict[str, Any]) -> bool:
        result = self.session.run_case(text.encode("utf-8"), input_text, "fuzz.lspx",
                                       confirm=False)
        return signature(result) == sig

    def save(self, f: Finding) -> Path:
        assert self.save_dir is not None
        return save_finding(self.save_dir, f, self.seed, self.session.resolution.court)


def save_finding(save_dir: Path, f: Finding, seed: int | None, court: str,
                 provenance: dict[str, Any] | None = None) -> Path:
    """Write a finding as a corpus case (program, input) beside its record; returns the program.
    ``provenance`` adds fields to the record (a cluster campaign names the chunk it came from)."""
    save_dir.mkdir(parents=True, exist_ok=True)
    stem = save_dir / f"fuzz-{f.id}"
    stem.with_suffix(".lspx").write_text(
        f";; found by court fuzz (seed {seed}); divergence on {f.signature['axis']}\n"
        + f.minimized, "utf-8")
    if f.input is not None:
        stem.with_suffix(".input").write_text(f.input + "\n", "utf-8")
    record = {"schema": "lispex.court-finding/v1", "signature": f.signature,
              "signature_id": f.id, "seed": seed, "court": court,
              "features": list(f.features), "original": f.original,
              "minimized": f.minimized, "input": f.input, "reduce_tests": f.reduce_tests,
              "observations": {m: {k: o[k] for k in ("semantic", "products") if k in o}
                               for m, o in f.observations.items()}}
    record.update(provenance or {})
    path = stem.with_name(stem.name + ".finding.json")
    path.write_text(json.dumps(record, ensure_ascii=False, indent=1) + "\n", "utf-8")
    return stem.with_suffix(".lspx")
