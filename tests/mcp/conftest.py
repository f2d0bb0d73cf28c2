"""Fixtures for the MCP server tests (helpers live in mcp_support.py)."""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

import psutil
import pytest
from mcp_support import Raw


@pytest.fixture
def anyio_backend():
    return "asyncio"


@pytest.fixture(autouse=True)
def no_orphans():
    """After every MCP test, no server, worker or worker's child it started may be left
    running (what ran before it is an earlier test's to answer for)."""
    me = psutil.Process(os.getpid())
    before = {p.pid for p in me.children(recursive=True)}
    yield

    def running() -> list[psutil.Process]:
        out = []
        for p in me.children(recursive=True):
            try:
                if p.pid not in before and p.status() != psutil.STATUS_ZOMBIE:
                    out.append(p)
            except psutil.Error:
                pass
        return out

    # Polled, not psutil.wait_procs (see tests/harness/conftest.py).
    deadline = time.monotonic() + 3
    alive = running()
    while alive and time.monotonic() < deadline:
        time.sleep(0.05)
        alive = running()
    assert not alive, [p.cmdline() for p in alive]


@pytest.fixture(scope="session")
def pair_court(tmp_path_factory) -> Path:
    """A court.toml with a second warm tree worker, so that a two-member court can complete
    whether or not the vm is in this distribution."""
    path = tmp_path_factory.mktemp("mcp") / "court.toml"
    path.write_text(f"""
[products.tree-again]
command = ["{sys.executable}", "-m", "implementations.worker", "--impl", "tree"]
protocol = "court-worker/v1"

[courts.tree-pair]
members = ["tree", "tree-again"]
""")
    return path


@pytest.fixture
def raw():
    servers: list[Raw] = []

    def start(*args: str) -> Raw:
        servers.append(Raw(*args))
        return servers[-1]

    yield start
    for s in servers:
        if s.proc.poll() is None:
            s.close()


