"""The court's side of the worker template (``implementations/forkserver.py``): start it once per
court process, ask it for warm workers, and hand each back as a Popen look-alike.

A worker forked by the template is the template's child, not ours, so its exit status comes over
the control socket; :class:`ForkedProcess` turns that into ``poll``/``wait``/``returncode`` so
that WorkerProcess and kill_group treat it like any subprocess. Its pid is its process group
(the worker calls setsid), so ``os.killpg(proc.pid, ...)`` kills it as a group.

The template dies with the court: it leaves when the control socket closes, which the kernel does
when this process ends however it ends, and its workers get SIGKILL by PR_SET_PDEATHSIG when it
goes. ``COURT_FORKSERVER=0`` turns the template off (every worker is then its own interpreter, as
before; the benchmarks use it to compare the two designs).
"""

from __future__ import annotations

import atexit
import json
import os
import queue
import socket
import subprocess
import sys
import threading
from typing import Any

WORKER_MODULE = "implementations.worker"
READY_TIMEOUT = 30.0
REPLY_TIMEOUT = 10.0
MAX_MESSAGE = 1 << 16
BOOT = ("import sys; sys.path[:0] = sys.argv[1].split('\\n'); "
        "from implementations.forkserver import main; sys.exit(main(sys.argv[2:]))")


class ForkServerError(Exception):
    """The template could not start or could not fork; the caller starts an interpreter."""


def enabled() -> bool:
    return (os.environ.get("COURT_FORKSERVER", "1") != "0" and sys.platform.startswith("linux")
            and hasattr(socket, "send_fds"))


class _Exit:
    def __init__(self) -> None:
        self.returncode: int | None = None
        self.event = threading.Event()

    def set(self, code: int) -> None:
        if self.returncode is None:
            self.returncode = code
        self.event.set()


class ForkedProcess:
    """A worker forked by the template, with the part of Popen's interface the court uses."""

    def __init__(self, pid: int, args: list[str], exit_slot: _Exit, stdin: int, stdout: int,
                 stderr: int) -> None:
        self.pid = pid
        self.args = args
        self._exit = exit_slot
        self.stdin = os.fdopen(stdin, "wb", buffering=0)
        self.stdout = os.fdopen(stdout, "rb", buffering=0)
        self.stderr = os.fdopen(stderr, "rb", buffering=0)

    @property
    def returncode(self) -> int | None:
        return self._exit.returncode

    def poll(self) -> int | None:
        return self._exit.returncode

    def wait(self, timeout: float | None = None) -> int:
        if not self._exit.event.wait(timeout):
            raise subprocess.TimeoutExpired(self.args, timeout or 0.0)
        return self._exit.returncode  # type: ignore[return-value]

    def send_signal(self, sig: int) -> None:
        if self._exit.returncode is None:
            try:
                os.kill(self.pid, sig)
            except ProcessLookupError:
                pass

    def kill(self) -> None:
        import signal

        self.send_signal(signal.SIGKILL)

    def terminate(self) -> None:
        import signal

        self.send_signal(signal.SIGTERM)


def _template_path() -> list[str]:
    """Where the template finds the implementations: the folder holding the package this court
    would import, then this process's own path (the template runs without site, which would
    otherwise cost it more than all its imports)."""
    import importlib.util

    paths: list[str] = []
    spec = importlib.util.find_spec("implementations")
    if spec is not None and spec.submodule_search_locations:
        for loc in spec.submodule_search_locations:
            paths.append(os.path.dirname(os.path.abspath(loc)))
    for p in sys.path:
        if p and os.path.isabs(p) and os.path.exists(p) and p not in paths:
            paths.append(p)
    return paths


class ForkServer:
    def __init__(self, preload: tuple[str, ...]) -> None:
        self.preload = preload
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        self.args = [sys.executable, "-S", "-c", BOOT, "\n".join(_template_path()),
                     ",".join(preload)]
        try:
            self.proc = subprocess.Popen(self.args, stdin=theirs, stdout=subprocess.DEVNULL,
                                         stderr=subprocess.PIPE, start_new_session=True)
        except OSError as e:
            ours.close()
            raise ForkServerError(f"cannot start the worker template: {e}") from None
        finally:
            theirs.close()
        self.sock = ours
        self.lock = threading.Lock()
        self.replies: queue.Queue = queue.Queue()
        self.exits: dict[int, _Exit] = {}
        self.ready = threading.Event()
        self.failure: str | None = None
        self.closed = False
        self.stderr_tail: list[str] = []
        threading.Thread(target=self._read_control, daemon=True,
                         name="court-forkserver").start()
        threading.Thread(target=self._read_stderr, daemon=True,
                         name="court-forkserver-stderr").start()

    @property
    def alive(self) -> bool:
        return not self.closed and self.failure is None and self.proc.poll() is None

    def _read_control(self) -> None:
        while True:
            try:
                data = self.sock.recv(MAX_MESSAGE)
            except OSError:
                data = b""
            if not data:
                break
            try:
                msg = json.loads(data)
            except ValueError:
                continue
            op = msg.get("op")
            if op == "ready":
                self.ready.set()
            elif op == "failed":
                self.failure = str(msg.get("message"))
                self.ready.set()
            elif op == "forked":
                # Registered here, before anyone sees the reply, so an exit that follows at
                # once finds its slot.
                msg["slot"] = self.exits.setdefault(int(msg["pid"]), _Exit())
                self.replies.put(msg)
            elif op == "error":
                self.replies.put(msg)
            elif op == "exit":
                slot = self.exits.pop(int(msg["pid"]), None)
                if slot is not None:
                    slot.set(int(msg["returncode"]))
        # The template is gone: its workers die with it (PR_SET_PDEATHSIG); nobody will report
        # their exit, so report it as a kill.
        if self.failure is None:
            self.failure = "the worker template exited" + self._tail()
        self.ready.set()
        self.replies.put({"op": "error", "message": self.failure})
        for slot in list(self.exits.values()):
            slot.set(-9)
        self.exits.clear()

    def _read_stderr(self) -> None:
        assert self.proc.stderr is not None
        for line in self.proc.stderr:
            self.stderr_tail.append(line.decode("utf-8", "replace").rstrip())
            del self.stderr_tail[:-5]

    def _tail(self) -> str:
        return f" ({'; '.join(self.stderr_tail[-2:])})" if self.stderr_tail else ""

    def fork(self, impl: str, memory_bytes: int) -> ForkedProcess:
        if not self.ready.wait(READY_TIMEOUT):
            raise ForkServerError("the worker template did not get ready in time")
        if self.failure is not None:
            raise ForkServerError(self.failure)
        in_r, in_w = os.pipe()
        out_r, out_w = os.pipe()
        err_r, err_w = os.pipe()
        try:
            with self.lock:
                while not self.replies.empty():  # a late reply of a request that gave up
                    self.replies.get_nowait()
                msg = json.dumps({"op": "fork", "impl": impl, "memory_bytes": memory_bytes})
                try:
                    socket.send_fds(self.sock, [msg.encode("utf-8")], [in_r, out_w, err_w])
                except OSError as e:
                    raise ForkServerError(f"the worker template is gone: {e}") from None
                try:
                    reply = self.replies.get(timeout=REPLY_TIMEOUT)
                except queue.Empty:
                    raise ForkServerError("the worker template did not answer") from None
        except BaseException:
            for fd in (in_w, out_r, err_r):
                os.close(fd)
            raise
        finally:
            for fd in (in_r, out_w, err_w):
                os.close(fd)
        if reply.get("op") != "forked":
            for fd in (in_w, out_r, err_r):
                os.close(fd)
            raise ForkServerError(str(reply.get("message")))
        return ForkedProcess(int(reply["pid"]), [*self.args[:2], f"fork {impl}"], reply["slot"],
                             in_w, out_r, err_r)

    def close(self, timeout: float = 2.0) -> None:
        """Close the channel; the template kills its workers and leaves."""
        if self.closed:
            return
        self.closed = True
        try:
            self.sock.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
        self.sock.close()
        try:
            self.proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            from .reaper import kill_group

            kill_group(self.proc)
        if self.proc.stderr is not None:
            try:
                self.proc.stderr.close()
            except OSError:
                pass


_lock = threading.Lock()
_server: ForkServer | None = None
_users = 0


def builtin_impl(product: Any) -> str | None:
    """The implementation id of a product the template can fork, else None."""
    if product.worker_module == WORKER_MODULE and product.impl and not product.command:
        return str(product.impl)
    return None


def shared(preload: tuple[str, ...] = ()) -> ForkServer:
    """The court process's template, started (without waiting for it) on first use or when the
    last one died. ``preload`` names implementations to import and warm before forking; one the
    template has not loaded is imported by the forked worker itself."""
    global _server
    with _lock:
        if _server is None or not _server.alive:
            if _server is not None:
                _server.close(timeout=0.5)
            _server = ForkServer(tuple(preload))
        return _server


def template_pid() -> int | None:
    """The pid of the running template, if any (so that a sweep of our children spares it)."""
    server = _server
    return server.proc.pid if server is not None and server.alive else None


def acquire(preload: tuple[str, ...]) -> None:
    """A court session starts using the template; it lives while any session does."""
    global _users
    with _lock:
        _users += 1
    shared(preload)


def release() -> None:
    """A session is done with the template; the last one out stops it (and every worker it
    forked), so that nothing outlives the sessions of a court process."""
    global _users
    with _lock:
        _users = max(0, _users - 1)
        last = _users == 0
    if last:
        shutdown()


def prestart(impls: list[str] | tuple[str, ...]) -> None:
    """Start the template now, so that it imports while the caller does other work. The caller
    stops it (``shutdown``) if no session ends up using it."""
    if enabled():
        try:
            shared(tuple(impls))
        except ForkServerError:
            pass


def fork(impl: str, memory_bytes: int, preload: tuple[str, ...] = ()) -> ForkedProcess:
    return shared(preload or (impl,)).fork(impl, memory_bytes)


def shutdown() -> None:
    global _server
    with _lock:
        server, _server = _server, None
    if server is not None:
        server.close()


atexit.register(shutdown)
