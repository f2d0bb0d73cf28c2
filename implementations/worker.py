"""The worker loop for the shipped implementations: `lispex.court-worker/v1` over stdin/stdout.

    python -m implementations.worker --impl tree

One JSON object per line each way. Requests:

    {"op": "hello"}
    {"op": "run", "id": 7, "source": "...", "input": "(age 17)" | null,
     "filename": "p.lspx", "profile": "lispex-product-native/v1" | null, "limits": {...}}
    {"op": "shutdown"}

(``source_b64`` may replace ``source`` for bytes that are not UTF-8.) Replies carry the same
``id``: ``{"id", "ok": true, "observation": {...}}`` or ``{"id", "ok": false, "error": {"kind",
"message"}}``. The program's output is captured in the run context, so nothing but protocol is
ever written to stdout; anything else that prints goes to stderr. Each run builds a fresh global
environment; nothing of one case survives into the next.
"""

from __future__ import annotations

import base64
import json
import os
import resource
import sys
import time
from typing import Any

from . import bigstack, registry
from .kernels import evaluate, input_errors

SCHEMA = "lispex.court-worker/v1"
PEAK_RESET = "/proc/self/clear_refs"


class PeakRss:
    """Per-case peak RSS: reset the kernel's high-water mark, then read VmHWM after the case.

    Where /proc/self/clear_refs cannot be written (not Linux, or not permitted) the method falls
    back to psutil sampling every millisecond on a thread; each record names the method used.
    """

    def __init__(self) -> None:
        self.method = "clear_refs+VmHWM"
        # Both files stay open: a case then costs one pwrite and one pread, not two opens and a
        # line-by-line parse (which cost more than a small program's whole evaluation).
        self._clear = self._status = -1
        try:
            self._clear = os.open(PEAK_RESET, os.O_WRONLY | os.O_CLOEXEC)
            self._status = os.open("/proc/self/status", os.O_RDONLY | os.O_CLOEXEC)
            self._reset()
            self._read_hwm()
        except OSError:
            self.method = "psutil-sampling"
        self._sampler: Any = None

    def _reset(self) -> None:
        os.pwrite(self._clear, b"5", 0)

    def _read_hwm(self) -> int:
        text = os.pread(self._status, 1 << 14, 0)
        i = text.find(b"VmHWM:")
        if i < 0:
            raise OSError("no VmHWM")
        return int(text[i + 6:text.index(b"kB", i)]) * 1024

    def start(self) -> None:
        if self.method == "clear_refs+VmHWM":
            self._reset()
        else:
            self._sampler = _Sampler()
            self._sampler.start()

    def stop(self) -> int:
        if self.method == "clear_refs+VmHWM":
            return self._read_hwm()
        return self._sampler.stop()


class _Sampler:
    def __init__(self) -> None:
        import threading

        import psutil

        self._proc = psutil.Process()
        self._peak = self._proc.memory_info().rss
        self._done = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def start(self) -> None:
        self._thread.start()

    def _run(self) -> None:
        while not self._done.wait(0.001):
            self._peak = max(self._peak, self._proc.memory_info().rss)

    def stop(self) -> int:
        self._done.set()
        self._thread.join()
        return max(self._peak, self._proc.memory_info().rss)


def handle(req: dict, backend: Any, peak: PeakRss) -> dict:
    op = req.get("op")
    rid = req.get("id")
    if op == "hello":
        return {"id": rid, "ok": True, "schema": SCHEMA, "implementation": backend.id,
                "product_id": backend.product_id(), "pid": os.getpid(),
                "rss_method": peak.method}
    if op != "run":
        return {"id": rid, "ok": False, "error": {"kind": "bad-request",
                                                   "message": f"unknown op {op!r}"}}
    try:
        if "source_b64" in req:
            source = base64.b64decode(req["source_b64"])
        else:
            source = req["source"].encode("utf-8")
        filename = str(req.get("filename") or "program.lspx")
    except (KeyError, ValueError, AttributeError, TypeError) as e:
        return {"id": rid, "ok": False, "error": {"kind": "bad-request", "message": str(e)}}
    cpu0 = time.process_time()
    wall0 = time.perf_counter()
    peak.start()
    try:
        obs = evaluate(source, backend, filename=filename, input_text=req.get("input"),
                       profile_id=req.get("profile"), limits=req.get("limits") or {})
    except input_errors() as e:
        peak.stop()
        return {"id": rid, "ok": False, "error": {"kind": "input-error",
                                                   "message": e.diagnostic.render()}}
    except KeyError as e:
        peak.stop()
        return {"id": rid, "ok": False, "error": {"kind": "bad-request", "message": e.args[0]}}
    peak_rss = peak.stop()
    obs.measurements = {
        "wall_seconds": time.perf_counter() - wall0,
        "cpu_seconds": time.process_time() - cpu0,
        "peak_rss_bytes": peak_rss,
        "rss_method": peak.method,
    }
    return {"id": rid, "ok": True, "observation": obs.to_json()}


def _exit_with_parent() -> None:
    """A worker must not outlive its supervisor, even one killed with SIGKILL (which cannot
    clean up): poll the parent pid and leave when it changes."""
    import threading

    parent = os.getppid()

    def watch() -> None:
        while True:
            time.sleep(0.5)
            if os.getppid() != parent:
                os._exit(3)

    threading.Thread(target=watch, daemon=True, name="parent-watch").start()


CHUNK = 1 << 16
# The interpreters allocate (and free, by reference counting) objects by the million; a young
# generation of 700 objects runs the cycle collector thousands of times a second for little.
# Ten thousand cuts 5-10% of the CPU time of allocation-heavy cases (bench: corpus runs).
GC_THRESHOLD = (10_000, 10, 10)


def read_requests(fd: int):
    """The request lines of ``fd``: large reads split into lines here (one read() per chunk,
    not per byte, and no text layer), until end of file."""
    buf = bytearray()
    scan = 0
    while True:
        chunk = os.read(fd, CHUNK)
        if not chunk:
            if buf.strip():
                yield bytes(buf)
            return
        buf += chunk
        while True:
            i = buf.find(b"\n", scan)
            if i < 0:
                scan = len(buf)
                break
            line = bytes(buf[:i])
            del buf[:i + 1]
            scan = 0
            yield line


def write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view):]


_encoder = json.JSONEncoder(ensure_ascii=False, check_circular=False)
_encoder_ascii = json.JSONEncoder(check_circular=False)


def encode(reply: dict) -> bytes:
    """One reply line, encoded once (observations hold no cycles: built fresh as plain data)."""
    try:
        return _encoder.encode(reply).encode("utf-8") + b"\n"
    except UnicodeEncodeError:  # a lone surrogate somewhere: escape everything
        return _encoder_ascii.encode(reply).encode("ascii") + b"\n"


def serve(impl: str, backend: Any = None) -> int:
    """Answer requests on fd 0 with replies on fd 1 until shutdown or end of input, on a thread
    with the stack the back end asks for, if it asks (implementations/bigstack.py)."""
    _exit_with_parent()
    if backend is None:
        backend = registry.load(impl)
    wanted = getattr(backend, "stack_bytes", 0)
    if wanted and bigstack.stack_bytes() < wanted:
        return bigstack.run(lambda: _serve(backend), wanted)
    return _serve(backend)


def _serve(backend: Any) -> int:
    import gc

    gc.set_threshold(*GC_THRESHOLD)
    gc.freeze()  # the loaded implementation is permanent: no collection need traverse it
    out = os.dup(1)
    # Anything else that writes to stdout (a stray print) must not corrupt the protocol stream.
    os.dup2(2, 1)
    peak = PeakRss()
    for line in read_requests(0):
        if not line.strip():
            continue
        try:
            req = json.loads(line)
            if not isinstance(req, dict):
                raise ValueError("a request must be a JSON object")
        except ValueError as e:
            write_all(out, encode({"id": None, "ok": False,
                                   "error": {"kind": "bad-request", "message": str(e)}}))
            continue
        if req.get("op") == "shutdown":
            break
        try:
            reply = handle(req, backend, peak)
        except (MemoryError, SystemError) as e:
            if type(e) is SystemError and not lost_memory_error(e):
                raise
            reply = {"id": req.get("id"), "ok": False,
                     "error": {"kind": "memory-limit", "message": "the worker ran out of memory"}}
            write_all(out, encode(reply))
            return 3  # a worker that ran out of memory is not trusted for another case
        try:
            data = encode(reply)
        except MemoryError:
            data = encode({"id": req.get("id"), "ok": False,
                           "error": {"kind": "memory-limit",
                                     "message": "the reply did not fit in memory"}})
            write_all(out, data)
            return 3
        write_all(out, data)
    return 0


M_ARENA_MAX = -8  # glibc's mallopt parameter number (malloc.h)


def limit_address_space(nbytes: int) -> None:
    """Cap this process's address space at ``nbytes`` (RLIMIT_AS), so that a case's memory is
    what the cap measures.

    glibc gives each thread that allocates a malloc arena of its own and reserves 64 MiB of
    address space for it, used or not; a worker has a peak-memory or big-stack thread, so under
    a cap of a few hundred MiB those reservations alone left a program a third of what it was
    promised. One arena (the workers run one case at a time) keeps the cap for the program.
    """
    try:
        import ctypes

        ctypes.CDLL(None).mallopt(M_ARENA_MAX, 1)
    except (OSError, AttributeError):  # not glibc: its allocator has no such reservations
        pass
    resource.setrlimit(resource.RLIMIT_AS, (nbytes, nbytes))


def lost_memory_error(e: BaseException) -> bool:
    """Whether ``e`` is CPython 3.11 running out of memory for a Python frame: it then returns
    an error without setting one, which surfaces as this SystemError instead of MemoryError
    (3.12 raises MemoryError). Only believed under an address-space cap, where it is expected;
    anywhere else it stays what it says, an internal error."""
    if type(e) is not SystemError or "error return without exception set" not in str(e):
        return False
    return resource.getrlimit(resource.RLIMIT_AS)[0] != resource.RLIM_INFINITY


def main() -> int:
    import argparse  # here, not at the top: a forked worker never parses arguments

    p = argparse.ArgumentParser(prog="python -m implementations.worker")
    p.add_argument("--impl", required=True, choices=registry.ids())
    p.add_argument("--memory-limit", type=int, default=0,
                   help="address-space limit in bytes (RLIMIT_AS); 0 leaves it as it is")
    args = p.parse_args()
    if args.memory_limit:
        limit_address_space(args.memory_limit)
    return serve(args.impl)


if __name__ == "__main__":
    sys.exit(main())
