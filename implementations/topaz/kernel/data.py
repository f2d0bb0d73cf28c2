"""Where the kernel's data tables live (shared with the other lineage as data, never as code)."""

from __future__ import annotations

import tomllib
from functools import cache
from pathlib import Path

DATA_DIR = Path(__file__).resolve().parents[2] / "lispex" / "data"


@cache
def table(name: str) -> dict:
    with open(DATA_DIR / f"{name}.toml", "rb") as f:
        return tomllib.load(f)
