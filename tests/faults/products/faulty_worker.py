"""A test-only `lispex.court-worker/v1` product with one fault, chosen by `--mode`, that it
commits on every case whose source holds `FAULT`; other cases it answers correctly.

Modes: null, list, no-observation, wrong-types, wrong-id (malformed replies), killed-mid-write, huge-reply
(a correct reply of 8 MiB), setsid, double-fork (processes left behind), exit3, memory, hang,
segv (killed by SIGSEGV), relay-segv (as a relay whose engine died by SIGSEGV), killed-once
(killed on the first FAULT case only, as a kill from outside would be: the file named by
$FAULTY_ONCE_FILE records that it happened).
"""

import argparse
import json
import os
import signal
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import (  # noqa: E402
    double_fork_daemon,
    exhaust_memory,
    observation,
    relay_of_a_segfault,
    setsid_grandchild,
)


def reply_for(mode: str, req: dict) -> object:
    rid = req["id"]
    good = {"id": rid, "ok": True, "observation": observation(req.get("source", ""))}
    if "FAULT" not in req.get("source", ""):
        return good
    if mode == "null":
        return None
    if mode == "list":
        return [rid, True]
    if mode == "wrong-id":
        good["id"] = rid + 1000
        return good
    if mode == "no-observation":
        return {"id": rid, "ok": True}
    if mode == "wrong-types":
        good["observation"]["semantic"]["values"] = "7"
        good["observation"]["semantic"]["exit_status"] = "0"
        return good
    if mode == "killed-mid-write":
        sys.stdout.write(json.dumps(good)[:20])
        sys.stdout.flush()
        os.kill(os.getpid(), signal.SIGKILL)
    if mode == "killed-once":
        marker = os.environ["FAULTY_ONCE_FILE"]
        if os.path.exists(marker):
            return good
        open(marker, "w").close()
        os.kill(os.getpid(), signal.SIGKILL)
    if mode == "huge-reply":
        good["observation"]["resources"]["padding"] = "x" * (8 << 20)
        return good
    if mode == "setsid":
        setsid_grandchild()
        return good
    if mode == "double-fork":
        double_fork_daemon()
        return good
    if mode == "exit3":
        sys.exit(3)
    if mode == "memory":
        exhaust_memory()
    if mode == "relay-segv":
        relay_of_a_segfault()
    if mode == "segv":
        os.kill(os.getpid(), signal.SIGSEGV)
    if mode == "hang":
        time.sleep(600)
    raise SystemExit(f"unknown mode {mode}")


def main() -> int:
    p = argparse.ArgumentParser()
    p.add_argument("--mode", required=True)
    mode = p.parse_args().mode
    for line in sys.stdin:
        req = json.loads(line)
        if req.get("op") == "shutdown":
            return 0
        if req.get("op") == "hello":
            reply = {"id": req.get("id"), "ok": True, "schema": "lispex.court-worker/v1",
                     "product_id": "f" * 64, "rss_method": None, "pid": os.getpid()}
        else:
            reply = reply_for(mode, req)
        sys.stdout.write(json.dumps(reply) + "\n")
        sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
