"""The bench programs stay runnable: each Lispex program reads and normalizes, and each has a
Python twin with a ``main()``; each port of the r7rs-benchmarks suite gives Guile's answer, at
a small size, on every member and on Guile itself. This keeps a language or kernel change from
silently breaking them; the benchmarks time them."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

from implementations import registry
from implementations.kernels import evaluate
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


# The r7rs-benchmarks ports: every member and Guile give the catalog's answer at the small
# test size (bench/r7rs.py checks the bench size on every run it times).
def _suite():
    spec = importlib.util.spec_from_file_location(
        "bench_r7rs_suite", PROGRAMS.parent / "r7rs_suite.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


SUITE = _suite()
SUITE_PROGRAMS = SUITE.catalog()


def test_every_suite_program_has_its_file_and_catalog_row() -> None:
    files = {p.stem for p in SUITE.SUITE_DIR.glob("*.lspx")}
    assert files == {p.name for p in SUITE_PROGRAMS}
    assert len(SUITE_PROGRAMS) >= 15


@pytest.mark.parametrize("impl", registry.ids())
@pytest.mark.parametrize("prog", SUITE_PROGRAMS, ids=lambda p: p.name)
def test_suite_program_gives_guiles_answer_on_every_member(prog, impl: str) -> None:
    obs = evaluate(prog.path.read_bytes(), registry.load(impl), filename=str(prog.path),
                   input_text=prog.test_input)
    assert (obs.status, obs.values) == ("ok", [prog.test_answer])


@pytest.mark.skipif(SUITE.guile_path() is None, reason="guile is not installed")
@pytest.mark.parametrize("prog", SUITE_PROGRAMS, ids=lambda p: p.name)
def test_suite_program_answer_is_guiles(prog) -> None:
    assert SUITE.guile_answer(prog, prog.test_input) == prog.test_answer
