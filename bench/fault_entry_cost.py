"""What each entry of the fuzzer's runtime fault rows costs the members of a court.

    python bench/fault_entry_cost.py [--court all-four] [--rounds 3] [--top 12]

Each entry runs as the fault sampler places it, caught by a guard inside a `write`, under the
fuzz profile and limits, on warm workers. The figure is the median over the rounds of the
members' own CPU seconds, summed over the members; beside it, the median entry's, and the line
says which entries the sampler leaves out as too dear (``values.DEAR_FAULTS``) and which are
top-level forms it cannot place (``values.TOP_LEVEL_FAULTS``).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from court.catalog import load_config, resolve  # noqa: E402
from court.cli.arguments import FUZZ_PROFILE  # noqa: E402
from court.fuzz import values as V  # noqa: E402
from court.session import CourtSession  # noqa: E402
from court.workers.limits import Limits  # noqa: E402

CAUGHT = ("(write (list (guard (e ((error-object? e) (list 'fault (error-object-message e) "
          "(error-object-irritants e))) (#t (list 'raised e))) {})))")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--court", default="all-four")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--top", type=int, default=12)
    args = ap.parse_args()
    res = resolve(load_config(None), args.court)
    limits = Limits(timeout=5, memory_bytes=1024 << 20, profile=FUZZ_PROFILE)
    rows = []
    with CourtSession(res, limits, jobs=2, recycle_after=1_000_000) as session:
        session.run_case(b"(+ 1 1)")
        for code, pool in V.RUNTIME_FAULTS.items():
            for i, entry in enumerate(pool):
                if entry in V.TOP_LEVEL_FAULTS:
                    continue
                cpu, verdicts = [], set()
                for _ in range(args.rounds):
                    case = session.run_case(CAUGHT.format(entry).encode())
                    verdicts.add(case.verdict.kind)
                    cpu.append(sum(o["resources"].get("cpu_seconds", 0.0)
                                   for o in case.observations.values()))
                rows.append((statistics.median(cpu), f"{code}:{i}", "/".join(sorted(verdicts)),
                             entry))
    rows.sort(reverse=True)
    print(f"court {args.court}, {len(rows)} entries, {args.rounds} rounds, load average "
          f"{os.getloadavg()[0]:.2f}; members' CPU per entry, summed over members: median "
          f"{statistics.median(r[0] for r in rows) * 1e3:.2f} ms, total "
          f"{sum(r[0] for r in rows) * 1e3:.1f} ms")
    for cpu, name, verdict, entry in rows[:args.top]:
        mark = "left out of the sampler" if entry in V.DEAR_FAULTS else ""
        print(f"{cpu * 1e3:9.2f} ms  {name:8} {verdict:8} {mark:24} {entry[:56]}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
