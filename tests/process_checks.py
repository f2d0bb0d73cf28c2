"""The orphan checks the tests share: after a test, no process it started is running
(`assert_none_left`), and the processes a test watched are gone (`assert_gone`).

Polled, not psutil.wait_procs: a child re-parented to the test process (a subreaper, as the
court makes it) can leave wait_procs blocked in a pidfd wait long past its timeout.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable

import psutil


def children() -> set[int]:
    """The pids of every descendant of this process now."""
    return {p.pid for p in psutil.Process().children(recursive=True)}


def running(p: psutil.Process) -> bool:
    try:
        return p.is_running() and p.status() != psutil.STATUS_ZOMBIE
    except psutil.Error:
        return False


def left_running(before: Iterable[int], grace: float,
                 counts: Callable[[psutil.Process], bool] = running) -> list[psutil.Process]:
    """Descendants not in ``before`` that ``counts`` (default: alive, not a zombie) still after
    ``grace`` seconds of letting them exit."""
    old = set(before)
    me = psutil.Process()

    def alive() -> list[psutil.Process]:
        return [p for p in me.children(recursive=True) if p.pid not in old and counts(p)]

    deadline = time.monotonic() + grace
    out = alive()
    while out and time.monotonic() < deadline:
        time.sleep(0.05)
        out = alive()
    return out


def still_running(procs: Iterable[psutil.Process | int], grace: float,
                  counts: Callable[[psutil.Process], bool] = running) -> list[psutil.Process]:
    """Those of ``procs`` (processes or pids) that ``counts`` (default: alive, not a zombie)
    still after ``grace`` seconds of letting them exit."""
    watched = []
    for p in procs:
        try:
            watched.append(p if isinstance(p, psutil.Process) else psutil.Process(p))
        except psutil.NoSuchProcess:
            pass
    deadline = time.monotonic() + grace
    out = [p for p in watched if counts(p)]
    while out and time.monotonic() < deadline:
        time.sleep(0.05)
        out = [p for p in out if counts(p)]
    return out


def assert_gone(procs: Iterable[psutil.Process | int], grace: float,
                counts: Callable[[psutil.Process], bool] = running) -> None:
    alive = still_running(procs, grace, counts)
    assert not alive, [(p.pid, _cmdline(p)) for p in alive]


def assert_none_left(before: Iterable[int], grace: float,
                     counts: Callable[[psutil.Process], bool] = running) -> None:
    alive = left_running(before, grace, counts)
    assert not alive, [(p.pid, _cmdline(p)) for p in alive]


def _cmdline(p: psutil.Process) -> list[str]:
    try:
        return p.cmdline()
    except psutil.Error:
        return ["<gone>"]
