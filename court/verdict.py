"""Comparison: normative projections, factions and the verdict.

Normative axes must be equal for `agree`. Between members of one meter model (tree and vm count
machine transitions identically) the resource outcome and the meter figures are normative too;
across meter models they are evidence. Messages, times and product ids are always evidence.

The verdict kinds, most serious first:

- ``disagree``: members that answered differ on a normative axis;
- ``member-fault``: a member crashed, broke the protocol or failed to build while the others
  answered or reached a limit, or ran out of memory or timed out (twice) while another answered;
- ``one-sided-limit``: some members reached a limit while the others finished far within it
  (the session re-runs them with a raised budget and records what that showed);
- ``not-comparable``: no member has a result to compare with another (every member faulted or
  reached a limit, or the others came close to the limit too), or a divergence did not
  reproduce; the reason is named;
- ``agree``.

The first three are findings (``FINDING_KINDS``): `court run` fails on them, `court fuzz` keeps them.

Factions group members by the semantic axes, which every member shares. The model axes are shared
only inside a meter model, so a split there is shown inside the model (``model_splits``), never as
factions of its own: a member that agrees with the others on every axis it shares with them is in
their faction. The Core IR id (``core_ir``) is compared between members of different lineages,
after the semantic axes: front ends that read one program differently is a disagreement of its
own, never one that hides a semantic difference. The suspect guess is court/suspect.py's.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from .suspect import guess

# In the order a divergence is reported: the first axis on which members differ. The last two
# (MODEL_AXES) are compared only between members of the same meter model.
AXES = ("status", "exit_status", "stdout", "values", "transcript", "warnings",
        "diagnostic_code", "diagnostic_phase", "diagnostic_span", "resource_outcome", "meters")
MODEL_AXES = ("resource_outcome", "meters")
SEMANTIC_AXES = tuple(a for a in AXES if a not in MODEL_AXES)
# Compared between members of different lineages that report it, after the semantic axes.
CORE_IR_AXIS = "core_ir"

KINDS = ("agree", "disagree", "member-fault", "one-sided-limit", "not-comparable")
FINDING_KINDS = ("disagree", "one-sided-limit", "member-fault")

# The meter figures an observation's resources.usage carries, and the limit each belongs to.
METER_FIGURES = {"frontend-transition": "frontend_transitions", "token": "tokens",
                 "normalization-step": "normalization_steps",
                 "machine-transition": "machine_transitions", "output-byte": "output_bytes"}
# "Far within" a limit: the members that finished used at most this share of it.
FAR_WITHIN = 0.1
# Faults that make a member-fault finding when the others answered. `cancelled` (an MCP client
# gave up) and `cleanup` are the harness's business, not the member's.
MEMBER_FAULTS = ("crash", "protocol", "build", "memory-limit", "timeout", "exit", "input-error")
# Of those, the ones where a budget ran out (the harness's memory cap, the wall clock): they count
# only beside a member that answered. Beside members that reached a limit of their own, they say
# the program is expensive, not that the member is wrong.
BUDGET_FAULTS = ("memory-limit", "timeout")


def unjudged(observations: dict[str, dict[str, Any]]) -> bool:
    """Whether the harness failed a member of the case: an observation with no answer for a
    reason other than processes left behind. A member whose only fault is `cleanup` answered;
    the court killed what it left and set its answer aside, so the case is `not-comparable`
    (as :func:`judge` says), not an infrastructure error, in `court run` as in `court compare`."""
    return any(o["semantic"]["status"] == "infrastructure-error"
               and any(f.get("kind") != "cleanup" for f in o.get("faults") or [{}])
               for o in observations.values())


def transcript(sem: dict[str, Any]) -> str:
    """What `lispex run` would print: explicit output, then the values one per line."""
    if sem.get("transcript") is not None:
        return sem["transcript"]
    values = sem.get("values") or []
    return (sem.get("stdout") or "") + "".join(v + "\n" for v in values)


def meter_figures(obs: dict[str, Any]) -> dict[str, int]:
    """The meter figures a member vouches for: a run that says its machine-transition count
    strayed from its meter model (``resources.meter_exact: false``) offers the others only."""
    resources = obs.get("resources") or {}
    usage = resources.get("usage") or {}
    figures = {f: usage[f] for f in METER_FIGURES.values() if isinstance(usage.get(f), int)}
    if resources.get("meter_exact") is False:
        figures.pop("machine_transitions", None)
        # A run whose count strays and that stopped at the transition limit stopped at a point
        # of its own: what it did near the end (its output) may differ by an instruction's worth.
        outcome = (obs.get("semantic") or {}).get("resource_outcome") or {}
        if outcome.get("limit") == "machine-transition":
            figures.pop("output_bytes", None)
    return figures


def project(obs: dict[str, Any]) -> dict[str, Any]:
    sem = obs["semantic"]
    diag = (sem.get("diagnostics") or [None])[0]
    span = None
    if diag and diag.get("span") and diag.get("phase") != "resource" and \
            diag["span"].get("line") is not None:
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
        "resource_outcome": sem.get("resource_outcome") or {"status": "unknown"},
        "meters": meter_figures(obs),
    }


def compared_axes(observations: dict[str, dict[str, Any]]) -> list[str]:
    """The semantic axes compared between any two members (model axes come on top)."""
    skip: set[str] = set()
    for obs in observations.values():
        skip.update(obs.get("uncomparable_axes") or [])
    axes = [a for a in SEMANTIC_AXES if a not in skip]
    if not skip:
        axes.remove("transcript")  # implied by stdout and values when both are comparable
    return axes


@dataclass
class Verdict:
    kind: str  # one of KINDS
    factions: list[list[str]]
    axes: list[str]
    divergence: dict[str, Any] | None = None
    reasons: list[str] = field(default_factory=list)
    suspect: dict[str, Any] | None = None
    uncompared_axes: list[str] = field(default_factory=list)
    confirmed: bool | None = None
    # For one-sided-limit and member-fault: which member, what limit or fault, the others' figures
    # and what a re-run showed.
    evidence: dict[str, Any] | None = None
    # Splits inside a meter model among members of one faction: model, first axis, groups.
    model_splits: list[dict[str, Any]] = field(default_factory=list)
    # Each member's Core IR id, and the groups of equal ids where lineages differ on it.
    core_ir_ids: dict[str, str] = field(default_factory=dict)
    core_ir_groups: list[list[str]] = field(default_factory=list)

    @property
    def finding(self) -> bool:
        return self.kind in FINDING_KINDS

    @property
    def candidate_known_difference(self) -> str | None:
        """The witness that stands alone against every other lineage, if one does: the case is
        a candidate for its known-differences file, not a finding of a Lispex bug."""
        if self.kind == "disagree" and self.suspect and \
                self.suspect.get("candidate_known_difference"):
            return self.suspect["member"]
        return None

    def signature(self) -> tuple:
        """What identifies this divergence across runs: kind, axis, codes per faction."""
        if self.kind == "disagree" and self.divergence:
            return (self.kind, self.divergence["axis"],
                    json.dumps(self.divergence["values"], sort_keys=True),
                    json.dumps(self.model_splits, sort_keys=True))
        if self.kind == "one-sided-limit" and self.evidence:
            return (self.kind, json.dumps([[e["member"], e["limit"]]
                                           for e in self.evidence["limited"]]))
        if self.kind == "member-fault" and self.evidence:
            return (self.kind, json.dumps([[e["member"], e["kind"]]
                                           for e in self.evidence["faulted"]]))
        return (self.kind,)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind, "factions": self.factions,
                               "compared_axes": self.axes}
        if self.uncompared_axes:
            out["uncompared_axes"] = self.uncompared_axes
        if self.reasons:
            out["reasons"] = self.reasons
        if self.suspect:
            out["suspect"] = self.suspect
        if self.model_splits:
            out["model_splits"] = self.model_splits
        if self.core_ir_groups:
            out["core_ir_groups"] = self.core_ir_groups
        if self.confirmed is not None:
            out["confirmed"] = self.confirmed
        if self.evidence:
            out["evidence"] = self.evidence
        return out


# One encoder for every key: json.dumps(sort_keys=True) builds a new encoder per call, which is
# a visible share of a warm court's per-case cost.
_canonical = json.JSONEncoder(sort_keys=True).encode


def _key(proj: dict[str, Any], axes: list[str]) -> str:
    return _canonical([proj[a] for a in axes])


def _first_axis(projections: dict[str, dict[str, Any]], members: list[str],
                axes: list[str]) -> str | None:
    for a in axes:
        if len({_canonical(projections[m][a]) for m in members}) > 1:
            return a
    return None


def _model_groups(members: list[str], models: dict[str, str | None],
                  observations: dict[str, dict[str, Any]]) -> dict[str, list[str]]:
    groups: dict[str, list[str]] = {}
    for m in members:
        if models.get(m):
            groups.setdefault(models[m], []).append(m)  # type: ignore[index]
    for k, g in groups.items():
        if any(_limit_of(observations[m]) == "machine-transition" for m in g
               if observations[m]["semantic"]["status"] == "resource"):
            # Where a member stopped on the transition limit, a member whose count strays from
            # the model stopped where its own count said: whether it met that limit, another
            # one (the recursion limit) or none first is not the model's to judge, so one that
            # ended otherwise than the members that vouch for their counts leaves the group.
            held = [_outcome(observations[m]) for m in g if not _strays(observations[m])]
            groups[k] = [m for m in g
                         if not _strays(observations[m]) or _outcome(observations[m]) in held]
    return {k: g for k, g in groups.items() if len(g) > 1}


def _strays(obs: dict[str, Any]) -> bool:
    return (obs.get("resources") or {}).get("meter_exact") is False


def _outcome(obs: dict[str, Any]) -> Any:
    return obs["semantic"].get("resource_outcome")


def _model_axes(projections: dict[str, dict[str, Any]], group: list[str]) -> list[str]:
    """Model axes a group can compare: meters only over the figures every member reports."""
    common = set.intersection(*(set(projections[m]["meters"]) for m in group))
    for m in group:
        projections[m]["meters"] = {f: projections[m]["meters"][f] for f in sorted(common)}
    return ["resource_outcome", "meters"] if common else ["resource_outcome"]


def _limit_of(obs: dict[str, Any]) -> str:
    outcome = obs["semantic"].get("resource_outcome") or {}
    return outcome.get("limit") or \
        ((obs["semantic"].get("diagnostics") or [{}])[0].get("code") or "unknown")


def _fault_of(obs: dict[str, Any]) -> dict[str, str]:
    faults = obs.get("faults") or [{"kind": "unknown", "message": "no fault recorded"}]
    return next((f for f in faults if f["kind"] in MEMBER_FAULTS), faults[0])


def judge(observations: dict[str, dict[str, Any]],
          meter_models: dict[str, str | None] | None = None,
          lineages: dict[str, str] | None = None,
          witnesses: set[str] | frozenset[str] = frozenset()) -> Verdict:
    """The verdict on one case. ``meter_models`` maps members to their manifest's meter model
    (None: the member shares its meters with nobody); ``lineages`` maps members to what they
    share (see Product.lineage; a member not in it is its own lineage), which the Core IR axis
    and the suspect guess use; ``witnesses`` are the members that are witnesses (the others
    are built-ins), which only the suspect guess uses."""
    models = meter_models or {}
    axes = compared_axes(observations)
    uncompared = [a for a in SEMANTIC_AXES if a not in axes and a != "transcript"]
    projections = {m: project(o) for m, o in observations.items()}
    status = {m: o["semantic"]["status"] for m, o in observations.items()}
    faulted = [m for m in observations if status[m] == "infrastructure-error"]
    limited = [m for m in observations if status[m] == "resource"]
    answered = [m for m in observations if m not in faulted and m not in limited]
    groups = _model_groups([m for m in observations if m not in faulted], models, observations)
    group_axes = {g: _model_axes(projections, members) for g, members in groups.items()}

    # Factions: the semantic projection, which every member shares. Each member's semantic and
    # model keys are encoded once; a pair of them is equal exactly when the key over both lists
    # of axes would be.
    semantic_keys = {m: _key(projections[m], axes) for m in observations}
    by_key: dict[str, list[str]] = {}
    for m in observations:
        by_key.setdefault(semantic_keys[m], []).append(m)
    factions = sorted(by_key.values(), key=lambda g: -len(g))
    split: dict[str, str] = {}  # member -> its model, for members of a model group that differ
    model_splits = []
    for g, members in groups.items():
        model_keys = {m: _key(projections[m], group_axes[g]) for m in members}
        if len({(semantic_keys[m], model_keys[m]) for m in members}) > 1:
            split.update({m: g for m in members})
        for faction in factions:
            inside: dict[str, list[str]] = {}
            for m in faction:
                if m in model_keys:
                    inside.setdefault(model_keys[m], []).append(m)
            if len(inside) > 1:
                model_splits.append({
                    "meter_model": g,
                    "axis": _first_axis(projections, [m for f in inside.values() for m in f],
                                        group_axes[g]),
                    "groups": sorted(inside.values(), key=lambda f: -len(f))})
    own = lineages or {}
    ir_ids, ir_groups = _core_ir(observations, own)
    ir_compared = len({own.get(m, m) for m in ir_ids}) > 1
    shown_axes = axes + ([CORE_IR_AXIS] if ir_compared else []) + \
        list(MODEL_AXES if groups else ())

    def verdict(kind: str, **kw: Any) -> Verdict:
        return Verdict(kind, factions, shown_axes, uncompared_axes=uncompared,
                       model_splits=model_splits, core_ir_ids=ir_ids,
                       core_ir_groups=ir_groups, **kw)

    def core_ir_verdict() -> Verdict:
        return verdict("disagree", reasons=reasons,
                       divergence={"axis": CORE_IR_AXIS, "values": dict(ir_ids),
                                   "groups": ir_groups},
                       suspect=guess(ir_groups, lineages, witnesses, CORE_IR_AXIS))

    reasons = []
    for m in faulted:
        kinds = ", ".join(f["kind"] for f in observations[m].get("faults", [])) or "unknown"
        reasons.append(f"{m}: infrastructure error ({kinds})")
    for m in limited:
        reasons.append(f"{m}: resource limit reached ({_limit_of(observations[m])})")

    # 1. Members that answered differ on a semantic axis; members of one meter model differ on
    #    a semantic axis (a limit one of them reached is then the model's business, not an
    #    excuse); members of one meter model differ on a model axis. Members whose semantic
    #    keys are equal agree on every semantic axis: no need to look for one.
    axis = _first_axis(projections, answered, axes) \
        if len({semantic_keys[m] for m in answered}) > 1 else None
    compared = answered
    model = None
    if axis is None:
        for g, members in groups.items():
            if members[0] in split:
                axis = _first_axis(projections, members, axes + group_axes[g])
                compared, model = members, g
                break
    if axis in MODEL_AXES and ir_groups:
        return core_ir_verdict()  # a different reading explains a split inside a model
    if axis is not None:
        divergence: dict[str, Any]
        if model:
            divergence = {"axis": axis, "values": {m: projections[m][axis] for m in compared},
                          "meter_model": model}
            # Inside a meter model only its members' counts are normative: the guess counts
            # them, each of its own (they share their meter model, not a lineage).
            inside: dict[str, list[str]] = {}
            for m in compared:
                inside.setdefault(_key(projections[m], axes + group_axes[model]), []).append(m)
            suspect = guess(list(inside.values()), None, witnesses, axis)
        else:
            divergence = {"axis": axis, "values": {m: projections[m][axis] for m in compared}}
            suspect = guess([[m for m in f if m in answered] for f in factions
                             if any(m in answered for m in f)], lineages, witnesses, axis)
        return verdict("disagree", divergence=divergence, reasons=reasons, suspect=suspect)

    # 2. A member that could not answer while others did.
    counted = [m for m in faulted if _fault_of(observations[m])["kind"] in MEMBER_FAULTS
               and (answered or _fault_of(observations[m])["kind"] not in BUDGET_FAULTS)]
    if counted and (answered or limited):
        faulted_ev = []
        for m in counted:
            f = _fault_of(observations[m])
            faulted_ev.append({"member": m, "kind": f["kind"], "message": f["message"]})
        return verdict("member-fault", reasons=reasons,
                       divergence={"axis": "status", "values": dict(status)},
                       evidence={"faulted": faulted_ev, "answered": answered + limited})

    # 3. A limit reached by some while the others finished far within it.
    if limited and answered and not faulted:
        entries = []
        for m in limited:
            entry = _one_sided(m, observations, answered)
            if entry is None:
                entries = []
                break
            entries.append(entry)
        if entries:
            outcomes = {m: projections[m]["resource_outcome"] for m in observations}
            return verdict("one-sided-limit", reasons=reasons,
                           divergence={"axis": "resource_outcome", "values": outcomes},
                           evidence={"limited": entries})

    # 4. Members of different lineages read the program into different Core IR: a disagreement
    #    of its own, after every semantic one, a member fault and a one-sided limit.
    if ir_groups:
        return core_ir_verdict()

    # Members of a single meter model that all reached the same limit in the same way agree: for
    # them the resource outcome is as normative as a value.
    one_model = len(groups) == 1 and len(next(iter(groups.values()))) == len(observations)
    if reasons and not (one_model and not faulted and len(factions) == 1):
        return verdict("not-comparable", reasons=reasons)
    return verdict("agree")


def _one_sided(member: str, observations: dict[str, dict[str, Any]],
               answered: list[str]) -> dict[str, Any] | None:
    """The evidence that ``member`` reached a limit the others finished far within, or None
    when some finisher came close (or reports no figure for that limit)."""
    obs = observations[member]
    limit = _limit_of(obs)
    entry: dict[str, Any] = {"member": member, "limit": limit}
    figure = METER_FIGURES.get(limit)
    if figure is None:
        # The recursion limit is the language's (10,000 non-tail calls), the same for every
        # member and not a budget: finishing is all the others can show.
        entry.update({"limit_value": None, "others_usage": {}})
        return entry
    limit_value = ((obs.get("resources") or {}).get("limits") or {}).get(f"{limit}-limit")
    if limit_value is None:
        limit_value = meter_figures(obs).get(figure)
    others = {m: ((observations[m].get("resources") or {}).get("usage") or {}).get(figure)
              for m in answered}
    if limit_value is None or any(v is None or v > FAR_WITHIN * limit_value
                                  for v in others.values()):
        return None
    entry.update({"limit_value": limit_value, "others_usage": others})
    return entry


def evidence_lines(evidence: dict[str, Any] | None) -> list[str]:
    """The evidence of a one-sided limit or a member fault, one line per fact."""
    if not evidence:
        return []
    out = []
    for e in evidence.get("limited", []):
        if e["limit_value"] is None:
            out.append(f"{e['member']} reached the {e['limit']} while the others finished")
        else:
            used = ", ".join(f"{m} {n}" for m, n in e["others_usage"].items())
            out.append(f"{e['member']} reached the {e['limit']} limit ({e['limit_value']}); "
                       f"the others used {used}")
        rerun = e.get("rerun") or {}
        if rerun.get("ran"):
            outcome = rerun.get("resource_outcome") or {}
            what = outcome.get("limit") if outcome.get("status") == "limit-exceeded" else None
            out.append(f"re-run with a raised budget ({rerun['timeout_seconds']:g} s, "
                       f"limits x{_factor(e, rerun)}): {rerun['status']}"
                       + (f" ({what})" if what else "")
                       + ("; agrees with the others" if rerun["agrees_with_others"] else ""))
        elif rerun:
            out.append(f"not re-run: {rerun['why']}")
    for f in evidence.get("faulted", []):
        out.append(f"{f['member']}: {f['kind']}: {f['message']}")
    if evidence.get("faulted"):
        out.append(f"answered: {', '.join(evidence.get('answered', []))}")
    return out


def _factor(entry: dict[str, Any], rerun: dict[str, Any]) -> str:
    raised = rerun.get("meter_limits", {}).get(entry["limit"])
    return f"{raised // entry['limit_value']}" if raised and entry["limit_value"] else "?"


def _core_ir(observations: dict[str, dict[str, Any]],
             lineages: dict[str, str]) -> tuple[dict[str, str], list[list[str]]]:
    """Each member's Core IR id, and the groups of members by id when members of different
    lineages report different ids (members of one lineage share a front end: their ids are the
    same by construction, and a difference between them is not a disagreement between readings
    of the program)."""
    ids = {m: pid for m, o in observations.items()
           if isinstance(pid := (o.get("products") or {}).get("core_ir_id"), str)}
    by_id: dict[str, list[str]] = {}
    for m, pid in ids.items():
        by_id.setdefault(pid, []).append(m)
    # With two lineages and two ids among the members that report one, some pair of members of
    # different lineages holds different ids.
    if len(by_id) < 2 or len({lineages.get(m, m) for m in ids}) < 2:
        return ids, []
    return ids, sorted(by_id.values(), key=lambda g: -len(g))
