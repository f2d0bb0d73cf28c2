"""Fixtures for the MCP server tests (helpers live in mcp_support.py)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from mcp_support import Raw
from process_checks import assert_none_left, children


@pytest.fixture
def anyio_backend():
    return "asyncio"


@pytest.fixture(autouse=True)
def no_orphans():
    """After every MCP test, no server, worker or worker's child it started may be left
    running (what ran before it is an earlier test's to answer for)."""
    before = children()
    yield
    assert_none_left(before, grace=3)


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


