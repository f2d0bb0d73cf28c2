"""The comparison record (`lispex.court-result/v1`): what one compare hands to every front end.

The CLI's `--json`, the terminal renderer and the MCP tool `lispex_compare` all build their
answer from this one record, so they cannot drift apart.
"""

from __future__ import annotations

from typing import Any

RESULT_SCHEMA = "lispex.court-result/v1"


def unavailable_result(res: Any) -> dict[str, Any]:
    return {"schema": RESULT_SCHEMA, "court": res.court, "status": "unavailable",
            "verdict": None, "observations": {}, "factions": [], "divergence": None,
            "missing_prerequisites": res.missing, "attempted_routes": res.attempted_routes,
            "faults": [], "core_ir_id": None, "core_ir_ids": {}, "bytecode_id": None,
            "bytecode_ids": {}, "lineages": {}}


def result_json(court: str, case: Any, faults: list,
                lineages: dict[str, str] | None = None) -> dict[str, Any]:
    v = case.verdict
    out = {"schema": RESULT_SCHEMA, "court": court, "status": "completed", "verdict": v.kind,
           "observations": {m: {k: o[k] for k in ("semantic", "resources", "products", "faults",
                                                  "uncomparable_axes") if k in o}
                            for m, o in case.observations.items()},
           "factions": v.factions, "divergence": v.divergence, "missing_prerequisites": [],
           "attempted_routes": [], "faults": faults, "core_ir_id": case.core_ir_id(),
           "core_ir_ids": case.core_ir_ids(),
           "bytecode_id": case.bytecode_id(), "bytecode_ids": case.bytecode_ids(),
           "details": v.to_json(), "wall_seconds": case.wall_seconds,
           "lineages": dict(lineages or {})}
    if v.reasons:
        out["reasons"] = v.reasons
    if v.suspect:
        out["suspect"] = v.suspect
    if v.model_splits:
        out["model_splits"] = v.model_splits
    if v.evidence:
        out["evidence"] = v.evidence
    return out
