"""How fast the Guile witness answers, next to the tree interpreter: per-case round trips.

    python bench/witness_speed.py [--cases N]

Runs the same small decision-rule programs (the corpus examples) through one warm worker of
each product and prints cases per second and the median round trip. A figure, never a test; it
stops with exit status 1 if the two disagree on a case, since then it measured nothing.
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import sys
import time
from pathlib import Path

from court.catalog import load_config, resolve
from court.corpus import discover
from court.session import CourtSession
from court.workers.limits import Limits

ROOT = Path(__file__).resolve().parents[1]


def main() -> int:
    p = argparse.ArgumentParser()
    p.add_argument("--cases", type=int, default=400)
    args = p.parse_args()
    if shutil.which("guile") is None:
        print("guile is not on PATH (apt-get install guile-3.0); nothing to measure")
        return 0
    cases = discover([ROOT / "corpus" / "examples"])
    work = [(c.source(), c.input_text()) for c in cases]
    work = (work * (args.cases // len(work) + 1))[:args.cases]
    config = load_config(search_cwd=False)
    answers: dict[str, list] = {}
    for member in ("tree", "guile"):
        res = resolve(config, impls=[member])
        with CourtSession(res, Limits(timeout=60)) as s:
            s.run_case(b"1")  # start the worker outside the measurement
            trips, inside, out = [], [], []
            t0 = time.perf_counter()
            for source, inp in work:
                r = s.run_case(source, inp, confirm=False)
                obs = r.observations[member]
                trips.append(obs["resources"]["court_wall_seconds"])
                inside.append(obs["resources"].get("wall_seconds") or 0.0)
                inside.append(obs["resources"].get("wall_seconds") or 0.0)
                out.append(obs["semantic"]["values"])
            total = time.perf_counter() - t0
        answers[member] = out
        print(f"{member:6} {len(work)} cases in {total:.2f} s: {len(work) / total:7.1f} cases/s, "
              f"median round trip {statistics.median(trips) * 1000:.2f} ms, "
              f"median inside the worker {statistics.median(inside) * 1000:.2f} ms")
    if answers["tree"] != answers["guile"]:
        print("tree and guile disagree on some case: the figures measure nothing")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
