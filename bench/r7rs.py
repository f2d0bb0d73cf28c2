"""Time the r7rs-benchmarks ports on every member and on Guile 3.0, side by side in one run.

    python bench/r7rs.py [--impl ID ...] [--program NAME ...] [--repeat N] [--mode MODE]

The programs are ports of ecraven's public r7rs-benchmarks suite
(https://github.com/ecraven/r7rs-benchmarks); see r7rs_suite.py for how they read their sizes
and how Guile runs the same files. Two timings per member:

- process: the whole `python3 -m court.cli eval --impl ID --input ... PROG` process, start-up
  included, against the whole `guile --no-auto-compile` process on the same program;
- eval: one in-process `evaluate()` (read, normalize, prepare, execute), which is the
  evaluation without the interpreter's start-up.

Every round runs every runner once, round-robin, so that load on a shared machine falls on all
of them alike; the table gives medians over N rounds (after one warm-up round whose answers are
checked too), in wall seconds and in CPU seconds (user and system time of the process and its
children, or of this process for an in-process run), which a loaded machine inflates far less
than wall time. Every answer is compared with Guile's, live where Guile is installed and with the
catalog's otherwise: a wrong answer ends the script with status 1, since it measured nothing.
The last lines give each member's summed medians against Guile's summed medians, and the
geometric mean of the per-program ratios.
"""

from __future__ import annotations

import argparse
import math
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import common  # noqa: I001 (puts the repository root on sys.path before the imports below)
import r7rs_suite as suite

from implementations import registry
from implementations.kernels import evaluate

GUILE = "guile"


# A runner returns (answer, wall seconds, CPU seconds).
Runner = Callable[[], tuple[str, float, float]]


def process_runner(cmd: list[str]) -> Runner:
    return lambda: suite.run_measured(cmd)


def eval_runner(impl: str, prog: suite.SuiteProgram) -> Runner:
    backend = registry.load(impl)
    source = prog.path.read_bytes()

    def run() -> tuple[str, float, float]:
        c0, t0 = time.process_time(), time.perf_counter()
        obs = evaluate(source, backend, filename=str(prog.path), input_text=prog.input)
        wall, cpu = time.perf_counter() - t0, time.process_time() - c0
        if obs.status != "ok" or len(obs.values) != 1:
            raise suite.WrongAnswer(f"status {obs.status}, values {obs.values}")
        return obs.values[0], wall, cpu
    return run


def timed(run: Runner, expected: str, who: str) -> tuple[float, float]:
    try:
        got, wall, cpu = run()
    except suite.WrongAnswer as e:
        raise suite.WrongAnswer(f"{who}: {e}") from None
    if got != expected:
        raise suite.WrongAnswer(f"{who}: got {got}, expected {expected}")
    return wall, cpu


def bench_program(prog: suite.SuiteProgram, impls: list[str], modes: list[str],
                  repeat: int, tmp: Path, guile: bool
                  ) -> tuple[dict[str, float], dict[str, float]]:
    """Per runner, the median wall seconds and the median CPU seconds."""
    runners: dict[str, Runner] = {}
    expected = prog.answer
    if guile:
        shim = tmp / f"{prog.name}.scm"
        shim.write_text(suite.guile_shim(prog.path, prog.input), encoding="utf-8")
        runners[GUILE] = process_runner(suite.guile_command(shim))
        expected = suite.run_process(suite.guile_command(shim))
        if expected != prog.answer:
            print(f"note: {prog.name}: Guile answers {expected}, the catalog {prog.answer}",
                  file=sys.stderr)
    for impl in impls:
        if "process" in modes:
            runners[f"{impl} process"] = process_runner(
                suite.court_command(impl, prog.path, prog.input))
        if "eval" in modes:
            runners[f"{impl} eval"] = eval_runner(impl, prog)
    walls: dict[str, list[float]] = {who: [] for who in runners}
    cpus: dict[str, list[float]] = {who: [] for who in runners}
    for who, run in runners.items():
        timed(run, expected, f"{prog.name} on {who}")  # warm-up, checked
    for i in range(repeat):
        print(f"  {prog.name}: round {i + 1}/{repeat}", file=sys.stderr, flush=True)
        for who, run in runners.items():
            wall, cpu = timed(run, expected, f"{prog.name} on {who}")
            walls[who].append(wall)
            cpus[who].append(cpu)
    return ({who: statistics.median(xs) for who, xs in walls.items()},
            {who: statistics.median(xs) for who, xs in cpus.items()})


def print_results(results: dict[str, dict[str, float]], columns: list[str],
                  guile: bool) -> None:
    header = ["program"] + [f"{c} (s)" for c in columns]
    if guile:
        header += [f"{c.split()[0]}/guile" for c in columns if c.endswith("process")]
    rows = [header]
    for prog, med in results.items():
        row = [prog] + [f"{med[c]:.3f}" for c in columns]
        if guile:
            row += [f"{med[c] / med[GUILE]:.2f}x" for c in columns if c.endswith("process")]
        rows.append(row)
    widths = [max(len(r[i]) for r in rows) for i in range(len(header))]
    for r in rows:
        print("  ".join(c.ljust(w) if i == 0 else c.rjust(w)
                        for i, (c, w) in enumerate(zip(r, widths, strict=True))))
    print()
    for c in columns:
        total = sum(med[c] for med in results.values())
        line = f"{c:24} summed {total:8.2f} s"
        if guile and c != GUILE:
            g = sum(med[GUILE] for med in results.values())
            geo = math.exp(statistics.fmean(math.log(med[c] / med[GUILE])
                                            for med in results.values()))
            line += f"   {total / g:6.2f}x Guile summed   geometric mean {geo:.2f}x"
        print(line)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--impl", action="append", metavar="ID",
                   help=f"member to time (repeatable; default all of {', '.join(registry.ids())})")
    p.add_argument("--program", action="append", metavar="NAME",
                   help="program to run (repeatable; default all)")
    p.add_argument("--repeat", type=int, default=3, metavar="N",
                   help="timed rounds after the warm-up (default 3)")
    p.add_argument("--mode", choices=["both", "process", "eval"], default="both",
                   help="whole processes, in-process evaluation, or both (default)")
    args = p.parse_args(argv)
    if args.repeat < 1:
        p.error("--repeat must be at least 1")
    impls = args.impl or registry.ids()
    unknown = [i for i in impls if i not in registry.ids()]
    if unknown:
        p.error(f"unknown implementation(s): {', '.join(unknown)}")
    programs = suite.catalog()
    if args.program:
        known = {q.name for q in programs}
        missing = [n for n in args.program if n not in known]
        if missing:
            p.error(f"unknown program(s): {', '.join(missing)}; known: {', '.join(sorted(known))}")
        programs = [q for q in programs if q.name in args.program]
    modes = ["process", "eval"] if args.mode == "both" else [args.mode]
    guile = suite.guile_path() is not None
    if not guile:
        print("guile is not installed: answers are checked against the catalog, "
              "and there is no Guile column", file=sys.stderr)
    walls: dict[str, dict[str, float]] = {}
    cpus: dict[str, dict[str, float]] = {}
    try:
        with tempfile.TemporaryDirectory(prefix="r7rs-bench-") as tmp:
            for prog in programs:
                walls[prog.name], cpus[prog.name] = bench_program(
                    prog, impls, modes, args.repeat, Path(tmp), guile)
    except suite.WrongAnswer as e:
        print(f"wrong answer: {e}", file=sys.stderr)
        return 1
    columns = ([GUILE] if guile else []) + [f"{i} {m}" for i in impls for m in modes]
    print(f"r7rs-benchmarks ports, medians of {args.repeat} rounds; "
          f"{common.machine_info()['cpu_count']} cpus, load average {os.getloadavg()[0]:.2f}")
    print("\nwall seconds")
    print_results(walls, columns, guile)
    print("\nCPU seconds (the process and its children; steadier than wall time under load)")
    print_results(cpus, columns, guile)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
