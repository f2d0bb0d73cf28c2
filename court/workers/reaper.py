"""Every process the court starts, and every process those leave behind.

A product may start processes that leave its process group: a grandchild that calls ``setsid()``,
a daemon that double-forks. A group kill misses them, and their parent's death hands them to
init, where nobody would notice. So, on Linux:

- the court is a *child subreaper* (``prctl(PR_SET_CHILD_SUBREAPER)``): an orphaned descendant
  is re-parented to the court instead of to init, and stays in reach;
- every process the court starts carries ``LISPEX_COURT_SPAWN=<token>`` in its environment, which
  its descendants inherit, and while a foreign worker lives its descendants are noted (psutil);
- after each case and when a process is stopped, :func:`sweep` kills every child of the court
  that carries the token (or was noted) and is not a process the court started itself, reaps it,
  and reports it, so that the caller records a `cleanup` fault;
- every process is started with ``PR_SET_PDEATHSIG`` = SIGKILL so that it dies with the court
  even when the court is SIGKILLed. The kernel sends that signal when the *thread* that forked
  exits, not the process, so every start happens on one long-lived spawner thread, never on a
  slot thread that may end while its worker should live on.

Elsewhere (no prctl) the environment token and the noted descendants still find what psutil can
see; nothing is re-parented.
"""

from __future__ import annotations

import ctypes
import glob
import itertools
import os
import queue
import resource
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from typing import Any

import psutil

# How long a signalled process group gets to exit before the next, harder signal.
KILL_GRACE = 0.5

TOKEN_ENV = "LISPEX_COURT_SPAWN"
PR_SET_PDEATHSIG = 1
PR_SET_CHILD_SUBREAPER = 36

_libc: Any = None
if sys.platform.startswith("linux"):
    try:
        _libc = ctypes.CDLL(None, use_errno=True)
        _libc.prctl.argtypes = [ctypes.c_int, ctypes.c_ulong, ctypes.c_ulong, ctypes.c_ulong,
                                ctypes.c_ulong]
    except (OSError, AttributeError):
        _libc = None

_lock = threading.Lock()
_subreaper: bool | None = None
_counter = itertools.count(1)
# token -> pids the court itself started under it (never swept: kill_group owns them)
_started: dict[str, set[int]] = {}
# token -> {pid: create_time} descendants seen while the process lived
_noted: dict[str, dict[int, float]] = {}


def become_subreaper() -> bool:
    """Make this process the child subreaper of everything it starts (once); True on success."""
    global _subreaper
    with _lock:
        if _subreaper is None:
            _subreaper = bool(_libc) and _libc.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == 0
        return _subreaper


def is_subreaper() -> bool:
    return bool(_subreaper)


class _Spawner:
    """One daemon thread that lives as long as the process and performs every start."""

    def __init__(self) -> None:
        self.jobs: queue.Queue = queue.Queue()
        self.thread = threading.Thread(target=self._serve, name="court-spawner", daemon=True)
        self.thread.start()

    def _serve(self) -> None:
        while True:
            fn, box, done = self.jobs.get()
            try:
                box.append((True, fn()))
            except BaseException as e:  # noqa: BLE001 - handed back to the caller
                box.append((False, e))
            done.set()

    def call(self, fn: Callable[[], Any]) -> Any:
        if threading.current_thread() is self.thread:
            return fn()
        box: list = []
        done = threading.Event()
        self.jobs.put((fn, box, done))
        done.wait()
        ok, value = box[0]
        if not ok:
            raise value
        return value


_spawner: _Spawner | None = None


def _get_spawner() -> _Spawner:
    global _spawner
    with _lock:
        if _spawner is None or not _spawner.thread.is_alive():
            _spawner = _Spawner()
        return _spawner


def _child_setup(memory_bytes: int, parent: int) -> Callable[[], None]:
    libc = _libc

    def setup() -> None:
        if memory_bytes:
            resource.setrlimit(resource.RLIMIT_AS, (memory_bytes, memory_bytes))
        if libc is not None:
            libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
            if os.getppid() != parent:  # the court died between fork and prctl
                os._exit(1)
    return setup


def new_token(member: str) -> str:
    return f"{os.getpid()}.{next(_counter)}.{member}"


def popen(cmd: list[str], token: str, *, memory_bytes: int = 0,
          env: dict[str, str] | None = None, **kw: Any) -> subprocess.Popen:
    """``subprocess.Popen(cmd)`` in its own session, marked with ``token``, under an address-space
    limit (0: none), dying with the court. Raises OSError as Popen does."""
    become_subreaper()
    full_env = dict(os.environ if env is None else env)
    full_env[TOKEN_ENV] = token
    setup = _child_setup(memory_bytes, os.getpid())

    def start() -> subprocess.Popen:
        return subprocess.Popen(cmd, env=full_env, start_new_session=True, preexec_fn=setup,
                                **kw)

    proc = _get_spawner().call(start)
    with _lock:
        _started.setdefault(token, set()).add(proc.pid)
    return proc


def note_descendants(token: str, pid: int, who: str) -> list[str]:
    """Remember what the live process ``pid`` (a group leader) has started so far, in case it
    leaves without its environment, and kill every descendant that has already left its process
    group (a group kill would miss it). Returns one problem per process killed."""
    kids = []
    for kid in _descendants(pid):
        try:
            kids.append(psutil.Process(kid))
        except psutil.Error:
            pass
    noted = _noted.setdefault(token, {})
    problems = []
    for k in kids:
        try:
            if k.status() == psutil.STATUS_ZOMBIE:
                continue
            noted[k.pid] = k.create_time()
            left = os.getpgid(k.pid) != pid
        except (psutil.Error, OSError):
            continue
        if left:
            problems.append(f"{_describe(k)}, started by {who}, left its process group; it was "
                            "killed")
            _kill_and_reap(k)
            noted.pop(k.pid, None)
    return problems


def _children(pid: int) -> list[int]:
    """Direct children of ``pid``: from /proc/PID/task/*/children where the kernel offers it (a
    few small reads), else from psutil (which reads every process on the machine)."""
    files = glob.glob(f"/proc/{pid}/task/*/children")
    if files:
        pids: set[int] = set()
        for f in files:
            try:
                with open(f) as fh:
                    pids.update(int(x) for x in fh.read().split())
            except (OSError, ValueError):
                pass
        return sorted(pids)
    try:
        return [p.pid for p in psutil.Process(pid).children()]
    except psutil.Error:
        return []


def _descendants(pid: int) -> list[int]:
    out: list[int] = []
    todo = _children(pid)
    while todo:
        kid = todo.pop()
        out.append(kid)
        todo.extend(_children(kid))
    return out


def _children_of_court() -> list[int]:
    return _children(os.getpid())


def _describe(p: psutil.Process) -> str:
    try:
        cmd = " ".join(p.cmdline())[:120] or p.name()
    except psutil.Error:
        cmd = "?"
    return f"process {p.pid} ({cmd})"


def _kill_and_reap(p: psutil.Process) -> None:
    try:
        if os.getpgid(p.pid) == p.pid:  # a session or group leader: its own group goes too
            os.killpg(p.pid, signal.SIGKILL)
    except OSError:
        pass
    try:
        p.kill()
    except psutil.Error:
        pass
    deadline = time.monotonic() + 5.0
    while time.monotonic() < deadline:
        done = 0
        try:
            done, _ = os.waitpid(p.pid, os.WNOHANG)  # ours since it was re-parented
        except ChildProcessError:
            # Not our child: dead once gone or a zombie its own parent has to reap.
            try:
                if p.status() == psutil.STATUS_ZOMBIE:
                    return
            except psutil.Error:
                return
        if done:
            return
        time.sleep(0.01)


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
        if p.pid == proc.pid:  # Popen (or the template) reaps its own process
            problems.append(f"process {p.pid} survived SIGKILL")
            continue
        # It left the group (setsid, a double fork); as the subreaper the court now owns it.
        problems.append(f"descendant {p.pid} survived the group kill (it had left the process "
                        "group); it was killed")
        _kill_and_reap(p)
    for stream in (proc.stdin, proc.stdout, proc.stderr):
        if stream:
            try:
                stream.close()
            except OSError:
                pass
    return problems


def _strays(token: str, started: set[int], final: bool) -> list[psutil.Process]:
    found: dict[int, psutil.Process] = {}
    for pid in _children_of_court():
        if pid in started:
            continue
        try:
            p = psutil.Process(pid)
            if p.status() == psutil.STATUS_ZOMBIE:
                continue
            if p.environ().get(TOKEN_ENV) == token:
                found[pid] = p
        except psutil.Error:
            continue
    # A noted descendant may still be a live worker's own helper: only once everything started
    # under the token is gone is it a stray.
    for pid, created in list(_noted.get(token, {}).items() if final else ()):
        if pid in started or pid in found:
            continue
        try:
            p = psutil.Process(pid)
            if p.create_time() == created and p.status() != psutil.STATUS_ZOMBIE:
                found[pid] = p
        except psutil.Error:
            _noted[token].pop(pid, None)
    return list(found.values())


def sweep(token: str, who: str, final: bool = False,
          why: str = "outside its process group") -> list[str]:
    """Kill what the processes started under ``token`` left behind: children of the court that
    carry the token, and (``final``: the token's own processes are gone) every descendant noted
    while they lived. Returns one problem per process found (empty when nothing was left), each
    saying ``why`` it was found."""
    with _lock:
        # Every process the court started itself, under any token, is kill_group's to stop.
        started = set().union(*_started.values()) if _started else set()
    problems: list[str] = []
    for _ in range(5):  # a killed daemon's own children are re-parented in their turn
        strays = _strays(token, started, final)
        if not strays:
            break
        for p in strays:
            problems.append(f"{_describe(p)} was left behind by {who} {why}; it was killed")
            _kill_and_reap(p)
            _noted.get(token, {}).pop(p.pid, None)
    return problems


def forget(token: str) -> None:
    """The processes of ``token`` are gone and swept: drop what was remembered of them."""
    with _lock:
        _started.pop(token, None)
        _noted.pop(token, None)
