"""`court fuzz` and `court reduce`: find divergences nobody wrote a case for, and shrink them."""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any

from rich.console import Console

from ..products import ConfigError, resolve
from .compare import check_input, config_from, limits_from
from .eval import read_input, read_program
from .usage import UsageError


def _resolution(args: argparse.Namespace):
    config = config_from(args)
    impls = [s for s in args.impl.split(",") if s] if args.impl else None
    try:
        return resolve(config, args.court, impls)
    except ConfigError as e:
        raise UsageError(f"court: {e}") from None


def _hypothesis():
    try:
        import hypothesis  # noqa: F401
    except ImportError:
        raise UsageError("court: fuzzing needs hypothesis: pip install 'lispex-court[fuzz]'") \
            from None


def run_fuzz(args: argparse.Namespace) -> int:
    _hypothesis()
    from hypothesis import HealthCheck, Phase, Verbosity, given, seed, settings

    from ..fuzz.campaign import Campaign, load_quarantine
    from ..fuzz.generate import cases
    from ..session import CourtSession

    if args.examples is not None and args.examples <= 0:
        raise UsageError("court: --examples must be positive")
    seconds = args.seconds if args.seconds is not None else (None if args.examples else 60.0)
    res = _resolution(args)
    console = Console(stderr=True)
    if not res.available:
        console.print(f"court {res.court} is unavailable: missing {', '.join(res.missing)}")
        return 3
    limits = limits_from(args)
    quarantine = load_quarantine(Path(args.quarantine) if args.quarantine else None)
    save_dir = None if args.no_save else Path(args.save_dir)

    class Enough(Exception):
        pass

    start = time.perf_counter()
    last_report = [start]
    stopping = [False]
    with CourtSession(res, limits, jobs=args.jobs) as session:
        campaign = Campaign(session, save_dir, quarantine, args.reduce_seconds, args.seed)

        def report(finding: Any) -> None:
            where = f" -> {finding.path}" if finding.path else ""
            console.print(f"[red]finding[/red] {finding.id}: divergence on "
                          f"{finding.signature['axis']} {finding.signature['codes']}{where}")
            console.print(finding.minimized.rstrip())

        @seed(args.seed)
        @settings(max_examples=args.examples or 10**9, deadline=None, database=None,
                  phases=[Phase.generate], suppress_health_check=list(HealthCheck),
                  verbosity=Verbosity.quiet)
        @given(cases(only_safe=args.safe_only))
        def body(case: Any) -> None:
            # Once stopping, every call stops: hypothesis replays the stopping example, and the
            # replay must behave the same.
            if stopping[0] or (seconds is not None and time.perf_counter() - start > seconds):
                stopping[0] = True
                raise Enough
            finding = campaign.examine(case)
            if finding is not None and args.max_findings and \
                    len(campaign.stats.findings) >= args.max_findings:
                report(finding)
                stopping[0] = True
                raise Enough
            if finding is not None:
                report(finding)
            now = time.perf_counter()
            if now - last_report[0] > 5:
                last_report[0] = now
                console.print(f"... {campaign.stats.generated} programs, "
                              f"{len(campaign.stats.findings)} findings")

        try:
            body()
        except Enough:
            pass
    elapsed = time.perf_counter() - start
    s = campaign.stats
    gen = max(elapsed - s.eval_seconds - s.reduce_seconds, 0.0)
    out = Console()
    out.print(f"court fuzz: court {res.court} ({', '.join(res.members)}), seed {args.seed}")
    out.print(f"programs generated: {s.generated} in {elapsed:.1f} s "
              f"({s.generated / max(elapsed, 1e-9):.1f} cases/s)")
    out.print(f"agree {s.agree}, not comparable {s.not_comparable} (resource outcomes), "
              f"infrastructure errors {s.infrastructure}, unconfirmed {s.unconfirmed}, "
              f"quarantined {s.quarantined}, duplicates {s.duplicates}")
    total = max(elapsed, 1e-9)
    out.print(f"time: generating {gen / total:.0%}, evaluating {s.eval_seconds / total:.0%}, "
              f"reducing {s.reduce_seconds / total:.0%}")
    for member, kind, message, source in s.infra_examples:
        out.print(f"  infrastructure error on {member} ({kind}: {message}) for:")
        out.print("    " + source.strip().replace("\n", "\n    "))
    out.print(f"findings: {len(s.findings)}")
    for f in s.findings:
        out.print(f"  {f.id}: {f.signature['axis']} {f.signature['codes']}"
                  + (f" saved as {f.path}" if f.path else ""))
    return 1 if s.findings else 0


def run_reduce(args: argparse.Namespace) -> int:
    from ..fuzz.campaign import signature
    from ..fuzz.reduce import reduce
    from ..session import CourtSession

    source = read_program(args.case).decode("utf-8", "replace")
    input_text = read_input(args) if args.input_file or args.input else None
    beside = Path(args.case).with_suffix(".input")
    if input_text is None and beside.exists():
        input_text = beside.read_text("utf-8")
    check_input(input_text)
    res = _resolution(args)
    if not res.available:
        print(f"court: court {res.court} is unavailable: missing {', '.join(res.missing)}",
              file=sys.stderr)
        return 3
    with CourtSession(res, limits_from(args), jobs=args.jobs) as session:
        first = session.run_case(source.encode("utf-8"), input_text, Path(args.case).name)
        sig = signature(first)
        if sig is None:
            print(f"court: {args.case} shows no disagreement on {res.court} "
                  f"(verdict {first.verdict.kind}); nothing to reduce", file=sys.stderr)
            return 2

        def holds(text: str) -> bool:
            r = session.run_case(text.encode("utf-8"), input_text, "reduce.lspx",
                                 confirm=False)
            return signature(r) == sig

        smallest, tests = reduce(source, holds, seconds=args.seconds)
    print(f";; divergence on {sig['axis']} {sig['codes']} ({tests} tests, "
          f"{len(source)} -> {len(smallest)} chars)", file=sys.stderr)
    sys.stdout.write(smallest)
    if args.out:
        Path(args.out).write_text(smallest, "utf-8")
    return 0
