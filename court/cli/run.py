"""`court run`, `court bless`, `court merge` and `court replay`: the corpus commands."""

from __future__ import annotations

import argparse
import datetime as dt
import json
import sys
import threading
from pathlib import Path
from typing import Any

import tomli_w
from rich.console import Console

from ..corpus import EXPECTATION_SCHEMA, Case, CaseError, discover, normative
from ..products import ConfigError, resolve
from ..report import markdown
from ..report.model import MergeError, build, merge
from ..report.write import read_report, write_all
from ..runner import CaseRecord, Interrupted, expected_walls, run_cases, select
from .compare import config_from, limits_from
from .render import make_console
from .usage import UsageError

EXIT_OK, EXIT_FAIL, EXIT_USAGE, EXIT_HARNESS, EXIT_INTERRUPTED = 0, 1, 2, 3, 130




def parse_shard(text: str | None) -> tuple[int, int] | None:
    if text is None:
        return None
    k, sep, n = text.partition("/")
    if not (sep and k.isdigit() and n.isdigit() and 1 <= int(k) <= int(n)):
        raise UsageError(f"court: --shard must be K/N with 1 <= K <= N, got {text!r}")
    return int(k), int(n)


def load_cases(args: argparse.Namespace) -> list[Case]:
    paths = [Path(p) for p in args.paths]
    for p in paths:
        if not p.exists():
            raise UsageError(f"court: no such case or folder: {p}")
    try:
        return discover(paths)
    except CaseError as e:
        raise UsageError(f"court: malformed case: {e}") from None


def resolution_for(args: argparse.Namespace, court: str | None = None):
    config = config_from(args)
    impls = [s for s in args.impl.split(",") if s] if getattr(args, "impl", None) else None
    try:
        res = resolve(config, court or args.court, impls)
    except ConfigError as e:
        raise UsageError(f"court: {e}") from None
    return res


def _unavailable(res: Any) -> int:
    print(f"court: court {res.court} is unavailable: missing {', '.join(res.missing)}",
          file=sys.stderr)
    for r in res.attempted_routes:
        print(f"  looked at: {r}", file=sys.stderr)
    return EXIT_HARNESS


def history(path: Path) -> dict[str, float]:
    """Last run's wall time per case, from the report at ``path`` (a folder or the JSON file),
    to schedule the longest cases first; nothing when there is no readable report."""
    try:
        return expected_walls(read_report(path))
    except (OSError, ValueError):
        return {}


def execute(cases: list[Case], res: Any, args: argparse.Namespace, console: Console,
            fail_fast: bool = False,
            walls: dict[str, float] | None = None) -> tuple[list[CaseRecord], list[dict], bool,
                                                            Any]:
    limits = limits_from(args)
    progress = None
    lock = threading.Lock()
    if console.is_terminal:
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeElapsedColumn

        progress = Progress("[progress.description]{task.description}", BarColumn(),
                            MofNCompleteColumn(), TimeElapsedColumn(), console=console)
        task = progress.add_task(f"court {res.court}", total=len(cases))
        progress.start()

    def on_record(r: CaseRecord) -> None:
        with lock:
            if progress is not None:
                progress.advance(task)
                if r.outcome not in ("agree",):
                    progress.console.print(f"[red]{r.outcome}[/red] {r.case.id}")
            elif r.outcome not in ("agree", "not-comparable"):
                print(f"{r.case.id}: {_line(r)}", flush=True)

    try:
        records, cleanup, complete = run_cases(cases, res, limits, jobs=args.jobs,
                                               fail_fast=fail_fast, on_record=on_record,
                                               walls=walls)
        interrupted = False
    except Interrupted as i:
        records, cleanup, complete, interrupted = i.args[0], [], False, True
    finally:
        if progress is not None:
            progress.stop()
    return records, cleanup, complete, interrupted


def _line(r: CaseRecord) -> str:
    from ..report.model import case_json

    return markdown.one_line(case_json(r))


def run_run(args: argparse.Namespace) -> int:
    shard = parse_shard(args.shard)
    cases = select(load_cases(args), shard, args.filter)
    res = resolution_for(args)
    if not res.available:
        return _unavailable(res)
    console = make_console()
    started = dt.datetime.now(dt.UTC)
    records, cleanup, complete, interrupted = execute(cases, res, args, console, args.fail_fast,
                                                      history(Path(args.report_dir)))
    finished = dt.datetime.now(dt.UTC)
    product_ids = {}
    for r in records:
        for m, o in (r.result.observations.items() if r.result else []):
            product_ids.setdefault(m, o.get("products", {}).get("product_id"))
    report = build(records, court=res.court, members=list(res.members), product_ids=product_ids,
                   profile=args.profile, argv=["court", *sys.argv[1:]], started=started,
                   finished=finished, complete=complete and not interrupted, shard=shard,
                   cleanup_faults=cleanup)
    paths = write_all(report, Path(args.report_dir))
    print_summary(report, console)
    if "GITHUB_ACTIONS" in __import__("os").environ:
        for a in markdown.annotations(report):
            print(a)
    console.print(f"reports: {', '.join(str(p) for p in paths)}")
    if interrupted:
        return EXIT_INTERRUPTED
    o = report["summary"]["outcomes"]
    if o["disagree"] or o["expectation-broken"]:
        return EXIT_FAIL
    if o["not-comparable"] or o["infrastructure-error"]:
        if args.strict:
            return EXIT_FAIL
        console.print("[yellow]warning: some cases were not comparable or hit infrastructure "
                      "errors; exit 0 (use --strict to fail)[/yellow]")
    return EXIT_OK


def print_summary(report: dict[str, Any], console: Console) -> None:
    from rich.table import Table

    s = report["summary"]
    t = Table(title=f"court {report['run']['court']}: {s['cases']} cases")
    for col in ("agree", "disagree", "not comparable", "expectation broken", "infra errors"):
        t.add_column(col, justify="right")
    o = s["outcomes"]
    t.add_row(*(str(o[k]) for k in ("agree", "disagree", "not-comparable", "expectation-broken",
                                    "infrastructure-error")))
    console.print(t)
    m = Table(title="members")
    for col in ("member", "cases", "median wall", "p95 wall", "peak RSS max"):
        m.add_column(col, justify="right" if col != "member" else "left")
    for name, st in s["members"].items():
        m.add_row(name, str(st["cases"]), markdown._fmt_s(st["wall_median_seconds"]),
                  markdown._fmt_s(st["wall_p95_seconds"]), markdown._fmt_b(st["peak_rss_max_bytes"]))
    console.print(m)


def expectation_toml(case: Case, semantic: dict[str, Any]) -> str:
    data: dict[str, Any] = {"schema": EXPECTATION_SCHEMA}
    data.update(normative(semantic))
    if case.run:
        data["run"] = case.run
    return tomli_w.dumps(data)


def run_bless(args: argparse.Namespace) -> int:
    cases = select(load_cases(args), None, args.filter)
    res = resolution_for(args)
    if not res.available:
        return _unavailable(res)
    console = make_console()
    records, _, _, interrupted = execute(cases, res, args, console)
    refused = changed = new = 0
    for r in records:
        if r.result is None:
            console.print(f"[red]cannot bless[/red] {r.case.id}: {r.error}")
            refused += 1
            continue
        obs = r.result.observations
        statuses = {o["semantic"]["status"] for o in obs.values()}
        if len(r.result.verdict.factions) != 1 or "infrastructure-error" in statuses:
            console.print(f"[red]refused[/red] {r.case.id}: members do not agree "
                          f"({r.result.verdict.kind})")
            refused += 1
            continue
        first = next(iter(obs.values()))["semantic"]
        text = expectation_toml(r.case, first)
        old = r.case.expect_path.read_text("utf-8") if r.case.expect_path.exists() else None
        if old == text:
            continue
        if old is None:
            new += 1
            console.print(f"[green]new[/green] {r.case.id}")
        else:
            changed += 1
            console.print(f"[yellow]changed[/yellow] {r.case.id}")
            for d in r.differences:
                console.print(f"  {d['axis']}: {json.dumps(d['expected'], ensure_ascii=False)}"
                              f" -> {json.dumps(d['got'], ensure_ascii=False)}")
        r.case.expect_path.write_text(text, "utf-8")
    console.print(f"blessed {new} new and {changed} changed expectations; refused {refused}; "
                  f"{len(records) - new - changed - refused} unchanged")
    if interrupted:
        return EXIT_INTERRUPTED
    return EXIT_FAIL if refused else EXIT_OK


def run_merge(args: argparse.Namespace) -> int:
    reports = []
    for d in args.dirs:
        try:
            reports.append((d, read_report(Path(d))))
        except (OSError, ValueError) as e:
            raise UsageError(f"court: cannot read report {d}: {e}") from None
    try:
        merged = merge(reports)
    except (MergeError, KeyError) as e:
        raise UsageError(f"court: cannot merge: {e}") from None
    paths = write_all(merged, Path(args.report_dir))
    console = make_console()
    print_summary(merged, console)
    console.print(f"reports: {', '.join(str(p) for p in paths)}")
    o = merged["summary"]["outcomes"]
    return EXIT_FAIL if o["disagree"] or o["expectation-broken"] else EXIT_OK


def run_replay(args: argparse.Namespace) -> int:
    try:
        old = read_report(Path(args.against))
    except (OSError, ValueError) as e:
        raise UsageError(f"court: cannot read {args.against}: {e}") from None
    cases = select(load_cases(args), None, args.filter)
    res = resolution_for(args, court=None if (args.court or args.impl) else old["run"]["court"])
    if not res.available:
        return _unavailable(res)
    console = make_console()
    records, _, _, interrupted = execute(cases, res, args, console,
                                         walls=expected_walls(old))
    before = {c["id"]: c for c in old["cases"]}
    moved = 0
    for r in records:
        prev = before.get(r.case.id)
        if r.result is None or prev is None:
            if prev is None:
                console.print(f"[blue]new[/blue] {r.case.id} (not in the old report)")
            continue
        for m, o in r.result.observations.items():
            was = (prev.get("observations") or {}).get(m)
            if was is None:
                continue
            a, b = normative(was["semantic"]), normative(o["semantic"])
            if a != b:
                moved += 1
                console.print(f"[red]moved[/red] {r.case.id} on {m}:")
                for axis in sorted(set(a) | set(b)):
                    if a.get(axis) != b.get(axis):
                        console.print(f"  {axis}: {json.dumps(a.get(axis), ensure_ascii=False)}"
                                      f"  ->  {json.dumps(b.get(axis), ensure_ascii=False)}")
    console.print(f"{moved} observation(s) moved across {len(records)} case(s)")
    if interrupted:
        return EXIT_INTERRUPTED
    return EXIT_FAIL if moved else EXIT_OK
