"""Court throughput and overhead: many tiny programs through a court with warm workers.

    python bench/court_overhead.py [--court tree-rust] [--cases 500] [--jobs 2]

Prints cases per second and the median (and p95) per-case court overhead: the court's wall time
for a case minus the slowest member's own wall time as that member measured it.
"""

from __future__ import annotations

import argparse
import platform
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from court.products import load_config, resolve  # noqa: E402
from court.session import CourtSession  # noqa: E402
from court.supervisor import Limits  # noqa: E402

TEMPLATES = [
    "(+ {i} 1)",
    "(define (sq x) (* x x)) (sq {i})",
    "(display \"case {i}\") (newline) (list {i} 'x \"s\")",
    "(let loop ((k 0) (acc 0)) (if (= k 20) acc (loop (+ k 1) (+ acc {i}))))",
    "(guard (e (#t (error-object-message e))) (error \"boom\" {i}))",
    "(car '())",
    "(string-append \"a\" (number->string {i}))",
    "(map (lambda (x) (* x {i})) '(1 2 3))",
]


def main() -> int:
    p = argparse.ArgumentParser()
    p.add_argument("--court", default="tree-rust")
    p.add_argument("--cases", type=int, default=500)
    p.add_argument("--jobs", type=int, default=2)
    args = p.parse_args()
    res = resolve(load_config(search_cwd=False), args.court)
    if not res.available:
        print(f"court {args.court} unavailable: missing {res.missing}", file=sys.stderr)
        return 3
    programs = [TEMPLATES[i % len(TEMPLATES)].format(i=i).encode() for i in range(args.cases)]
    overheads, verdicts = [], {}
    with CourtSession(res, Limits(timeout=10), jobs=args.jobs) as session:
        session.run_case(b"(+ 1 1)")  # warm-up: start the workers
        t0 = time.perf_counter()
        for src in programs:
            case = session.run_case(src)
            verdicts[case.verdict.kind] = verdicts.get(case.verdict.kind, 0) + 1
            slowest = max(o["resources"].get("wall_seconds", 0.0)
                          for o in case.observations.values())
            overheads.append(case.wall_seconds - slowest)
        elapsed = time.perf_counter() - t0
    overheads.sort()
    print(f"python {platform.python_version()} on {platform.machine()}, "
          f"{len(__import__('os').sched_getaffinity(0))} cpus")
    print(f"court {args.court} ({', '.join(res.members)}), jobs {args.jobs}, "
          f"{args.cases} cases in {elapsed:.2f} s")
    print(f"cases per second: {args.cases / elapsed:.1f}")
    print(f"court overhead per case: median {statistics.median(overheads) * 1000:.2f} ms, "
          f"p95 {overheads[int(len(overheads) * 0.95)] * 1000:.2f} ms")
    print(f"verdicts: {verdicts}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
