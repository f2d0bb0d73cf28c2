"""The `lispex.court-report/v1` document: built from a run's records, merged from shards.

Every other report (JUnit, Markdown, HTML) is rendered from this JSON alone, so a merged report
renders exactly like one made by a single run.
"""

from __future__ import annotations

import datetime as dt
import os
import platform
import statistics
import sys
from typing import Any

from .. import __version__
from ..files import safe_text
from ..runner import OUTCOMES, CaseRecord

REPORT_SCHEMA = "lispex.court-report/v1"


def environment() -> dict[str, Any]:
    return {
        "python": platform.python_version(),
        "implementation": platform.python_implementation(),
        "platform": platform.platform(),
        "machine": platform.machine(),
        "cpus": len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity")
        else os.cpu_count(),
        "court_version": __version__,
    }


def case_json(r: CaseRecord, reproduce: list[str] | None = None) -> dict[str, Any]:
    out: dict[str, Any] = {
        "id": r.case.id,
        "program": safe_text(str(r.case.program)),
        "input": safe_text(str(r.case.input_path)) if r.case.input_path is not None else None,
        "outcome": r.outcome,
        "blessed": r.case.expectation is not None,
    }
    if reproduce and r.outcome not in ("agree", "not-comparable", "known-difference"):
        out["reproduce"] = reproduce
    if r.known_difference:
        out["known_difference"] = r.known_difference
    if r.error:
        out["error"] = r.error
    if r.result is not None:
        v = r.result.verdict
        out.update({
            "verdict": v.kind,
            "factions": v.factions,
            "divergence": v.divergence,
            "reasons": v.reasons,
            "suspect": v.suspect,
            "model_splits": v.model_splits,
            "confirmed": v.confirmed,
            "evidence": v.evidence,
            "wall_seconds": r.result.wall_seconds,
            "core_ir_id": r.result.core_ir_id(),
            "core_ir_ids": r.result.core_ir_ids(),
            "bytecode_id": r.result.bytecode_id(),
            "observations": {m: {k: o[k] for k in ("semantic", "resources", "products", "faults")
                                 if k in o} for m, o in r.result.observations.items()},
        })
    out["expectation"] = {"status": "none" if r.case.expectation is None else
                          ("broken" if r.differences else "held"),
                          "differences": r.differences}
    return out


def _percentile(xs: list[float], p: float) -> float | None:
    if not xs:
        return None
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(round(p * (len(xs) - 1))))]


def summarize(cases: list[dict[str, Any]], members: list[str]) -> dict[str, Any]:
    counts = {k: 0 for k in OUTCOMES}
    for c in cases:
        counts[c["outcome"]] = counts.get(c["outcome"], 0) + 1
    per_member: dict[str, Any] = {}
    for m in members:
        walls, rss = [], []
        for c in cases:
            o = (c.get("observations") or {}).get(m)
            if not o:
                continue
            res = o.get("resources", {})
            if res.get("wall_seconds") is not None:
                walls.append(res["wall_seconds"])
            if res.get("peak_rss_bytes") is not None:
                rss.append(res["peak_rss_bytes"])
        per_member[m] = {
            "cases": len(walls),
            "wall_median_seconds": statistics.median(walls) if walls else None,
            "wall_p95_seconds": _percentile(walls, 0.95),
            "peak_rss_max_bytes": max(rss) if rss else None,
            "peak_rss_median_bytes": statistics.median(rss) if rss else None,
        }
    return {"cases": len(cases), "outcomes": counts, "members": per_member}


def build(records: list[CaseRecord], *, court: str, members: list[str],
          product_ids: dict[str, str | None], profile: str | None, argv: list[str],
          started: dt.datetime, finished: dt.datetime, complete: bool,
          shard: tuple[int, int] | None, cleanup_faults: list[dict],
          cluster: dict[str, Any] | None = None,
          reproduce: dict[str, list[str]] | None = None,
          lineages: dict[str, str] | None = None) -> dict[str, Any]:
    """``reproduce`` maps a case id to the command (argv) that runs it again on its own."""
    reproduce = reproduce or {}
    cases = [case_json(r, reproduce.get(r.case.id)) for r in records]
    lineages = lineages or {}
    report = {
        "schema": REPORT_SCHEMA,
        "run": {
            "started_at": started.isoformat(timespec="seconds"),
            "finished_at": finished.isoformat(timespec="seconds"),
            "duration_seconds": (finished - started).total_seconds(),
            "command": argv,
            "environment": environment(),
            "profile": profile or "lispex-product-native/v1",
            "court": court,
            "shard": f"{shard[0]}/{shard[1]}" if shard else None,
            "complete": complete,
            "merged_from": [],
        },
        "products": [{"id": m, "product_id": product_ids.get(m),
                      "lineage": lineages.get(m, m)} for m in members],
        "cases": cases,
        "faults": cleanup_faults,
        "summary": summarize(cases, members),
    }
    if cluster is not None:
        # Where a cluster run ran and how many tasks lost a worker and ran again.
        report["run"]["cluster"] = cluster
    return report


class MergeError(Exception):
    pass


def merge(reports: list[tuple[str, dict[str, Any]]]) -> dict[str, Any]:
    """One report from shard reports, as if one run had made it."""
    if not reports:
        raise MergeError("nothing to merge")
    first = reports[0][1]
    court = first["run"]["court"]
    members = [p["id"] for p in first["products"]]
    ids = {p["id"]: p["product_id"] for p in first["products"]}
    seen: dict[str, dict] = {}
    for origin, rep in reports:
        if rep.get("schema") != REPORT_SCHEMA:
            raise MergeError(f"{origin}: not a {REPORT_SCHEMA} report")
        if rep["run"]["court"] != court:
            raise MergeError(f"{origin}: court {rep['run']['court']} differs from {court}")
        for p in rep["products"]:
            known = ids.get(p["id"])
            if p["id"] not in ids:
                raise MergeError(f"{origin}: member {p['id']} is not in the first report's court")
            if known and p["product_id"] and known != p["product_id"]:
                raise MergeError(f"{origin}: product ids differ from the first report's; shards "
                                 "of one run must test the same builds")
            ids[p["id"]] = known or p["product_id"]  # an empty shard knows no ids
        for c in rep["cases"]:
            if c["id"] in seen:
                raise MergeError(f"{origin}: case {c['id']} appears in two shards")
            seen[c["id"]] = c
    cases = [seen[k] for k in sorted(seen)]
    starts = [r["run"]["started_at"] for _, r in reports]
    ends = [r["run"]["finished_at"] for _, r in reports]
    run = dict(first["run"])
    run.pop("cluster", None)  # one shard's cluster figures do not describe the merged run
    run.update({
        "started_at": min(starts),
        "finished_at": max(ends),
        "duration_seconds": sum(r["run"]["duration_seconds"] for _, r in reports),
        "shard": None,
        "complete": all(r["run"]["complete"] for _, r in reports),
        "merged_from": [o for o, _ in reports],
        "command": list(sys.argv),
    })
    return {"schema": REPORT_SCHEMA, "run": run,
            "products": [dict(p) for p in first["products"]],
            "cases": cases, "faults": [f for _, r in reports for f in r.get("faults", [])],
            "summary": summarize(cases, members)}
