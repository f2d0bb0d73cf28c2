import sys
from pathlib import Path

import pytest
from process_checks import assert_none_left, children

FAKES = Path(__file__).resolve().parent / "fakes"


@pytest.fixture(autouse=True)
def no_orphans():
    """After every court test, no worker (or worker's child) it started may be left running
    (what was running before it is an earlier test's to answer for, and that test's check says
    so)."""
    before = children()
    yield
    assert_none_left(before, grace=2)


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
