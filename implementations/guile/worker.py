"""The Guile witness worker: GNU Guile 3.0 running Lispex programs, behind court-worker/v1.

    python -m implementations.guile.worker [--memory-limit BYTES]

The relay (implementations/witness/relay.py) keeps one long-lived Guile process running
``lispex-witness/serve.scm`` with its prelude and hands it each case. It shares no code with the
Lispex kernel, on purpose: the witness is worth something only because nobody here wrote the
Scheme it runs on.
"""

from __future__ import annotations

import sys
from pathlib import Path

from implementations.witness.relay import Scheme, main

HERE = Path(__file__).resolve().parent

GUILE = Scheme(
    name="guile",
    binaries=("guile",),
    install="Debian: apt-get install guile-3.0",
    argv=lambda exe: [exe, "--no-auto-compile", "-q", "-L", str(HERE), "-c",
                      "(use-modules (lispex-witness serve)) (main)"],
    version_argv=lambda exe: [exe, "--version"],
    parse_version=lambda out: (out.splitlines()[0].rsplit(" ", 1)[-1]
                               if out.strip() else ""),
    # One GC marker thread: on a busy machine parallel markers wait on each other for cores,
    # which costs far more than it saves on these small programs.
    env={"GC_MARKERS": "1"},
)

if __name__ == "__main__":
    sys.exit(main(GUILE))
