"""Worker processes and their supervision: start, request with a deadline, kill, respawn.

The supervisor owns everything about a worker that the worker itself cannot be trusted with:
the wall-clock deadline of each case, the address-space limit, crash and hang detection, recycling
after N cases, and a clean death for the whole process group (TERM, a grace period, KILL, then a
psutil check that no descendant survived).
"""

from __future__ import annotations

import json
import os
import queue
import re
import resource
import signal
import subprocess
import sys
import threading
import time
from dataclasses import dataclass
from typing import Any

import psutil

from . import reaper
from .products import Product
from .worker_protocol import check_hello

STARTUP_TIMEOUT = 30.0
# What a process's standard error says when it ran out of memory under RLIMIT_AS: CPython, Rust,
# C++, glibc/strerror, Go, the JVM. Evidence for a `memory-limit` fault instead of a crash.
OUT_OF_MEMORY = re.compile(r"MemoryError|memory allocation of \d+ bytes failed|out of memory|"
                           r"bad_alloc|Cannot allocate memory|OutOfMemoryError", re.I)
KILL_GRACE = 0.5


class Fault(Exception):
    """An infrastructure failure of one member: kind is build, timeout, crash (killed by a
    signal), exit (exited with a status its protocol does not allow), protocol, memory-limit or
    cleanup."""

    def __init__(self, kind: str, message: str) -> None:
        super().__init__(f"{kind}: {message}")
        self.kind = kind
        self.message = message

    def to_json(self) -> dict[str, str]:
        return {"kind": self.kind, "message": self.message}


@dataclass
class Limits:
    """What every member of a court runs under, the same for all."""

    timeout: float = 10.0  # wall-clock seconds per case
    memory_bytes: int = 2 << 30  # RLIMIT_AS of each worker
    profile: str | None = None
    meter_limits: dict[str, int] | None = None


def _limit_memory(nbytes: int):
    def apply() -> None:
        if nbytes:
            resource.setrlimit(resource.RLIMIT_AS, (nbytes, nbytes))
    return apply


def kill_group(proc: subprocess.Popen, grace: float = KILL_GRACE) -> list[str]:
    """Stop a process and every descendant. Returns cleanup problems (empty when all died)."""
    problems: list[str] = []
    try:
        family = [psutil.Process(proc.pid)]
        family += family[0].children(recursive=True)
    except psutil.Error:
        family = []
    for sig in (signal.SIGTERM, signal.SIGKILL):
        try:
            os.killpg(proc.pid, sig)
        except (ProcessLookupError, PermissionError):
            pass
        try:
            proc.wait(timeout=grace)
        except subprocess.TimeoutExpired:
            continue
        _, alive = psutil.wait_procs(family, timeout=grace)
        if not alive:
            break
    else:
        proc.wait(timeout=grace)
    _, alive = psutil.wait_procs(family, timeout=0.1)
    for p in alive:
        if p.pid == proc.pid:  # Popen reaps its own process
            problems.append(f"process {p.pid} survived SIGKILL")
            continue
        # It left the group (setsid, a double fork); as the subreaper the court now owns it.
        problems.append(f"descendant {p.pid} survived the group kill (it had left the process "
                        "group); it was killed")
        reaper._kill_and_reap(p)
    for stream in (proc.stdin, proc.stdout, proc.stderr):
        if stream:
            try:
                stream.close()
            except OSError:
                pass
    return problems


def _json_kind(x: Any) -> str:
    if x is None:
        return "null"
    return {list: "a list", str: "a string", bool: "a boolean", int: "a number",
            float: "a number"}.get(type(x), type(x).__name__)


class WorkerProcess:
    """One long-lived `lispex.court-worker/v1` worker for one product."""

    def __init__(self, product: Product, limits: Limits, recycle_after: int = 500) -> None:
        self.product = product
        self.limits = limits
        self.recycle_after = recycle_after
        self.proc: subprocess.Popen | None = None
        self.replies: queue.Queue = queue.Queue()
        self.stderr_tail: list[str] = []
        self.cases = 0
        self.product_id: str | None = None
        self.rss_method: str | None = None
        self.next_id = 0
        self.token = ""
        self.stderr_reader: threading.Thread | None = None
        self.cleanup_problems: list[str] = []  # strays found since the caller last took them

    def command(self) -> list[str]:
        if self.product.worker_module:
            return [sys.executable, "-m", self.product.worker_module, "--impl",
                    str(self.product.impl), "--memory-limit", str(self.limits.memory_bytes)]
        return list(self.product.command)

    def start(self) -> None:
        self.token = reaper.new_token(self.product.id)
        try:
            # Our own workers set their limit themselves (after start-up); a foreign one gets it
            # from the court before it runs any code.
            self.proc = reaper.popen(
                self.command(), self.token, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                stderr=subprocess.PIPE, bufsize=0,
                memory_bytes=0 if self.product.worker_module else self.limits.memory_bytes)
        except OSError as e:
            raise Fault("build", f"cannot start {self.product.id}: {e}") from None
        self.replies = queue.Queue()
        self.stderr_tail = []
        threading.Thread(target=self._read_stdout, args=(self.proc, self.replies),
                         daemon=True).start()
        self.stderr_reader = threading.Thread(target=self._read_stderr, args=(self.proc,),
                                              daemon=True)
        self.stderr_reader.start()
        self.cases = 0
        hello = self.request({"op": "hello"}, STARTUP_TIMEOUT)
        if hello.get("ok") is False:
            self.stop()
            raise Fault("build", f"{self.product.id} refused hello: {hello.get('error')}")
        problem = check_hello(hello)
        if problem:
            self.stop()
            raise Fault("protocol", f"{self.product.id} answered hello wrongly: {problem}")
        self.product_id = hello.get("product_id")
        self.rss_method = hello.get("rss_method")

    @staticmethod
    def _read_stdout(proc: subprocess.Popen, q: queue.Queue) -> None:
        try:
            for line in proc.stdout:  # type: ignore[union-attr]
                q.put(line)
        except (OSError, ValueError):  # the stream was closed under us: the worker was killed
            pass
        q.put(None)  # EOF: the worker died or closed its end

    def _read_stderr(self, proc: subprocess.Popen) -> None:
        try:
            for line in proc.stderr:  # type: ignore[union-attr]
                self.stderr_tail.append(line.decode("utf-8", "replace").rstrip())
                del self.stderr_tail[:-20]
        except (OSError, ValueError):
            pass

    def alive(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def request(self, msg: dict[str, Any], timeout: float) -> dict[str, Any]:
        """Send one request and wait for its reply. Raises Fault on timeout, crash or garbage;
        the worker is then dead (killed here) and the next request respawns it."""
        if not self.alive():
            self.start()
        assert self.proc is not None and self.proc.stdin is not None
        self.next_id += 1
        msg = dict(msg, id=self.next_id)
        try:
            self.proc.stdin.write((json.dumps(msg, ensure_ascii=False) + "\n").encode("utf-8"))
            self.proc.stdin.flush()
        except (BrokenPipeError, OSError):
            kind, words = self._last_words()
            self._reap()
            raise Fault(kind, f"{self.product.id} worker {words} before the request") from None
        deadline = time.monotonic() + timeout
        while True:
            remaining = deadline - time.monotonic()
            try:
                line = self.replies.get(timeout=max(remaining, 0))
            except queue.Empty:
                self._reap()
                raise Fault("timeout", f"no answer from {self.product.id} within "
                                       f"{timeout:g} s; the worker was killed") from None
            if line is None or not line.endswith(b"\n"):
                # EOF, or a last line cut off by the worker's death: how it ended says what
                # happened, not the fragment.
                kind, words = self._last_words()
                self._reap()
                raise Fault(kind, f"{self.product.id} worker {words} mid-case")
            try:
                reply = json.loads(line)
            except ValueError:
                self._reap()
                raise Fault("protocol", f"{self.product.id} worker wrote a line that is not "
                                        "JSON") from None
            if not isinstance(reply, dict):
                self._reap()
                raise Fault("protocol", f"{self.product.id} worker answered with "
                                        f"{_json_kind(reply)}, not a reply object; the worker "
                                        "was restarted")
            if reply.get("id") == msg["id"] or (msg["op"] == "hello" and "id" not in reply):
                return reply
            if not (reply.get("ok") is False and reply.get("id") is None):
                self._reap()
                raise Fault("protocol", f"{self.product.id} worker answered id "
                                        f"{reply.get('id')!r} to request {msg['id']}; the "
                                        "worker was restarted")
            # `"id": null, "ok": false` answers a line the worker could not read: not ours.

    def run(self, request: dict[str, Any]) -> dict[str, Any]:
        if self.cases >= self.recycle_after:
            self.stop()
        reply = self.request(request, self.limits.timeout)
        self.cases += 1
        if self.proc is not None:
            if not self.product.worker_module:
                self.cleanup_problems += reaper.note_descendants(self.token, self.proc.pid,
                                                                 self.product.id)
            self.cleanup_problems += reaper.sweep(self.token, self.product.id)
        if not reply.get("ok") and (reply.get("error") or {}).get("kind") == "memory-limit":
            self._reap()
        return reply

    def _last_words(self) -> tuple[str, str]:
        """(fault kind, what happened) for a worker that closed its output: waits for the
        process first, so that a killed worker is described by its signal, never as running."""
        code = None
        if self.proc is not None:
            try:
                code = self.proc.wait(timeout=2.0)
            except subprocess.TimeoutExpired:
                code = None
        if code is not None and self.stderr_reader is not None:
            self.stderr_reader.join(timeout=1.0)  # its last words, written just before it died
        last = self.stderr_tail[-3:]
        tail = f" (stderr: {'; '.join(last)[:300]})" if last else ""
        if code is not None and code != 0 and OUT_OF_MEMORY.search("\n".join(self.stderr_tail)):
            return "memory-limit", f"ran out of memory (exit status {code}){tail}"
        if code is None:
            return "protocol", f"closed its output but did not exit{tail}"
        if code < 0:
            try:
                name = signal.Signals(-code).name
            except ValueError:
                name = f"signal {-code}"
            return "crash", f"was killed by {name}{tail}"
        return "exit", f"exited with status {code}{tail}"

    def take_cleanup(self) -> list[str]:
        out, self.cleanup_problems = self.cleanup_problems, []
        return out

    def _reap(self) -> list[str]:
        problems: list[str] = []
        if self.proc is not None:
            problems = kill_group(self.proc)
            self.proc = None
            problems += reaper.sweep(self.token, self.product.id, final=True)
            reaper.forget(self.token)
        self.cleanup_problems += problems
        return problems

    def stop(self) -> list[str]:
        """Ask politely, then make sure. Returns cleanup problems."""
        if self.proc is None:
            return []
        if self.proc.poll() is None and self.proc.stdin is not None:
            try:
                self.proc.stdin.write(b'{"op": "shutdown"}\n')
                self.proc.stdin.flush()
                self.proc.wait(timeout=1.0)
            except (OSError, subprocess.TimeoutExpired):
                pass
        return self._reap()
