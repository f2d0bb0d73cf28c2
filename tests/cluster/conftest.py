"""Cluster tests: a Dask LocalCluster of two worker processes on this machine.

Every test module here skips itself, saying why, when Dask distributed (the `cluster` extra) is
missing. After each test no process it started may be left: not the Dask workers, not their
implementation workers.
"""

from __future__ import annotations

import pytest
from cluster_helpers import ours
from process_checks import assert_none_left


@pytest.fixture(autouse=True)
def no_orphans():
    yield
    # Every descendant counts here, whenever it started: a cluster test owns its whole cluster.
    assert_none_left((), grace=10, counts=ours)
