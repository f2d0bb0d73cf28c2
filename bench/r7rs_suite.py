"""The programs ported from the public r7rs-benchmarks suite, and how each runner runs one.

The suite is ecraven's r7rs-benchmarks (https://github.com/ecraven/r7rs-benchmarks), itself
drawn from the Gabriel benchmarks and Larceny's; `programs/r7rs/` holds ports of its programs
that need none of what Lispex lacks (file I/O, a clock, mutation of pairs or strings), each
reading its size from the `input` global: `(count arg ...)`, where the benchmark runs `count` times. The catalog
(`programs/r7rs/catalog.toml`) gives each program its bench size, a small size for the tests,
and Guile 3.0's answer at both.

Guile runs the same file: a shim binds `input` and defines `inexact`, `exact` and
`square`, which Guile 3.0 has only in `(scheme base)`, reads the program's
forms, evaluates them in order with Guile's interpreter (`guile --no-auto-compile`) and
writes the last value, which is what `court eval` prints for Lispex.
"""

from __future__ import annotations

import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
import tomllib
from dataclasses import dataclass
from pathlib import Path

BENCH_DIR = Path(__file__).resolve().parent
ROOT = BENCH_DIR.parent
SUITE_DIR = BENCH_DIR / "programs" / "r7rs"
GUILE = "guile"


@dataclass(frozen=True)
class SuiteProgram:
    name: str
    input: str
    answer: str
    test_input: str
    test_answer: str

    @property
    def path(self) -> Path:
        return SUITE_DIR / f"{self.name}.lspx"


def catalog() -> list[SuiteProgram]:
    with open(SUITE_DIR / "catalog.toml", "rb") as f:
        rows = tomllib.load(f)["program"]
    return [SuiteProgram(**row) for row in rows]


def guile_path() -> str | None:
    return shutil.which(GUILE)


def guile_shim(program: Path, input_text: str) -> str:
    """A Scheme file that runs ``program`` on Guile as `court eval` runs it on Lispex."""
    return (f"(define input '{input_text})\n"
            "(define inexact exact->inexact)\n"
            "(define exact inexact->exact)\n"
            "(define (square x) (* x x))\n"
            f"(write (call-with-input-file {_scheme_string(str(program))}\n"
            "  (lambda (port)\n"
            "    (let loop ((last #f))\n"
            "      (let ((form (read port)))\n"
            "        (if (eof-object? form) last (loop (primitive-eval form))))))))\n"
            "(newline)\n")


def _scheme_string(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def guile_command(shim: Path) -> list[str]:
    return [GUILE, "--no-auto-compile", str(shim)]


def court_command(impl: str, program: Path, input_text: str) -> list[str]:
    return [sys.executable, "-m", "court.cli", "eval", "--impl", impl, "--input", input_text,
            str(program)]


def subprocess_env() -> dict[str, str]:
    # the repository root first on the path makes `court.cli` this checkout's
    return dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))


class WrongAnswer(Exception):
    pass


def run_process(cmd: list[str], timeout: float = 600) -> str:
    """The one line the process prints, or WrongAnswer with what it printed instead."""
    return run_measured(cmd, timeout)[0]


def run_measured(cmd: list[str], timeout: float = 600) -> tuple[str, float, float]:
    """What the process prints, its wall seconds, and the CPU seconds (user + system) of it and
    every descendant it waited for: on a loaded machine the CPU time is the steadier figure."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, cwd=ROOT,
                          env=subprocess_env())
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if proc.returncode != 0:
        raise WrongAnswer(f"{' '.join(cmd)} exited {proc.returncode}: "
                          f"{proc.stderr.strip()[-400:]}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return proc.stdout.strip(), wall, cpu


def guile_answer(prog: SuiteProgram, input_text: str) -> str:
    with tempfile.TemporaryDirectory(prefix="r7rs-guile-") as tmp:
        shim = Path(tmp) / f"{prog.name}.scm"
        shim.write_text(guile_shim(prog.path, input_text), encoding="utf-8")
        return run_process(guile_command(shim))
