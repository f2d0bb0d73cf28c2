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


def run_fuzz(args: argparse.Namespace) -> int:
    from ..fuzz.campaign import Campaign, load_quarantine
    from ..session import CourtSession

    if args.examples is not None and args.examples <= 0:
        raise UsageError("court: --examples must be positive")
    if args.parallel < 1:
        raise UsageError("court: --parallel must be at least 1")
    if not 0 <= args.mutate <= 100:
        raise UsageError("court: --mutate is a percentage (0 to 100)")
    seconds = args.seconds if args.seconds is not None else (None if args.examples else 60.0)
    res = _resolution(args)
    console = Console(stderr=True)
    if not res.available:
        console.print(f"court {res.court} is unavailable: missing {', '.join(res.missing)}")
        return 3
    limits = limits_from(args)
    quarantine = load_quarantine(Path(args.quarantine) if args.quarantine else None)
    save_dir = None if args.no_save else Path(args.save_dir)
    corpus = Path(args.corpus) if args.corpus else None

    start = time.perf_counter()
    sessions = [CourtSession(res, limits, jobs=args.jobs) for _ in range(args.parallel)]
    try:
        campaign = Campaign(sessions, save_dir, quarantine, args.reduce_seconds, args.seed,
                            only_safe=args.safe_only, corpus=corpus, mutate_percent=args.mutate,
                            steer=not args.no_steer)

        def report(finding: Any) -> None:
            where = f" -> {finding.path}" if finding.path else ""
            console.print(f"[red]finding[/red] {finding.id}: {finding.signature['kind']} on "
                          f"{finding.signature['axis']} ({finding.origin}){where}",
                          highlight=False)
            console.print(finding.minimized.rstrip(), highlight=False, markup=False)

        campaign.on_finding = report
        campaign.run(args.examples, seconds, args.max_findings)
    finally:
        for s in sessions:
            s.close()
    elapsed = time.perf_counter() - start
    s = campaign.stats
    out = Console(highlight=False, soft_wrap=True)
    programs = s.generated + s.mutated
    out.print(f"court fuzz: court {res.court} ({', '.join(res.members)}), seed {args.seed}")
    out.print(f"programs: {programs} ({s.generated} generated, {s.mutated} corpus mutants) in "
              f"{elapsed:.1f} s ({programs / max(elapsed, 1e-9):.1f} cases/s); "
              f"duplicate programs skipped {s.duplicate_programs}")
    out.print(f"agree {s.agree}, not comparable {s.not_comparable} (resource outcomes), "
              f"infrastructure errors {s.infrastructure}, unconfirmed {s.unconfirmed}, "
              f"quarantined {s.quarantined}, duplicates {s.duplicates}, same bug {s.same_bug}")
    total = max(elapsed, 1e-9)
    out.print(f"time: generating {s.gen_seconds / total:.0%}, waiting for evaluation "
              f"{s.wait_seconds / total:.0%} (evaluating {s.eval_seconds:.1f} s over "
              f"{args.parallel} sessions), reducing {s.reduce_seconds / total:.0%}")
    for member, kind, message, source in s.infra_examples:
        out.print(f"  infrastructure error on {member} ({kind}: {message}) for:", markup=False)
        out.print("    " + source.strip().replace("\n", "\n    "), markup=False)
    if args.coverage:
        from ..fuzz.render import coverage_table

        out.print(coverage_table(campaign.coverage), markup=False)
    out.print(f"findings: {len(s.findings)}")
    for f in s.findings:
        out.print(f"  {f.id}: {f.signature['kind']} on {f.signature['axis']} "
                  f"{f.signature.get('codes', f.signature['factions'])} after {f.seconds:.1f} s"
                  + (f", also seen {f.same_bug} more times" if f.same_bug else "")
                  + (f" saved as {f.path}" if f.path else ""), markup=False)
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
    print(f";; {sig['kind']} on {sig['axis']} {sig.get('codes', sig['factions'])} ({tests} tests, "
          f"{len(source)} -> {len(smallest)} chars)", file=sys.stderr)
    sys.stdout.write(smallest)
    if args.out:
        Path(args.out).write_text(smallest, "utf-8")
    return 0
