"""Terminal rendering of a court result with rich: members table, verdict, first divergence."""

from __future__ import annotations

import difflib
from typing import Any

from rich.console import Console
from rich.table import Table
from rich.text import Text

VERDICT_STYLE = {"agree": "bold green", "disagree": "bold red", "not-comparable": "bold yellow",
                 "unavailable": "bold magenta"}


def make_console() -> Console:
    """A console for stdout: on a terminal its own width; in a log or a pipe wide enough that the
    members table does not wrap into an unreadable column of fragments."""
    console = Console()
    if not console.is_terminal:
        console = Console(width=160)
    return console


def _excerpt(text: str | None, n: int = 40) -> str:
    if text is None:
        return "-"
    flat = text.replace("\n", "⏎")
    return flat if len(flat) <= n else flat[: n - 1] + "…"


def _ms(x: float | None) -> str:
    return "-" if x is None else f"{x * 1000:.1f} ms"


def _mib(x: int | None) -> str:
    return "-" if x is None else f"{x / (1 << 20):.1f} MiB"


def members_table(result: dict[str, Any]) -> Table:
    t = Table(title=f"court {result['court']}", show_lines=False)
    for col in ("member", "status", "values", "stdout", "exit", "diagnostic", "wall", "cpu",
                "peak rss", "product"):
        t.add_column(col, overflow="fold")
    for m, o in result["observations"].items():
        sem = o["semantic"]
        res = o.get("resources", {})
        diag = (sem.get("diagnostics") or [None])[0]
        if o.get("faults"):
            d = "; ".join(f"{f['kind']}: {f['message']}" for f in o["faults"])
        elif diag:
            d = f"{diag['code']} {diag['message']}"
        else:
            d = ""
        values = sem.get("values")
        t.add_row(m, sem["status"], _excerpt(" ".join(values)) if values is not None else "-",
                  _excerpt(sem.get("stdout") if sem.get("stdout") is not None
                           else sem.get("transcript")),
                  str(sem.get("exit_status")), _excerpt(d, 50),
                  _ms(res.get("wall_seconds")), _ms(res.get("cpu_seconds")),
                  _mib(res.get("peak_rss_bytes")),
                  (o.get("products", {}).get("product_id") or "")[:12])
    return t


def render(result: dict[str, Any], console: Console) -> None:
    if result["status"] == "unavailable":
        console.print(Text(f"court {result['court']} is unavailable", style="bold magenta"))
        console.print(f"missing: {', '.join(result['missing_prerequisites'])}")
        for r in result["attempted_routes"]:
            console.print(f"  looked at: {r}")
        return
    console.print(members_table(result))
    verdict = result["verdict"]
    line = Text("verdict: ") + Text(verdict, style=VERDICT_STYLE.get(verdict, "bold"))
    factions = result.get("factions") or []
    if len(factions) > 1:
        line += Text("   factions: " + " | ".join(", ".join(f) for f in factions))
    console.print(line)
    for reason in result.get("reasons") or []:
        console.print(f"  because {reason}")
    suspect = result.get("suspect")
    if suspect:
        console.print(f"  guess (not certain): {suspect['member']} is the odd one out, "
                      f"{suspect['basis']}")
    div = result.get("divergence")
    if div:
        console.print(f"first divergence on [bold]{div['axis']}[/bold]:")
        vals = div["values"]
        members = list(vals)
        a, b = members[0], next((m for m in members[1:] if vals[m] != vals[members[0]]),
                                members[-1])
        left, right = _lines(vals[a]), _lines(vals[b])
        for d in difflib.unified_diff(left, right, fromfile=a, tofile=b, lineterm=""):
            style = "red" if d.startswith("-") else "green" if d.startswith("+") else None
            console.print(Text(d, style=style) if style else Text(d))
        for m in members:
            if m not in (a, b):
                console.print(f"  {m}: {vals[m]!r}")


def _lines(v: Any) -> list[str]:
    if isinstance(v, str):
        return v.splitlines() or [""]
    if isinstance(v, list):
        return [str(x) for x in v] or ["(none)"]
    return [repr(v)]
