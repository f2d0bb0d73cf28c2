"""The MIT/GNU Scheme witness worker: MIT Scheme 12.1 running Lispex programs, behind
court-worker/v1.

    python -m implementations.mit.worker [--memory-limit BYTES]

The relay (implementations/witness/relay.py) keeps one long-lived MIT Scheme process running the
portable prelude (implementations/witness/scheme/lispex-core.scm) and
``lispex-witness/serve.scm``, and hands it each case.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

from implementations.witness.relay import Scheme, main

HERE = Path(__file__).resolve().parent
CORE = HERE.parent / "witness" / "scheme" / "lispex-core.scm"

MIT = Scheme(
    name="mit",
    binaries=("mit-scheme",),
    install="Debian: apt-get install mit-scheme",
    argv=lambda exe: [exe, "--quiet", "--no-init-file", "--load", str(CORE),
                      "--load", str(HERE / "lispex-witness" / "serve.scm")],
    version_argv=lambda exe: [exe, "--version"],
    parse_version=lambda out: (m.group(1) if (m := re.search(r"Scheme (\d+(\.\d+)+)", out))
                               else ""),
    # MIT abandons a runaway computation and returns to its REPL, which reads stdin: the case is
    # a resource outcome and `(main)` re-enters the serve loop.
    aborts={b"Aborting!: maximum recursion depth exceeded": ("resource", "stack-limit"),
            b"Aborting!: out of memory": ("resource", "memory-limit")},
    resume=b"(main)\n",
    fatal=(b";To continue, call RESTART with an option number:",),
)

if __name__ == "__main__":
    sys.exit(main(MIT))
