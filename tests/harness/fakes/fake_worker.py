"""A test-only `lispex.court-worker/v1` product that misbehaves on request.

It answers like the real tree worker, except when the program text contains a trigger word:
`die-now` makes it kill itself mid-case, `hang-now` makes it stop answering, `spawn-child` makes
it start a grandchild process that would outlive a careless supervisor, `garbage-now` makes it
write a line that is not JSON.
"""

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))

from implementations.tree import TreeBackend  # noqa: E402
from implementations.worker import PeakRss, handle  # noqa: E402


def main() -> int:
    backend = TreeBackend()
    peak = PeakRss()
    for line in sys.stdin:
        req = json.loads(line)
        if req.get("op") == "shutdown":
            return 0
        src = req.get("source", "")
        if "die-now" in src:
            os.kill(os.getpid(), signal.SIGKILL)
        if "hang-now" in src:
            time.sleep(3600)
        if "spawn-child" in src:
            subprocess.Popen([sys.executable, "-c", "import time; time.sleep(3600)"])
        if "garbage-now" in src:
            sys.stdout.write("this is not json\n")
            sys.stdout.flush()
            continue
        reply = handle(req, backend, peak)
        if reply.get("implementation"):
            reply["implementation"] = "fake"
        sys.stdout.write(json.dumps(reply) + "\n")
        sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
