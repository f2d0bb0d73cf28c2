"""Cluster tests: a Dask LocalCluster of two worker processes on this machine.

Every test module here skips itself, saying why, when Dask distributed (the `cluster` extra) is
missing. After each test no process it started may be left: not the Dask workers, not their
implementation workers.
"""

from __future__ import annotations

import os
import time

import psutil
import pytest
from cluster_helpers import ours


@pytest.fixture(autouse=True)
def no_orphans():
    yield
    me = psutil.Process(os.getpid())
    # Polled, not psutil.wait_procs: a survivor re-parented to this process (a subreaper, as the
    # court makes it) can leave wait_procs blocked in a pidfd wait long past its timeout.
    deadline = time.monotonic() + 10
    while True:
        alive = [p for p in me.children(recursive=True) if ours(p)]
        if not alive or time.monotonic() > deadline:
            break
        time.sleep(0.1)
    assert not alive, [p.cmdline() for p in alive]
