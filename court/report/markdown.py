"""summary.md: a Markdown summary fit for a CI step summary, and GitHub annotations."""

from __future__ import annotations

from typing import Any

MAX_LISTED = 50
MAX_ANNOTATIONS = 10


def _fmt_s(x: float | None) -> str:
    return "-" if x is None else f"{x * 1000:.2f} ms"


def _fmt_b(x: float | None) -> str:
    return "-" if x is None else f"{x / (1 << 20):.1f} MiB"


def failing(report: dict[str, Any]) -> list[dict[str, Any]]:
    return [c for c in report["cases"]
            if c["outcome"] in ("disagree", "expectation-broken", "infrastructure-error")]


def one_line(c: dict[str, Any]) -> str:
    if c.get("divergence"):
        d = c["divergence"]
        parts = ", ".join(f"{m}={v!r}" for m, v in d["values"].items())
        return f"{c['outcome']}: first divergence on {d['axis']} ({parts})"
    diffs = c.get("expectation", {}).get("differences") or []
    if diffs:
        d = diffs[0]
        return (f"{c['outcome']}: {d['member']} {d['axis']} expected {d['expected']!r}, "
                f"got {d['got']!r}")
    return c["outcome"] + (f": {c['error']}" if c.get("error") else "")


def render(report: dict[str, Any]) -> str:
    run = report["run"]
    s = report["summary"]
    o = s["outcomes"]
    lines = [f"## Lispex Court: {run['court']}", ""]
    if not run["complete"]:
        lines += ["**Incomplete run**: it was interrupted; the figures cover the cases that ran.",
                  ""]
    lines += ["| cases | agree | disagree | not comparable | expectation broken | "
              "infrastructure errors |",
              "|---:|---:|---:|---:|---:|---:|",
              f"| {s['cases']} | {o['agree']} | {o['disagree']} | {o['not-comparable']} | "
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
        lines.append(f"| {m} | {lineage.get(m, m)} | `{ids.get(m, '-')[:16]}` | {st['cases']} | "
                     f"{_fmt_s(st['wall_median_seconds'])} | {_fmt_s(st['wall_p95_seconds'])} | "
                     f"{_fmt_b(st['peak_rss_max_bytes'])} |")
    bad = failing(report)
    if bad:
        lines += ["", f"### Failing cases ({len(bad)})", ""]
        for c in bad[:MAX_LISTED]:
            lines.append(f"- `{c['id']}`: {one_line(c)}")
        if len(bad) > MAX_LISTED:
            lines.append(f"- and {len(bad) - MAX_LISTED} more (see court-report.json)")
    lines += ["", f"Profile `{run['profile']}`, {run['duration_seconds']:.1f} s, "
              f"Python {run['environment']['python']}."]
    return "\n".join(lines) + "\n"


def annotations(report: dict[str, Any]) -> list[str]:
    """GitHub workflow commands for at most ten failures."""
    out = []
    for c in failing(report)[:MAX_ANNOTATIONS]:
        msg = one_line(c).replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")
        out.append(f"::error file={c['program']},line=1::{c['id']}: {msg}")
    return out
