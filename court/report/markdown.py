"""summary.md: a Markdown summary fit for a CI step summary, and GitHub annotations."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from ..verdict import evidence_lines
from . import difference, text

MAX_LISTED = 50
MAX_ANNOTATIONS = 10


def format_seconds(x: float | None) -> str:
    return "-" if x is None else f"{x * 1000:.2f} ms"


def format_mib(x: float | None) -> str:
    return "-" if x is None else f"{x / (1 << 20):.1f} MiB"


def failing(report: dict[str, Any]) -> list[dict[str, Any]]:
    """Cases that need a person: every outcome but agreement, not-comparable and not-run (kinds
    added later count as failures until this module learns otherwise)."""
    return [c for c in report["cases"]
            if c["outcome"] not in ("agree", "not-comparable", "not-run", "known-difference")]


def unfinished(o: dict[str, int]) -> str:
    """`, 2 interrupted, 40 not run` when a run stopped early; empty otherwise."""
    parts = [f"{o[k]} {k.replace('-', ' ')}" for k in ("interrupted", "not-run") if o.get(k)]
    return "".join(", " + p for p in parts)


def _around_difference(values: dict[str, Any], esc: Callable[[str], str], n: int,
                       mark: str) -> dict[str, str]:
    """Each value as JSON, cut to about ``n`` characters around the place where the values
    differ (never away from it), escaped, the differing span between ``mark`` pairs."""
    views = difference.windows({m: json.dumps(v, ensure_ascii=False) for m, v in values.items()},
                               n)
    out = {}
    for m, w in views.items():
        span = w.shown[w.start:w.end]
        inner = f"{mark}{esc(span)}{mark}" if mark and span.strip() else esc(span)
        out[m] = esc(w.shown[:w.start]) + inner + esc(w.shown[w.end:])
    return out


def one_line(c: dict[str, Any], esc: Callable[[str], str] = lambda t: t,
             n: int = text.MAX_VALUE, mark: str = "") -> str:
    """A failure in one line: the first differing axis and each member's value (as JSON, cut
    to about ``n`` characters around the difference), passed through ``esc`` (identity for a
    terminal, Markdown escaping for summary.md); ``mark`` (``**`` in Markdown) brackets the
    differing characters."""
    outcome = esc(c["outcome"])
    facts = evidence_lines(c.get("evidence"))
    if facts:
        return f"{outcome}: " + esc(text.truncate("; ".join(facts), n))
    if c.get("divergence"):
        d = c["divergence"]
        shown = _around_difference(d["values"], esc, n, mark)
        parts = ", ".join(f"{esc(m)} {v}" for m, v in shown.items())
        return f"{outcome}: first divergence on {esc(d['axis'])}: {parts}"
    diffs = c.get("expectation", {}).get("differences") or []
    if diffs:
        d = diffs[0]
        shown = _around_difference({"expected": d["expected"], "got": d["got"]}, esc, n, mark)
        return (f"{outcome}: {esc(d['member'])} {esc(d['axis'])} expected "
                f"{shown['expected']}, got {shown['got']}")
    reason = c.get("error") or "; ".join(
        [f"{m}: {f['kind']}: {f['message']}" for m, o in (c.get("observations") or {}).items()
         for f in o.get("faults", [])] or c.get("reasons") or [])
    return outcome + (f": {esc(text.truncate(reason, n))}" if reason else "")


def render(report: dict[str, Any]) -> str:
    run = report["run"]
    s = report["summary"]
    o = s["outcomes"]
    lines = [f"## Lispex Court: {text.md(run['court'])}", ""]
    if not run["complete"]:
        lines += ["**Incomplete run**: it stopped before every case was judged "
                  f"({o.get('interrupted', 0)} interrupted, {o.get('not-run', 0)} not run); the "
                  "figures cover the cases that ran.", ""]
    lines += ["| cases | agree | disagree | one-sided limit | member fault | not comparable | "
              "expectation broken | infrastructure errors |",
              "|---:|---:|---:|---:|---:|---:|---:|---:|",
              f"| {s['cases']} | {o['agree']} | {o['disagree']} | {o.get('one-sided-limit', 0)} "
              f"| {o.get('member-fault', 0)} | {o['not-comparable']} | "
              f"{o['expectation-broken']} | {o['infrastructure-error']} |", ""]
    if o.get("known-difference"):
        lines += [f"Known differences (listed in the witness's known-differences file, not "
                  f"failures): {o['known-difference']}", ""]
    lines += ["| member | lineage | product id | cases | median wall | p95 wall | "
              "peak RSS (max) |",
              "|---|---|---|---:|---:|---:|---:|"]
    ids = {p["id"]: p.get("product_id") or "-" for p in report["products"]}
    lineage = {p["id"]: p.get("lineage") or p["id"] for p in report["products"]}
    for m, st in s["members"].items():
        lines.append(f"| {text.md(m)} | {text.md(lineage.get(m, m))} | "
                     f"{text.md_code(ids.get(m, '-')[:16])} | {st['cases']} | "
                     f"{format_seconds(st['wall_median_seconds'])} | {format_seconds(st['wall_p95_seconds'])} | "
                     f"{format_mib(st['peak_rss_max_bytes'])} |")
    bad = failing(report)
    if bad:
        lines += ["", f"### Failing cases ({len(bad)})", ""]
        for c in bad[:MAX_LISTED]:
            lines.append(f"- {text.md_code(c['id'])}: {one_line(c, text.md, mark='**')}")
        if len(bad) > MAX_LISTED:
            lines.append(f"- and {len(bad) - MAX_LISTED} more (see court-report.json)")
    lines += ["", f"Profile {text.md_code(run['profile'])}, {run['duration_seconds']:.1f} s, "
              f"Python {run['environment']['python']}."]
    if run.get("cluster"):
        c = run["cluster"]
        lines += ["", f"Ran on Dask ({c['scheduler']}, {c['workers']} workers): {c['tasks']} tasks, "
                  f"{c['retried_tasks']} retried after a lost worker."]
    return "\n".join(lines) + "\n"


def annotations(report: dict[str, Any]) -> list[str]:
    """GitHub workflow commands for at most ten failures; values escaped as in summary.md (the
    annotation reaches the check run's Markdown) and truncated."""
    out = []
    for c in failing(report)[:MAX_ANNOTATIONS]:
        msg = text.workflow_data(f"{text.md(c['id'])}: {one_line(c, text.md, 100)}")
        title = text.workflow_property(f"court: {c['outcome']}")
        out.append(f"::error file={text.workflow_property(c['program'])},line=1,"
                   f"title={title}::{msg}")
    return out
