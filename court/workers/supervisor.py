"""Worker processes and their supervision: start, request with a deadline, kill, respawn.

The supervisor owns everything about a worker that the worker itself cannot be trusted with:
the wall-clock deadline of each case, the address-space limit, crash and hang detection, recycling
after N cases, and a clean death for the whole process group (TERM, a grace period, KILL, then a
psutil check that no descendant survived).
"""

from __future__ import annotations

import json
import os
import select
import subprocess
import sys
import threading
import time
from typing import Any

from ..catalog import Product
from . import reaper
from .bounds import CHUNK, answer_cap, relayed_signal, signal_name, too_long
from .faults import OUT_OF_MEMORY, Fault
from .limits import Limits
from .protocol import check_hello
from .reaper import kill_group

STARTUP_TIMEOUT = 30.0
# One encoder and one decoder for every message (json.dumps and json.loads rebuild or re-check
# theirs on each call); requests are built here and hold no cycles to check for.
_encode = json.JSONEncoder(ensure_ascii=False, check_circular=False).encode
_encode_ascii = json.JSONEncoder(check_circular=False).encode
_decode = json.JSONDecoder().decode


def _json_kind(x: Any) -> str:
    if x is None:
        return "null"
    return {list: "a list", str: "a string", bool: "a boolean", int: "a number",
            float: "a number"}.get(type(x), type(x).__name__)


class WorkerProcess:
    """One long-lived `lispex.court-worker/v1` worker for one product.

    A shipped implementation's worker is forked from the warm worker template (forkserver.py);
    any other product's worker is its own process. Either way one request is one write of one
    encoded line, and its reply is read in large chunks from the worker's stdout (its stderr is
    drained in the same poll, for the last words of a crash) by the requesting thread itself: no
    reader thread, no queue hand-off per case.
    """

    def __init__(self, product: Product, limits: Limits, recycle_after: int = 500) -> None:
        self.product = product
        self.limits = limits
        self.recycle_after = recycle_after
        self.proc: Any = None  # subprocess.Popen or forkserver.ForkedProcess
        self.stderr_tail: list[str] = []
        self.cases = 0
        self.product_id: str | None = None
        self.rss_method: str | None = None
        self.next_id = 0
        self.preload: tuple[str, ...] = ()  # what a template started for this worker loads
        self.last_exit: int | None = None
        self.start_fault: Fault | None = None  # from a start begun ahead of the first request
        self.lock = threading.RLock()
        self._hello: int | None = None
        self._pending: tuple[int, dict[str, Any], float, float] | None = None  # prefetched
        self._out = bytearray()
        self._scan = 0
        self._err = bytearray()
        self._fds: tuple[int, int, int] = (-1, -1, -1)
        self._poller: Any = None
        self.token = ""  # marks every process this worker's product starts (reaper.py)
        self.cleanup_problems: list[str] = []  # strays found since the caller last took them

    def command(self) -> list[str]:
        if self.product.worker_module:
            return [sys.executable, "-m", self.product.worker_module, "--impl",
                    str(self.product.impl), "--memory-limit", str(self.limits.memory_bytes)]
        return list(self.product.command)

    def _spawn(self) -> None:
        from . import forkserver

        impl = forkserver.builtin_impl(self.product)
        self.proc = None
        self.last_exit = None
        if impl is not None and forkserver.enabled():
            try:
                self.proc = forkserver.fork(impl, self.limits.memory_bytes,
                                            self.preload or (impl,))
            except forkserver.ForkServerError:
                self.proc = None  # start an interpreter instead, as without a template
        if self.proc is None:
            self.token = reaper.new_token(self.product.id)
            try:
                # Our own workers set their limit themselves (after start-up); a foreign one
                # gets it from the court before it runs any code.
                self.proc = reaper.popen(
                    self.command(), self.token, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                    stderr=subprocess.PIPE, bufsize=0,
                    memory_bytes=0 if self.product.worker_module else self.limits.memory_bytes)
            except OSError as e:
                raise Fault("build", f"cannot start {self.product.id}: {e}") from None
        fds = (self.proc.stdin.fileno(), self.proc.stdout.fileno(), self.proc.stderr.fileno())
        self._fds = fds
        os.set_blocking(fds[0], False)
        self._poller = select.poll()
        self._poller.register(fds[1], select.POLLIN)
        self._poller.register(fds[2], select.POLLIN)
        self._out = bytearray()
        self._scan = 0
        self._err = bytearray()
        self.stderr_tail = []
        self.cases = 0

    def launch(self) -> None:
        """Start the worker and send its hello without waiting for the answer, so that the
        members of a court start at once; :meth:`finish_start` collects the answer."""
        with self.lock:
            if self.alive() or self._hello is not None:
                return
            self.start_fault = None
            self._spawn()
            self._hello = self._send({"op": "hello"}, time.monotonic() + STARTUP_TIMEOUT)

    def finish_start(self) -> None:
        with self.lock:
            if self._hello is None:
                return
            rid, self._hello = self._hello, None
            hello = self._receive(rid, time.monotonic() + STARTUP_TIMEOUT, hello=True)
            if hello.get("ok") is False:
                self.stop()
                raise Fault("build", f"{self.product.id} refused hello: {hello.get('error')}")
            problem = check_hello(hello)
            if problem:
                self.stop()
                raise Fault("protocol", f"{self.product.id} answered hello wrongly: {problem}")
            self.product_id = hello.get("product_id")
            self.rss_method = hello.get("rss_method")

    def start(self) -> None:
        with self.lock:
            self.launch()
            self.finish_start()

    def alive(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def request(self, msg: dict[str, Any], timeout: float) -> dict[str, Any]:
        """Send one request and wait for its reply. Raises Fault on timeout, crash or garbage;
        the worker is then dead (killed here) and the next request respawns it."""
        with self.lock:
            if self.start_fault is not None:
                fault, self.start_fault = self.start_fault, None
                raise fault
            if self._hello is not None:
                self.finish_start()
            if not self.alive():
                self.start()
            deadline = time.monotonic() + timeout
            return self._receive(self._send(msg, deadline), deadline, timeout)

    def _send(self, msg: dict[str, Any], deadline: float) -> int:
        self.next_id += 1
        rid = self.next_id
        msg = dict(msg, id=rid)
        try:
            data = _encode(msg).encode("utf-8") + b"\n"
        except UnicodeEncodeError:  # a lone surrogate: escape everything
            data = _encode_ascii(msg).encode("ascii") + b"\n"
        view = memoryview(data)
        fd = self._fds[0]
        while view:
            try:
                view = view[os.write(fd, view):]
            except BlockingIOError:
                # A large request and a worker not reading yet: wait for room, not forever.
                remaining = deadline - time.monotonic()
                poller = select.poll()
                poller.register(fd, select.POLLOUT)
                if remaining <= 0 or not poller.poll(remaining * 1000):
                    self._reap()
                    raise Fault("timeout", f"{self.product.id} did not read its request within "
                                           "the time limit; the worker was killed") from None
            except (BrokenPipeError, OSError, ValueError):
                self._drain_stderr()
                kind, words = self._last_words()
                self._reap()
                raise Fault(kind, f"{self.product.id} worker {words} before the request") \
                    from None
        return rid

    def _receive(self, rid: int, deadline: float,
                 timeout: float = STARTUP_TIMEOUT, hello: bool = False) -> dict[str, Any]:
        cap = answer_cap(self.limits)
        while True:
            line = self._next_line()
            if line is None:
                if len(self._out) > cap:
                    self._reap()
                    self._out, self._scan = bytearray(), 0
                    raise too_long(f"{self.product.id} worker", "a reply line", cap)
                self._fill(deadline, timeout)
                continue
            try:
                text = line.decode("utf-8")
                del line  # a large reply is held twice at most, as text and as parsed
                reply = _decode(text)
            except ValueError:  # not UTF-8 (UnicodeDecodeError is one) or not JSON
                self._reap()
                raise Fault("protocol", f"{self.product.id} worker wrote a line that is not "
                                        "JSON") from None
            if not isinstance(reply, dict):
                self._reap()
                raise Fault("protocol", f"{self.product.id} worker answered with "
                                        f"{_json_kind(reply)}, not a reply object; the worker "
                                        "was restarted")
            if reply.get("id") == rid or (hello and "id" not in reply):
                return reply
            if not (reply.get("ok") is False and reply.get("id") is None):
                self._reap()
                raise Fault("protocol", f"{self.product.id} worker answered id "
                                        f"{reply.get('id')!r} to request {rid}; the worker was "
                                        "restarted")
            # `"id": null, "ok": false` answers a line the worker could not read: not ours.

    def _next_line(self) -> bytes | bytearray | None:
        i = self._out.find(b"\n", self._scan)
        if i < 0:
            self._scan = len(self._out)
            return None
        self._scan = 0
        if i == len(self._out) - 1:  # the usual case, one reply: handed on, not copied
            line, self._out = self._out, bytearray()
            del line[i:]
            return line
        line = bytes(self._out[:i])
        del self._out[:i + 1]
        return line

    def _fill(self, deadline: float, timeout: float) -> None:
        """Wait for more output (stdout or stderr) until the deadline; raise on timeout or EOF."""
        remaining = deadline - time.monotonic()
        try:
            events = self._poller.poll(max(remaining, 0) * 1000) if remaining > 0 else []
        except (OSError, ValueError):
            events = [(self._fds[1], select.POLLNVAL)]
        if not events:
            self._reap()
            raise Fault("timeout", f"no answer from {self.product.id} within {timeout:g} s; "
                                   "the worker was killed")
        out, err = self._fds[1], self._fds[2]
        for fd, _ in events:
            try:
                chunk = os.read(fd, CHUNK)
            except OSError:
                chunk = b""
            if fd == err:
                if chunk:
                    self._keep_stderr(chunk)
                else:
                    self._poller.unregister(err)
                continue
            if fd == out:
                if not chunk:
                    # EOF, perhaps after a last line cut off by the worker's death: how it ended
                    # says what happened, not the fragment.
                    self._drain_stderr()
                    kind, words = self._last_words()
                    self._reap()
                    raise Fault(kind, f"{self.product.id} worker {words} mid-case")
                self._out += chunk

    def _keep_stderr(self, chunk: bytes) -> None:
        self._err += chunk
        *lines, rest = self._err.split(b"\n")
        self._err = bytearray(rest[-4096:])
        if lines:
            self.stderr_tail.extend(x.decode("utf-8", "replace").rstrip() for x in lines[-20:])
            del self.stderr_tail[:-20]

    def _drain_stderr(self, grace: float = 0.2) -> None:
        """What a dead worker said last (its stderr closes with it; a stray descendant that
        keeps it open gets ``grace`` seconds)."""
        fd = self._fds[2]
        if fd < 0 or self.proc is None or self.proc.stderr is None or self.proc.stderr.closed:
            return
        poller = select.poll()
        poller.register(fd, select.POLLIN)
        end = time.monotonic() + grace
        try:
            while (remaining := end - time.monotonic()) > 0 and poller.poll(remaining * 1000):
                chunk = os.read(fd, CHUNK)
                if not chunk:
                    break
                self._keep_stderr(chunk)
        except OSError:
            pass
        if self._err:
            self._keep_stderr(b"\n")

    def prefetch(self, request: dict[str, Any]) -> float | None:
        """Send ``request`` now, so that the worker computes while the caller does something
        else (another member's case); :meth:`run` with an equal request collects the reply.
        Returns when it was sent (perf_counter), or None when nothing was sent: a start that
        failed is then reported by :meth:`run`."""
        with self.lock:
            if self._pending is not None or self.start_fault is not None:
                return None
            try:
                if self.cases >= self.recycle_after:
                    self.stop()
                if self._hello is not None:
                    self.finish_start()
                if not self.alive():
                    self.start()
                sent = time.perf_counter()
                deadline = time.monotonic() + self.limits.timeout
                rid = self._send(request, deadline)
            except Fault as f:
                self.start_fault = f
                return None
            self._pending = (rid, request, deadline, self.limits.timeout)
            return sent

    def cancel_prefetch(self) -> list[str]:
        """Forget a prefetched request nobody collected (its case ended early): the worker is
        busy with a case nobody wants, so it is stopped; the next request starts a fresh one."""
        with self.lock:
            if self._pending is None:
                return []
            return self._reap()

    def _collect(self, request: dict[str, Any]) -> dict[str, Any] | None:
        """The reply of a prefetched ``request``; None when none is pending for it (a pending
        reply for another request is awaited and dropped: the worker answers in order)."""
        pending, self._pending = self._pending, None
        if pending is None:
            return None
        rid, sent, deadline, timeout = pending
        if sent is request or sent == request:
            return self._receive(rid, deadline, timeout)
        try:
            self._receive(rid, deadline, timeout)
        except Fault:
            pass  # reaped: the next request starts a fresh worker
        return None

    def run(self, request: dict[str, Any]) -> dict[str, Any]:
        with self.lock:
            reply = self._collect(request)
            if reply is None:
                if self.start_fault is None and self.cases >= self.recycle_after:
                    self.stop()
                reply = self.request(request, self.limits.timeout)
        self.cases += 1
        if self.proc is not None and self.token:
            if not self.product.worker_module:
                self.cleanup_problems += reaper.note_descendants(self.token, self.proc.pid,
                                                                 self.product.id)
            self.cleanup_problems += reaper.sweep(self.token, self.product.id)
        if not reply.get("ok") and (reply.get("error") or {}).get("kind") == "memory-limit":
            self._reap()
        elif self._grew(reply):
            # A case that used over half the address-space cap leaves the worker's heap that
            # big (freed memory stays mapped), and the next case would run out of memory where
            # a fresh worker does not: one case's state must not reach the next.
            self.cases = max(self.cases, self.recycle_after)
        return reply

    def _grew(self, reply: dict[str, Any]) -> bool:
        obs = reply.get("observation")
        resources = obs.get("resources") if isinstance(obs, dict) else None
        peak = resources.get("peak_rss_bytes") if isinstance(resources, dict) else None
        return isinstance(peak, int) and self.limits.memory_bytes > 0 and \
            peak > self.limits.memory_bytes // 2

    def _last_words(self) -> tuple[str, str]:
        """(fault kind, what happened) for a worker that closed its output: waits for the
        process first, so that a killed worker is described by its signal, never as running."""
        code = self.last_exit
        if self.proc is not None:
            try:
                code = self.proc.wait(timeout=2.0)
            except subprocess.TimeoutExpired:
                code = None
        last = self.stderr_tail[-3:]
        tail = f" (stderr: {'; '.join(last)[:300]})" if last else ""
        if code is not None and code != 0 and OUT_OF_MEMORY.search("\n".join(self.stderr_tail)):
            return "memory-limit", f"ran out of memory (exit status {code}){tail}"
        if code is None:
            return "protocol", f"closed its output but did not exit{tail}"
        if code < 0:
            return "crash", f"was killed by {signal_name(-code)}{tail}"
        relayed = relayed_signal(self.stderr_tail)
        if relayed:
            # The relay only reports the death it saw: the member is what it drives.
            return "crash", (f"exited with status {code}: the process it drives was killed by "
                             f"{relayed}{tail}")
        return "exit", f"exited with status {code}{tail}"

    def take_cleanup(self) -> list[str]:
        out, self.cleanup_problems = self.cleanup_problems, []
        return out

    def _reap(self) -> list[str]:
        problems: list[str] = []
        self._hello = None
        self._pending = None
        if self.proc is not None:
            proc = self.proc
            problems = kill_group(proc)
            self.proc = None
            self.last_exit = proc.poll()  # for the last words of the fault being raised
            if self.token:
                problems += reaper.sweep(self.token, self.product.id, final=True)
                reaper.forget(self.token)
                self.token = ""
        self.cleanup_problems += problems
        return problems

    def stop(self) -> list[str]:
        """Ask politely, then make sure. Returns cleanup problems."""
        if self.proc is None:
            return []
        if self.proc.poll() is None and self._fds[0] >= 0:
            try:
                os.write(self._fds[0], b'{"op": "shutdown"}\n')
                self.proc.wait(timeout=1.0)
            except (OSError, ValueError, subprocess.TimeoutExpired):
                pass
        return self._reap()
