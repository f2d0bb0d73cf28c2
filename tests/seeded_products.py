"""A court.toml with the test-only seeded-bug worker (tests/harness/fakes/seeded_worker.py), for
the harness and the cluster tests alike."""

from __future__ import annotations

import sys
from pathlib import Path

FAKES = Path(__file__).resolve().parent / "harness" / "fakes"


def seeded_config(tmp_path: Path, bug: str) -> Path:
    """A court.toml declaring product `seeded` (tree with ``bug``; "none" for none) and court
    `buggy` = tree + seeded."""
    path = tmp_path / "court.toml"
    path.write_text(f"""
[products.seeded]
command = ["{sys.executable}", "{FAKES / 'seeded_worker.py'}", "--bug", "{bug}"]
protocol = "court-worker/v1"
[courts.buggy]
members = ["tree", "seeded"]
""")
    return path
