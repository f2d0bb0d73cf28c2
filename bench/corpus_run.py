"""The whole corpus through a court, as CI runs it: cases per second, and the share of time
spent outside the members' own evaluation.

    python bench/corpus_run.py [--court tree-rust] [--jobs 2] [PATH ...]

"Members' own evaluation" is the wall time each member's worker measured around its evaluation;
everything else (process start, pipes, JSON, comparison, reports, waiting) is court overhead.
With N slots the capacity is N x elapsed; the share outside is 1 - (member time / capacity).
"""

from __future__ import annotations

import argparse
import platform
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from court.corpus import discover  # noqa: E402
from court.products import load_config, resolve  # noqa: E402
from court.runner import run_cases  # noqa: E402
from court.supervisor import Limits  # noqa: E402


def main() -> int:
    p = argparse.ArgumentParser()
    p.add_argument("paths", nargs="*", default=[str(ROOT / "corpus")])
    p.add_argument("--court", default="tree-rust")
    p.add_argument("--jobs", type=int, default=2)
    args = p.parse_args()
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
