"""junit.xml: one testcase per case, in the shape common CI viewers read (the Ant/Jenkins JUnit
schema): a disagreement or a broken expectation is a failure, an infrastructure error an error,
not-comparable is skipped with its reason; product ids are suite properties."""

from __future__ import annotations

import json
from typing import Any
from xml.etree import ElementTree as ET


def _case_time(c: dict[str, Any]) -> str:
    return f"{c.get('wall_seconds') or 0.0:.6f}"


def _detail(c: dict[str, Any]) -> str:
    lines = []
    div = c.get("divergence")
    if div:
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


def render(report: dict[str, Any]) -> bytes:
    cases = report["cases"]
    counts = report["summary"]["outcomes"]
    failures = counts.get("disagree", 0) + counts.get("expectation-broken", 0)
    errors = counts.get("infrastructure-error", 0) + counts.get("interrupted", 0)
    skipped = counts.get("not-comparable", 0) + counts.get("not-run", 0)
    total_time = sum(c.get("wall_seconds") or 0.0 for c in cases)
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
                           name=name, time=_case_time(c))
        outcome = c["outcome"]
        detail = _detail(c)
        if outcome in ("disagree", "expectation-broken"):
            first = detail.splitlines()[0] if detail else outcome
            el = ET.SubElement(tc, "failure", message=first, type=outcome)
            el.text = detail
        elif outcome in ("infrastructure-error", "interrupted"):
            first = detail.splitlines()[0] if detail else outcome
            el = ET.SubElement(tc, "error", message=first, type=outcome)
            el.text = detail
        elif outcome == "not-comparable":
            ET.SubElement(tc, "skipped", message="; ".join(c.get("reasons") or ["not comparable"]))
        elif outcome == "not-run":
            ET.SubElement(tc, "skipped", message=c.get("error") or "not run")
    ET.indent(root)
    return b'<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, encoding="utf-8")
