"""Cluster tests: a Dask LocalCluster of two worker processes on this machine.

Every test module here skips itself, saying why, when Dask distributed (the `cluster` extra) is
missing. After each test no process it started may be left: not the Dask workers, not their
implementation workers.
"""

from __future__ import annotations

import os

import psutil
import pytest
from cluster_helpers import ours


@pytest.fixture(autouse=True)
def no_orphans():
    yield
    me = psutil.Process(os.getpid())
    survivors = [p for p in me.children(recursive=True) if ours(p)]
    _, alive = psutil.wait_procs(survivors, timeout=10)
    assert not alive, [p.cmdline() for p in alive]
