"""What the generator draws for fixed seeds, as SHA-256 digests: a change that must keep the draw
order (a refactoring of the generator) keeps every digest.

    python bench/fuzz_draws.py [--programs 400] [--expect HEX]

Streams, one digest each (over every case's source, input, features, safety, origin and tags):
  steered:S   ProgramSource(S) with corpus mutants (30%), steered as the campaign steers it
              (the feedback table's steering recomputed every block, a census every 8th)
  plain:S     ProgramSource(S) without mutants or steering
  edges       the edge sampler alone, for 1,000 seeded contexts
  faults      the fault sampler and the planted fault alone, for 1,000 seeded contexts
and a total over all of them. --expect makes a total other than HEX exit 1.
"""

from __future__ import annotations

import argparse
import hashlib
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from court.fuzz.campaign import BLOCK, CENSUS_EVERY, ProgramSource  # noqa: E402
from court.fuzz.context import Context, Scope  # noqa: E402
from court.fuzz.control import fault, fault_sampler  # noqa: E402
from court.fuzz.edges import edge_sampler  # noqa: E402
from court.fuzz.feedback import Coverage  # noqa: E402

SEEDS = range(1, 9)


def case_bytes(case) -> bytes:
    fields = [case.source, str(case.input), ",".join(case.features), str(case.safe),
              case.origin, ",".join(case.tags)]
    return "\x1f".join(fields).encode() + b"\x1e"


def steered(seed: int, n: int) -> str:
    src = ProgramSource(seed, corpus=ROOT / "corpus", mutate_percent=30)
    cov, h, done = Coverage(), hashlib.sha256(), 0
    while done < n:
        steering = cov.steering()
        for _ in range(min(BLOCK, n - done)):
            case = src.next(cov, steering)
            cov.add_program(case, census=done % CENSUS_EVERY == 0)
            h.update(case_bytes(case))
            done += 1
    return h.hexdigest()


def plain(seed: int, n: int) -> str:
    src = ProgramSource(seed, corpus=None, mutate_percent=0)
    h = hashlib.sha256()
    for _ in range(n):
        h.update(case_bytes(src.next(None, None)))
    return h.hexdigest()


def samplers(kind: str, n: int = 1000) -> str:
    h = hashlib.sha256()
    for i in range(n):
        g = Context(random.Random(f"{kind}:{i}"), set(), i % 2 == 0)
        if kind == "edges":
            h.update(edge_sampler(g, Scope()).encode())
        else:
            h.update(fault_sampler(g, Scope()).encode())
            h.update(fault(g, Scope()).encode())
        h.update(",".join(sorted(g.tags)).encode() + b"\x1e")
    return h.hexdigest()


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--programs", type=int, default=400, help="programs per seed and stream")
    p.add_argument("--expect", help="the total digest this run must give")
    args = p.parse_args()
    total = hashlib.sha256()
    t0 = time.perf_counter()
    streams = [(f"steered:{s}", lambda s=s: steered(s, args.programs)) for s in SEEDS]
    streams += [(f"plain:{s}", lambda s=s: plain(s, args.programs)) for s in SEEDS]
    streams += [("edges", lambda: samplers("edges")), ("faults", lambda: samplers("faults"))]
    for name, run in streams:
        digest = run()
        total.update(f"{name}={digest}\n".encode())
        print(f"{name:<11} {digest}")
    programs = 2 * len(SEEDS) * args.programs
    print(f"{'total':<11} {total.hexdigest()}  ({programs} programs, 2,000 samplers, "
          f"{time.perf_counter() - t0:.1f} s)")
    if args.expect and args.expect != total.hexdigest():
        print(f"fuzz_draws: expected {args.expect}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
