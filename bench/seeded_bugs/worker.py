"""A seeded-bug product: one implementation with one seeded bug, as a court worker (a bug of a
kernel, e.g. `lispex-kernel`, is applied in any member of that kernel's lineage).

    python bench/seeded_bugs/worker.py --bug NAME --impl IMPL           # serve the protocol
    python bench/seeded_bugs/worker.py --bug NAME --impl IMPL --check FILE
        # evaluate FILE in process with the bug applied, print the observation as JSON

``--bug none`` applies nothing (the healthy implementation through the same launcher).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from bench.seeded_bugs.registry import BACKENDS, BUGS  # noqa: E402


def main() -> int:
    p = argparse.ArgumentParser(prog="worker.py")
    p.add_argument("--bug", required=True, choices=["none", *sorted(BUGS)])
    p.add_argument("--impl", required=True, choices=sorted(BACKENDS))
    p.add_argument("--check", metavar="FILE")
    args = p.parse_args()
    if args.bug != "none":
        if args.impl not in BUGS[args.bug].members:
            p.error(f"bug {args.bug} is seeded into {BUGS[args.bug].impl}, not {args.impl}")
        BUGS[args.bug].apply()
    if args.check:
        from implementations import registry
        from implementations.kernels import evaluate

        try:
            obs = evaluate(Path(args.check).read_bytes(), registry.load(args.impl),
                           filename="witness.lspx")
        except Exception as e:  # a bug may crash the implementation: that is a change too
            sys.stdout.write(json.dumps({"crash": f"{type(e).__name__}: {e}"}) + "\n")
            return 0
        sys.stdout.write(json.dumps(obs.to_json()) + "\n")
        return 0
    from implementations import worker

    return worker.serve(args.impl)


if __name__ == "__main__":
    sys.exit(main())
