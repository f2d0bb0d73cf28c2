"""What the test-only products answer when they behave: the generated corpus's programs are all
`(+ N 1)` with an optional `; FAULT` comment, so the right answer needs no evaluator."""

import re


def observation(source: str) -> dict:
    m = re.search(r"\(\+ (\d+) 1\)", source)
    values = [str(int(m[1]) + 1)] if m else []
    return {"schema": "lispex.court-observation/v1", "implementation": "faulty",
            "semantic": {"status": "ok", "values": values, "stdout": "", "exit_status": 0,
                         "diagnostics": [], "warnings": [],
                         "resource_outcome": {"status": "within-limits"}},
            "resources": {}, "products": {"product_id": "f" * 64}}


def exhaust_memory() -> None:
    """Allocate until the address-space limit the court set is reached (MemoryError)."""
    hoard = []
    while True:
        hoard.append(bytearray(16 << 20))


def setsid_grandchild() -> None:
    import os
    import subprocess
    import sys

    subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)"],
                     start_new_session=True, stdin=subprocess.DEVNULL,
                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    del os


def double_fork_daemon() -> None:
    """The classic daemon: fork, setsid, fork again, the middle process exits; returns once the
    daemon's parent is gone (so the daemon is already an orphan)."""
    import os
    import time

    pid = os.fork()
    if pid == 0:
        os.setsid()
        if os.fork() == 0:
            devnull = os.open(os.devnull, os.O_RDWR)
            for fd in (0, 1, 2):
                os.dup2(devnull, fd)
            time.sleep(600)
        os._exit(0)
    os.waitpid(pid, 0)


def relay_of_a_segfault() -> None:
    """What a relay does when the process it drives dies by a signal (the Guile witness's relay
    says so on its standard error, then exits 3)."""
    import subprocess
    import sys

    code = subprocess.run([sys.executable, "-c",
                           "import os, signal; os.kill(os.getpid(), signal.SIGSEGV)"]).returncode
    print(f"guile witness: guile exited (status {code})", file=sys.stderr, flush=True)
    sys.exit(3)
