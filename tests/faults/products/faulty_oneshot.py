"""A test-only one-shot product: `faulty_oneshot.py MODE FILE` prints one observation
(`observation-json`) or a `lispex run`-style transcript (mode `cli`, `lispex-cli`), and commits
its fault when the program holds `FAULT`.

Modes: exit3, values-none, null, killed, setsid, double-fork, memory, relay-segv (as a relay
whose engine died by SIGSEGV) (observation-json); cli
(a correct transcript, a wrong one on FAULT cases); settings (prints what it was given).
"""

import json
import os
import signal
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import (  # noqa: E402
    double_fork_daemon,
    exhaust_memory,
    observation,
    relay_of_a_segfault,
    setsid_grandchild,
)


def main() -> int:
    mode, path = sys.argv[1], sys.argv[2]
    with open(path, encoding="utf-8") as f:
        source = f.read()
    obs = observation(source)
    if mode == "cli":
        values = obs["semantic"]["values"]
        if "FAULT" in source:
            values = ["wrong"]
        sys.stdout.write("".join(v + "\n" for v in values))
        return 0
    if mode == "settings":
        obs["semantic"]["values"] = [json.dumps(
            {"argv": sys.argv[3:], "profile": os.environ.get("LISPEX_PROFILE"),
             "limits": os.environ.get("LISPEX_LIMITS"),
             "filename": os.environ.get("LISPEX_FILENAME"), "file": os.path.basename(path)},
            sort_keys=True)]
    elif "FAULT" in source:
        if mode == "exit3":
            return 3
        if mode == "values-none":
            obs["semantic"]["values"] = None
        if mode == "null":
            obs = None
        if mode == "killed":
            sys.stdout.write(json.dumps(obs)[:30])
            sys.stdout.flush()
            os.kill(os.getpid(), signal.SIGKILL)
        if mode == "setsid":
            setsid_grandchild()
        if mode == "double-fork":
            double_fork_daemon()
        if mode == "relay-segv":
            relay_of_a_segfault()
        if mode == "memory":
            exhaust_memory()
    sys.stdout.write(json.dumps(obs) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
