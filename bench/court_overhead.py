"""Court throughput and overhead: many tiny programs through a court with warm workers.

    python bench/court_overhead.py [--court tree-rust] [--cases 500] [--jobs 2] [--rounds 3]
                                   [--profile]

Prints cases per second and the median (and p95) per-case court overhead: the court's wall time
for a case minus the slowest member's own wall time as that member measured it. Each round is a
fresh session; the figure is the median over all rounds' cases. Beside it, in the same run:

- the floor: the median round trip of one small line through a pipe to a process that echoes it
  (what any worker protocol pays at least, on this machine, under its current load);
- CPU per case: the court process's CPU time per case, and the workers' CPU time per case
  outside their own measured evaluation (so a loaded machine, which stretches wall times,
  cannot hide a cost or invent one).

``--against CHECKOUT`` first runs the same measurement on another checkout (say, an earlier
commit: ``git worktree add /tmp/before <commit>``) and prints its lines before this one's.

``--profile`` adds where the time goes: a cProfile of the court side (one member at a time, so
the request path runs on the profiled thread) and the worker side of one case (decode, handle
outside the evaluation, encode), in process.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import time
from pathlib import Path

# COURT_BENCH_ROOT measures another checkout (``--against``) with this same script.
sys.path.insert(0, os.environ.get("COURT_BENCH_ROOT")
                or str(Path(__file__).resolve().parent.parent))

import psutil  # noqa: E402

from court.catalog import load_config, resolve  # noqa: E402
from court.session import CourtSession  # noqa: E402
from court.workers.limits import Limits  # noqa: E402

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
TARGET_MS = 0.3
ECHO = ("import os\nwhile True:\n    b = os.read(0, 65536)\n    if not b:\n        break\n"
        "    os.write(1, b)\n")


def pipe_floor(n: int = 300) -> float:
    """Median seconds of one small write-and-read-back through a pipe to an echo process."""
    proc = subprocess.Popen([sys.executable, "-S", "-c", ECHO], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, bufsize=0)
    assert proc.stdin is not None and proc.stdout is not None
    line = json.dumps({"op": "run", "id": 1, "source": "(+ 1 2)"}).encode() + b"\n"
    samples = []
    for _ in range(n):
        t0 = time.perf_counter()
        os.write(proc.stdin.fileno(), line)
        got = b""
        while not got.endswith(b"\n"):
            got += os.read(proc.stdout.fileno(), 65536)
        samples.append(time.perf_counter() - t0)
    proc.stdin.close()
    proc.wait(timeout=10)
    return statistics.median(samples)


def worker_cpu(session: CourtSession) -> float:
    total = 0.0
    for w in session.workers.values():
        if w.proc is not None:
            t = psutil.Process(w.proc.pid).cpu_times()
            total += t.user + t.system
    return total


def one_round(res, programs: list[bytes], jobs: int) -> dict:
    overheads, verdicts, evaluation = [], {}, 0.0
    # Warm workers throughout: no recycling inside a round.
    with CourtSession(res, Limits(timeout=10), jobs=jobs,
                      recycle_after=len(programs) + 10) as session:
        session.run_case(b"(+ 1 1)")  # warm-up: start the workers
        w0, c0, t0 = worker_cpu(session), time.process_time(), time.perf_counter()
        for src in programs:
            case = session.run_case(src)
            verdicts[case.verdict.kind] = verdicts.get(case.verdict.kind, 0) + 1
            walls = [o["resources"].get("wall_seconds", 0.0) for o in case.observations.values()]
            evaluation += sum(o["resources"].get("cpu_seconds", 0.0)
                              for o in case.observations.values())
            overheads.append(case.wall_seconds - max(walls))
        elapsed = time.perf_counter() - t0
        court_cpu = time.process_time() - c0
        workers_cpu = worker_cpu(session) - w0
    return {"overheads": overheads, "verdicts": verdicts, "elapsed": elapsed,
            "court_cpu": court_cpu, "worker_cpu_outside": workers_cpu - evaluation}


def profile(res, programs: list[bytes]) -> None:
    import cProfile
    import pstats

    with CourtSession(res, Limits(timeout=10), jobs=1) as session:
        session.run_case(b"(+ 1 1)")
        # CPU time, not wall: waiting in poll for a worker is the member's time, not the court's.
        prof = cProfile.Profile(time.process_time)
        prof.enable()
        for src in programs:
            session.run_case(src)
        prof.disable()
    print(f"\ncourt side, {len(programs)} cases, members one at a time, CPU time under the "
          "profiler (tottime, top 15):")
    pstats.Stats(prof, stream=sys.stdout).sort_stats("tottime").print_stats(15)

    from implementations import registry, worker

    backend = registry.load(res.members[0])
    peak = worker.PeakRss()
    reqs = [json.dumps({"op": "run", "id": i, "source": s.decode(), "filename": "p.lspx",
                        "input": None, "profile": None, "limits": {}}).encode()
            for i, s in enumerate(programs)]
    for r in reqs[:50]:
        worker.encode(worker.handle(json.loads(r), backend, peak))
    decode = handle = encode = measured = 0.0
    for r in reqs:
        t0 = time.perf_counter()
        req = json.loads(r)
        t1 = time.perf_counter()
        reply = worker.handle(req, backend, peak)
        t2 = time.perf_counter()
        worker.encode(reply)
        t3 = time.perf_counter()
        decode, handle, encode = decode + t1 - t0, handle + t2 - t1, encode + t3 - t2
        measured += reply["observation"]["resources"]["wall_seconds"]
    n = len(reqs)
    print(f"worker side ({res.members[0]}), per case: decode {decode / n * 1e6:.0f} us, "
          f"handle outside the measured evaluation {(handle - measured) / n * 1e6:.0f} us, "
          f"encode {encode / n * 1e6:.0f} us (measured evaluation {measured / n * 1e6:.0f} us)")


def main() -> int:
    p = argparse.ArgumentParser()
    p.add_argument("--court", default="tree-rust")
    p.add_argument("--cases", type=int, default=500)
    p.add_argument("--jobs", type=int, default=2)
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--profile", action="store_true", help="show where the time goes")
    p.add_argument("--against", metavar="CHECKOUT",
                   help="first measure another checkout (say, an earlier commit) the same way")
    args = p.parse_args()
    if args.against:
        env = {**os.environ, "COURT_BENCH_ROOT": os.path.abspath(args.against),
               "PYTHONPATH": os.path.abspath(args.against)}
        cmd = [sys.executable, __file__, "--court", args.court, "--cases", str(args.cases),
               "--jobs", str(args.jobs), "--rounds", str(args.rounds)]
        done = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=1800)
        for line in done.stdout.splitlines():
            print(f"[{args.against}] {line}")
        print("[this checkout]")
    res = resolve(load_config(search_cwd=False), args.court)
    if not res.available:
        print(f"court {args.court} unavailable: missing {res.missing}", file=sys.stderr)
        return 3
    programs = [TEMPLATES[i % len(TEMPLATES)].format(i=i).encode() for i in range(args.cases)]
    rounds = [one_round(res, programs, args.jobs) for _ in range(args.rounds)]
    floor = pipe_floor()
    overheads = sorted(x for r in rounds for x in r["overheads"])
    verdicts: dict[str, int] = {}
    for r in rounds:
        for k, v in r["verdicts"].items():
            verdicts[k] = verdicts.get(k, 0) + v
    n = args.cases * args.rounds
    elapsed = sum(r["elapsed"] for r in rounds)
    med = statistics.median(overheads)
    print(f"python {platform.python_version()} on {platform.machine()}, "
          f"{len(os.sched_getaffinity(0))} cpus, load average {os.getloadavg()[0]:.2f}")
    print(f"court {args.court} ({', '.join(res.members)}), jobs {args.jobs}, "
          f"{args.rounds} rounds of {args.cases} cases in {elapsed:.2f} s")
    print(f"cases per second: {n / elapsed:.1f}")
    print(f"court overhead per case: median {med * 1000:.2f} ms, "
          f"p95 {overheads[int(len(overheads) * 0.95)] * 1000:.2f} ms  "
          f"target <= {TARGET_MS} ms {'ok' if med * 1000 <= TARGET_MS else 'MISSED'}")
    print(f"beside it: one pipe round trip to an echo process, median {floor * 1000:.3f} ms")
    print(f"CPU per case: court process {sum(r['court_cpu'] for r in rounds) / n * 1000:.3f} ms,"
          f" workers outside their evaluation "
          f"{sum(r['worker_cpu_outside'] for r in rounds) / n * 1000:.3f} ms")
    if verdicts != {"agree": n}:
        print(f"wrong verdicts: {verdicts}", file=sys.stderr)
        return 1
    print(f"verdicts: {verdicts}")
    if args.profile:
        profile(res, programs)
    return 0


if __name__ == "__main__":
    sys.exit(main())
