"""A test-only `lispex.court-worker/v1` product that is the tree interpreter with one fault in
its resources, for the meter-model and one-sided-limit verdicts.

    python meter_worker.py --mode loop     # a program calling `spin-here` loops forever
    python meter_worker.py --mode meters   # every run reports one machine transition more
"""

import argparse
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))

from implementations.tree import TreeBackend  # noqa: E402
from implementations.worker import PeakRss, handle  # noqa: E402

LOOP = "(define (spin-here) (spin-here))\n"


def main() -> int:
    p = argparse.ArgumentParser()
    p.add_argument("--mode", choices=("loop", "meters"), required=True)
    mode = p.parse_args().mode
    backend = TreeBackend()
    peak = PeakRss()
    for line in sys.stdin:
        req = json.loads(line)
        if req.get("op") == "shutdown":
            return 0
        if mode == "loop" and "(spin-here)" in req.get("source", ""):
            # The seeded fault: where the others return at once, this member never does.
            req["source"] = LOOP + "(spin-here)\n"
        reply = handle(req, backend, peak)
        if mode == "meters" and "observation" in reply:
            reply["observation"]["resources"]["usage"]["machine_transitions"] += 1
        sys.stdout.write(json.dumps(reply) + "\n")
        sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
