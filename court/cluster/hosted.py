"""The court sessions a Dask worker process keeps warm between tasks.

A task asks for a session by (resolution, limits); the first task of a kind starts one (its
implementation workers start on first use and stay warm), later tasks of the same kind reuse it.
Sessions of another kind are closed when a new kind arrives, so a long-lived worker serving many
runs holds one court's workers at a time. The :class:`SessionPlugin` closes every session when the
Dask worker shuts down, and the client closes them at the end of its run (:func:`close_sessions`
through ``client.run``), so no implementation worker outlives the run. A Dask worker killed
outright leaves its implementation workers parentless; they notice and exit on their own
(``implementations/worker.py`` watches its parent).

This module imports Dask: only workers and a client that has checked ``require_dask`` load it.
"""

from __future__ import annotations

import hashlib
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from distributed import WorkerPlugin

from ..catalog import Resolution
from ..session import CourtSession
from ..workers.limits import Limits

PLUGIN_NAME = "lispex-court-sessions"

_lock = threading.Lock()
_idle: dict[str, list[CourtSession]] = {}
_open: list[tuple[str, CourtSession]] = []
_cleanup: list[dict[str, Any]] = []


def session_key(resolution: Resolution, limits: Limits, jobs: int) -> str:
    # Dataclass reprs are deterministic and cover every field that changes what a session runs.
    return hashlib.sha256(repr((resolution, limits, jobs)).encode("utf-8")).hexdigest()


@contextmanager
def session(resolution: Resolution, limits: Limits, jobs: int = 1) -> Iterator[CourtSession]:
    """A warm session for this kind of work, exclusively the caller's until the block ends."""
    key = session_key(resolution, limits, jobs)
    stale: list[CourtSession] = []
    with _lock:
        pool = _idle.setdefault(key, [])
        s = pool.pop() if pool else None
        if s is None:
            for other in [k for k in _idle if k != key]:
                stale.extend(_idle.pop(other))
            for dead in stale:
                _open.remove(next(e for e in _open if e[1] is dead))
    for dead in stale:
        _close(dead)
    if s is None:
        s = CourtSession(resolution, limits, jobs=jobs)
        with _lock:
            _open.append((key, s))
    try:
        yield s
    finally:
        # Corpus cases set their own limits on the session (runner.run_one); put the base back.
        s.limits = limits
        for w in s.workers.values():
            w.limits = limits
        with _lock:
            if any(e[1] is s for e in _open):
                _idle.setdefault(key, []).append(s)


def warm(resolution: Resolution, limits: Limits, jobs: int = 1) -> None:
    """Start this worker's session for a kind of work ahead of its first task, so that the
    court's implementation workers start while the client is still getting ready rather than
    inside the first chunk. Only speed depends on it: a member that fails to start keeps its
    fault for its first request, which reports it as that member's result."""
    with session(resolution, limits, jobs) as s:
        s.warm()


def _close(s: CourtSession) -> None:
    s.close()
    with _lock:
        _cleanup.extend(s.cleanup_faults)


def close_sessions() -> list[dict[str, Any]]:
    """Close every session of this process; returns the cleanup faults met since the last call."""
    with _lock:
        sessions = [s for _, s in _open]
        _open.clear()
        _idle.clear()
    for s in sessions:
        _close(s)
    with _lock:
        faults = list(_cleanup)
        _cleanup.clear()
    return faults


def implementation_pids() -> list[int]:
    """Process ids of the implementation workers this process runs (for tests and diagnosis)."""
    with _lock:
        sessions = [s for _, s in _open]
    return [w.proc.pid for s in sessions for w in s.workers.values() if w.proc is not None]


class SessionPlugin(WorkerPlugin):
    """Closes the worker's court sessions when the Dask worker shuts down."""

    name = PLUGIN_NAME

    def teardown(self, worker: Any) -> None:
        close_sessions()
