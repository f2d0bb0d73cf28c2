"""junit.xml: one testcase per case, in the shape common CI viewers read (the Ant/Jenkins JUnit
schema): a disagreement, a one-sided limit or a broken expectation is a failure, a member fault or
an infrastructure error an error, not-comparable is skipped with its reason; product ids are
suite properties. Each testcase names its program (``file=``); a failure's message names the axis
and the two values; the suite's time is the run's wall time (cases run in parallel, so their sum
would overstate it)."""

from __future__ import annotations

import json
import shlex
from typing import Any
from xml.etree import ElementTree as ET

from ..verdict import evidence_lines
from . import difference, text

ERROR_OUTCOMES = ("member-fault", "infrastructure-error", "interrupted")


def _case_time(c: dict[str, Any]) -> str:
    return f"{c.get('wall_seconds') or 0.0:.6f}"


def _detail(c: dict[str, Any]) -> str:
    lines = evidence_lines(c.get("evidence"))
    div = c.get("divergence")
    if div and not lines:
        lines.append(f"first divergence on {div['axis']}:")
        for m, v in div["values"].items():
            lines.append(f"  {m}: {json.dumps(v, ensure_ascii=False)}")
    for d in c.get("expectation", {}).get("differences", []):
        lines.append(f"{d['member']} {d['axis']}: expected "
                     f"{json.dumps(d['expected'], ensure_ascii=False)}, got "
                     f"{json.dumps(d['got'], ensure_ascii=False)}")
    for r in c.get("reasons") or []:
        lines.append(r)
    if c.get("error"):
        lines.append(c["error"])
    for m, o in (c.get("observations") or {}).items():
        for f in o.get("faults", []):
            lines.append(f"{m}: {f['kind']}: {f['message']}")
    return "\n".join(lines)


def _around(va: Any, vb: Any, n: int = 120) -> tuple[str, str]:
    """Two values as JSON, cut around the place where they differ, never away from it."""
    w = difference.windows({"a": json.dumps(va, ensure_ascii=False),
                            "b": json.dumps(vb, ensure_ascii=False)}, n)
    return w["a"].shown, w["b"].shown


def message(c: dict[str, Any]) -> str:
    """One line: the axis and the first two differing values, or the reason."""
    if c.get("outcome") == "member-fault":
        for m, o in (c.get("observations") or {}).items():
            for f in o.get("faults", []):
                return text.truncate(f"{m}: {f['kind']}: {f['message']}", 300)
    div = c.get("divergence")
    if div:
        vals = div["values"]
        members = list(vals)
        a = members[0]
        b = next((m for m in members[1:] if vals[m] != vals[a]), members[-1])
        va, vb = vals[a], vals[b]
        where = ""
        if isinstance(va, str) and isinstance(vb, str) and ("\n" in va.rstrip("\n")
                                                            or "\n" in vb.rstrip("\n")):
            # Long output: name the first line that differs, not the common head.
            la, lb = va.split("\n"), vb.split("\n")
            i = next((k for k in range(max(len(la), len(lb)))
                      if (la[k] if k < len(la) else None) != (lb[k] if k < len(lb) else None)), 0)
            where = f" at line {i + 1}"
            va = la[i] if i < len(la) else "(no line)"
            vb = lb[i] if i < len(lb) else "(no line)"
        w = _around(va, vb)
        return f"{div['axis']} differs{where}: {a} {w[0]} vs {b} {w[1]}"
    diffs = c.get("expectation", {}).get("differences") or []
    if diffs:
        d = diffs[0]
        w = _around(d["expected"], d["got"])
        return (f"{d['axis']} differs from the expectation on {d['member']}: expected "
                f"{w[0]}, got {w[1]}")
    for m, o in (c.get("observations") or {}).items():
        for f in o.get("faults", []):
            return text.truncate(f"{m}: {f['kind']}: {f['message']}", 300)
    if c.get("error"):
        return text.truncate(c["error"], 300)
    facts = evidence_lines(c.get("evidence"))
    if facts:
        return text.truncate("; ".join(facts), 300)
    return "; ".join(c.get("reasons") or [c["outcome"]])


def render(report: dict[str, Any]) -> bytes:
    cases = report["cases"]
    kinds = [c["outcome"] for c in cases]
    errors = sum(kinds.count(k) for k in ERROR_OUTCOMES)
    skipped = kinds.count("not-comparable") + kinds.count("not-run")
    failures = len(kinds) - kinds.count("agree") - errors - skipped
    total_time = report["run"].get("duration_seconds") or 0.0
    root = ET.Element("testsuites", name="lispex-court", tests=str(len(cases)),
                      failures=str(failures), errors=str(errors), skipped=str(skipped),
                      time=f"{total_time:.6f}")
    suite = ET.SubElement(root, "testsuite", name=f"court {report['run']['court']}",
                          tests=str(len(cases)), failures=str(failures), errors=str(errors),
                          skipped=str(skipped), time=f"{total_time:.6f}",
                          timestamp=report["run"]["started_at"][:19])
    props = ET.SubElement(suite, "properties")
    for p in report["products"]:
        ET.SubElement(props, "property", name=f"product.{p['id']}",
                      value=p.get("product_id") or "unknown")
    ET.SubElement(props, "property", name="profile", value=report["run"]["profile"])
    ET.SubElement(props, "property", name="complete", value=str(report["run"]["complete"]).lower())
    for c in cases:
        folder, _, name = c["id"].rpartition("/")
        tc = ET.SubElement(suite, "testcase", classname=folder.replace("/", ".") or "corpus",
                           name=name, time=_case_time(c), file=c.get("program", ""))
        outcome = c["outcome"]
        detail = _detail(c)
        if c.get("reproduce"):
            detail += "\nreproduce: " + shlex.join(c["reproduce"])
        if outcome == "agree":
            continue
        if outcome == "not-comparable":
            ET.SubElement(tc, "skipped", message="; ".join(c.get("reasons") or ["not comparable"]))
        elif outcome == "not-run":
            ET.SubElement(tc, "skipped", message=c.get("error") or "not run")
        elif outcome in ERROR_OUTCOMES:
            el = ET.SubElement(tc, "error", message=message(c), type=outcome)
            el.text = detail
        else:  # disagree, expectation-broken, and failure kinds added later
            el = ET.SubElement(tc, "failure", message=message(c), type=outcome)
            el.text = detail
    ET.indent(root)
    return b'<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, encoding="utf-8")
