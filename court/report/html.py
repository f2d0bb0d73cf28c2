"""report.html: one self-contained page (no network): totals, the case table with diffs and the
command that reproduces each failure, infrastructure errors apart, per-member charts as inline
SVG, and a small inline script to filter and sort the tables."""

from __future__ import annotations

import difflib
import json
import re
import shlex
from html import escape
from typing import Any

from . import difference, svg, text
from .markdown import unfinished

MAX_ROWS = 2000  # cases listed in the table; the JSON report holds them all
MAX_DIFF_LINES = 60

# A colour per outcome kind; a kind this page does not know yet gets the default style.
OUTCOME_COLORS = {
    "agree": ("#1a7f37", "#e9f7ee"),
    "disagree": ("#c62828", "#fdecea"),
    "expectation-broken": ("#ad1457", "#fce4ec"),
    "infrastructure-error": ("#6a1b9a", "#f3e5f5"),
    "not-comparable": ("#8d6e00", "#fff8e1"),
    "one-sided-limit": ("#e65100", "#fff3e0"),
    "member-fault": ("#4e342e", "#efebe9"),
    "interrupted": ("#455a64", "#eceff1"),
    "not-run": ("#78909c", "#f5f5f5"),
    "known-difference": ("#00695c", "#e0f2f1"),
}
DEFAULT_COLOR = ("#37474f", "#eceff1")

STYLE = """
body{font-family:system-ui,sans-serif;margin:2em;max-width:1200px;color:#222}
table{border-collapse:collapse;margin:1em 0;width:100%}td,th{border:1px solid #ccc;
padding:4px 8px;text-align:left;vertical-align:top}th{background:#f4f4f4}
th.sort{cursor:pointer;user-select:none}th.sort:after{content:" \\2195";color:#999}
.n{text-align:right}.ok{color:#1a7f37}.bad{color:#c62828;font-weight:bold}.warn{color:#8d6e00}
pre{background:#f8f8f8;padding:6px;margin:4px 0;white-space:pre-wrap;word-break:break-all;
font-size:12px;max-height:28em;overflow:auto}
.diff .del{color:#c62828;background:#fdecea}.diff .add{color:#1a7f37;background:#e9f7ee}
.diff .hunk{color:#777}.diff mark{background:#ffd54f;color:inherit;font-weight:bold}code{font-size:12px}
.outcome{display:inline-block;padding:1px 6px;border-radius:3px;font-weight:bold;
font-size:12px;white-space:nowrap}
.repro{display:block;margin-top:4px;font-size:11px;background:#f4f4f4;padding:3px 5px;
user-select:all;word-break:break-all}
.controls{margin:.5em 0}.controls input{width:22em}.controls *{margin-right:.8em}
.legend span{margin-right:.6em}
"""

SCRIPT = """
(function(){
  function cell(r,i){var c=r.cells[i];return c?(c.getAttribute('data-sort')||c.textContent):'';}
  document.querySelectorAll('table.cases').forEach(function(t){
    var dir={};
    t.querySelectorAll('th.sort').forEach(function(th,i){
      th.addEventListener('click',function(){
        var rows=Array.prototype.slice.call(t.tBodies[0].rows);
        dir[i]=!dir[i];
        rows.sort(function(a,b){
          var x=cell(a,i),y=cell(b,i),nx=parseFloat(x),ny=parseFloat(y);
          var c=(!isNaN(nx)&&!isNaN(ny))?nx-ny:x.localeCompare(y);
          return dir[i]?c:-c;});
        rows.forEach(function(r){t.tBodies[0].appendChild(r);});
      });
    });
  });
  var q=document.getElementById('q'),k=document.getElementById('kind');
  function apply(){
    var s=(q.value||'').toLowerCase(),want=k.value;
    document.querySelectorAll('table.cases tbody tr').forEach(function(r){
      var o=r.getAttribute('data-outcome');
      var kind=want==='all'||(want==='failures'?o!=='agree':o===want);
      r.style.display=(kind&&r.textContent.toLowerCase().indexOf(s)>=0)?'':'none';
    });
  }
  if(q){q.addEventListener('input',apply);k.addEventListener('change',apply);apply();}
})();
"""


def _slug(kind: str) -> str:
    return re.sub(r"[^a-z0-9-]", "-", kind.lower())


def outcome_css(kinds: list[str]) -> str:
    rules = [f".o{{color:{DEFAULT_COLOR[0]};background:{DEFAULT_COLOR[1]}}}"]
    for k in sorted(set(OUTCOME_COLORS) | set(kinds)):
        fg, bg = OUTCOME_COLORS.get(k, DEFAULT_COLOR)
        rules.append(f".o-{_slug(k)}{{color:{fg};background:{bg}}}")
    return "\n".join(rules)


def badge(kind: str) -> str:
    return f'<span class="outcome o o-{_slug(kind)}">{escape(kind)}</span>'


def _lines(v: Any) -> list[str]:
    """A value as the lines a person compares: output text by its lines, a list by element."""
    if isinstance(v, str):
        return v.splitlines() or [""]
    if isinstance(v, list):
        return [x if isinstance(x, str) else json.dumps(x, ensure_ascii=False) for x in v] \
            or ["(none)"]
    return [json.dumps(v, ensure_ascii=False)]


def diff_html(axis: str, a: str, va: Any, b: str, vb: Any) -> str:
    left, right = _lines(va), _lines(vb)
    if len(left) == 1 and len(right) == 1:
        # One line each, shown whole (or around the difference when very long), the differing
        # characters marked.
        w = difference.windows({a: left[0], b: right[0]}, 2000)
        wa, wb = w[a], w[b]
        return (f"<b>{escape(axis)}</b><pre class='diff'><span class='del'>{escape(a)}: "
                f"{marked(wa.shown, wa.start, wa.end)}</span>\n<span class='add'>{escape(b)}: "
                f"{marked(wb.shown, wb.start, wb.end)}</span></pre>")
    out = []
    for d in list(difflib.unified_diff(left, right, fromfile=a, tofile=b, lineterm="",
                                       n=2))[:MAX_DIFF_LINES]:
        cls = "hunk" if d.startswith("@@") else "del" if d.startswith("-") else \
            "add" if d.startswith("+") else ""
        out.append(f'<span class="{cls}">{escape(text.truncate(d, 2000))}</span>')
    return f"<b>{escape(axis)}</b><pre class='diff'>{chr(10).join(out)}</pre>"


def detail(c: dict[str, Any]) -> str:
    div = c.get("divergence")
    if div:
        vals = div["values"]
        members = list(vals)
        a = members[0]
        b = next((m for m in members[1:] if vals[m] != vals[a]), members[-1])
        html = diff_html(div["axis"], a, vals[a], b, vals[b])
        rest = [m for m in members if m not in (a, b)]
        if rest:
            html += "".join(f"<div>{escape(m)}: <code>{escape(text.value(vals[m], 200))}"
                            f"</code></div>" for m in rest)
        return html
    diffs = c.get("expectation", {}).get("differences") or []
    if diffs:
        # Members that break the expectation the same way are named together.
        groups: dict[str, tuple[dict[str, Any], list[str]]] = {}
        for d in diffs:
            key = json.dumps([d["axis"], d["expected"], d["got"]], sort_keys=True)
            groups.setdefault(key, (d, []))[1].append(d["member"])
        return "".join(diff_html(f"{d['axis']} ({', '.join(ms)}): expected / got", "expected",
                                 d["expected"], "got", d["got"])
                       for d, ms in list(groups.values())[:6])
    return escape(c.get("error") or "; ".join(c.get("reasons") or []))


def reason(c: dict[str, Any]) -> str:
    parts = [c["error"]] if c.get("error") else []
    for m, o in (c.get("observations") or {}).items():
        parts += [f"{m}: {f['kind']}: {f['message']}" for f in o.get("faults", [])]
    if not parts:
        parts = c.get("reasons") or ["infrastructure error"]
    return "<br>".join(escape(text.truncate(p, 2000)) for p in parts)


def repro(c: dict[str, Any]) -> str:
    if not c.get("reproduce"):
        return ""
    return f'<code class="repro" title="reproduce">{escape(shlex.join(c["reproduce"]))}</code>'


def case_row(c: dict[str, Any]) -> str:
    factions = " | ".join(", ".join(f) for f in (c.get("factions") or []))
    wall = c.get("wall_seconds")
    return (f"<tr data-outcome='{escape(c['outcome'])}'><td><code>{escape(c['id'])}</code></td>"
            f"<td data-sort='{escape(c['outcome'])}'>{badge(c['outcome'])}</td>"
            f"<td>{escape(factions)}</td>"
            f"<td class='n' data-sort='{wall or 0}'>{'-' if wall is None else f'{wall:.3f}'}"
            f"</td><td>{detail(c)}{repro(c)}</td></tr>")


def infra_row(c: dict[str, Any]) -> str:
    return (f"<tr data-outcome='{escape(c['outcome'])}'><td><code>{escape(c['id'])}</code></td>"
            f"<td>{reason(c)}{repro(c)}</td></tr>")


def _series(report: dict[str, Any]) -> tuple[dict, dict, dict]:
    s = report["summary"]
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
    return walls, rss, ratios


# How a headline names each failing outcome: "1 of 1,066 cases broke its expectation".
HEADLINE_VERBS = {
    "disagree": "disagreed", "expectation-broken": "broke its expectation",
    "one-sided-limit": "hit a limit on one side only", "member-fault": "had a member fault",
    "infrastructure-error": "could not be judged", "interrupted": "were interrupted",
    "not-run": "were not run",
}


def headline(cases: int, outcomes: dict[str, int]) -> str:
    """What the run found, in words, the failures first: "All 1,066 cases agreed." or
    "1 of 1,066 cases broke its expectation; 2 disagreed."."""
    parts = [f"{n:,} {HEADLINE_VERBS[k]}" for k, n in outcomes.items()
             if n and k in HEADLINE_VERBS]
    if not parts:
        return f"All {cases:,} cases agreed." if cases != 1 else "The one case agreed."
    first, *rest = parts
    n = first.split(" ", 1)[0]
    first = f"{n} of {cases:,} case{'s' if cases != 1 else ''} {first.split(' ', 1)[1]}"
    return "; ".join([first, *rest]) + "."


def marked(value: str, start: int, end: int) -> str:
    """``value`` escaped, its differing span ``value[start:end]`` in a <mark>."""
    return (escape(value[:start]) + f"<mark>{escape(value[start:end]) or '&#8203;'}</mark>"
            + escape(value[end:]))


def render(report: dict[str, Any]) -> str:
    run, s = report["run"], report["summary"]
    o = s["outcomes"]
    walls, rss, ratios = _series(report)
    # Cases whose story is a member's fault (a member fault beside members that answered, or
    # no answer at all) get a table of their own: the fault, not factions, says what happened.
    fault_kinds = ("infrastructure-error", "member-fault")
    infra = [c for c in report["cases"] if c["outcome"] in fault_kinds]
    rest = [c for c in report["cases"] if c["outcome"] not in fault_kinds]
    failing = [c for c in rest if c["outcome"] not in ("agree", "known-difference")]
    # Failures first, so a cut at MAX_ROWS drops agreeing cases, never a failure.
    listed = (failing + [c for c in rest if c["outcome"] in ("agree", "known-difference")])[:MAX_ROWS]
    kinds = sorted({c["outcome"] for c in report["cases"]} | set(o))
    counts = ", ".join(f"{badge(k)} {n}" for k, n in o.items())
    ids = "".join(f"<tr><td>{escape(p['id'])}</td><td>{escape(p.get('lineage') or p['id'])}"
                  f"</td><td><code>{escape(p.get('product_id') or '-')}"
                  f"</code></td></tr>" for p in report["products"])
    status = ("<p class='warn'>Incomplete run: it stopped before every case was judged"
              f"{escape(unfinished(s['outcomes']))}.</p>" if not run["complete"] else "")
    verdict_cls = "ok" if not failing and not infra else "bad"
    options = "".join(f"<option value='{escape(k)}'>{escape(k)}</option>" for k in kinds)
    rows = "".join(case_row(c) for c in listed)
    cut = (f"<p>The table lists {len(listed)} of {len(rest)} cases; court-report.json holds "
           "them all.</p>" if len(listed) < len(rest) else "")
    infra_html = ("" if not infra else
                  f"<h2>Faults ({len(infra)})</h2><p>A member failed: beside members that "
                  "answered it is a member fault (a finding); with no answer at all it is an "
                  "infrastructure error, which says nothing about the implementations."
                  "</p><table class='cases'><thead><tr><th class='sort'>case</th><th>reason "
                  "and reproduction</th></tr></thead><tbody>"
                  + "".join(infra_row(c) for c in infra) + "</tbody></table>")
    merged = f", shards merged: {len(run['merged_from'])}" if run["merged_from"] else ""
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>Lispex Court report: {escape(run['court'])}
</title><style>{STYLE}{outcome_css(kinds)}</style></head><body>
<h1>Lispex Court: {escape(run['court'])}</h1>{status}
<p class="{verdict_cls}">{escape(headline(s['cases'], o))}</p><p class="legend">{counts}</p>
<p>Started {escape(run['started_at'])}, {run['duration_seconds']:.1f} s, profile
<code>{escape(run['profile'])}</code>, Python {escape(run['environment']['python'])} on
{escape(run['environment']['platform'])}{escape(merged)}.</p>
<h2>Products</h2><table><tr><th>member</th><th>lineage</th><th>product id</th></tr>{ids}</table>
<p>Members of one lineage share a kernel: against another lineage they are one voice.</p>
<h2>Cases ({len(failing)} not agreeing)</h2>
<div class="controls"><input id="q" type="search" placeholder="filter: case id, value, member"
aria-label="filter cases"><select id="kind" aria-label="outcome"><option value="failures"
selected>all but agree</option><option value="all">all</option>{options}</select></div>{cut}
<table class="cases"><thead><tr><th class="sort">case</th><th class="sort">outcome</th>
<th class="sort">factions</th><th class="sort">wall s</th><th>first divergence and
reproduction</th></tr></thead><tbody>{rows}</tbody></table>
{'<p>Every case agrees.</p>' if not failing else ''}
{infra_html}
<h2>Time and memory per member</h2>
{svg.box_plot(walls, 'Wall time per case (member-measured)')}
{svg.bars(rss, 'Peak RSS per case')}
{svg.ratio_curves(ratios, 'Time ratio per case, cases sorted by ratio') if ratios else ''}
<script>{SCRIPT}</script>
</body></html>
"""
