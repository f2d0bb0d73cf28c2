"""Whole-process start-up: `court compare` of `(+ 1 2)` from a cold process (the rendered table), beside `python -c
pass` and beside an interpreter per member (``COURT_FORKSERVER=0``).

    python bench/startup.py [--runs 11] [--json FILE]

Every figure is the median wall time of ``--runs`` whole processes (spawn to exit, stdout
captured), the runs interleaved round-robin so that a burst of load on the shared machine hits
every variant alike. Before timing, each variant runs once so that bytecode caches exist (the
timed runs do write them: ``PYTHONDONTWRITEBYTECODE`` is removed from their environment, as a
normal installation has its caches). Exits 1 if a compare does not answer `agree` with value 3.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TARGETS = {"tree-rust": 0.25, "all-four": 0.35}
MEMBERS = {"tree-rust": 2, "all-four": 4}


def env(forkserver: bool) -> dict[str, str]:
    e = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    e["PYTHONPATH"] = str(ROOT) + (os.pathsep + e["PYTHONPATH"] if e.get("PYTHONPATH") else "")
    e["COURT_FORKSERVER"] = "1" if forkserver else "0"
    return e


def variants(program: str, against: str | None
             ) -> dict[str, tuple[list[str], dict[str, str], bool, str]]:
    compare = [sys.executable, "-m", "court.cli", "compare", program]
    here = str(ROOT)
    out: dict[str, tuple[list[str], dict[str, str], bool, str]] = {
        "python -c pass": ([sys.executable, "-c", "pass"], env(True), False, here)}
    for court in TARGETS:
        out[f"compare {court}"] = ([*compare, "--court", court], env(True), True, here)
        out[f"compare {court}, interpreter per member"] = ([*compare, "--court", court],
                                                           env(False), True, here)
        if against:
            other = {**env(True), "PYTHONPATH": against}
            out[f"compare {court}, {against}"] = ([*compare, "--court", court], other, True,
                                                  against)
    return out


def run_once(cmd: list[str], environ: dict[str, str], check: bool, cwd: str) -> float:
    t0 = time.perf_counter()
    done = subprocess.run(cmd, env=environ, cwd=cwd, capture_output=True, timeout=120)
    elapsed = time.perf_counter() - t0
    if check:  # what a user sees, piped (plain) or on a terminal (table): every member ok, 3
        text = done.stdout.decode("utf-8", "replace")
        rows = [r for r in text.splitlines()
                if ("│ ok" in r and "│ 3 " in r) or r.rstrip().endswith(": ok, exit 0, values 3")]
        members = MEMBERS[cmd[cmd.index("--court") + 1]]
        if done.returncode != 0 or "verdict: agree" not in text or len(rows) != members:
            print(f"wrong answer from {' '.join(cmd)}: {done.stdout[:300]!r} "
                  f"{done.stderr[-300:]!r}", file=sys.stderr)
            raise SystemExit(1)
    return elapsed


def main() -> int:
    p = argparse.ArgumentParser()
    p.add_argument("--runs", type=int, default=11)
    p.add_argument("--json", help="write the raw samples here")
    p.add_argument("--against", metavar="CHECKOUT",
                   help="also time another checkout's compare (say, an earlier commit)")
    args = p.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        program = os.path.join(tmp, "add.lspx")
        Path(program).write_text("(+ 1 2)\n")
        table = variants(program, os.path.abspath(args.against) if args.against else None)
        for cmd, environ, check, cwd in table.values():  # caches, and a first answer check
            run_once(cmd, environ, check, cwd)
        samples: dict[str, list[float]] = {k: [] for k in table}
        for _ in range(args.runs):
            for name, (cmd, environ, check, cwd) in table.items():
                samples[name].append(run_once(cmd, environ, check, cwd))
    print(f"{platform.python_implementation()} {platform.python_version()}, "
          f"{os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.2f}; "
          f"median of {args.runs} whole processes")
    base = statistics.median(samples["python -c pass"])
    for name, xs in samples.items():
        med = statistics.median(xs)
        line = (f"{name:50s} median {med * 1000:6.0f} ms  (min {min(xs) * 1000:.0f}, "
                f"max {max(xs) * 1000:.0f}; {med / base:4.1f}x python -c pass)")
        court = name.removeprefix("compare ")
        if court in TARGETS:
            line += f"  target <= {TARGETS[court] * 1000:.0f} ms " \
                    f"{'ok' if med <= TARGETS[court] else 'MISSED'}"
        print(line)
    if args.json:
        Path(args.json).write_text(json.dumps(samples, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
