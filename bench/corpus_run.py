"""The whole corpus through a court, as CI runs it: cases per second, and the share of time
spent outside the members' own evaluation.

    python bench/corpus_run.py [--court tree-rust] [--jobs 2] [PATH ...]
    python bench/corpus_run.py --court all-four --cli-runs 3 [--against CHECKOUT]

With ``--cli-runs N`` it times the whole command instead, as a user runs it: ``court run PATH
--court C`` as a process, N times each, interleaved, beside ``python -c pass``:

- "history": the report folder keeps the previous run's report, so the longest cases go first
  (the first, untimed run writes it);
- "no history, interpreter per member": a fresh report folder every time and
  ``COURT_FORKSERVER=0``: discovery order and a new interpreter per worker start, as before the
  worker template and the scheduler (the request path is the new one in both);
- with ``--against CHECKOUT``, "history, CHECKOUT": the same as "history" with another
  checkout's code (``git worktree add /tmp/before COMMIT``), on this checkout's corpus.

Target for ``--court all-four`` on the corpus: <= 8 s.

"Members' own evaluation" is the wall time each member's worker measured around its evaluation;
everything else (process start, pipes, JSON, comparison, reports, waiting) is court overhead.
With N slots the capacity is N x elapsed; the share outside is 1 - (member time / capacity).
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from court.catalog import load_config, resolve  # noqa: E402
from court.corpus import discover  # noqa: E402
from court.runner import run_cases  # noqa: E402
from court.workers.limits import Limits  # noqa: E402

TARGET_ALL_FOUR = 8.0


def cli_run(paths: list[str], court: str, report_dir: str, forkserver: bool,
            code: Path = ROOT) -> float:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    # `python -m` puts its working folder first on the path: the code is the folder it runs in.
    env.update(PYTHONPATH=str(code), COURT_FORKSERVER="1" if forkserver else "0")
    t0 = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "court.cli", "run", *paths, "--court", court,
                           "--report-dir", report_dir], env=env, cwd=code, capture_output=True,
                          timeout=1800)
    elapsed = time.perf_counter() - t0
    if done.returncode != 0:
        print(f"court run failed ({done.returncode}): {done.stderr[-500:]!r}", file=sys.stderr)
        raise SystemExit(1)
    import json

    outcomes = json.loads((Path(report_dir) / "court-report.json").read_text())["summary"][
        "outcomes"]
    if outcomes["infrastructure-error"] or outcomes["not-comparable"]:
        # A member killed at its deadline makes a run look faster than it is: say so.
        print(f"note: a run had {outcomes['infrastructure-error']} infrastructure errors and "
              f"{outcomes['not-comparable']} not-comparable cases", file=sys.stderr)
    return elapsed


def cli_runs(paths: list[str], court: str, n: int, against: Path | None) -> int:
    samples: dict[str, list[float]] = {"python -c pass": [], "history": [],
                                       "no history, interpreter per member": []}
    other = f"history, {against}"
    with tempfile.TemporaryDirectory() as tmp:
        kept = os.path.join(tmp, "kept")
        cli_run(paths, court, kept, True)  # caches, and the history of the timed runs
        if against:
            samples[other] = []
            cli_run(paths, court, os.path.join(tmp, "kept-other"), True, against)
        for i in range(n):
            if against:
                samples[other].append(cli_run(paths, court, os.path.join(tmp, "kept-other"),
                                              True, against))
            t0 = time.perf_counter()
            subprocess.run([sys.executable, "-c", "pass"], check=True)
            samples["python -c pass"].append(time.perf_counter() - t0)
            samples["history"].append(cli_run(paths, court, kept, True))
            samples["no history, interpreter per member"].append(
                cli_run(paths, court, os.path.join(tmp, f"fresh{i}"), False))
    print(f"python {platform.python_version()}, {os.cpu_count()} CPUs, load average "
          f"{os.getloadavg()[0]:.2f}; court run {' '.join(paths)} --court {court}, "
          f"median of {n} whole processes")
    for what, xs in samples.items():
        med = statistics.median(xs)
        line = f"{what:40s} median {med:7.2f} s (min {min(xs):.2f}, max {max(xs):.2f})"
        if what.startswith("history") and court == "all-four":
            line += f"  target <= {TARGET_ALL_FOUR:g} s " \
                    f"{'ok' if med <= TARGET_ALL_FOUR else 'MISSED'}"
        print(line)
    return 0


def main() -> int:
    p = argparse.ArgumentParser()
    p.add_argument("paths", nargs="*", default=[str(ROOT / "corpus")])
    p.add_argument("--court", default="tree-rust")
    p.add_argument("--jobs", type=int, default=2)
    p.add_argument("--cli-runs", type=int, metavar="N",
                   help="time N whole `court run` processes instead (see the module doc)")
    p.add_argument("--against", metavar="CHECKOUT",
                   help="with --cli-runs, also time another checkout's code side by side")
    args = p.parse_args()
    if args.cli_runs:
        against = Path(args.against).resolve() if args.against else None
        return cli_runs(args.paths, args.court, args.cli_runs, against)
    res = resolve(load_config(search_cwd=False), args.court)
    if not res.available:
        print(f"court {args.court} unavailable: missing {res.missing}", file=sys.stderr)
        return 3
    cases = discover([Path(x) for x in args.paths])
    t0 = time.perf_counter()
    records, _, complete = run_cases(cases, res, Limits(timeout=30), jobs=args.jobs)
    elapsed = time.perf_counter() - t0
    member_time = sum(o["resources"].get("wall_seconds", 0.0)
                      for r in records if r.result for o in r.result.observations.values())
    outcomes: dict[str, int] = {}
    for r in records:
        outcomes[r.outcome] = outcomes.get(r.outcome, 0) + 1
    print(f"python {platform.python_version()}, {len(records)} cases on {args.court} "
          f"({', '.join(res.members)}), jobs {args.jobs}, complete {complete}")
    print(f"elapsed {elapsed:.2f} s: {len(records) / elapsed:.1f} cases/s")
    print(f"members' own evaluation {member_time:.2f} s of {args.jobs * elapsed:.2f} s capacity; "
          f"share outside evaluation {1 - member_time / (args.jobs * elapsed):.0%}")
    print(f"outcomes: {outcomes}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
