"""How fast the witnesses answer: per-case round trips of each member, and fuzzing programs/s of
the witness courts next to all-four, measured side by side in one run.

    python bench/witness_speed.py [--cases N] [--seconds S] [--rounds R] [--seed K]

Part 1 runs the same small decision-rule programs (the corpus examples) through one warm worker
of each product and prints cases per second and the median round trip. Part 2 runs a fuzz
campaign of S seconds on each of `all-four`, `witness` and `panel` (the witness courts inside
their shared subset, as `court fuzz` runs them), R rounds with the order rotated, and prints the
median programs/s of each court and its ratio to all-four. Nothing is saved; a finding's
minimisation is cut short (its time is still counted). A figure, never a test.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from court.catalog import load_config, resolve  # noqa: E402
from court.corpus import discover  # noqa: E402
from court.fuzz.campaign import Campaign  # noqa: E402
from court.fuzz.subset import SharedSubset  # noqa: E402
from court.session import CourtSession  # noqa: E402
from court.workers.limits import Limits  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
MEMBERS = ("tree", "guile", "chez", "mit")
COURTS = ("all-four", "witness", "panel")


def round_trips(n: int) -> None:
    cases = discover([ROOT / "corpus" / "examples"])
    work = [(c.source(), c.input_text()) for c in cases]
    work = (work * (n // len(work) + 1))[:n]
    config = load_config(search_cwd=False)
    for member in MEMBERS:
        res = resolve(config, impls=[member])
        if not res.available:
            print(f"{member:6} unavailable: {'; '.join(res.attempted_routes)}")
            continue
        with CourtSession(res, Limits(timeout=60)) as s:
            s.run_case(b"1")  # start the worker outside the measurement
            trips, inside = [], []
            t0 = time.perf_counter()
            for source, inp in work:
                obs = s.run_case(source, inp, confirm=False).observations[member]
                trips.append(obs["resources"]["court_wall_seconds"])
                inside.append(obs["resources"].get("wall_seconds") or 0.0)
            total = time.perf_counter() - t0
        print(f"{member:6} {len(work)} cases in {total:.2f} s: {len(work) / total:7.1f} cases/s, "
              f"median round trip {statistics.median(trips) * 1000:.2f} ms, "
              f"median inside the worker {statistics.median(inside) * 1000:.2f} ms")


def campaign_rate(court: str, seconds: float, seed: int) -> tuple[float, int, int]:
    """(programs/s, programs run, programs skipped outside the shared subset)."""
    res = resolve(load_config(search_cwd=False), court)
    limits = Limits(timeout=10, profile="lispex-generated-11088/v1")
    sessions = [CourtSession(res, limits, jobs=2) for _ in range(2)]
    try:
        for s in sessions:
            s.run_case(b"(+ 1 1)")  # start the workers before the clock
        c = Campaign(sessions, None, {}, reduce_seconds=2, seed=seed, corpus=ROOT / "corpus",
                     mutate_percent=30, reduce_tests=20)
        if c.known:
            c.admits = SharedSubset(c.known).admits
        t0 = time.perf_counter()
        c.start = t0
        st = c.run(None, seconds)
        wall = time.perf_counter() - t0
    finally:
        for s in sessions:
            s.close()
    n = st.generated + st.mutated
    return n / wall, n, st.outside_subset


def main() -> int:
    p = argparse.ArgumentParser()
    p.add_argument("--cases", type=int, default=200)
    p.add_argument("--seconds", type=float, default=30.0)
    p.add_argument("--rounds", type=int, default=2)
    p.add_argument("--seed", type=int, default=1)
    args = p.parse_args()
    print(f"{len(os.sched_getaffinity(0))} cpus, load average {os.getloadavg()[0]:.1f}")
    round_trips(args.cases)
    config = load_config(search_cwd=False)
    courts = [c for c in COURTS if resolve(config, c).available]
    skipped = set(COURTS) - set(courts)
    if skipped:
        print(f"unavailable (not measured): {', '.join(sorted(skipped))}")
    rates: dict[str, list[float]] = {c: [] for c in courts}
    outside: dict[str, int] = {c: 0 for c in courts}
    for r in range(args.rounds):
        order = courts[r % len(courts):] + courts[:r % len(courts)]
        for court in order:
            rate, n, out = campaign_rate(court, args.seconds, args.seed + r)
            rates[court].append(rate)
            outside[court] += out
            print(f"  round {r + 1}: {court:8} {n:5d} programs, {rate:6.1f} programs/s, "
                  f"load {os.getloadavg()[0]:.1f}")
    base = statistics.median(rates["all-four"]) if "all-four" in rates else None
    print(f"court fuzz, {args.seconds:.0f} s x {args.rounds} rounds each, median programs/s:")
    for court in courts:
        med = statistics.median(rates[court])
        ratio = f", {med / base:.2f} x all-four" if base else ""
        print(f"  {court:8} {med:6.1f}{ratio} (outside the shared subset: {outside[court]})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
