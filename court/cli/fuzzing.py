"""`court fuzz` and `court reduce`: find divergences nobody wrote a case for, and shrink them."""

from __future__ import annotations

import argparse
import math
import secrets
import sys
import time
from pathlib import Path
from typing import Any

from rich.text import Text

from .checks import read_input, read_program
from .on_cluster import cluster_spec
from .options import check_input, limits_from, resolution
from .terminal import Term, divergence_lines, elide, fit_text, make_term
from .usage import UsageError


def _resolution(args: argparse.Namespace):
    return resolution(args)


def _check_budget(args: argparse.Namespace) -> None:
    for name in ("seconds", "reduce_seconds"):
        value = getattr(args, name, None)
        if value is not None and not (math.isfinite(value) and value > 0):
            raise UsageError(f"court: --{name.replace('_', '-')} must be a finite number of "
                             f"seconds above 0, got {value!r}")
    if getattr(args, "max_findings", None) is not None and args.max_findings <= 0:
        raise UsageError("court: --max-findings must be positive")



def new_seed() -> int:
    """A random seed for a run that was given none; printed so the run can be repeated."""
    return secrets.randbelow(2**31 - 1) + 1


def finding_argv(finding: Any, res: Any, args: argparse.Namespace) -> list[str] | None:
    """The `court compare` command that shows a saved finding again, under the fuzz limits."""
    if finding.path is None:
        return None
    argv = ["court", "compare", str(finding.path)]
    argv += ["--impl", ",".join(res.members)] if args.impl else ["--court", res.court]
    if args.config:
        argv += ["--config", args.config]
    input_path = Path(finding.path).with_suffix(".input")
    if finding.input is not None:
        argv += ["--input-file", str(input_path)]
    argv += ["--profile", args.profile]
    own = finding.limits  # a corpus mutant's smaller budget
    for text in args.limit:
        if text.partition("=")[0].strip() not in own:
            argv += ["--limit", text]
    for axis, n in sorted(own.items()):
        argv += ["--limit", f"{axis}={n}"]
    argv += ["--timeout", f"{args.timeout:g}"]
    return argv


def finding_divergence(finding: Any) -> dict[str, Any] | None:
    """The first differing axis of the minimised program, with each member's value."""
    from ..verdict import judge, project

    v = judge(finding.observations)
    if v.divergence:
        return v.divergence
    axis = finding.signature.get("axis")
    if axis is None:
        return None
    return {"axis": axis, "values": {m: project(o).get(axis)
                                     for m, o in finding.observations.items()}}


def print_finding(finding: Any, term: Term, res: Any, args: argparse.Namespace) -> None:
    from .failures import rule, shell_lines

    div = finding_divergence(finding)
    axis = div["axis"] if div else finding.signature.get("axis", "?")
    rule(term, f"finding {finding.id}: {axis} differs", "_", "bold red")
    term.wrapped(finding.minimized.rstrip())
    if finding.input is not None:
        term.line(f"input: {elide(finding.input, term.width)}")
    if div:
        for t in divergence_lines(div, term.width):
            term.line(t)
    stands = lineage_stands(finding.signature.get("factions") or [], res.lineages())
    if stands:
        term.wrapped(f"lineages: {stands}")
    if finding.path:
        term.line(f"saved as {finding.path}")
    argv = finding_argv(finding, res, args)
    if argv:
        term.line("reproduce:", style="bold")
        for line in shell_lines(argv, term.width):
            term.command(line)


def lineage_stands(factions: list[list[str]], lineages: dict[str, str]) -> str:
    """Which lineages stood where: `lispex-kernel (tree, topaz-vm) | guile, chez | mit`."""
    if len(set(lineages.values())) < 2:
        return ""
    sides = []
    for faction in factions:
        by: dict[str, list[str]] = {}
        for m in faction:
            by.setdefault(lineages.get(m, m), []).append(m)
        sides.append(", ".join(lin if ms == [lin] else f"{lin} ({', '.join(ms)})"
                               for lin, ms in by.items()))
    return " | ".join(sides)


class LiveLine:
    """One status line on a terminal's stderr, redrawn in place; nothing elsewhere."""

    def __init__(self, seconds: float | None, examples: int | None) -> None:
        self.seconds, self.examples = seconds, examples
        self.term = make_term(stderr=True)
        self.live = None
        if not self.term.plain:
            from rich.live import Live

            self.live = Live(Text(""), console=self.term.console, transient=True,
                             refresh_per_second=4, auto_refresh=True)

    def __enter__(self) -> LiveLine:
        if self.live is not None:
            self.live.start()
        return self

    def __exit__(self, *exc: Any) -> None:
        if self.live is not None:
            self.live.stop()

    def pause(self) -> None:
        if self.live is not None:
            self.live.stop()

    def resume(self) -> None:
        if self.live is not None:
            self.live.start()

    def update(self, generated: int, findings: int, elapsed: float) -> None:
        if self.live is None:
            return
        rate = generated / max(elapsed, 1e-9)
        if self.seconds is not None:
            left = f"{max(self.seconds - elapsed, 0):.0f} s left"
        elif self.examples and rate > 0:
            left = f"~{max(self.examples - generated, 0) / rate:.0f} s left"
        else:
            left = ""
        text = (f"fuzzing: {generated} programs, {rate:.1f} programs/s, {findings} "
                f"finding{'s' if findings != 1 else ''}" + (f", {left}" if left else ""))
        self.live.update(fit_text(Text(text, style="cyan"), self.term.width))


def run_fuzz(args: argparse.Namespace) -> int:
    from ..fuzz.campaign import Campaign, load_quarantine
    from ..fuzz.subset import SharedSubset
    from ..session import CourtSession

    if args.examples is not None and args.examples <= 0:
        raise UsageError("court: --examples must be positive")
    _check_budget(args)
    if args.parallel < 1:
        raise UsageError("court: --parallel must be at least 1")
    if not 0 <= args.mutate <= 100:
        raise UsageError("court: --mutate is a percentage (0 to 100)")
    seconds = args.seconds if args.seconds is not None else (None if args.examples else 60.0)
    spec = cluster_spec(args)
    limits = limits_from(args)
    res = _resolution(args)
    out = make_term(plain=args.plain)
    if not res.available:
        make_term(stderr=True).line(
            f"court {res.court} is unavailable: missing {', '.join(res.missing)}")
        return 3
    quarantine = load_quarantine(Path(args.quarantine) if args.quarantine else None)
    save_dir = None if args.no_save else Path(args.save_dir)
    run_seed = args.seed if args.seed is not None else new_seed()
    budget = f"{seconds:g} s" if seconds is not None else f"{args.examples} programs"
    out.wrapped(f"court fuzz: court {res.court} ({', '.join(res.members)}), {budget}")
    out.line(f"seed {run_seed} (reproduce with --seed {run_seed})")
    args.seed = run_seed  # every program (and every cluster chunk) derives from this seed
    if spec is not None:
        from .on_cluster import run_fuzz_on_cluster

        return run_fuzz_on_cluster(args, spec, res, limits, quarantine, save_dir, seconds,
                                   fuzz_status)
    corpus = Path(args.corpus) if args.corpus else None

    start = time.perf_counter()
    campaign = None
    interrupted: KeyboardInterrupt | None = None
    sessions = [CourtSession(res, limits, jobs=args.jobs) for _ in range(args.parallel)]
    try:
        with LiveLine(seconds, args.examples) as live:
            campaign = Campaign(sessions, save_dir, quarantine, args.reduce_seconds, run_seed,
                                only_safe=args.safe_only, corpus=corpus,
                                mutate_percent=args.mutate, steer=not args.no_steer)
            # A witness court fuzzes the shared subset of Lispex and its witness only.
            subset = SharedSubset(campaign.known)
            campaign.admits = subset.admits if campaign.known else None

            def report(finding: Any) -> None:
                live.pause()
                print_finding(finding, out, res, args)
                live.resume()

            def progress(stats: Any) -> None:
                live.update(stats.generated + stats.mutated, len(stats.findings),
                            time.perf_counter() - start)

            campaign.on_finding = report
            campaign.on_progress = progress
            campaign.run(args.examples, seconds, args.max_findings)
    except KeyboardInterrupt as k:
        # Ctrl-C after an hour of fuzzing still owes the user what was tried and found; the
        # exit status (130/143) comes from the interrupt, after the summary.
        if campaign is None:
            raise
        interrupted = k
    finally:
        for sess in sessions:
            sess.close()
    elapsed = time.perf_counter() - start
    s = campaign.stats
    programs = s.generated + s.mutated
    out.line()
    if interrupted is not None:
        out.wrapped(f"interrupted after {elapsed:.1f} s: the figures below are of the programs "
                    "judged before the signal; a finding being minimised then was not saved")
    out.wrapped(f"programs: {programs} ({s.generated} generated, {s.mutated} corpus mutants) in "
                f"{elapsed:.1f} s ({programs / max(elapsed, 1e-9):.1f} programs/s); "
                f"duplicate programs skipped {s.duplicate_programs}")
    out.wrapped(f"agree {s.agree}, not comparable {s.not_comparable} (resource outcomes), "
                f"infrastructure errors {s.infrastructure}, unconfirmed {s.unconfirmed}, "
                f"quarantined {s.quarantined}, duplicates {s.duplicates}, same bug {s.same_bug}")
    if s.known_differences or s.outside_subset:
        out.wrapped(f"known differences {s.known_differences}, outside the shared subset "
                    f"{s.outside_subset} (skipped)")
    if s.candidate_differences:
        out.wrapped(f"candidate known differences {s.candidate_differences} (a witness alone "
                    "against every other lineage: not findings; list them or fix the prelude)")
    total = max(elapsed, 1e-9)
    out.wrapped(f"time: generating {s.gen_seconds / total:.0%}, waiting for evaluation "
                f"{s.wait_seconds / total:.0%} (evaluating {s.eval_seconds:.1f} s over "
                f"{args.parallel} sessions), reducing {s.reduce_seconds / total:.0%}")
    for member, kind, message, source in s.infra_examples:
        out.wrapped(f"infrastructure error on {member} ({kind}: {message}) for:")
        out.wrapped("  " + source.strip().replace("\n", "\n  "))
    if args.coverage:
        from ..fuzz.render import coverage_table

        out.console.print(coverage_table(campaign.coverage), markup=False)
    out.line(f"findings: {len(s.findings)}" + (f" (seed {run_seed})" if s.findings else ""))
    for f in s.findings:
        div = finding_divergence(f)
        out.line(f"  {f.id}: {f.signature['kind']}, {div['axis'] if div else f.signature.get('axis')}"
                 f" differs, after {f.seconds:.1f} s"
                 + (f", also seen {f.same_bug} more times" if f.same_bug else "")
                 + (f", saved as {f.path}" if f.path else ""))
    if interrupted is not None:
        raise interrupted
    return fuzz_status(s, out.line)


def fuzz_status(s: Any, say: Any) -> int:
    """1 when something was found; otherwise 3 when a program could not be judged (every member
    failed on it, or the court did), as `court run` exits for a case it could not judge; 0 only
    when every program was run and judged and nothing was found."""
    if s.findings:
        return 1
    if s.infrastructure:
        say(f"exit 3: {s.infrastructure} program(s) could not be judged (infrastructure errors "
            "above); the campaign found nothing in the others")
        return 3
    return 0


def run_reduce(args: argparse.Namespace) -> int:
    from ..fuzz.campaign import signature
    from ..fuzz.reduce import reduce
    from ..session import CourtSession

    _check_budget(args)
    limits = limits_from(args)
    source = read_program(args.case).decode("utf-8", "replace")
    input_text = read_input(args) if args.input_file or args.input else None
    beside = Path(args.case).with_suffix(".input")
    if input_text is None and beside.exists():
        input_text = read_input(argparse.Namespace(input_file=str(beside), input=None))
    check_input(input_text, args.input_file or (str(beside) if args.input is None and
                                                input_text is not None else "--input"))
    res = _resolution(args)
    if not res.available:
        print(f"court: court {res.court} is unavailable: missing {', '.join(res.missing)}",
              file=sys.stderr)
        return 3
    with CourtSession(res, limits, jobs=args.jobs) as session:
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
    sys.stdout.write(smallest if smallest.endswith("\n") else smallest + "\n")
    if args.out:
        Path(args.out).write_text(smallest, "utf-8")
    return 0
