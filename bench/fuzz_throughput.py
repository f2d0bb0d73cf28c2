"""Fuzzing throughput: programs per second through a court, and where the time goes.

    python bench/fuzz_throughput.py [--court all-four] [--examples 600] [--parallel 1,2,3]
                                    [--mutate 0,30] [--jobs 2]

For each (parallel, mutate) setting it runs one campaign of --examples programs with a fixed
seed (nothing is saved, nothing reduced unless a finding turns up) and prints cases per second,
the share of wall time spent generating and waiting for evaluations, and the load average, which
on a shared machine says how much of the figure is the machine's. It also prints how fast the
generator and the mutator alone draw programs.
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from court.catalog import load_config, resolve  # noqa: E402
from court.fuzz.campaign import Campaign  # noqa: E402
from court.fuzz.generate import generate  # noqa: E402
from court.fuzz.mutate import Mutator  # noqa: E402
from court.session import CourtSession  # noqa: E402
from court.workers.limits import Limits  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent


def draw_rate(n: int = 2000) -> tuple[float, float]:
    rng = random.Random("bench")
    t0 = time.perf_counter()
    for _ in range(n):
        generate(rng)
    gen = n / (time.perf_counter() - t0)
    m = Mutator(ROOT / "corpus", random.Random("bench"))
    for _ in range(300):  # warm the parse cache, as a campaign does in its first seconds
        m.mutant()
    t0 = time.perf_counter()
    for _ in range(n):
        m.mutant()
    return gen, n / (time.perf_counter() - t0)


def main() -> int:
    p = argparse.ArgumentParser()
    p.add_argument("--court", default="all-four")
    p.add_argument("--examples", type=int, default=600)
    p.add_argument("--parallel", default="1,2,3")
    p.add_argument("--mutate", default="0,30")
    p.add_argument("--jobs", type=int, default=2)
    p.add_argument("--seed", type=int, default=1)
    args = p.parse_args()
    res = resolve(load_config(search_cwd=False), args.court)
    if not res.available:
        print(f"court {args.court} unavailable: missing {res.missing}", file=sys.stderr)
        return 3
    print(f"python {platform.python_version()} on {platform.machine()}, "
          f"{len(os.sched_getaffinity(0))} cpus, load average {os.getloadavg()[0]:.1f}")
    gen, mut = draw_rate()
    print(f"drawing alone: generator {gen:.0f} programs/s, mutator {mut:.0f} programs/s")
    limits = Limits(timeout=10, memory_bytes=1 << 30, profile="lispex-generated-11088/v1")
    print(f"court {res.court} ({', '.join(res.members)}), {args.examples} programs each, "
          f"seed {args.seed}, jobs {args.jobs}")
    print("parallel  mutate%  cases/s  generating  waiting  load")
    for par in [int(x) for x in args.parallel.split(",")]:
        for mutate in [int(x) for x in args.mutate.split(",")]:
            sessions = [CourtSession(res, limits, jobs=args.jobs) for _ in range(par)]
            try:
                for s in sessions:
                    s.run_case(b"(+ 1 1)")  # start the workers before the clock
                c = Campaign(sessions, None, {}, reduce_seconds=5, seed=args.seed,
                             corpus=ROOT / "corpus", mutate_percent=mutate)
                t0 = time.perf_counter()
                c.start = t0
                st = c.run(args.examples, None)
                wall = time.perf_counter() - t0
            finally:
                for s in sessions:
                    s.close()
            n = st.generated + st.mutated
            print(f"{par:8d}  {mutate:7d}  {n / wall:7.1f}  {st.gen_seconds / wall:10.0%}  "
                  f"{st.wait_seconds / wall:7.0%}  {os.getloadavg()[0]:4.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
