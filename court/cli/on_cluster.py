"""`--cluster` and `--scheduler` for `court fuzz` and `court run`: the engine is court/cluster/."""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from rich.console import Console

from .usage import UsageError

EXIT_HARNESS = 3


def cluster_spec(args: argparse.Namespace) -> Any:
    """The ClusterSpec the flags ask for, or None; a usage error when Dask is missing."""
    cluster, scheduler = getattr(args, "cluster", None), getattr(args, "scheduler", None)
    if cluster is None and scheduler is None:
        return None
    from ..cluster import ClusterError, require_dask
    from ..cluster.connect import parse_spec

    try:
        spec = parse_spec(cluster, scheduler)
        require_dask()
    except ClusterError as e:
        raise UsageError(f"court: {e}") from None
    return spec


def corpus_runner(args: argparse.Namespace) -> Any:
    """A run_cases stand-in for `court run` on a cluster, or None for a local run."""
    spec = cluster_spec(args)
    if spec is None:
        return None
    from ..cluster.corpus_batches import ClusterRunner

    return _UsageErrors(ClusterRunner(spec))


class _UsageErrors:
    """The runner, with an unreachable scheduler reported as the user's error (exit 2)."""

    def __init__(self, runner: Any) -> None:
        self.runner = runner

    def describe(self) -> dict[str, Any]:
        return self.runner.describe()

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        from ..cluster import ClusterError

        try:
            return self.runner(*args, **kwargs)
        except ClusterError as e:
            raise UsageError(f"court: {e}") from None


def connect(spec: Any) -> Any:
    from ..cluster import ClusterError
    from ..cluster.connect import Connection

    try:
        return Connection(spec)
    except ClusterError as e:
        raise UsageError(f"court: {e}") from None


def run_fuzz_on_cluster(args: argparse.Namespace, spec: Any, res: Any, limits: Any,
                        quarantine: dict[str, str], save_dir: Path | None,
                        seconds: float | None, fuzz_status: Callable[..., int]) -> int:
    """`court fuzz --cluster`; ``fuzz_status`` is the command's exit status of a campaign's
    figures, the same as a local run's."""
    from ..cluster.fuzz_chunks import FuzzJob, run_campaign
    from ..cluster.tasks import TaskFailed

    console = Console(stderr=True)
    job = FuzzJob(res, limits, args.seed, args.safe_only, tuple(sorted(quarantine)))
    last = [time.perf_counter()]

    def on_finding(finding: Any) -> None:
        where = f" -> {finding.path}" if finding.path else ""
        sig = finding.signature
        console.print(f"[red]finding[/red] {finding.id}: {sig['kind']} on {sig['axis']} "
                      f"{sig.get('codes', sig.get('factions'))}{where}")
        console.print(finding.minimized.rstrip())

    def on_progress(stats: Any) -> None:
        now = time.perf_counter()
        if now - last[0] > 5:
            last[0] = now
            console.print(f"... {stats.generated} programs, {len(stats.findings)} findings")

    with connect(spec) as conn:
        try:
            result = run_campaign(conn, job, examples=args.examples, seconds=seconds,
                                  save_dir=save_dir, reduce_seconds=args.reduce_seconds,
                                  max_findings=args.max_findings, on_finding=on_finding,
                                  on_progress=on_progress)
        except TaskFailed as e:
            print(f"court: {e}", file=sys.stderr)
            return EXIT_HARNESS
    s, elapsed = result.stats, result.wall_seconds
    out = Console()
    out.print(f"court fuzz: court {res.court} ({', '.join(res.members)}), seed {args.seed}")
    out.print(f"cluster: {spec.label()}, {result.workers} workers, {result.figures.tasks} tasks "
              f"({result.chunks} chunks), retried tasks {result.figures.retried}")
    out.print(f"programs generated: {s.generated} in {elapsed:.1f} s "
              f"({s.generated / max(elapsed, 1e-9):.1f} cases/s), after "
              f"{result.warm_seconds:.1f} s starting the workers' court sessions")
    out.print(f"agree {s.agree}, not comparable {s.not_comparable} (resource outcomes), "
              f"infrastructure errors {s.infrastructure}, unconfirmed {s.unconfirmed}, "
              f"quarantined {s.quarantined}, duplicates {s.duplicates}")
    work = max(result.generate_seconds + s.eval_seconds + s.reduce_seconds, 1e-9)
    out.print(f"worker time {work:.1f} s: generating {result.generate_seconds / work:.0%}, "
              f"evaluating {s.eval_seconds / work:.0%}, reducing {s.reduce_seconds / work:.0%}")
    for member, kind, message, source in s.infra_examples:
        out.print(f"  infrastructure error on {member} ({kind}: {message}) for:")
        out.print("    " + source.strip().replace("\n", "\n    "))
    for fault in conn.cleanup_faults:
        out.print(f"  cleanup fault on {fault.get('member')}: {fault.get('message')}")
    out.print(f"findings: {len(s.findings)}")
    for f in s.findings:
        out.print(f"  {f.id}: {f.signature['kind']} on {f.signature['axis']} "
                  f"{f.signature.get('codes', f.signature.get('factions'))}"
                  + (f" saved as {f.path}" if f.path else ""))
    return fuzz_status(s, out.print)
