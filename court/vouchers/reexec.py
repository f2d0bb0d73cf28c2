"""The checks made on this machine: the court, the products, re-execution, the verdict.

The products are compared before anything runs: a member built from other files has another
product id, and is named as a different build, member by member, rather than reported as a
wrong result. Re-execution then runs the receipt's request (its source, input, filename, court,
profile and limits) through the same engine a compare uses, and compares every member's
semantic result and the verdict; drift in the observations is only a warning.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from .canonical import VoucherError, exact
from .codes import FAILED, NOT_PERFORMED, PASSED, UNABLE, WARNING
from .report import Finding, Verification
from .statement import member_result, verdict_part

ID_AXES = ("core_ir_id", "bytecode_id")
# A re-run's wall clock, at most (the meters are the real limit; a receipt cannot ask more).
MAX_TIMEOUT = 3600.0


def receipt_limits(req: dict[str, Any]) -> Any:
    """The Limits of the request; V140 if they are malformed."""
    from court.workers.limits import Limits

    lim = req.get("limits")
    try:
        meter = {str(k): int(v) for k, v in lim["meter_limits"].items()}
        timeout = float(lim["timeout_seconds"])
        memory = int(lim["memory_bytes"])
    except (KeyError, TypeError, ValueError, AttributeError):
        raise VoucherError("V140", "request.limits: expected meter_limits, timeout_seconds and "
                                   "memory_bytes as decimal text") from None
    if not (0 < timeout <= MAX_TIMEOUT) or memory < 0 or any(v < 0 for v in meter.values()):
        raise VoucherError("V140", "request.limits: out of range")
    return Limits(timeout=timeout, memory_bytes=memory, profile=req["profile"],
                  meter_limits=meter)


def run_checks(v: Verification, statement: dict[str, Any], request: Any, *, reexec: bool,
               request_ok: bool, config_path: Path | None) -> None:
    pred = statement["predicate"]
    res = _court(v, pred["request"]["court"], config_path)
    if res is None:
        for name in ("products", "re-execution", "observations"):
            v.add(name, NOT_PERFORMED, "the court cannot run here (V170)")
        _verdict(v, pred, None)
        return
    from court.session import CourtSession

    session = CourtSession(res, receipt_limits(pred["request"]), jobs=2)
    try:
        products_ok = _products(v, session, pred["products"])
        case = _reexecute(v, session, pred, request, reexec=reexec, request_ok=request_ok,
                          products_ok=products_ok)
    finally:
        session.close()
    _observations(v, pred, case)
    _verdict(v, pred, case)


def _court(v: Verification, court: dict[str, Any], config_path: Path | None) -> Any:
    from court.catalog import ConfigError, load_config, resolve

    name, members = court["name"], list(court["members"])
    try:
        config = load_config(config_path)
        if name in config.courts:
            res = resolve(config, name)
        elif name == "+".join(members):  # an ad-hoc panel (--impl a,b)
            res = resolve(config, None, members)
        else:
            v.add("court", UNABLE, f"court {name} is not defined here (give --config with the "
                                   "court.toml that defines it)")
            return None
    except ConfigError as e:
        v.add("court", UNABLE, f"the court configuration cannot be used: {e}")
        return None
    if list(res.members) != members:
        v.add("court", FAILED, f"court {name} has other members here",
              [Finding("members", members, list(res.members), False)])
        return None
    if not res.available:
        v.add("court", UNABLE, f"court {name} is unavailable here: missing "
              f"{', '.join(res.missing)}",
              [Finding(m, "available", "missing", False, why)
               for m, why in zip(res.missing, res.attempted_routes or [""] * len(res.missing),
                                 strict=False)])
        return None
    v.add("court", PASSED, f"court {name}: {', '.join(members)}, each available")
    return res


def _products(v: Verification, session: Any, products: dict[str, Any]) -> bool:
    session.warm()
    findings, different, unstarted = [], [], []
    for m in session.resolution.members:
        want = products[m].get("product_id")
        worker = session.workers.get(m)
        if worker is None:
            findings.append(Finding(f"{m} product id", want, None, True,
                                    "a one-shot product reports its id when it runs: compared "
                                    "by re-execution"))
            continue
        if worker.start_fault is not None:
            unstarted.append(m)
            findings.append(Finding(f"{m} product id", want, None, False,
                                    f"the member did not start: {worker.start_fault}"))
            continue
        got = worker.product_id
        if got != want:
            different.append(m)
            findings.append(Finding(f"{m} product id", want, got, False,
                                    f"a different build of {m}"))
        else:
            findings.append(Finding(f"{m} product id", want, got))
    if different:
        v.add("products", FAILED, "a different build of " + ", ".join(different) +
              ": its product id is not the receipt's", findings)
        return False
    if unstarted:
        v.add("products", UNABLE, "could not start " + ", ".join(unstarted), findings)
        return False
    v.add("products", PASSED, "every member here is the receipt's build", findings)
    return True


def _reexecute(v: Verification, session: Any, pred: dict[str, Any], request: Any, *,
               reexec: bool, request_ok: bool, products_ok: bool) -> Any:
    req = pred["request"]
    if not reexec:
        v.add("re-execution", NOT_PERFORMED, "--no-reexec: the results were not reproduced")
        return None
    if not request_ok:
        v.add("re-execution", NOT_PERFORMED, "the source or input given is not the receipt's "
                                             "(V160)")
        return None
    if not products_ok:
        v.add("re-execution", NOT_PERFORMED, "the products are not the receipt's (V180): a "
                                             "re-run would test other builds")
        return None
    if request.source is None:
        v.add("re-execution", UNABLE, "re-execution needs the program: give --source (the "
                                      "receipt holds only its digest), or --no-reexec")
        return None
    if req["input"] is not None and not request.input_given:
        v.add("re-execution", UNABLE, "re-execution needs the input datum: give --input (the "
                                      "receipt holds only its digest), or --no-reexec")
        return None
    from court.session import InputRejected

    try:
        case = session.run_case(request.source, request.input_text, req["source"]["filename"])
    except InputRejected as e:
        v.add("re-execution", FAILED, f"every member refused the input datum: {e}")
        return None
    want_results, want_products = pred["results"]["members"], pred["products"]
    findings: list[Finding] = []
    for m in session.resolution.members:
        obs = case.observations.get(m)
        if obs is None or m not in want_results:
            findings.append(Finding(f"{m}", "a result", None if obs is None else "a result",
                                    False, "the member has no result on one side"))
            continue
        got, want = member_result(obs), want_results[m]
        for axis in sorted(set(got) | set(want)):
            if got.get(axis) != want.get(axis):
                findings.append(Finding(f"{m}: {axis}", want.get(axis), got.get(axis), False))
        ids = obs.get("products") or {}
        axes = ID_AXES + (("product_id",) if m not in session.workers else ())
        for axis in axes:
            if ids.get(axis) != want_products[m].get(axis):
                findings.append(Finding(f"{m}: {axis}", want_products[m].get(axis),
                                        ids.get(axis), False))
    if findings:
        v.add("re-execution", FAILED, "the re-run differs: " + "; ".join(
            f.what for f in findings), findings)
        return case
    v.add("re-execution", PASSED, "every member's semantic result, Core IR id and bytecode id "
                                  "is the receipt's: " + ", ".join(session.resolution.members))
    return case


def _observations(v: Verification, pred: dict[str, Any], case: Any) -> None:
    if case is None:
        v.add("observations", NOT_PERFORMED, "no re-execution to compare with")
        return
    findings = []
    old = pred["observations"].get("members") or {}
    for m, obs in case.observations.items():
        want = ((old.get(m) or {}).get("resources") or {}).get("usage")
        got = exact((obs.get("resources") or {}).get("usage"))
        if want != got:
            findings.append(Finding(f"{m} meter figures", want, got, False,
                                    "information only"))
    if findings:
        v.add("observations", WARNING, "the meter figures drifted (not evidence: times, "
                                       "memory and meters are observations)", findings)
    else:
        v.add("observations", PASSED, "the meter figures are the receipt's (times and memory "
                                      "are not compared)")


def _verdict(v: Verification, pred: dict[str, Any], case: Any) -> None:
    from court.verdict import AXES, KINDS

    verdict = pred["results"]["verdict"]
    members = list(pred["request"]["court"]["members"])
    problems = []
    kind, factions, axis = verdict.get("kind"), verdict.get("factions"), verdict.get("axis")
    if kind not in KINDS:
        problems.append(Finding("kind", list(KINDS), kind, False, "not a verdict kind"))
    flat = [m for f in factions or [] for m in f] if isinstance(factions, list) else None
    if flat is None or len(flat) != len(set(flat)) or not set(flat) <= set(members):
        problems.append(Finding("factions", "groups of distinct members", factions, False))
    if kind == "agree" and isinstance(factions, list) and len(factions) != 1:
        problems.append(Finding("factions", "one faction for agree", factions, False))
    if (kind == "disagree") != (axis is not None) or (axis is not None and axis not in AXES):
        problems.append(Finding("axis", "an axis exactly when the members disagree", axis, False))
    if problems:
        v.add("verdict", FAILED, "the verdict is inconsistent with itself", problems)
        return
    if case is None:
        v.add("verdict", PASSED, f"{kind}: consistent; not re-derived (no re-execution)")
        return
    again = verdict_part(case.verdict)
    diffs = [Finding(k, verdict.get(k), again[k], False) for k in ("kind", "factions", "axis")
             if verdict.get(k) != again[k]]
    if diffs:
        v.add("verdict", FAILED, f"the re-run's verdict is {again['kind']}, the receipt's "
                                 f"{kind}", diffs)
    else:
        v.add("verdict", PASSED, f"{kind}, as the re-run found")
