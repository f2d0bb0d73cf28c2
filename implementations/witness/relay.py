"""A witness relay: a court-worker/v1 worker that drives one long-lived Scheme process.

Each witness (``implementations/guile``, ``implementations/chez``, ``implementations/mit``) is
this relay with a :class:`Scheme` description: which binary, how to start it with the witness's
serve loop and prelude, and what its loop may print besides answers. Nothing here evaluates
Lispex: the relay frames each case for the Scheme over its stdin and turns the one JSON line it
answers into an observation. The Scheme starts once per worker (its prelude loaded once) and runs
every case in a fresh environment of its own making.

The framed protocol every serve loop speaks: a request is one header line
    RUN <source-bytes> <input-bytes or -1> <output-byte-limit>
followed by exactly that many bytes of source and input text; the answer is one line
    {"status": ..., "values": [...], "stdout": "...", "warnings": [...], "error": {...}|null}
A loop says READY on a line of its own when it is ready for the first request.

What a Scheme run cannot say is declared: the diagnostic code, phase and span (a Scheme has its
own errors, not Lispex's catalog) are ``uncomparable_axes``, and there are no meters.

The Scheme dies with the relay (a parent-death signal set before it runs any code) and shares
the relay's process group and address-space limit, so the supervisor's deadline and group kill
cover both, and a court killed by SIGKILL leaves neither behind.
"""

from __future__ import annotations

import argparse
import base64
import ctypes
import json
import os
import resource
import select
import shutil
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

SCHEMA = "lispex.court-worker/v1"
OBSERVATION_SCHEMA = "lispex.court-observation/v1"
UNCOMPARABLE = ["diagnostic_code", "diagnostic_phase", "diagnostic_span"]
DEFAULT_OUTPUT_LIMIT = 16777216
EXIT = {"ok": 0, "source-error": 1, "runtime-error": 1, "resource": 2}
# A Scheme does not say whether its reader or its expander refused a source: no phase (null, as
# the worker protocol allows), and the phase axis is declared uncomparable anyway.
PHASE = {"source-error": None, "runtime-error": "runtime", "resource": "resource"}
PR_SET_PDEATHSIG = 1
ANSWER = b'{"status":'
# A Scheme counts no machine transitions. Where a case has a machine-transition limit, the
# witness gets this much time per transition (far more than any Scheme needs for the work the
# limit allows) and at least BUDGET_FLOOR seconds; past it the case is the witness's resource
# outcome `time-budget`, and its Scheme is started afresh, instead of running on to the court's
# deadline and costing the campaign a whole worker.
SECONDS_PER_TRANSITION = 20e-6
BUDGET_FLOOR = 3.0


class OverBudget(Exception):
    pass


class SchemeMissing(Exception):
    pass


@dataclass
class Scheme:
    """How to run one witness Scheme."""

    name: str  # the product's implementation id: guile, chez, mit
    binaries: tuple[str, ...]  # the commands tried on PATH, in order
    install: str  # how to get it, for the message when it is missing
    argv: Callable[[str], list[str]]  # the command that starts the serve loop, given the binary
    version_argv: Callable[[str], list[str]]
    parse_version: Callable[[str], str]
    env: dict[str, str] = field(default_factory=dict)
    # Lines the Scheme prints outside the protocol when it abandons a case on its own (MIT's
    # "Aborting!: maximum recursion depth exceeded"): line prefix -> (status, error class). After
    # one, ``resume`` is written to the Scheme to re-enter the serve loop.
    aborts: dict[bytes, tuple[str, str]] = field(default_factory=dict)
    resume: bytes = b""
    # Text in a line that means the serve loop is gone (MIT's offer of restarts on an error):
    # the worker stops rather than let the Scheme read the next request as code.
    fatal: tuple[bytes, ...] = ()

    def binary(self) -> str:
        for name in self.binaries:
            exe = shutil.which(name)
            if exe is not None:
                return exe
        tried = " or ".join(repr(b) for b in self.binaries)
        raise SchemeMissing(f"command {tried} not found on PATH ({self.install})")

    @property
    def product_suffix(self) -> str:
        return "+lispex-witness-prelude"


def _die_with_parent(parent: int) -> Callable[[], None]:
    try:
        prctl = ctypes.CDLL(None, use_errno=True).prctl
    except (OSError, AttributeError):
        prctl = None

    def setup() -> None:
        if prctl is not None:
            prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
        if os.getppid() != parent:  # the relay died between fork and prctl
            os._exit(1)
    return setup


def version_of(scheme: Scheme, exe: str) -> str:
    try:
        done = subprocess.run(scheme.version_argv(exe), capture_output=True, text=True,
                              timeout=30, stdin=subprocess.DEVNULL,
                              preexec_fn=_die_with_parent(os.getpid()))
    except (OSError, subprocess.TimeoutExpired):
        return "unknown"
    return scheme.parse_version(done.stdout + done.stderr) or "unknown"


class Process:
    """The long-lived Scheme process and its framed pipe."""

    def __init__(self, scheme: Scheme) -> None:
        self.scheme = scheme
        self.exe = scheme.binary()
        self.version = version_of(scheme, self.exe)
        self.deadline: float | None = None
        self._start()

    def _start(self) -> None:
        self.proc = subprocess.Popen(self.scheme.argv(self.exe), stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=sys.stderr.fileno(),
                                     bufsize=0, env=dict(os.environ, **self.scheme.env),
                                     preexec_fn=_die_with_parent(os.getpid()))
        self._buf = bytearray()
        self.deadline = None
        self._wait_ready()

    def restart(self) -> None:
        self.proc.kill()
        self.proc.wait()
        self._start()

    def _read(self) -> bytes:
        assert self.proc.stdout is not None
        if self.deadline is not None:
            left = self.deadline - time.monotonic()
            if left <= 0 or not select.select([self.proc.stdout], [], [], left)[0]:
                raise OverBudget()
        chunk = os.read(self.proc.stdout.fileno(), 65536)
        if not chunk:
            raise RuntimeError(f"{self.scheme.name} exited (status {self.proc.wait()})")
        return chunk

    def _line(self) -> bytes:
        """The next line the Scheme prints, or an unfinished one that names an abort (MIT
        prints the newline after ";Aborting!: ..." only when it next writes)."""
        while True:
            end = self._buf.find(b"\n")
            if end >= 0:
                line, self._buf = self._buf[:end + 1], self._buf[end + 1:]
                return bytes(line)
            if self._abort(bytes(self._buf)) is not None:
                line, self._buf = self._buf, bytearray()
                return bytes(line)
            self._buf += self._read()

    def _abort(self, line: bytes) -> tuple[str, str] | None:
        text = line.strip().lstrip(b";")
        for prefix, outcome in self.scheme.aborts.items():
            if text.startswith(prefix):
                return outcome
        return None

    def _wait_ready(self) -> None:
        # Banners and prompts may come first; the loop's READY is a line of its own.
        for _ in range(1000):
            line = self._line()
            if line.strip().endswith(b"READY"):
                return
            self._check_fatal(line)
        raise RuntimeError(f"{self.scheme.name} did not start its loop")

    def _check_fatal(self, line: bytes) -> None:
        if any(f in line for f in self.scheme.fatal):
            raise RuntimeError(f"{self.scheme.name} left its serve loop: "
                               f"{line.decode('utf-8', 'replace').strip()}")

    def run(self, source: bytes, input_text: str | None, output_limit: int,
            budget: float | None = None) -> dict[str, Any]:
        """The Scheme's answer; past ``budget`` seconds, the `time-budget` resource outcome
        (and a fresh Scheme for the next case)."""
        self.deadline = time.monotonic() + budget if budget is not None else None
        try:
            return self._run(source, input_text, output_limit)
        except OverBudget:
            self.restart()
            return {"status": "resource", "values": [], "stdout": "", "warnings": [],
                    "error": {"class": "time-budget",
                              "message": f"no answer within {budget:.1f} s, the witness's "
                                         "stand-in for the machine-transition limit"}}
        finally:
            self.deadline = None

    def _run(self, source: bytes, input_text: str | None, output_limit: int) -> dict[str, Any]:
        assert self.proc.stdin is not None
        inp = input_text.encode("utf-8") if input_text is not None else b""
        header = f"RUN {len(source)} {len(inp) if input_text is not None else -1} " \
                 f"{output_limit}\n"
        self.proc.stdin.write(header.encode("ascii") + source + inp)
        self.proc.stdin.flush()
        while True:
            line = self._line()
            start = line.find(ANSWER)
            if start >= 0:
                return json.loads(line[start:])
            aborted = self._abort(line)
            if aborted is not None:
                self.proc.stdin.write(self.scheme.resume)
                self.proc.stdin.flush()
                self.deadline = None
                self._wait_ready()
                status, cls = aborted
                text = line.strip().lstrip(b";").decode("utf-8", "replace")
                return {"status": status, "values": [], "stdout": "", "warnings": [],
                        "error": {"class": cls, "message": text}}
            self._check_fatal(line)
            # Anything else the Scheme prints (a prompt, a compiler's note) is not an answer.
            if line.strip():
                sys.stderr.write(f"{self.scheme.name}: {line.decode('utf-8', 'replace')}")


def observation(name: str, answer: dict[str, Any], product_id: str) -> dict[str, Any]:
    status = answer["status"]
    diagnostics = []
    if status != "ok":
        err = answer.get("error") or {}
        code = f"{name}:" + str(err.get("class", "error"))
        diagnostics.append({"code": code, "severity": "error", "phase": PHASE.get(status),
                            "message": err.get("message", ""), "irritants": [], "span": None})
    resource_outcome: dict[str, Any] = {"status": "within-limits"}
    if status == "resource":
        limit = (answer.get("error") or {}).get("class", "unknown")
        resource_outcome = {"status": "limit-exceeded", "limit": limit, "code": limit}
    return {
        "schema": OBSERVATION_SCHEMA,
        "implementation": name,
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
        "products": {"product_id": product_id},
        "uncomparable_axes": list(UNCOMPARABLE),
    }


def handle(req: dict[str, Any], scheme: Process, product_id: str) -> dict[str, Any]:
    name = scheme.scheme.name
    op = req.get("op")
    rid = req.get("id")
    if op == "hello":
        return {"id": rid, "ok": True, "schema": SCHEMA, "implementation": name,
                "product_id": product_id, "pid": os.getpid(), "rss_method": None}
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
        transitions = limits.get("machine-transition")
        budget = None if transitions is None else \
            max(BUDGET_FLOOR, int(transitions) * SECONDS_PER_TRANSITION)
        input_text = req.get("input")
        if input_text is not None and not isinstance(input_text, str):
            raise TypeError("input must be a string or null")
    except (KeyError, ValueError, AttributeError, TypeError) as e:
        return {"id": rid, "ok": False, "error": {"kind": "bad-request", "message": str(e)}}
    wall0 = time.perf_counter()
    answer = scheme.run(source, input_text, output_limit, budget)
    if answer["status"] == "input-error":
        return {"id": rid, "ok": False,
                "error": {"kind": "input-error",
                          "message": (answer.get("error") or {}).get("message", "")}}
    if answer["status"] not in EXIT:
        return {"id": rid, "ok": False,
                "error": {"kind": "protocol", "message": f"{name} answered {answer['status']}"}}
    obs = observation(name, answer, product_id)
    obs["resources"]["wall_seconds"] = time.perf_counter() - wall0
    return {"id": rid, "ok": True, "observation": obs}


def _exit_with_parent() -> None:
    # The court sets a parent-death signal on this relay; this watch covers a court started
    # some other way (by hand, by a test) that dies without one.
    parent = os.getppid()

    def watch() -> None:
        while True:
            time.sleep(0.5)
            if os.getppid() != parent:
                os._exit(3)

    threading.Thread(target=watch, daemon=True, name="parent-watch").start()


def serve(scheme: Scheme) -> int:
    proto = os.fdopen(os.dup(sys.stdout.fileno()), "w", encoding="utf-8", buffering=1)
    os.dup2(sys.stderr.fileno(), sys.stdout.fileno())
    try:
        process = Process(scheme)
    except (SchemeMissing, OSError, RuntimeError) as e:
        # Answer the hello with the reason, so the court reports it as a build fault.
        for line in sys.stdin:
            try:
                rid = json.loads(line).get("id")
            except (ValueError, AttributeError):
                rid = None
            proto.write(json.dumps({"id": rid, "ok": False,
                                    "error": {"kind": "build", "message": str(e)}}) + "\n")
        return 3
    product_id = f"{scheme.name}-{process.version}{scheme.product_suffix}"
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
            reply = handle(req, process, product_id)
        except (RuntimeError, ValueError, OSError) as e:
            # The Scheme died or spoke garbage: this worker is finished; the supervisor sees the
            # exit.
            print(f"{scheme.name} witness: {e}", file=sys.stderr)
            return 3
        proto.write(json.dumps(reply, ensure_ascii=False) + "\n")
    return 0


def main(scheme: Scheme, argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog=f"python -m implementations.{scheme.name}.worker")
    p.add_argument("--impl", default=scheme.name, choices=[scheme.name])
    p.add_argument("--memory-limit", type=int, default=0,
                   help=f"address-space limit in bytes (RLIMIT_AS), shared with {scheme.name}")
    args = p.parse_args(argv)
    if args.memory_limit:
        resource.setrlimit(resource.RLIMIT_AS, (args.memory_limit, args.memory_limit))
    _exit_with_parent()
    return serve(scheme)
