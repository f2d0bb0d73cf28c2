"""The witness worker: GNU Guile 3.0 running Lispex programs, behind `lispex.court-worker/v1`.

    python -m implementations.guile.worker [--memory-limit BYTES]

The court speaks court-worker/v1 to this relay; the relay keeps one long-lived Guile process
(``lispex-witness/serve.scm`` with its prelude) and hands it each case over a small framed pipe.
Nothing here evaluates Lispex: the relay only frames requests and turns Guile's answer into an
observation. It shares no code with the Lispex kernel, on purpose: the witness is worth something
only because nobody here wrote the Scheme it runs on.

What a Guile run cannot say is declared: the diagnostic code, phase and span (Guile has its own
errors, not Lispex's catalog) are ``uncomparable_axes``, and there are no meters. The comparison
then rests on the status class, the values, the output and the warnings.

The relay and Guile share one process group and one address-space limit; the supervisor's
deadline and group kill cover both.
"""

from __future__ import annotations

import argparse
import base64
import json
import os
import resource
import shutil
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

SCHEMA = "lispex.court-worker/v1"
OBSERVATION_SCHEMA = "lispex.court-observation/v1"
HERE = Path(__file__).resolve().parent
UNCOMPARABLE = ["diagnostic_code", "diagnostic_phase", "diagnostic_span"]
DEFAULT_OUTPUT_LIMIT = 16777216
EXIT = {"ok": 0, "source-error": 1, "runtime-error": 1, "resource": 2}
# Guile does not say whether its reader or its expander refused a source: no phase (null, as the
# worker protocol allows), and the phase axis is declared uncomparable anyway.
PHASE = {"source-error": None, "runtime-error": "runtime", "resource": "resource"}


class GuileMissing(Exception):
    pass


def guile_command() -> list[str]:
    exe = shutil.which("guile")
    if exe is None:
        raise GuileMissing("command 'guile' not found on PATH (Debian: apt-get install guile-3.0)")
    return [exe, "--no-auto-compile", "-q", "-L", str(HERE), "-c",
            "(use-modules (lispex-witness serve)) (main)"]


def guile_version() -> str:
    try:
        out = subprocess.run([shutil.which("guile") or "guile", "--version"],
                             capture_output=True, text=True, timeout=30).stdout
    except (OSError, subprocess.TimeoutExpired):
        return "unknown"
    first = out.splitlines()[0] if out else ""
    return first.rsplit(" ", 1)[-1] if first else "unknown"


class Guile:
    """The long-lived Guile process and its framed pipe."""

    def __init__(self) -> None:
        # One GC marker thread: on a busy machine parallel markers wait on each other for
        # cores, which costs far more than it saves on these small programs.
        env = dict(os.environ, GC_MARKERS="1")
        self.proc = subprocess.Popen(guile_command(), stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=sys.stderr.fileno(),
                                     bufsize=0, env=env)
        assert self.proc.stdout is not None
        ready = self.proc.stdout.readline()
        if ready.strip() != b"READY":
            raise RuntimeError(f"guile did not start its loop: {ready[:200]!r}")

    def run(self, source: bytes, input_text: str | None, output_limit: int) -> dict[str, Any]:
        assert self.proc.stdin is not None and self.proc.stdout is not None
        inp = input_text.encode("utf-8") if input_text is not None else b""
        header = f"RUN {len(source)} {len(inp) if input_text is not None else -1} " \
                 f"{output_limit}\n"
        self.proc.stdin.write(header.encode("ascii") + source + inp)
        self.proc.stdin.flush()
        line = self.proc.stdout.readline()
        if not line:
            raise RuntimeError(f"guile exited (status {self.proc.wait()})")
        return json.loads(line)


def observation(answer: dict[str, Any], filename: str, version: str) -> dict[str, Any]:
    status = answer["status"]
    diagnostics = []
    if status != "ok":
        err = answer.get("error") or {}
        code = "guile:" + str(err.get("class", "error"))
        diagnostics.append({"code": code, "severity": "error", "phase": PHASE.get(status),
                            "message": err.get("message", ""), "irritants": [], "span": None})
    resource_outcome: dict[str, Any] = {"status": "within-limits"}
    if status == "resource":
        limit = (answer.get("error") or {}).get("class", "unknown")
        resource_outcome = {"status": "limit-exceeded", "limit": limit, "code": limit}
    return {
        "schema": OBSERVATION_SCHEMA,
        "implementation": "guile",
        "semantic": {
            "status": status,
            "values": answer["values"] if status == "ok" else [],
            "stdout": answer["stdout"],
            "exit_status": EXIT[status],
            "diagnostics": diagnostics,
            "warnings": [{"code": c, "severity": "warning", "phase": "runtime", "message": c,
                          "irritants": [], "span": None} for c in answer["warnings"]],
            "resource_outcome": resource_outcome,
        },
        "resources": {},
        "products": {"product_id": f"guile-{version}+lispex-witness-prelude"},
        "uncomparable_axes": list(UNCOMPARABLE),
    }


def handle(req: dict[str, Any], guile: Guile, version: str) -> dict[str, Any]:
    op = req.get("op")
    rid = req.get("id")
    if op == "hello":
        return {"id": rid, "ok": True, "schema": SCHEMA, "implementation": "guile",
                "product_id": f"guile-{version}+lispex-witness-prelude", "pid": os.getpid(),
                "rss_method": None}
    if op != "run":
        return {"id": rid, "ok": False,
                "error": {"kind": "bad-request", "message": f"unknown op {op!r}"}}
    try:
        if "source_b64" in req:
            source = base64.b64decode(req["source_b64"])
        else:
            source = req["source"].encode("utf-8")
        limits = req.get("limits") or {}
        output_limit = int(limits.get("output-byte", DEFAULT_OUTPUT_LIMIT))
        input_text = req.get("input")
        if input_text is not None and not isinstance(input_text, str):
            raise TypeError("input must be a string or null")
    except (KeyError, ValueError, AttributeError, TypeError) as e:
        return {"id": rid, "ok": False, "error": {"kind": "bad-request", "message": str(e)}}
    wall0 = time.perf_counter()
    answer = guile.run(source, input_text, output_limit)
    if answer["status"] == "input-error":
        return {"id": rid, "ok": False,
                "error": {"kind": "input-error",
                          "message": (answer.get("error") or {}).get("message", "")}}
    if answer["status"] not in EXIT:
        return {"id": rid, "ok": False,
                "error": {"kind": "protocol", "message": f"guile answered {answer['status']}"}}
    obs = observation(answer, str(req.get("filename") or "program.lspx"), version)
    obs["resources"]["wall_seconds"] = time.perf_counter() - wall0
    return {"id": rid, "ok": True, "observation": obs}


def _exit_with_parent() -> None:
    parent = os.getppid()

    def watch() -> None:
        while True:
            time.sleep(0.5)
            if os.getppid() != parent:
                os._exit(3)

    threading.Thread(target=watch, daemon=True, name="parent-watch").start()


def serve() -> int:
    _exit_with_parent()
    proto = os.fdopen(os.dup(sys.stdout.fileno()), "w", encoding="utf-8", buffering=1)
    os.dup2(sys.stderr.fileno(), sys.stdout.fileno())
    try:
        guile = Guile()
    except (GuileMissing, OSError, RuntimeError) as e:
        # Answer the hello with the reason, so the court reports it as a build fault.
        for line in sys.stdin:
            try:
                rid = json.loads(line).get("id")
            except (ValueError, AttributeError):
                rid = None
            proto.write(json.dumps({"id": rid, "ok": False,
                                    "error": {"kind": "build", "message": str(e)}}) + "\n")
        return 3
    version = guile_version()
    for line in sys.stdin:
        if not line.strip():
            continue
        try:
            req = json.loads(line)
            if not isinstance(req, dict):
                raise ValueError("a request must be a JSON object")
        except ValueError as e:
            proto.write(json.dumps({"id": None, "ok": False,
                                    "error": {"kind": "bad-request", "message": str(e)}}) + "\n")
            continue
        if req.get("op") == "shutdown":
            break
        try:
            reply = handle(req, guile, version)
        except (RuntimeError, ValueError, OSError) as e:
            # Guile died or spoke garbage: this worker is finished; the supervisor sees the exit.
            print(f"guile witness: {e}", file=sys.stderr)
            return 3
        proto.write(json.dumps(reply, ensure_ascii=False) + "\n")
    return 0


def main() -> int:
    p = argparse.ArgumentParser(prog="python -m implementations.guile.worker")
    p.add_argument("--impl", default="guile", choices=["guile"])
    p.add_argument("--memory-limit", type=int, default=0,
                   help="address-space limit in bytes (RLIMIT_AS), shared with Guile")
    args = p.parse_args()
    if args.memory_limit:
        resource.setrlimit(resource.RLIMIT_AS, (args.memory_limit, args.memory_limit))
    return serve()


if __name__ == "__main__":
    sys.exit(main())
