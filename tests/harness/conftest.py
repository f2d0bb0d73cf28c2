import os
import sys
from pathlib import Path

import psutil
import pytest

FAKES = Path(__file__).resolve().parent / "fakes"


@pytest.fixture(autouse=True)
def no_orphans():
    """After every court test, no worker (or worker's child) may be left running."""
    yield
    me = psutil.Process(os.getpid())
    survivors = [p for p in me.children(recursive=True) if p.is_running()
                 and p.status() != psutil.STATUS_ZOMBIE]
    _, alive = psutil.wait_procs(survivors, timeout=2)
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
