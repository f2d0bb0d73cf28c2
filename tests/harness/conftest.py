import os
import sys
import time
from pathlib import Path

import psutil
import pytest

FAKES = Path(__file__).resolve().parent / "fakes"


@pytest.fixture(autouse=True)
def no_orphans():
    """After every court test, no worker (or worker's child) it started may be left running
    (what was running before it is an earlier test's to answer for, and that test's check says
    so)."""
    me = psutil.Process(os.getpid())
    before = {p.pid for p in me.children(recursive=True)}
    yield
    # Polled, not psutil.wait_procs: a child re-parented to this process (a subreaper, as the
    # court makes it) can leave wait_procs blocked in a pidfd wait long past its timeout.
    deadline = time.monotonic() + 2

    def running() -> list[psutil.Process]:
        out = []
        for p in me.children(recursive=True):
            if p.pid in before:
                continue
            try:
                if p.status() != psutil.STATUS_ZOMBIE:
                    out.append(p)
            except psutil.Error:
                pass
        return out

    alive = running()
    while alive and time.monotonic() < deadline:
        time.sleep(0.05)
        alive = running()
    assert not alive, [p.cmdline() for p in alive]


@pytest.fixture
def court_toml(tmp_path):
    """Write a court.toml declaring the test-only foreign products; returns its path."""
    py = sys.executable
    text = f"""
[products.buggy]
command = ["{py}", "{FAKES / 'buggy_observation.py'}", "{{file}}"]
input = ["--input", "{{input}}"]
protocol = "observation-json"

[products.fake]
command = ["{py}", "{FAKES / 'fake_worker.py'}"]
protocol = "court-worker/v1"

[products.cli]
command = ["{py}", "-m", "court.cli", "eval", "{{file}}"]
input = ["--input", "{{input}}"]
protocol = "lispex-cli"

[courts.seeded]
members = ["tree", "buggy"]

[courts.flaky]
members = ["tree", "fake"]
"""
    path = tmp_path / "court.toml"
    path.write_text(text)
    return path
