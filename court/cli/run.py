"""`court run`, `court bless`, `court merge` and `court replay`: the corpus commands."""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import sys
import threading
from pathlib import Path
from typing import Any

import tomli_w
from rich.console import Console
from rich.text import Text

from ..corpus import EXPECTATION_SCHEMA, Case, CaseError, discover, normative
from ..report import markdown
from ..report.model import MergeError, build, merge
from ..report.write import ReportError, ReportWriteError, check_writable, read_report, write_all
from ..runner import (
    JUDGED,
    OUTCOMES,
    CaseRecord,
    Interrupted,
    expected_walls,
    failed,
    run_cases,
    select,
)
from . import checks, signals
from .failures import in_github_actions, print_failures, progress_bar, reproduce_argv
from .on_cluster import corpus_runner
from .options import config_from, limits_from, resolution
from .select import choose
from .terminal import Term, make_term
from .usage import UsageError
from .vouchers import read_cases, run_receipts, signing_key

EXIT_OK, EXIT_FAIL, EXIT_USAGE, EXIT_HARNESS, EXIT_NO_CASES = 0, 1, 2, 3, 5
EXIT_INTERRUPTED = signals.EXIT_SIGINT


parse_shard = checks.parse_shard


def load_cases(args: argparse.Namespace) -> list[Case]:
    paths = checks.case_paths(args.paths)
    try:
        return discover(paths)
    except CaseError as e:
        raise UsageError(f"court: malformed case: {e}") from None


def resolution_for(args: argparse.Namespace, court: str | None = None):
    return resolution(args, court)


def check_common(args: argparse.Namespace) -> None:
    """Every option of run, bless and replay, checked before a case is read or a worker
    starts."""
    checks.nonempty(args, "paths", "filter", "keyword", "profile", "court", "report_dir", "against")
    limits_from(args)


def no_cases(args: argparse.Namespace, everything: list[Case], shard: Any = None) -> str:
    """Why nothing was selected, in one line."""
    where = ", ".join(args.paths)
    if not everything:
        return f"court: no case selected: {where} holds no case (no .lspx or .lsx file)"
    chosen = ", ".join(
        ([f"-k {args.keyword!r}"] if getattr(args, "keyword", None) else [])
        + [f"--filter {f!r}" for f in getattr(args, "filter", None) or []]
        + (["--last-failed"] if getattr(args, "last_failed", False) else []))
    if chosen and not choose(everything, args):
        return (f"court: no case selected: {chosen} matched none of the "
                f"{len(everything)} cases under {where}")
    return (f"court: no case selected: shard {shard[0]}/{shard[1]} of the {len(everything)} "
            f"cases under {where} is empty") if shard else "court: no case selected"


def _runnable(args: argparse.Namespace, everything: list[Case], res: Any,
              shard: Any = None) -> list[Case] | int:
    """The selected cases, or the exit status when there is nothing to run: no case selected
    (said in one line), or a court with members missing."""
    cases = select(choose(everything, args), shard, None)
    if not cases:
        print(no_cases(args, everything, shard), file=sys.stderr)
        return EXIT_NO_CASES
    if not res.available:
        return _unavailable(res)
    return cases


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
    except (OSError, ValueError, ReportError):
        return {}


def execute(cases: list[Case], res: Any, args: argparse.Namespace, console: Console,
            fail_fast: bool = False,
            runner: Any = None,
            walls: dict[str, float] | None = None
            ) -> tuple[list[CaseRecord], list[dict], bool, int | None]:
    """Run the cases (locally, longest first when ``walls`` gives last run's times, or through
    ``runner``: a cluster); returns (a record for every case, run faults, complete?, the exit
    status of the signal that interrupted the run or None)."""
    limits = limits_from(args)
    term = console if isinstance(console, Term) else Term(console, not console.is_terminal)
    progress = task = None
    lock = threading.Lock()
    github = in_github_actions()
    if not term.plain and not github:
        progress, task = progress_bar(term, len(cases), f"court {res.court}")
        progress.start()
    if github:
        print(f"::group::court {res.court}: {len(cases)} cases", flush=True)

    verbose = getattr(args, "verbose", False)

    def on_record(r: CaseRecord) -> None:
        quiet_case = r.outcome in ("agree", "not-comparable")
        with lock:
            if progress is not None:
                progress.advance(task)
                if not quiet_case:
                    progress.console.print(Text(r.outcome, style="red") + Text(f" {r.case.id}"))
                elif verbose:
                    progress.console.print(Text(r.outcome, style="green") + Text(f" {r.case.id}"))
            elif not quiet_case:
                term.line(f"{r.case.id}: {_line(r)}")
            elif verbose:
                term.line(f"{r.case.id}: {r.outcome}")

    try:
        if runner is not None:
            records, cleanup, complete = runner(cases, res, limits, jobs=args.jobs,
                                                fail_fast=fail_fast, on_record=on_record)
        else:
            records, cleanup, complete = run_cases(cases, res, limits, jobs=args.jobs,
                                                   fail_fast=fail_fast, on_record=on_record,
                                                   walls=walls)
        stopped_by = None
    except Interrupted as i:
        records, cleanup, complete = i.args[0], i.args[1], False
        stopped_by = signals.exit_status()
    finally:
        if progress is not None:
            progress.stop()
        if github:
            print("::endgroup::", flush=True)
    return records, cleanup, complete, stopped_by


def check_totals(report: dict[str, Any], cases: list[Case]) -> str | None:
    """The report must hold every selected case once: the last check before a run exits."""
    ids = [c["id"] for c in report["cases"]]
    want = sorted(c.id for c in cases)
    o = report["summary"]["outcomes"]
    if sorted(ids) != want or report["summary"]["cases"] != len(cases) \
            or sum(o.values()) != len(cases):
        return (f"court: internal error: the report accounts for {len(ids)} cases "
                f"({sum(o.values())} by outcome) but {len(cases)} were selected")
    return None


def run_status(o: dict[str, int], strict: bool) -> int:
    """Exit status from the outcome counts: 0 only when every case was run and judged and none
    failed."""
    if failed(o):
        return EXIT_FAIL
    unjudged = sum(n for k, n in o.items() if k not in JUDGED)
    if unjudged:
        return EXIT_HARNESS
    if o.get("not-comparable") and strict:
        return EXIT_FAIL
    return EXIT_OK


def write_reports(report: dict[str, Any], folder: Path) -> tuple[list[Path] | None, int | None]:
    """Write the report set with SIGINT/SIGTERM held. Returns (paths or None when the write
    failed, the exit status of a signal that arrived meanwhile)."""
    with signals.held() as got:
        try:
            paths: list[Path] | None = write_all(report, folder)
        except ReportWriteError as e:
            print(f"court: {e}", file=sys.stderr)
            paths = None
    return paths, signals.status_for(got.signum) if got.signum is not None else None


def run_run(args: argparse.Namespace) -> int:
    check_common(args)
    key = signing_key(args, "receipts")
    shard = parse_shard(args.shard)
    everything = load_cases(args)
    res = resolution_for(args)
    report_dir = Path(args.report_dir)
    try:
        check_writable(report_dir)
    except ReportWriteError as e:
        raise UsageError(f"court: {e}") from None
    cases = _runnable(args, everything, res, shard)
    if isinstance(cases, int):
        return cases
    runner = corpus_runner(args)  # None: a local run
    before = read_cases(cases) if key is not None else {}
    term = make_term(plain=args.plain)
    started = dt.datetime.now(dt.UTC)
    records, cleanup, complete, stopped_by = execute(cases, res, args, term, args.fail_fast,
                                                     runner, history(report_dir))
    finished = dt.datetime.now(dt.UTC)
    # From here to the written set a signal is held: the run's results are in hand, and
    # losing them to a late Ctrl-C would leave the old set in place of a newer, truer one.
    with signals.held() as got:
        product_ids = {}
        for r in records:
            for m, o in (r.result.observations.items() if r.result else []):
                product_ids.setdefault(m, o.get("products", {}).get("product_id"))
        report = build(records, court=res.court, members=list(res.members),
                       product_ids=product_ids, profile=args.profile,
                       argv=["court", *sys.argv[1:]], started=started, finished=finished,
                       complete=complete and stopped_by is None, shard=shard,
                       cleanup_faults=cleanup, cluster=runner.describe() if runner else None,
                       reproduce={r.case.id: reproduce_argv(r.case, res, args, r.outcome)
                                  for r in records},
                       lineages=res.lineages())
        accounting = check_totals(report, cases)
        paths, late_signal = write_reports(report, report_dir)
    if late_signal is None and got.signum is not None:
        late_signal = signals.status_for(got.signum)
    print_failures(report, term)
    if getattr(args, "quiet", False):
        print_summary_line(report, term)
    else:
        print_summary(report, term)
    # Receipts that could not be made fail a run that would pass; a failing run stays failed.
    unsigned = run_receipts(args, key, records, res, limits_from(args), before) \
        if key is not None else None
    o = report["summary"]["outcomes"]
    if o.get("interrupted") or o.get("not-run"):
        term.line(f"stopped early: {o.get('interrupted', 0)} case(s) interrupted, "
                  f"{o.get('not-run', 0)} not run; the reports are marked incomplete",
                  style="yellow")
    if in_github_actions():
        for a in markdown.annotations(report):
            print(a, flush=True)
    if paths:
        term.wrapped(f"reports: {', '.join(str(p) for p in paths)}")
    if accounting:
        print(accounting, file=sys.stderr)
        return EXIT_HARNESS
    if stopped_by is not None or late_signal is not None:
        return stopped_by if stopped_by is not None else late_signal  # type: ignore[return-value]
    if paths is None:
        return EXIT_HARNESS
    status = run_status(o, args.strict)
    if status == EXIT_HARNESS:
        term.line(f"{o.get('infrastructure-error', 0)} case(s) could not be judged "
                  "(infrastructure errors); exit 3", style="red")
    elif status == EXIT_OK and o.get("not-comparable"):
        term.line("warning: some cases were not comparable; exit 0 (use --strict to fail)",
                  style="yellow")
    return unsigned if unsigned is not None and status == EXIT_OK else status


def _line(r: CaseRecord) -> str:
    from ..report.model import case_json

    return markdown.one_line(case_json(r))


def summary_line(report: dict[str, Any]) -> str:
    """The run in one stable line: every outcome named, including ones added later."""
    s = report["summary"]
    return (f"court {report['run']['court']}: {s['cases']} cases: "
            + ", ".join(f"{n} {k}" for k, n in s["outcomes"].items()))


def print_summary_line(report: dict[str, Any], term: Term) -> None:
    term.wrapped(summary_line(report))


def print_summary(report: dict[str, Any], out: Console | Term) -> None:
    from rich.table import Table

    term = out if isinstance(out, Term) else Term(out, not out.is_terminal)
    s = report["summary"]
    o = s["outcomes"]
    if term.plain:
        # Stable lines for logs and scripts: every outcome named, including ones added later.
        term.wrapped(summary_line(report))
        for name, st in s["members"].items():
            term.line(f"  {name}: {st['cases']} cases, median wall "
                      f"{markdown.format_seconds(st['wall_median_seconds'])}, p95 wall "
                      f"{markdown.format_seconds(st['wall_p95_seconds'])}, peak RSS max "
                      f"{markdown.format_mib(st['peak_rss_max_bytes'])}")
        _print_cluster(report, term)
        return
    t = Table(title=f"court {report['run']['court']}: {s['cases']} cases")
    # Every outcome that happened, and the usual ones always.
    always = ("agree", "disagree", "not-comparable", "expectation-broken", "infrastructure-error")
    kinds = [k for k in OUTCOMES if k in always or o.get(k)]
    for k in kinds:
        t.add_column(k.replace("-", " "), justify="right")
    t.add_row(*(str(o.get(k, 0)) for k in kinds))
    term.console.print(t)
    known: dict[str, int] = {}
    for c in report["cases"]:
        if c.get("known_difference"):
            known[c["known_difference"]] = known.get(c["known_difference"], 0) + 1
    if known:
        term.line("known differences: " + ", ".join(f"{k} {n}" for k, n in
                                                    sorted(known.items())))
    m = Table(title="members")
    for col in ("member", "cases", "median wall", "p95 wall", "peak RSS max"):
        m.add_column(col, justify="right" if col != "member" else "left")
    for name, st in s["members"].items():
        m.add_row(name, str(st["cases"]), markdown.format_seconds(st["wall_median_seconds"]),
                  markdown.format_seconds(st["wall_p95_seconds"]), markdown.format_mib(st["peak_rss_max_bytes"]))
    term.console.print(m)
    _print_cluster(report, term)


def _print_cluster(report: dict[str, Any], term: Term) -> None:
    c = report["run"].get("cluster")
    if c:
        term.line(f"cluster: {c['scheduler']}, {c['workers']} workers, {c['tasks']} tasks, "
                  f"retried tasks {c['retried_tasks']}")


def expectation_toml(case: Case, semantic: dict[str, Any]) -> str:
    data: dict[str, Any] = {"schema": EXPECTATION_SCHEMA}
    data.update(normative(semantic))
    if case.run:
        data["run"] = case.run
    return tomli_w.dumps(data)


def _write_expectation(path: Path, text: str) -> None:
    """Replace an expectation whole: a temporary file beside it, then a rename, so an interrupt
    never leaves a truncated expectation behind."""
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        tmp.write_text(text, "utf-8")
        os.replace(tmp, path)
    finally:
        tmp.unlink(missing_ok=True)


def run_bless(args: argparse.Namespace) -> int:
    check_common(args)
    everything = load_cases(args)
    res = resolution_for(args)
    cases = _runnable(args, everything, res)
    if isinstance(cases, int):
        return cases
    console = make_term(plain=args.plain).console
    records, _, _, stopped_by = execute(cases, res, args, console)
    refused = changed = new = skipped = 0
    for r in records:
        if r.outcome in ("interrupted", "not-run"):
            skipped += 1
            continue
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
        # A member whose protocol leaves axes out (a `lispex-cli` transcript) cannot be the
        # source of an expectation that pins them.
        full = [o for o in obs.values() if not o.get("uncomparable_axes")]
        if not full:
            console.print(f"[red]refused[/red] {r.case.id}: no member observes every normative "
                          "axis (stdout and values apart)")
            refused += 1
            continue
        text = expectation_toml(r.case, full[0]["semantic"])
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
        with signals.held() as got:
            _write_expectation(r.case.expect_path, text)
        if got.signum is not None and stopped_by is None:
            stopped_by = signals.status_for(got.signum)
    console.print(f"blessed {new} new and {changed} changed expectations; refused {refused}; "
                  f"{len(records) - new - changed - refused - skipped} unchanged"
                  + (f"; {skipped} not run (interrupted)" if skipped else ""))
    if stopped_by is not None:
        return stopped_by
    return EXIT_FAIL if refused else EXIT_OK


def run_merge(args: argparse.Namespace) -> int:
    checks.nonempty(args, "dirs", "report_dir")
    reports = []
    for d in args.dirs:
        try:
            reports.append((d, read_report(Path(d))))
        except ReportError as e:
            raise UsageError(f"court: cannot read report: {e}") from None
    try:
        merged = merge(reports)
    except MergeError as e:
        raise UsageError(f"court: cannot merge: {e}") from None
    report_dir = Path(args.report_dir)
    try:
        check_writable(report_dir)
    except ReportWriteError as e:
        raise UsageError(f"court: {e}") from None
    paths, late_signal = write_reports(merged, report_dir)
    console = make_term().console
    print_summary(merged, console)
    if paths:
        console.print(f"reports: {', '.join(str(p) for p in paths)}")
    if late_signal is not None:
        return late_signal
    if paths is None:
        return EXIT_HARNESS
    return run_status(merged["summary"]["outcomes"], strict=False)


def replay_resolution(args: argparse.Namespace, old: dict[str, Any]):
    """The court to replay on: the one named, else the old report's. A report made with
    ``--impl a,b`` names its court ``a+b``, which is no court: its members are the panel."""
    if args.court or args.impl:
        return resolution_for(args)
    court = old["run"]["court"]
    config = config_from(args)
    if court in config.courts:
        return resolution_for(args, court=court)
    members = [p["id"] for p in old["products"]]
    if not members:
        raise UsageError(f"court: the old report names court {court!r} and no members; "
                         "give --court or --impl")
    ns = argparse.Namespace(**{**vars(args), "impl": ",".join(members), "court": None})
    return resolution_for(ns)


def run_replay(args: argparse.Namespace) -> int:
    check_common(args)
    try:
        old = read_report(Path(args.against))
    except ReportError as e:
        raise UsageError(f"court: cannot read the old report: {e}") from None
    everything = load_cases(args)
    res = replay_resolution(args, old)
    cases = _runnable(args, everything, res)
    if isinstance(cases, int):
        return cases
    console = make_term(plain=args.plain).console
    old_members = [p["id"] for p in old["products"]]
    for m in res.members:
        if m not in old_members:
            console.print(f"[blue]new member[/blue] {m}: not in the old report (it had "
                          f"{', '.join(old_members) or 'no members'}); nothing to compare it "
                          "with")
    records, _, _, stopped_by = execute(cases, res, args, console, walls=expected_walls(old))
    before = {c["id"]: c for c in old["cases"]}
    moved = unjudged = 0
    for r in records:
        prev = before.get(r.case.id)
        if r.result is None:
            if r.outcome not in ("interrupted", "not-run"):
                unjudged += 1
                console.print(f"[red]{r.outcome}[/red] {r.case.id}: {r.error}")
            continue
        if prev is None:
            console.print(f"[blue]new[/blue] {r.case.id} (not in the old report)")
            continue
        for m, o in r.result.observations.items():
            was = (prev.get("observations") or {}).get(m)
            if was is None:
                continue
            if "infrastructure-error" in (o["semantic"]["status"], was["semantic"]["status"]):
                if o["semantic"]["status"] == "infrastructure-error":
                    unjudged += 1
                    faults = "; ".join(f"{f.get('kind')}: {f.get('message')}"
                                       for f in o.get("faults", []))
                    console.print(f"[red]infrastructure-error[/red] {r.case.id} on {m}: "
                                  f"{faults}")
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
    if stopped_by is not None:
        return stopped_by
    if moved:
        return EXIT_FAIL
    return EXIT_HARNESS if unjudged else EXIT_OK
