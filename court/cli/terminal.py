"""Terminal rendering of a court result: a table that fits the terminal, the verdict and the first
divergence; plain text when the output is not a terminal or ``--plain`` is given.

Colour follows the usual conventions: ``NO_COLOR`` (any value) turns it off, ``FORCE_COLOR`` (any
value) turns styled output on even in a pipe or a CI log.
"""

from __future__ import annotations

import difflib
import json
import os
import shlex
import sys
from dataclasses import dataclass
from typing import Any

from rich import box
from rich.console import Console
from rich.table import Table
from rich.text import Text

from ..report.difference import as_text, windows
from ..verdict import evidence_lines

VERDICT_STYLE = {"agree": "bold green", "disagree": "bold red", "one-sided-limit": "bold red",
                 "member-fault": "bold red", "not-comparable": "bold yellow",
                 "unavailable": "bold magenta"}
# Below this many columns the members table drops resources and product ids.
WIDE_COLUMNS = 120
# Plain text (a pipe, a log) is this wide unless COLUMNS says otherwise.
PLAIN_COLUMNS = 120
ELLIPSIS = "…"
# Plain text marks the differing span with ^ under it once a value is longer than this.
MARK_FROM = 24


@dataclass
class Term:
    """Where a command writes, and how: styled for a terminal, or stable plain text."""
    console: Console
    plain: bool

    @property
    def width(self) -> int:
        return self.console.width

    def line(self, text: str | Text = "", style: str | None = None) -> None:
        """One line, elided to the width (never wrapped into fragments)."""
        if isinstance(text, str):
            text = Text(text, style=style or "")
        text = fit_text(text, self.width)
        self.console.print(text, soft_wrap=True, highlight=False)

    def command(self, line: str) -> None:
        """A line of a shell command: printed whole, even past the width, so it pastes."""
        self.console.print(Text(line), highlight=False, soft_wrap=True, crop=False)

    def wrapped(self, text: str | Text, style: str | None = None) -> None:
        """Text that must stay whole (a path, a count, a program): wrapped at the width, not
        elided."""
        if isinstance(text, str):
            text = Text(text, style=style or "")
        self.console.print(text, highlight=False, overflow="fold")


def _env_columns() -> int | None:
    c = os.environ.get("COLUMNS", "")
    return int(c) if c.isdigit() and int(c) > 20 else None


def make_term(plain: bool = False, stderr: bool = False) -> Term:
    stream = sys.stderr if stderr else sys.stdout
    force = os.environ.get("FORCE_COLOR", "") != ""
    try:
        tty = stream.isatty()
    except (AttributeError, ValueError):
        tty = False
    if plain or not (tty or force):
        console = Console(stderr=stderr, width=_env_columns() or PLAIN_COLUMNS, color_system=None,
                          force_terminal=False, highlight=False, emoji=False)
        return Term(console, True)
    console = Console(stderr=stderr, force_terminal=True if force else None, highlight=False,
                      emoji=False, no_color=os.environ.get("NO_COLOR", "") != "")
    return Term(console, False)


def make_console() -> Console:
    """A console for stdout (kept for callers that print rich renderables directly)."""
    return make_term().console


def elide(text: str, n: int) -> str:
    """``text`` on one line, at most ``n`` characters; a cut is marked with … ."""
    flat = text.replace("\r", "").replace("\n", "⏎")
    if len(flat) <= n:
        return flat
    return flat[: max(n - 1, 0)] + ELLIPSIS


def fit_text(text: Text, width: int) -> Text:
    if text.cell_len <= width:
        return text
    out = text.copy()
    out.truncate(max(width - 1, 0))
    out.append(ELLIPSIS)
    return out


def show(v: Any) -> str:
    """A value as a person reads it: strings bare (with newlines marked), the rest as JSON."""
    if v is None:
        return "-"
    if isinstance(v, str):
        return v
    if isinstance(v, list) and all(isinstance(x, str) for x in v):
        return " ".join(v) if v else "(none)"
    return json.dumps(v, ensure_ascii=False)


def _ms(x: float | None) -> str:
    return "-" if x is None else f"{x * 1000:.1f} ms"


def _mib(x: int | None) -> str:
    return "-" if x is None else f"{x / (1 << 20):.1f} MiB"


def _diagnostic(o: dict[str, Any]) -> str:
    sem = o["semantic"]
    if o.get("faults"):
        return "; ".join(f"{f['kind']}: {f['message']}" for f in o["faults"])
    diag = (sem.get("diagnostics") or [None])[0]
    return diagnostic_text(diag) if diag else ""


def diagnostic_text(diag: dict[str, Any]) -> str:
    """A diagnostic as the catalogue renders it, ``CODE file:line:column message irritants``
    (the position left out where the member gave none)."""
    span = diag.get("span") or {}
    where = (f" {span.get('file') or '-'}:{span['line']}:{span['column']}"
             if span.get("line") is not None else "")
    irritants = "".join(f" {i}" for i in diag.get("irritants") or [])
    return f"{diag['code']}{where} {diag['message']}{irritants}"


def member_rows(result: dict[str, Any]) -> list[dict[str, str]]:
    rows = []
    for m, o in result["observations"].items():
        sem = o["semantic"]
        res = o.get("resources", {})
        values = sem.get("values")
        stdout = sem.get("stdout") if sem.get("stdout") is not None else sem.get("transcript")
        rows.append({
            "member": m, "status": sem["status"],
            "values": " ".join(values) if values else ("(none)" if values == [] else "-"),
            "stdout": stdout or "", "exit": str(sem.get("exit_status")),
            "diagnostic": _diagnostic(o),
            "wall": _ms(res.get("wall_seconds")), "cpu": _ms(res.get("cpu_seconds")),
            "peak rss": _mib(res.get("peak_rss_bytes")),
            "product": (o.get("products", {}).get("product_id") or "")[:12],
        })
    return rows


def columns_for(rows: list[dict[str, str]], width: int, wide: bool) -> list[str]:
    cols = ["member", "status", "values"]
    if any(r["stdout"] for r in rows):
        cols.append("stdout")
    cols += ["exit", "diagnostic"]
    if wide or width >= WIDE_COLUMNS:
        cols += ["wall", "cpu", "peak rss", "product"]
    return cols


# Columns whose text may be elided to make room; the others keep their whole (short) text.
FLEXIBLE = {"values": 3, "stdout": 2, "diagnostic": 3}


def share(need: dict[str, int], weight: dict[str, int], room: int) -> dict[str, int]:
    """Widths for the flexible columns: a column that needs less than its weighted share gets
    what it needs, and the rest of the room goes to the others (never below the header)."""
    budget: dict[str, int] = {}
    left = dict(need)
    while left:
        total = sum(weight[c] for c in left)
        fits = [c for c in left if left[c] <= room * weight[c] // total]
        if not fits:
            for c in left:
                budget[c] = max(len(c), room * weight[c] // total)
            break
        for c in fits:
            budget[c] = left.pop(c)
            room -= budget[c]
    return budget


def members_table(result: dict[str, Any], width: int, wide: bool = False) -> Table:
    rows = member_rows(result)
    cols = columns_for(rows, width, wide)
    fixed = {c: max([len(c)] + [len(r[c]) for r in rows]) for c in cols if c not in FLEXIBLE}
    # Each column costs its text plus 3 cells of padding and rule; the table 1 more.
    spare = width - 1 - sum(fixed.values()) - 3 * len(cols)
    flex = [c for c in cols if c in FLEXIBLE]
    need = {c: max([len(c)] + [len(elide(r[c], 10**6)) for r in rows]) for c in flex}
    budget = share(need, {c: FLEXIBLE[c] for c in flex}, spare)
    t = Table(title=f"court {result['court']}", box=box.SIMPLE_HEAD, show_edge=False,
              title_justify="left", pad_edge=False)
    for c in cols:
        w = fixed.get(c) or budget[c]
        t.add_column(c, no_wrap=True, overflow="ellipsis", max_width=w, min_width=len(c))
    for r in rows:
        cells = []
        for c in cols:
            text = r[c]
            if c in FLEXIBLE:
                text = elide(text, budget[c])
            cells.append(Text(text, style=_status_style(text) if c == "status" else ""))
        t.add_row(*cells)
    return t


def _status_style(status: str) -> str:
    return {"ok": "green", "infrastructure-error": "magenta", "resource": "yellow"}.get(
        status, "red" if status.endswith("error") else "")


def marked_values(shown: dict[str, Any], width: int, indent: str = "  ",
                  plain: bool = True, labels: dict[str, str] | None = None) -> list[Text]:
    """One line per member with its value, cut (if it must be) around the place where the
    values differ, never away from it; that place is marked: in reverse video on a terminal,
    with a line of ``^`` under it in plain text when the values are long enough to need it."""
    labels = labels or {m: m + ":" for m in shown}
    pad = max(len(t) for t in labels.values())
    lead = f"{indent}{'':<{pad}} "
    views = windows(shown, width - len(lead))
    long = any(len(as_text(v)) > MARK_FROM for v in shown.values())
    out = []
    for m, w in views.items():
        line = Text(f"{indent}{labels[m]:<{pad}} ")
        line.append(w.shown[:w.start])
        line.append(w.shown[w.start:w.end], style="" if plain else "reverse")
        line.append(w.shown[w.end:])
        out.append(line)
        if plain and long and len(views) > 1:
            out.append(Text(lead + w.carets()))
    return out


def divergence_lines(div: dict[str, Any], width: int, indent: str = "  ",
                     plain: bool = True) -> list[Text]:
    """The first differing axis: short values side by side, long or multi-line ones as a diff."""
    vals = div["values"]
    members = list(vals)
    out = [Text("first divergence on ") + Text(div["axis"], style="bold") + Text(":")]
    shown = {m: show(vals[m]) for m in members}
    multiline = any("\n" in s.rstrip("\n") for s in shown.values())
    if not multiline:
        return out + marked_values({m: shown[m] for m in members}, width, indent, plain)
    a = members[0]
    b = next((m for m in members[1:] if vals[m] != vals[a]), members[-1])
    left, right = shown[a].splitlines() or [""], shown[b].splitlines() or [""]
    for d in difflib.unified_diff(left, right, fromfile=a, tofile=b, lineterm=""):
        style = "red" if d.startswith("-") else "green" if d.startswith("+") else ""
        out.append(fit_text(Text(indent + d.replace("\r", ""), style=style), width))
    for m in members:
        if m not in (a, b):
            out.append(fit_text(Text(f"{indent}{m}: {elide(shown[m], width)}"), width))
    return out


def core_ir_argv(div: dict[str, Any] | None, program: str) -> list[str] | None:
    """`court core-ir` of two members that read the program into different Core IR, one from
    each of the first two groups, when both are built-in implementations (the command reads
    with their kernels in process); None for any other divergence."""
    if not div or div.get("axis") != "core_ir":
        return None
    from implementations.registry import ids

    builtin = set(ids())
    picks = [next((m for m in g if m in builtin), None) for g in (div.get("groups") or [])[:2]]
    if len(picks) < 2 or None in picks:
        return None
    return ["court", "core-ir", program, "--impl", ",".join(picks)]  # type: ignore[arg-type]


def render(result: dict[str, Any], term: Term, wide: bool = False,
           program: str | None = None) -> None:
    if result["status"] == "unavailable":
        term.line(f"court {result['court']} is unavailable", style="bold magenta")
        term.line(f"missing: {', '.join(result['missing_prerequisites'])}")
        for r in result["attempted_routes"]:
            term.wrapped(f"  looked at: {r}")
        return
    if term.plain:
        render_plain(result, term, wide)
    else:
        term.console.print(members_table(result, term.width, wide))
    verdict = result["verdict"]
    line = Text("verdict: ") + Text(verdict, style=VERDICT_STYLE.get(verdict, "bold"))
    factions = result.get("factions") or []
    if len(factions) > 1:
        line += Text("   factions: " + " | ".join(", ".join(f) for f in factions))
    term.line(line)
    for split in result.get("model_splits") or []:
        term.line(f"  inside meter model {split['meter_model']}"
                  + (f" ({split['axis']})" if split.get("axis") else "") + ": "
                  + " | ".join(", ".join(g) for g in split["groups"]))
    for reason in result.get("reasons") or []:
        term.line(f"  because {reason}")
    suspect = result.get("suspect")
    if suspect and suspect.get("withheld"):
        term.line(f"  no guess: {suspect['basis']}")
    elif suspect:
        who = suspect["member"] or ", ".join(suspect.get("members") or [])
        term.line(f"  guess (not certain): {who} is the odd one out, {suspect['basis']}")
    for ev in evidence_lines(result.get("evidence")):
        term.line(f"  {ev}")
    div = result.get("divergence")
    if div and verdict == "disagree":
        for t in divergence_lines(div, term.width, plain=term.plain):
            term.line(t)
        argv = core_ir_argv(div, program) if program else None
        if argv:
            term.line("first differing node: " + shlex.join(argv))


def render_plain(result: dict[str, Any], term: Term, wide: bool = False) -> None:
    """Stable, greppable lines: one per member, fields named; a diagnostic or fault follows on
    its own line, whole (it is the reason, and a cut reason helps nobody)."""
    term.line(f"court {result['court']}")
    for r in member_rows(result):
        exit_status = "-" if r["exit"] == "None" else r["exit"]
        parts = [f"{r['member']}: {r['status']}", f"exit {exit_status}",
                 f"values {elide(r['values'], 60)}"]
        if r["stdout"]:
            parts.append(f"stdout {elide(r['stdout'], 40)}")
        if wide:
            parts += [f"wall {r['wall']}", f"cpu {r['cpu']}", f"peak rss {r['peak rss']}",
                      f"product {r['product'] or '-'}"]
        if wide:
            term.wrapped("  " + ", ".join(parts))
        else:
            term.line("  " + ", ".join(parts))
        if r["diagnostic"]:
            term.wrapped("    " + r["diagnostic"].replace("\n", " "))
