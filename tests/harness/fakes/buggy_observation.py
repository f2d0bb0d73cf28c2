"""A test-only foreign product (protocol observation-json) with a seeded bug.

It runs the real tree interpreter but with `quotient` rounding toward negative infinity, then
prints one observation JSON object, as `court eval --json` does.
"""

import argparse
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))

from implementations.lispex.primitives import table  # noqa: E402
from implementations.lispex.run import evaluate  # noqa: E402
from implementations.tree import TreeBackend, primitives  # noqa: E402


def main() -> int:
    p = argparse.ArgumentParser()
    p.add_argument("file")
    p.add_argument("--input")
    args = p.parse_args()
    prims = primitives()
    real = prims["quotient"]
    seeded = table.Primitive("quotient", lambda a, b: a // b, 2, 2, warning=None, guest=False,
                             backend=False, family="numeric", needs_context=False)
    prims["quotient"] = seeded
    try:
        obs = evaluate(Path(args.file).read_bytes(), TreeBackend(), filename="program.lspx",
                       input_text=args.input)
    finally:
        prims["quotient"] = real
    obs.implementation = "buggy"
    print(json.dumps(obs.to_json()))
    return obs.exit_status


if __name__ == "__main__":
    sys.exit(main())
