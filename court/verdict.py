"""Comparison: normative projections, factions and the verdict.

Normative axes must be equal for `agree`; messages, resources and product ids are evidence only.
A member that hit a resource limit, timed out, crashed or could not run makes the case
`not-comparable` (never a disagreement), and the reason is named.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

# In the order a divergence is reported: the first axis on which members differ.
AXES = ("status", "exit_status", "stdout", "values", "transcript", "warnings",
        "diagnostic_code", "diagnostic_phase", "diagnostic_span")
# Verdict kinds that are findings for `court fuzz`.
FINDING_KINDS = ("disagree",)


def transcript(sem: dict[str, Any]) -> str:
    """What `lispex run` would print: explicit output, then the values one per line."""
    if sem.get("transcript") is not None:
        return sem["transcript"]
    values = sem.get("values") or []
    return (sem.get("stdout") or "") + "".join(v + "\n" for v in values)


def project(obs: dict[str, Any]) -> dict[str, Any]:
    sem = obs["semantic"]
    diag = (sem.get("diagnostics") or [None])[0]
    span = None
    if diag and diag.get("span") and diag.get("phase") != "resource":
        span = [diag["span"]["line"], diag["span"]["column"]]
    return {
        "status": sem["status"],
        "exit_status": sem.get("exit_status"),
        "stdout": sem.get("stdout"),
        "values": sem.get("values"),
        "transcript": transcript(sem),
        "warnings": [w["code"] for w in sem.get("warnings") or []],
        "diagnostic_code": diag["code"] if diag else None,
        "diagnostic_phase": diag.get("phase") if diag else None,
        "diagnostic_span": span,
    }


def compared_axes(observations: dict[str, dict[str, Any]]) -> list[str]:
    skip: set[str] = set()
    for obs in observations.values():
        skip.update(obs.get("uncomparable_axes") or [])
    axes = [a for a in AXES if a not in skip]
    if not skip:
        axes.remove("transcript")  # implied by stdout and values when both are comparable
    return axes


@dataclass
class Verdict:
    kind: str  # agree | disagree | not-comparable
    factions: list[list[str]]
    axes: list[str]
    divergence: dict[str, Any] | None = None
    reasons: list[str] = field(default_factory=list)
    suspect: dict[str, Any] | None = None
    uncompared_axes: list[str] = field(default_factory=list)
    confirmed: bool | None = None

    def signature(self) -> tuple:
        """What identifies this divergence across runs: kind, axis, codes per faction."""
        if self.kind != "disagree" or not self.divergence:
            return (self.kind,)
        return (self.kind, self.divergence["axis"],
                json.dumps(self.divergence["values"], sort_keys=True))

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind, "factions": self.factions,
                               "compared_axes": self.axes}
        if self.uncompared_axes:
            out["uncompared_axes"] = self.uncompared_axes
        if self.reasons:
            out["reasons"] = self.reasons
        if self.suspect:
            out["suspect"] = self.suspect
        if self.confirmed is not None:
            out["confirmed"] = self.confirmed
        return out


def _key(proj: dict[str, Any], axes: list[str]) -> str:
    return json.dumps([proj[a] for a in axes], sort_keys=True)


def judge(observations: dict[str, dict[str, Any]]) -> Verdict:
    axes = compared_axes(observations)
    uncompared = [a for a in AXES if a not in axes and a != "transcript"]
    projections = {m: project(o) for m, o in observations.items()}
    groups: dict[str, list[str]] = {}
    for m, p in projections.items():
        groups.setdefault(_key(p, axes), []).append(m)
    factions = sorted(groups.values(), key=lambda g: -len(g))
    reasons = []
    for m, o in observations.items():
        status = o["semantic"]["status"]
        if status == "infrastructure-error":
            kinds = ", ".join(f["kind"] for f in o.get("faults", [])) or "unknown"
            reasons.append(f"{m}: infrastructure error ({kinds})")
        elif status == "resource":
            outcome = o["semantic"].get("resource_outcome") or {}
            what = outcome.get("limit") or (o["semantic"]["diagnostics"] or [{}])[0].get("code")
            reasons.append(f"{m}: resource limit reached ({what or 'unknown'})")
    if reasons:
        return Verdict("not-comparable", factions, axes, reasons=reasons,
                       uncompared_axes=uncompared)
    if len(factions) == 1:
        return Verdict("agree", factions, axes, uncompared_axes=uncompared)
    axis = next(a for a in axes if len({json.dumps(p[a]) for p in projections.values()}) > 1)
    divergence = {"axis": axis, "values": {m: p[axis] for m, p in projections.items()}}
    return Verdict("disagree", factions, axes, divergence=divergence,
                   suspect=_suspect(factions, len(observations)), uncompared_axes=uncompared)


def _suspect(factions: list[list[str]], n: int) -> dict[str, Any] | None:
    """A labelled guess: the member alone in its faction against a majority. Never certain."""
    if n < 3:
        return None
    majority = factions[0]
    loners = [f[0] for f in factions[1:] if len(f) == 1]
    if len(majority) * 2 > n and len(loners) == 1 and len(factions) == 2:
        return {"member": loners[0], "certain": False,
                "basis": f"alone against a majority of {len(majority)} of {n} members "
                         f"({', '.join(majority)})"}
    return None
