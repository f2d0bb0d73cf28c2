"""What the benchmark scripts share: the programs, their expected results, and loading them.

The bench scripts run from a checkout (``python bench/run.py``), so this module puts the
repository root on ``sys.path`` itself rather than relying on an editable install.
"""

from __future__ import annotations

import importlib.util
import os
import platform
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

BENCH_DIR = Path(__file__).resolve().parent
PROGRAMS_DIR = BENCH_DIR / "programs"
ROOT = BENCH_DIR.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))


@dataclass(frozen=True)
class BenchProgram:
    name: str
    expected: str  # the Lispex `write` text of the program's one value
    what: str

    @property
    def lispex_path(self) -> Path:
        return PROGRAMS_DIR / f"{self.name}.lspx"

    @property
    def python_path(self) -> Path:
        return PROGRAMS_DIR / f"{self.name}.py"


PROGRAMS: tuple[BenchProgram, ...] = (
    BenchProgram("fib25", "75025", "doubly recursive fib 25 (242,785 calls)"),
    BenchProgram("tak", "7", "tak 18 12 6 (63,609 calls)"),
    BenchProgram("nqueens8", "92", "count the solutions of 8 queens"),
    BenchProgram("strings", "(124125 629000911)",
                 "20,000 number->string + string-append, then a checksum"),
    BenchProgram("tailloop", "1000000", "a 1,000,000-step tail loop"),
)


def by_name(names: list[str] | None) -> list[BenchProgram]:
    if not names:
        return list(PROGRAMS)
    known = {p.name: p for p in PROGRAMS}
    unknown = [n for n in names if n not in known]
    if unknown:
        raise SystemExit(f"unknown program(s): {', '.join(unknown)}; "
                         f"known: {', '.join(known)}")
    return [known[n] for n in names]


def load_python_main(path: Path) -> Callable[[], Any]:
    """The ``main`` of a Python twin, loaded from its file (bench/programs is no package)."""
    spec = importlib.util.spec_from_file_location(f"bench_twin_{path.stem}", path)
    if spec is None or spec.loader is None:
        raise ImportError(f"cannot load {path}")
    module: ModuleType = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.main


def lispex_text(value: Any) -> str:
    """A Python twin's result in Lispex `write` form, so both sides compare as text
    (tuples and lists print as Lispex lists)."""
    if isinstance(value, bool):
        return "#t" if value else "#f"
    if isinstance(value, tuple | list):
        return "(" + " ".join(lispex_text(v) for v in value) + ")"
    return str(value)


def machine_info() -> dict[str, Any]:
    return {
        "python": platform.python_version(),
        "implementation": platform.python_implementation(),
        "platform": platform.platform(),
        "processor": _cpu_model() or platform.processor() or platform.machine(),
        "cpu_count": os.cpu_count(),
    }


def _cpu_model() -> str | None:
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return None
