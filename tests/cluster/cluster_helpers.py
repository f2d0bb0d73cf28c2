"""Helpers shared by the cluster tests."""

from __future__ import annotations

from pathlib import Path

import psutil
import pytest

NEEDS_DASK = "the cluster tests need Dask distributed: pip install 'lispex-court[cluster]'"


def require_dask() -> None:
    pytest.importorskip("distributed", reason=NEEDS_DASK)


def ours(p: psutil.Process) -> bool:
    # multiprocessing's resource tracker serves the interpreter that spawned the Dask workers and
    # exits with it; it is Python's, started once, and no court process.
    try:
        return p.is_running() and p.status() != psutil.STATUS_ZOMBIE and \
            "multiprocessing.resource_tracker" not in " ".join(p.cmdline())
    except psutil.Error:
        return False


def slow_corpus(root: Path, n: int = 16) -> Path:
    """``n`` cases that each take a noticeable while (a counting loop), some ending in an error,
    so a task is still running when a test kills its worker."""
    root.mkdir(parents=True, exist_ok=True)
    for i in range(n):
        body = f"(loop {20000 + 1000 * i} 0)" if i % 4 else f"(begin (loop {20000 + i} 0) (car '()))"
        (root / f"case{i:02}.lspx").write_text(
            "(define (loop i acc) (if (= i 0) acc (loop (- i 1) (+ acc 1))))\n" + body + "\n")
    (root / "input.lspx").write_text("(define x (read-input)) (* x 2)\n")
    (root / "input.input").write_text("21\n")
    return root


def kill_a_busy_worker(client, timeout: float = 180.0) -> tuple[int, list[int]]:
    """Kill (SIGKILL) the process of a Dask worker while it runs a court task; returns its pid
    and the pids of the implementation workers it was driving."""
    import os
    import time

    from court.cluster import hosted

    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        for addr, keys in client.processing().items():
            if not keys:
                continue
            try:
                pid = client.run(os.getpid, workers=[addr])[addr]
                impl = client.run(hosted.implementation_pids, workers=[addr])[addr]
            except Exception:  # noqa: BLE001 - the worker may have finished or gone meanwhile
                continue
            if impl:  # its court is warm, so the task has started
                psutil.Process(pid).kill()
                return pid, impl
        time.sleep(0.02)
    raise AssertionError(f"no Dask worker was seen running a task within {timeout} s")
