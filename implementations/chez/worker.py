"""The Chez Scheme witness worker: Chez Scheme 9.5 running Lispex programs, behind court-worker/v1.

    python -m implementations.chez.worker [--memory-limit BYTES]

The relay (implementations/witness/relay.py) keeps one long-lived Chez process running the
portable prelude (implementations/witness/scheme/lispex-core.scm) and
``lispex-witness/serve.ss``, and hands it each case.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

from implementations.witness.relay import Scheme, main

HERE = Path(__file__).resolve().parent
CORE = HERE.parent / "witness" / "scheme" / "lispex-core.scm"

CHEZ = Scheme(
    name="chez",
    # Debian's chezscheme package installs the command as `scheme` and as `chezscheme`.
    binaries=("scheme", "chezscheme"),
    install="Debian: apt-get install chezscheme",
    argv=lambda exe: [exe, "-q", str(CORE), str(HERE / "lispex-witness" / "serve.ss")],
    version_argv=lambda exe: [exe, "--version"],
    parse_version=lambda out: (m.group(0) if (m := re.search(r"\d+(\.\d+)+", out)) else ""),
)

if __name__ == "__main__":
    sys.exit(main(CHEZ))
