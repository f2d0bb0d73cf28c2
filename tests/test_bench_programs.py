"""The bench programs stay runnable: each Lispex program reads and normalizes, and each has a
Python twin with a ``main()``. Nothing here runs a program (the benchmarks do that, and check
the results); this only keeps a language or kernel change from silently breaking them."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from implementations.lispex.meters import Meter, default_profile
from implementations.lispex.normalizer import normalize
from implementations.lispex.reader import read_source

PROGRAMS = Path(__file__).resolve().parent.parent / "bench" / "programs"
LISPEX = sorted(PROGRAMS.glob("*.lspx"))
EXPECTED = {"fib25", "tak", "nqueens8", "strings", "tailloop"}


def test_every_benchmark_is_present() -> None:
    assert {p.stem for p in LISPEX} >= EXPECTED


@pytest.mark.parametrize("path", LISPEX, ids=lambda p: p.stem)
def test_lispex_program_normalizes(path: Path) -> None:
    meter = Meter(default_profile().limit_map())
    read = read_source(path.read_bytes(), str(path), meter)
    program = normalize(read.datums, str(path), meter, read.pragmas)
    assert program.forms


@pytest.mark.parametrize("path", LISPEX, ids=lambda p: p.stem)
def test_python_twin_defines_main(path: Path) -> None:
    twin = path.with_suffix(".py")
    assert twin.is_file(), f"{path.name} has no Python twin {twin.name}"
    spec = importlib.util.spec_from_file_location(f"bench_twin_{path.stem}", twin)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert callable(getattr(module, "main", None))
