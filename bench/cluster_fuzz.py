"""Fuzz throughput on Dask: `court fuzz --cluster local:1` and `local:2` beside a plain local run.

    python bench/cluster_fuzz.py [--court tree-rust] [--examples 2000] [--rounds 3] [--seed 0]

Each configuration runs as a whole `court fuzz` process, round-robin (plain, local:1, local:2,
plain, ...), the same seed and program count each time. Two figures per run: the campaign's own
programs per second (what `court fuzz` prints: from the first chunk submitted to the last result,
so it leaves out starting the cluster) and the whole process's wall time (which includes it).
Beside them, the CPU time of the whole process tree per program (client, scheduler, Dask workers,
implementation workers: every descendant is reaped, so RUSAGE_CHILDREN counts it), which a loaded
machine does not inflate the way it inflates wall time: equal CPU per program for local:1 and
local:2 means the second worker costs nothing beyond its own programs.
The ratio local:2 / local:1 is the scaling figure (target: at least 1.7 on 2 cores),
given as the ratio of the medians and as the median of each round's own ratio (the two runs of a
round are seconds apart, so a change in the machine's speed between rounds cancels out).
It grows with the campaign's length: each Dask worker starts its court session (a worker
template and one warm worker per member) on its first chunk, and in local:1 that start has the
second core to itself while in local:2 the two starts share both. A campaign of a few hundred
programs is largely that start; fuzzing runs for minutes, so the default is 2,000 programs.
A run that exits other than 0 (a finding on a healthy court, or a failure) stops the benchmark:
it measured something else.
"""

from __future__ import annotations

import argparse
import os
import re
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# A local campaign says "programs: N (G generated, M corpus mutants) in S s (R programs/s)", a
# cluster campaign "programs generated: N in S s (R cases/s)".
RATE = re.compile(r"programs(?: generated)?: (\d+)(?: \([^)]*\))? in ([\d.]+) s "
                  r"\(([\d.]+) (?:cases|programs)/s\)")


def run(court: str, examples: int, seed: int,
        cluster: str | None) -> tuple[float, float, float]:
    cmd = [sys.executable, "-m", "court.cli", "fuzz", "--court", court, "--examples",
           str(examples), "--seed", str(seed), "--no-save", "--quarantine", os.devnull]
    if cluster:
        cmd += ["--cluster", cluster]
    env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    proc = subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True, timeout=1800)
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    m = RATE.search(proc.stdout)
    if proc.returncode != 0 or not m or int(m.group(1)) != examples:
        sys.exit(f"{' '.join(cmd)} exited {proc.returncode}:\n{proc.stdout}\n{proc.stderr}")
    return float(m.group(3)), wall, cpu / examples


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--court", default="tree-rust")
    p.add_argument("--examples", type=int, default=2000)
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--seed", type=int, default=0)
    args = p.parse_args()
    configs = {"plain (no cluster, --jobs 2)": None, "--cluster local:1": "local:1",
               "--cluster local:2": "local:2"}
    rates: dict[str, list[float]] = {k: [] for k in configs}
    walls: dict[str, list[float]] = {k: [] for k in configs}
    cpus: dict[str, list[float]] = {k: [] for k in configs}
    for _ in range(args.rounds):
        for name, cluster in configs.items():
            rate, wall, cpu = run(args.court, args.examples, args.seed, cluster)
            rates[name].append(rate)
            walls[name].append(wall)
            cpus[name].append(cpu)
    print(f"court fuzz --court {args.court} --examples {args.examples} --seed {args.seed}; "
          f"{args.rounds} rounds, medians; {os.cpu_count()} cpus, "
          f"load average {os.getloadavg()[0]:.2f}")
    print(f"{'configuration':32} {'programs/s':>11} {'process wall':>13} {'cpu/program':>12}"
          "  rounds (programs/s)")
    for name in configs:
        print(f"{name:32} {statistics.median(rates[name]):11.1f} "
              f"{statistics.median(walls[name]):12.1f}s "
              f"{1000 * statistics.median(cpus[name]):9.1f} ms  "
              + ", ".join(f"{r:.1f}" for r in rates[name]))
    one = statistics.median(rates["--cluster local:1"])
    two = statistics.median(rates["--cluster local:2"])
    paired = statistics.median(b / a for a, b in zip(rates["--cluster local:1"],
                                                      rates["--cluster local:2"], strict=True))
    print(f"scaling local:2 / local:1: {two / one:.2f}x of the medians, {paired:.2f}x the median "
          "of each round's ratio (target >= 1.7x)")
    print(f"local:2 / plain: {two / statistics.median(rates['plain (no cluster, --jobs 2)']):.2f}x")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
