"""Time the bench programs on each implementation, in process, against plain Python.

    python bench/run.py [--impl ID ...] [--program NAME ...] [--repeat N] [--json FILE]

Each program runs once per runner as a warm-up, then N rounds in which every runner (python,
then each implementation) runs once, round-robin, so that noise from the shared machine falls on
all of them alike instead of on whichever ran during a burst. A runner whose warm-up took less
than MIN_SAMPLE (plain Python, mostly) repeats the program back to back within each sample and
reports the time per run, so that one context switch does not swamp a sample of a few
milliseconds. Every run's result is checked: a benchmark that computes the wrong thing measures
nothing, so a wrong result ends the script with status 1.

A Lispex sample is one whole ``evaluate()``: read, normalize, prepare (compile, for a back end
that compiles) and execute, which is what a caller of the implementation pays.
"""

from __future__ import annotations

import argparse
import gc
import json
import math
import statistics
import sys
import time
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

import common  # noqa: I001 (puts the repository root on sys.path before the imports below)

from implementations import registry
from implementations.kernels import evaluate

PYTHON = "python"
MIN_SAMPLE = 0.05  # seconds: shorter runs are repeated back to back within one sample


class WrongResult(Exception):
    pass


def lispex_runner(impl_id: str, prog: common.BenchProgram) -> Callable[[], str]:
    backend = registry.load(impl_id)
    source = prog.lispex_path.read_bytes()
    filename = str(prog.lispex_path)

    def run() -> str:
        obs = evaluate(source, backend, filename=filename)
        if obs.status != "ok" or len(obs.values) != 1:
            detail = "; ".join(d.render(filename) for d in obs.diagnostics)
            raise WrongResult(f"status {obs.status}, values {obs.values} {detail}".rstrip())
        return obs.values[0]
    return run


def python_runner(prog: common.BenchProgram) -> Callable[[], str]:
    main = common.load_python_main(prog.python_path)
    return lambda: common.lispex_text(main())


def timed(run: Callable[[], str], expected: str, who: str, prog: str, inner: int = 1) -> float:
    """Seconds per run, averaged over ``inner`` back-to-back runs, every result checked."""
    # Collect the previous run's garbage first so that it is not charged to this one; the
    # collector stays on during the run because allocation is part of what is measured.
    gc.collect()
    results = []
    t0 = time.perf_counter()
    try:
        for _ in range(inner):
            results.append(run())
    except WrongResult as e:
        raise WrongResult(f"{prog} on {who}: {e}") from None
    elapsed = time.perf_counter() - t0
    for got in results:
        if got != expected:
            raise WrongResult(f"{prog} on {who}: got {got}, expected {expected}")
    return elapsed / inner


def inner_count(warm_up_seconds: float) -> int:
    # A run of a few milliseconds (plain Python) is at the mercy of one context switch on a
    # shared machine: repeat it back to back so that each sample lasts at least MIN_SAMPLE.
    return max(1, math.ceil(MIN_SAMPLE / max(warm_up_seconds, 1e-6)))


def bench_program(prog: common.BenchProgram, impls: list[str], repeat: int,
                  progress: Callable[[str], None]
                  ) -> tuple[dict[str, list[float]], dict[str, int]]:
    """Per runner, the samples (seconds per run) and how many runs each sample averages."""
    runners: dict[str, Callable[[], str]] = {PYTHON: python_runner(prog)}
    for impl in impls:
        runners[impl] = lispex_runner(impl, prog)
    samples: dict[str, list[float]] = {who: [] for who in runners}
    inner: dict[str, int] = {}
    for who, run in runners.items():
        # warm-up: imports, caches, first-run costs; its time sizes the samples
        inner[who] = inner_count(timed(run, prog.expected, who, prog.name))
    for i in range(repeat):
        progress(f"{prog.name}: round {i + 1}/{repeat}")
        for who, run in runners.items():
            samples[who].append(timed(run, prog.expected, who, prog.name, inner[who]))
    return samples, inner


def summarize(samples: dict[str, list[float]]) -> dict[str, dict[str, float]]:
    base = statistics.median(samples[PYTHON])
    out: dict[str, dict[str, float]] = {}
    for who, xs in samples.items():
        med = statistics.median(xs)
        out[who] = {"median": med, "min": min(xs), "max": max(xs), "ratio": med / base}
    if "tree" in out and "vm" in out:
        out["vm"]["speedup_vs_tree"] = out["tree"]["median"] / out["vm"]["median"]
    return out


def _unit(x: float) -> tuple[float, str]:
    return (1000.0, "ms") if x < 1 else (1.0, "s")


def _secs(x: float) -> str:
    scale, unit = _unit(x)
    return f"{x * scale:.1f} {unit}" if unit == "ms" else f"{x:.2f} s"


def _span(lo: float, hi: float) -> str:
    scale, unit = _unit(hi)
    digits = 1 if unit == "ms" else 2
    return f"{lo * scale:.{digits}f}-{hi * scale:.{digits}f} {unit}"


# A cell is (main text, detail or ""): the plain printer puts the detail in parentheses on the
# same line, the rich one on a dim second line so that the table fits a terminal.
Cell = tuple[str, str]


def table_rows(results: dict[str, dict[str, dict[str, float]]],
               runners: list[str]) -> tuple[list[str], list[list[Cell]]]:
    header = ["program"]
    for who in runners:
        header.append(f"{who} median (min-max)")
        if who != PYTHON:
            header.append(f"{who}/python")
    with_speedup = "tree" in runners and "vm" in runners
    if with_speedup:
        header.append("vm speedup over tree")
    rows = []
    for prog, summary in results.items():
        row: list[Cell] = [(prog, "")]
        for who in runners:
            s = summary[who]
            row.append((_secs(s["median"]), _span(s["min"], s["max"])))
            if who != PYTHON:
                row.append((f"{s['ratio']:.0f}x", ""))
        if with_speedup:
            row.append((f"{summary['vm']['speedup_vs_tree']:.2f}x", ""))
        rows.append(row)
    return header, rows


def print_table(header: list[str], rows: list[list[Cell]], title: str) -> None:
    if sys.stdout.isatty():
        from rich.console import Console
        from rich.table import Table
        table = Table(title=title)
        for i, h in enumerate(header):
            table.add_column(h, justify="left" if i == 0 else "right")
        for row in rows:
            table.add_row(*(f"{m}\n[dim]{d}[/dim]" if d else m for m, d in row))
        Console().print(table)
        return
    text = [header] + [[f"{m} ({d})" if d else m for m, d in row] for row in rows]
    widths = [max(len(r[i]) for r in text) for i in range(len(header))]
    print(title)
    for r in [text[0], ["-" * w for w in widths], *text[1:]]:
        print("  ".join(c.ljust(w) if i == 0 else c.rjust(w)
                        for i, (c, w) in enumerate(zip(r, widths, strict=True))))


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--impl", action="append", metavar="ID",
                   help=f"implementation to time (repeatable; default: all of "
                        f"{', '.join(registry.ids())})")
    p.add_argument("--program", action="append", metavar="NAME",
                   help="program to run (repeatable; default: all)")
    p.add_argument("--repeat", type=int, default=5, metavar="N",
                   help="timed rounds after the warm-up (default 5)")
    p.add_argument("--json", metavar="FILE", help="save the raw samples and medians as JSON")
    args = p.parse_args(argv)
    if args.repeat < 1:
        p.error("--repeat must be at least 1")
    return args


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    impls = args.impl or registry.ids()
    for impl in impls:
        if impl not in registry.ids():
            print(f"unknown implementation {impl}; available: {', '.join(registry.ids())}",
                  file=sys.stderr)
            return 2
    programs = common.by_name(args.program)
    info = common.machine_info()
    print(f"Python {info['python']} ({info['implementation']}) on {info['platform']}")
    print(f"CPU: {info['processor']}, {info['cpu_count']} logical CPUs")
    print(f"{args.repeat} timed rounds after one warm-up, round-robin over: "
          f"{', '.join([PYTHON, *impls])}; runs under {MIN_SAMPLE * 1000:.0f} ms are "
          f"repeated within a sample")

    def progress(msg: str) -> None:
        print(f"  {msg}", file=sys.stderr, flush=True)

    samples: dict[str, dict[str, list[float]]] = {}
    inner: dict[str, dict[str, int]] = {}
    try:
        for prog in programs:
            samples[prog.name], inner[prog.name] = bench_program(prog, impls, args.repeat,
                                                                 progress)
    except WrongResult as e:
        print(f"error: wrong result: {e}", file=sys.stderr)
        return 1
    results = {name: summarize(s) for name, s in samples.items()}
    header, rows = table_rows(results, [PYTHON, *impls])
    print()
    print_table(header, rows, "median seconds per run (min-max); ratio = median / python median")
    if args.json:
        record: dict[str, Any] = {
            "date": datetime.now(UTC).isoformat(timespec="seconds"),
            "machine": info, "repeat": args.repeat, "runners": [PYTHON, *impls],
            "samples": samples, "runs_per_sample": inner, "summary": results,
        }
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump(record, f, indent=2)
            f.write("\n")
        print(f"\nraw samples saved to {args.json}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
