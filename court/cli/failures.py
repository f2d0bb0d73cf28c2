"""The end of `court run`, pytest-style: one section per failing case with the first differing
axis, the reason of an infrastructure error, and the command that shows it again; plus the
progress bar and the GitHub Actions groups."""

from __future__ import annotations

import argparse
import json
import os
import shlex
from pathlib import Path
from typing import Any

from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    ProgressColumn,
    TimeRemainingColumn,
)
from rich.text import Text

from ..report.markdown import failing
from ..verdict import evidence_lines
from .checks import DEFAULT_TIMEOUT
from .terminal import Term, core_ir_argv, divergence_lines, elide, fit_text, marked_values

DEFAULT_PROFILE = "lispex-product-native/v1"
DEFAULT_MEMORY_MIB = 2048
OUTCOME_STYLE = {"disagree": "bold red", "expectation-broken": "bold red",
                 "one-sided-limit": "bold red", "member-fault": "bold red",
                 "infrastructure-error": "bold magenta"}
# Outcomes whose story is a fault of some member: its kind and message lead the section.
FAULT_OUTCOMES = ("infrastructure-error", "member-fault")


def in_github_actions() -> bool:
    return os.environ.get("GITHUB_ACTIONS") == "true"


def config_argv(res: Any, args: argparse.Namespace) -> list[str]:
    """``--config ABSOLUTE_PATH`` when the court or one of its members comes from a court.toml,
    so that the command works from any folder; empty for the built-in courts."""
    from ..catalog import FIXED_COURTS, find_config

    foreign = res.court not in FIXED_COURTS or any(
        not p.origin.startswith("builtin") for p in res.products.values())
    if not foreign:
        return []
    path = Path(args.config) if getattr(args, "config", None) else find_config(Path.cwd())
    return ["--config", str(path.resolve())] if path is not None else []


def reproduce_argv(case: Any, res: Any, args: argparse.Namespace,
                   outcome: str | None = None) -> list[str]:
    """The command that shows one corpus case's failure again, from any folder: `court compare`
    as `court run` ran it, or, for a broken expectation (which compare does not check), `court
    run` of that one case."""
    program = str(Path(case.program).resolve())
    if outcome == "expectation-broken":
        argv = ["court", "run", program]
    else:
        argv = ["court", "compare", program]
    if getattr(args, "impl", None):
        argv += ["--impl", ",".join(res.members)]
    else:
        argv += ["--court", res.court]
    argv += config_argv(res, args)
    limits: dict[str, int] = {}
    for text in args.limit or []:
        axis, _, n = text.partition("=")
        limits[axis] = int(n) if n.isdigit() else n
    if outcome != "expectation-broken":
        # `court run` reads the case's own input, profile and limits from its files.
        if case.input_path is not None:
            argv += ["--input-file", str(Path(case.input_path).resolve())]
        profile = case.profile or args.profile
        if profile and profile != DEFAULT_PROFILE:
            argv += ["--profile", profile]
        limits.update(case.limits)
    elif args.profile and args.profile != DEFAULT_PROFILE:
        argv += ["--profile", args.profile]
    for axis, n in limits.items():
        argv += ["--limit", f"{axis}={n}"]
    # None is the default clock, which `court compare` uses too.
    if args.timeout is not None and args.timeout != DEFAULT_TIMEOUT:
        argv += ["--timeout", f"{args.timeout:g}"]
    if args.memory_limit != DEFAULT_MEMORY_MIB:
        argv += ["--memory-limit", str(args.memory_limit)]
    return argv


def shell_lines(argv: list[str], width: int, indent: str = "  ") -> list[str]:
    """A command as shell lines of at most ``width`` characters, continued with backslashes, so
    it can be pasted as it is (a single word longer than the width stays whole)."""
    words = [shlex.quote(w) for w in argv]
    lines, cur = [], indent + words[0]
    for w in words[1:]:
        if len(cur) + 1 + len(w) + 2 > width and cur.strip():
            lines.append(cur + " \\")
            cur = indent + "  " + w
        else:
            cur += " " + w
    lines.append(cur)
    return lines


def rule(term: Term, title: str, char: str, style: str = "") -> None:
    title = elide(title, term.width - 4)
    side = max(term.width - len(title) - 2, 2)
    left = side // 2
    term.line(Text(char * left + " ") + Text(title, style=style) +
              Text(" " + char * (side - left)))


def _expectation_lines(c: dict[str, Any], width: int, plain: bool = True) -> list[Text]:
    # Members that break the expectation the same way are named together.
    groups: dict[tuple[str, str, str], list[str]] = {}
    for d in (c.get("expectation") or {}).get("differences", []):
        key = (d["axis"], json.dumps(d["expected"], ensure_ascii=False),
               json.dumps(d["got"], ensure_ascii=False))
        groups.setdefault(key, []).append(d["member"])
    out = []
    for (axis, expected, got), members in list(groups.items())[:6]:
        out.append(Text(f"expectation broken on {axis} ({', '.join(members)}):"))
        out += marked_values({"expected": json.loads(expected), "got": json.loads(got)}, width,
                             plain=plain)
    return out


def _infrastructure_lines(c: dict[str, Any], width: int) -> list[Text]:
    out = []
    if c.get("error"):
        out.append(Text(f"reason: {c['error']}"))
    for m, o in (c.get("observations") or {}).items():
        for f in o.get("faults", []):
            out.append(Text(f"reason: {m}: {f['kind']}: {f['message']}"))
    if not out:
        out += [Text(f"reason: {r}") for r in c.get("reasons") or []]
    return [fit_text(t, width) for t in out]


def case_lines(c: dict[str, Any], width: int, plain: bool = True) -> list[Text]:
    lines: list[Text] = []
    if c["outcome"] in FAULT_OUTCOMES or c.get("error"):
        lines += _infrastructure_lines(c, width)
    lines += [fit_text(Text(e), width) for e in evidence_lines(c.get("evidence"))]
    if c.get("divergence"):
        lines += divergence_lines(c["divergence"], width, plain=plain)
        factions = c.get("factions") or []
        if len(factions) > 1:
            lines.append(Text("factions: " + " | ".join(", ".join(f) for f in factions)))
        for split in c.get("model_splits") or []:
            lines.append(Text(f"inside meter model {split['meter_model']}: "
                              + " | ".join(", ".join(g) for g in split["groups"])))
        suspect = c.get("suspect") or {}
        if suspect.get("withheld") or suspect.get("members"):
            who = "no guess" if suspect.get("withheld") else \
                f"guess (not certain): {', '.join(suspect['members'])}"
            lines.append(Text(f"{who}: {suspect['basis']}"))
    lines += _expectation_lines(c, width, plain)
    if not lines:
        lines += [fit_text(Text(r), width) for r in c.get("reasons") or [c["outcome"]]]
    return lines


def print_failures(report: dict[str, Any], term: Term) -> None:
    bad = failing(report)
    if not bad:
        return
    term.line()
    rule(term, f"FAILURES ({len(bad)})", "=", "bold red")
    for c in bad:
        rule(term, f"{c['id']}: {c['outcome']}", "_", OUTCOME_STYLE.get(c["outcome"], "bold"))
        for t in case_lines(c, term.width, term.plain):
            term.wrapped(t)
        if c.get("reproduce"):
            term.line("reproduce:", style="bold")
            for line in shell_lines(c["reproduce"], term.width):
                term.command(line)
        argv = core_ir_argv(c.get("divergence"), str(Path(c["program"]).resolve())) \
            if c.get("program") else None
        if argv:
            term.line("first differing node:", style="bold")
            for line in shell_lines(argv, term.width):
                term.command(line)
    counts: dict[str, int] = {}
    for c in bad:
        counts[c["outcome"]] = counts.get(c["outcome"], 0) + 1
    rule(term, f"{len(bad)} failed: " + ", ".join(f"{n} {k}" for k, n in counts.items()),
          "=", "bold red")


class RateColumn(ProgressColumn):
    def render(self, task: Any) -> Text:
        speed = task.finished_speed or task.speed
        return Text("-- cases/s" if speed is None else f"{speed:.1f} cases/s", style="cyan")


def progress_bar(term: Term, total: int, label: str) -> tuple[Progress, Any]:
    progress = Progress("[progress.description]{task.description}", BarColumn(bar_width=None),
                        MofNCompleteColumn(), RateColumn(), TimeRemainingColumn(),
                        console=term.console, transient=True, expand=False)
    return progress, progress.add_task(label, total=total)
