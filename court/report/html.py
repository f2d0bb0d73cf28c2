"""report.html: one self-contained page (no network, no scripts): totals, the divergence table
with diffs, and per-member charts drawn as inline SVG."""

from __future__ import annotations

import difflib
import json
from html import escape
from typing import Any

from . import svg
from .markdown import failing

STYLE = """
body{font-family:system-ui,sans-serif;margin:2em;max-width:1100px;color:#222}
table{border-collapse:collapse;margin:1em 0}td,th{border:1px solid #ccc;padding:4px 8px;
text-align:left;vertical-align:top}th{background:#f4f4f4}.n{text-align:right}
.agree{color:#2a7}.bad{color:#c22;font-weight:bold}.warn{color:#b80}
pre{background:#f8f8f8;padding:6px;margin:0;white-space:pre-wrap;font-size:12px}
.del{color:#c22}.add{color:#2a7}code{font-size:12px}
"""


def _diff(c: dict[str, Any]) -> str:
    div = c.get("divergence")
    if div:
        vals = div["values"]
        members = list(vals)
        a = members[0]
        b = next((m for m in members[1:] if vals[m] != vals[a]), members[-1])
        left = json.dumps(vals[a], ensure_ascii=False, indent=1).splitlines()
        right = json.dumps(vals[b], ensure_ascii=False, indent=1).splitlines()
        lines = []
        for d in difflib.unified_diff(left, right, fromfile=a, tofile=b, lineterm="", n=2):
            cls = "del" if d.startswith("-") else "add" if d.startswith("+") else ""
            lines.append(f'<span class="{cls}">{escape(d)}</span>')
        return f"<b>{escape(div['axis'])}</b><pre>{chr(10).join(lines)}</pre>"
    diffs = c.get("expectation", {}).get("differences") or []
    if diffs:
        rows = "".join(f"{escape(d['member'])} {escape(d['axis'])}: expected "
                       f"{escape(json.dumps(d['expected'], ensure_ascii=False))}, got "
                       f"{escape(json.dumps(d['got'], ensure_ascii=False))}\n" for d in diffs[:6])
        return f"<pre>{rows}</pre>"
    return escape(c.get("error") or "; ".join(c.get("reasons") or []))


def render(report: dict[str, Any]) -> str:
    run, s = report["run"], report["summary"]
    o = s["outcomes"]
    members = [p["id"] for p in report["products"]]
    walls: dict[str, list[float]] = {m: [] for m in members}
    for c in report["cases"]:
        for m, ob in (c.get("observations") or {}).items():
            w = ob.get("resources", {}).get("wall_seconds")
            if w is not None and m in walls:
                walls[m].append(w)
    rss = {m: (st["peak_rss_median_bytes"] or 0, st["peak_rss_max_bytes"] or 0)
           for m, st in s["members"].items()}
    ratios: dict[str, list[float]] = {}
    if len(members) > 1:
        base = members[0]
        for m in members[1:]:
            rs = []
            for c in report["cases"]:
                obs = c.get("observations") or {}
                a = obs.get(base, {}).get("resources", {}).get("wall_seconds")
                b = obs.get(m, {}).get("resources", {}).get("wall_seconds")
                if a and b:
                    rs.append(b / a)
            ratios[f"{m} / {base}"] = rs
    bad = failing(report)
    rows = "".join(
        f"<tr><td><code>{escape(c['id'])}</code></td><td class='bad'>{escape(c['outcome'])}"
        f"</td><td>{escape(' | '.join(', '.join(f) for f in (c.get('factions') or [])))}"
        f"</td><td>{_diff(c)}</td></tr>" for c in bad[:200])
    ids = "".join(f"<tr><td>{escape(p['id'])}</td><td>{escape(p.get('lineage') or p['id'])}"
                  f"</td><td><code>{escape(p.get('product_id') or '-')}"
                  f"</code></td></tr>" for p in report["products"])
    status = ("<p class='warn'>Incomplete run: it was interrupted.</p>"
              if not run["complete"] else "")
    verdict_cls = "agree" if not bad else "bad"
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>Lispex Court report: {escape(run['court'])}
</title><style>{STYLE}</style></head><body>
<h1>Lispex Court: {escape(run['court'])}</h1>{status}
<p class="{verdict_cls}">{s['cases']} cases: {o['agree']} agree, {o['disagree']} disagree,
{o['not-comparable']} not comparable, {o['expectation-broken']} expectation broken,
{o['infrastructure-error']} infrastructure errors{
 f", {o['known-difference']} known differences" if o.get('known-difference') else ''}.</p>
<p>Started {escape(run['started_at'])}, {run['duration_seconds']:.1f} s, profile
<code>{escape(run['profile'])}</code>, Python {escape(run['environment']['python'])} on
{escape(run['environment']['platform'])}{', shards merged: ' + str(len(run['merged_from']))
 if run['merged_from'] else ''}.</p>
<h2>Products</h2><table><tr><th>member</th><th>lineage</th><th>product id</th></tr>{ids}</table>
<p>Members of one lineage share a kernel: against another lineage they are one voice.</p>
<h2>Divergences and failures ({len(bad)})</h2>
{'<p>None.</p>' if not bad else
 '<table><tr><th>case</th><th>outcome</th><th>factions</th><th>first divergence</th></tr>'
 + rows + '</table>'}
<h2>Time and memory per member</h2>
{svg.box_plot(walls, 'Wall time per case (member-measured)')}
{svg.bars(rss, 'Peak RSS per case')}
{svg.ratio_curves(ratios, 'Time ratio per case, cases sorted by ratio') if ratios else ''}
</body></html>
"""
