"""Unicode properties Python's unicodedata lacks (data: unicode_properties.toml)."""

from __future__ import annotations

import tomllib
from bisect import bisect_right
from functools import cache
from pathlib import Path

TABLE = Path(__file__).resolve().parent / "unicode_properties.toml"


@cache
def _ranges(prop: str) -> tuple[list[int], list[int]]:
    with open(TABLE, "rb") as f:
        rows = tomllib.load(f)[prop]
    starts, ends = [], []
    for r in rows:
        a, _, b = r.partition("-")
        starts.append(int(a, 16))
        ends.append(int(b, 16))
    return starts, ends


def has(prop: str, code: int) -> bool:
    starts, ends = _ranges(prop)
    i = bisect_right(starts, code) - 1
    return i >= 0 and code <= ends[i]
