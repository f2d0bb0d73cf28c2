"""The worker template: one interpreter that has imported and warmed the implementations and forks
a `lispex.court-worker/v1` worker on request, so that a court pays a fork, not an interpreter
start and an import, per member.

    python -S -c BOOT PATHS PRELOAD      (started by court/workers/forkserver.py, never by hand)

The control channel is a SOCK_SEQPACKET Unix socket on fd 0, one JSON message per packet:

    template -> court  {"op": "ready", "pid": P, "preloaded": [...]}        once, first
    court -> template  {"op": "fork", "impl": "tree", "memory_bytes": N}    + 3 fds (SCM_RIGHTS):
                       the worker's stdin, stdout and stderr
    template -> court  {"op": "forked", "pid": P} | {"op": "error", "message": "..."}
    template -> court  {"op": "exit", "pid": P, "returncode": R}            when a worker ends

Each worker is forked from the template's only thread, so PR_SET_PDEATHSIG (which fires when the
*thread* that forked exits) fires exactly when the template dies. A worker starts a session of
its own (its pid is its process group: the supervisor kills it as a group), applies RLIMIT_AS
itself, and keeps the worker's own parent-death check as well. The template reaps its workers
at once and reports their exit status; it leaves (killing every worker it forked) when the court
closes the control socket or dies, and it never runs a case itself.
"""

from __future__ import annotations

import gc
import json
import os
import select
import signal
import socket
import sys
import threading
import traceback
from typing import Any

CONTROL_FD = 0
PR_SET_PDEATHSIG = 1
PR_SET_NAME = 15
# A forked worker shares the template's command line; its process name (``comm``: what `ps -o
# comm`, `top` and psutil's name() show) says what it is instead.
NAME_PREFIX = "worker:"
MAX_MESSAGE = 1 << 16
# Programs the template runs once per preloaded implementation before it forks anything, so
# that a forked worker's first case does not pay for lazily built tables, caches and code paths.
WARM_UP = (
    b"(+ 1 2)",
    b"(define (sq x) (* x x)) (display (map sq '(1 2 3))) (newline) (list 1 \"s\" #\\c 1.5)",
    b"(let loop ((i 0) (acc '())) (if (= i 10) (reverse acc) (loop (+ i 1) (cons i acc))))",
    b"(guard (e (#t (error-object-message e))) (error \"boom\" 1)) (vector 1 2) (string-append "
    b"\"a\" (number->string 7))",
    b"(car '())",
    b"(define x",
)


def _refuse_thread(self: Any) -> None:
    raise RuntimeError("the worker template starts no thread")


def _libc_prctl() -> Any:
    try:
        import ctypes

        return ctypes.CDLL(None, use_errno=True).prctl
    except (OSError, AttributeError):  # not Linux: the worker's parent-death poll still holds
        return None


class Template:
    def __init__(self, preload: list[str]) -> None:
        from . import registry, worker
        from .kernels import evaluate

        self.worker = worker
        self.registry = registry
        self.backends: dict[str, Any] = {}
        # The template stays single-threaded, so that a fork copies no lock some other thread
        # held, and so that no thread's stack mapping (the Topaz back ends run cases on a thread
        # with a stack of hundreds of MiB, which the C library keeps mapped) is inherited by
        # every worker and counted against its RLIMIT_AS. A warm-up that would start a thread
        # is refused that thread; what ran before it is warm all the same.
        real_start = threading.Thread.start
        threading.Thread.start = _refuse_thread  # type: ignore[method-assign]
        try:
            for impl in preload:
                if impl not in registry.ids():
                    continue  # a guess of the court's (a foreign product): nothing to preload
                backend = registry.load(impl)
                backend.product_id()  # computed once: every forked worker's hello is free
                for program in WARM_UP:
                    try:
                        evaluate(program, backend)
                    except Exception:  # noqa: BLE001 - best effort; a real case reports it
                        pass
                self.backends[impl] = backend
        finally:
            threading.Thread.start = real_start  # type: ignore[method-assign]
        self.prctl = _libc_prctl()
        self.children: set[int] = set()
        self.sock = socket.socket(fileno=CONTROL_FD)
        self.wake_r, self.wake_w = os.pipe()
        os.set_blocking(self.wake_w, False)
        signal.signal(signal.SIGCHLD, lambda *_: None)  # a handler, so the wakeup fd is written
        signal.set_wakeup_fd(self.wake_w)
        signal.signal(signal.SIGINT, signal.SIG_IGN)  # the court handles ^C and stops us
        # Everything imported so far is shared copy-on-write with every worker; keep the
        # collector from touching (and so copying) it, and from traversing it in every worker.
        gc.collect()
        gc.freeze()

    def send(self, message: dict[str, Any]) -> None:
        self.sock.send(json.dumps(message).encode("utf-8"))

    def serve(self) -> int:
        self.send({"op": "ready", "pid": os.getpid(), "preloaded": list(self.backends)})
        parent = os.getppid()
        poller = select.poll()
        poller.register(self.sock.fileno(), select.POLLIN)
        poller.register(self.wake_r, select.POLLIN)
        while True:
            events = poller.poll(500)
            self.reap()
            if os.getppid() != parent:
                break
            if any(fd == self.sock.fileno() for fd, _ in events):
                try:
                    data, fds, _, _ = socket.recv_fds(self.sock, MAX_MESSAGE, 3)
                except OSError:
                    break
                if not data:
                    break  # the court closed the channel (or died): we go, and so do workers
                self.fork(data, fds)
            if any(fd == self.wake_r for fd, _ in events):
                try:
                    os.read(self.wake_r, 4096)
                except BlockingIOError:
                    pass
        self.shutdown()
        return 0

    def reap(self) -> None:
        while self.children:
            try:
                pid, status = os.waitpid(-1, os.WNOHANG)
            except ChildProcessError:
                self.children.clear()
                return
            if pid == 0:
                return
            self.children.discard(pid)
            try:
                self.send({"op": "exit", "pid": pid,
                           "returncode": os.waitstatus_to_exitcode(status)})
            except OSError:
                pass

    def fork(self, data: bytes, fds: list[int]) -> None:
        try:
            req = json.loads(data)
            impl = str(req["impl"])
            memory = int(req.get("memory_bytes") or 0)
            if len(fds) != 3:
                raise ValueError(f"a fork request carries 3 fds, not {len(fds)}")
            if impl not in self.registry.ids():
                raise ValueError(f"unknown implementation {impl!r}")
        except (ValueError, KeyError, TypeError) as e:
            for fd in fds:
                os.close(fd)
            self.send({"op": "error", "message": str(e)})
            return
        sys.stderr.flush()
        me = os.getpid()
        pid = os.fork()
        if pid == 0:
            self.child(me, impl, memory, fds)  # never returns
        for fd in fds:
            os.close(fd)
        self.children.add(pid)
        self.send({"op": "forked", "pid": pid})

    def child(self, template_pid: int, impl: str, memory: int, fds: list[int]) -> None:
        code = 70
        try:
            os.setsid()
            if self.prctl is not None:
                self.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
                self.prctl(PR_SET_NAME, (NAME_PREFIX + impl).encode()[:15], 0, 0, 0)
            if os.getppid() != template_pid:  # the template died before prctl took hold
                os._exit(3)
            signal.set_wakeup_fd(-1)
            for sig in (signal.SIGCHLD, signal.SIGINT):
                signal.signal(sig, signal.SIG_DFL)
            for target, fd in enumerate(fds):
                os.dup2(fd, target)
            for fd in {*fds, self.wake_r, self.wake_w}:
                if fd > 2:
                    os.close(fd)
            self.sock.detach()  # fd 0 was the control socket; it is the worker's stdin now
            if memory:
                self.worker.limit_address_space(memory)
            backend = self.backends.get(impl)
            if backend is None:
                backend = self.registry.load(impl)
            code = self.worker.serve(impl, backend)
        except BaseException:  # noqa: BLE001 - the child must never return into the template
            try:
                traceback.print_exc()
                sys.stderr.flush()
            except BaseException:  # noqa: BLE001
                pass
        finally:
            os._exit(code)

    def shutdown(self) -> None:
        for pid in list(self.children):
            try:
                os.killpg(pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass
        for pid in list(self.children):
            try:
                os.waitpid(pid, 0)
            except ChildProcessError:
                pass


def main(argv: list[str]) -> int:
    preload = [x for x in argv[0].split(",") if x] if argv else []
    try:
        template = Template(preload)
    except Exception as e:  # noqa: BLE001 - tell the court why, then leave
        traceback.print_exc()
        try:
            socket.socket(fileno=CONTROL_FD).send(json.dumps(
                {"op": "failed", "message": f"{type(e).__name__}: {e}"}).encode())
        except OSError:
            pass
        return 1
    code = template.serve()
    sys.stderr.flush()
    os._exit(code)  # nothing to finalise: every worker is dead and reaped


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
