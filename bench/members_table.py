"""Every row of the members' speed table, each against its comparison in the same run.

    python bench/members_table.py [--rounds 3] [--fuzz-examples 600] [--cluster-examples 2000]
                                  [--only ROW ...]

Rows (each a median over --rounds, the runs of a row interleaved round-robin with the runs of
its comparison, so that load on a shared machine falls on both alike):

- r7rs: the r7rs-benchmarks ports (r7rs_suite.py), topaz-vm summed against Guile 3.0 summed,
  whole processes (`court eval --impl topaz-vm` against `guile --no-auto-compile`);
- fib28: fib 28 as a whole `court eval --impl topaz-vm` process against the same function in a
  plain `python3 -c` process, each minus its own start-up (the same process computing fib 0);
- fib25: fib 25, vm against tree, as whole `court eval` processes and as one in-process
  `evaluate()` each (evaluation alone);
- corpus: `court run corpus --court all-four` against fib 30 in a plain CPython process;
- fuzz: `court fuzz --court all-four`, the programs per second the campaign prints;
- cluster: `court fuzz --cluster local:2` against `local:1` (bench/cluster_fuzz.py's runs).

A run that fails or answers wrongly stops the script with status 1: it measured nothing.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import cluster_fuzz  # noqa: I001 (common puts the repository root on sys.path for the below)
import common
import r7rs_suite as suite

from implementations import registry
from implementations.kernels import evaluate

ROWS = ("r7rs", "fib28", "fib25", "corpus", "fuzz", "cluster")
FIB = suite.SUITE_DIR / "fib.lspx"
PY_FIB = "def fib(n): return n if n < 2 else fib(n - 1) + fib(n - 2)\nprint(fib({n}))"


def wall(cmd: list[str], expected: str | None = None) -> float:
    t0 = time.perf_counter()
    got = suite.run_process(cmd, timeout=1800)
    elapsed = time.perf_counter() - t0
    if expected is not None and got != expected:
        raise suite.WrongAnswer(f"{' '.join(cmd)}: got {got}, expected {expected}")
    return elapsed


def medians(runs: dict[str, Callable[[], float]], rounds: int) -> dict[str, float]:
    samples: dict[str, list[float]] = {k: [] for k in runs}
    for _ in range(rounds):
        for k, run in runs.items():
            samples[k].append(run())
    return {k: statistics.median(xs) for k, xs in samples.items()}


def fib_eval(impl: str, n: int) -> Callable[[], float]:
    backend = registry.load(impl)
    source = FIB.read_bytes()

    def run() -> float:
        t0 = time.perf_counter()
        obs = evaluate(source, backend, filename=str(FIB), input_text=f"(1 {n})")
        elapsed = time.perf_counter() - t0
        if obs.status != "ok":
            raise suite.WrongAnswer(f"fib {n} on {impl}: {obs.status}")
        return elapsed
    return run


def py_fib(n: int) -> int:
    return n if n < 2 else py_fib(n - 1) + py_fib(n - 2)


def row_r7rs(rounds: int, tmp: Path) -> str:
    if suite.guile_path() is None:
        return "r7rs: skipped, guile is not installed"
    totals = {"topaz-vm": 0.0, "guile": 0.0, "topaz-vm cpu": 0.0, "guile cpu": 0.0}
    for prog in suite.catalog():
        shim = tmp / f"{prog.name}.scm"
        shim.write_text(suite.guile_shim(prog.path, prog.input), encoding="utf-8")
        commands = {"guile": suite.guile_command(shim),
                    "topaz-vm": suite.court_command("topaz-vm", prog.path, prog.input)}
        answer = suite.run_process(commands["guile"])
        samples: dict[str, list[float]] = {k: [] for k in totals}
        for _ in range(rounds):
            for who, cmd in commands.items():
                got, seconds, cpu = suite.run_measured(cmd, timeout=1800)
                if got != answer:
                    raise suite.WrongAnswer(f"{prog.name} on {who}: got {got}, "
                                            f"expected {answer}")
                samples[who].append(seconds)
                samples[f"{who} cpu"].append(cpu)
        for k in totals:
            totals[k] += statistics.median(samples[k])
    return (f"r7rs-benchmarks ({len(suite.catalog())} programs), topaz-vm against Guile, "
            f"summed whole processes: {totals['topaz-vm'] / totals['guile']:.2f}x wall "
            f"({totals['topaz-vm']:.2f} s against {totals['guile']:.2f} s), "
            f"{totals['topaz-vm cpu'] / totals['guile cpu']:.2f}x CPU "
            f"({totals['topaz-vm cpu']:.2f} s against {totals['guile cpu']:.2f} s)")


def row_fib28(rounds: int, tmp: Path) -> str:
    py = sys.executable
    med = medians({
        "topaz-vm": lambda: wall(suite.court_command("topaz-vm", FIB, "(1 28)"), "317811"),
        "topaz-vm start": lambda: wall(suite.court_command("topaz-vm", FIB, "(1 0)"), "0"),
        "python": lambda: wall([py, "-c", PY_FIB.format(n=28)], "317811"),
        "python start": lambda: wall([py, "-c", PY_FIB.format(n=0)], "0"),
    }, rounds)
    lispex = med["topaz-vm"] - med["topaz-vm start"]
    plain = med["python"] - med["python start"]
    return (f"fib 28, topaz-vm against plain CPython, start-up subtracted: {lispex / plain:.2f}x "
            f"({lispex:.2f} s against {plain:.2f} s; start-ups {med['topaz-vm start']:.2f} s "
            f"and {med['python start']:.3f} s)")


def row_fib25(rounds: int, tmp: Path) -> str:
    med = medians({
        "tree": lambda: wall(suite.court_command("tree", FIB, "(1 25)"), "75025"),
        "vm": lambda: wall(suite.court_command("vm", FIB, "(1 25)"), "75025"),
        "tree eval": fib_eval("tree", 25),
        "vm eval": fib_eval("vm", 25),
    }, rounds)
    return (f"fib 25, vm against tree: {med['tree'] / med['vm']:.2f}x faster whole process "
            f"({med['vm']:.2f} s against {med['tree']:.2f} s), "
            f"{med['tree eval'] / med['vm eval']:.2f}x evaluation alone "
            f"({med['vm eval']:.2f} s against {med['tree eval']:.2f} s)")


def row_corpus(rounds: int, tmp: Path) -> str:
    def corpus() -> float:
        # a fresh report folder each time: no history reorders the cases between rounds
        return wall([sys.executable, "-m", "court.cli", "run", "corpus", "--court",
                     "all-four", "--report-dir", tempfile.mkdtemp(dir=tmp)])

    def calibration() -> float:
        return wall([sys.executable, "-c", PY_FIB.format(n=30)], "832040")
    med = medians({"corpus": corpus, "fib 30": calibration}, rounds)
    return (f"court run corpus --court all-four against fib 30 in plain CPython: "
            f"{med['corpus'] / med['fib 30']:.1f}x ({med['corpus']:.2f} s against "
            f"{med['fib 30']:.2f} s)")


def row_fuzz(rounds: int, examples: int) -> str:
    rates = [cluster_fuzz.run("all-four", examples, 0, None)[0] for _ in range(rounds)]
    return (f"court fuzz --court all-four: {statistics.median(rates):.0f} programs/s "
            f"({examples} programs, seed 0; rounds " + ", ".join(f"{r:.0f}" for r in rates) + ")")


def row_cluster(rounds: int, examples: int) -> str:
    one: list[float] = []
    two: list[float] = []
    cpu: dict[str, list[float]] = {"local:1": [], "local:2": []}
    for _ in range(rounds):
        for spec, rates in (("local:1", one), ("local:2", two)):
            rate, _wall, cpu_per_program = cluster_fuzz.run("tree-rust", examples, 0, spec)
            rates.append(rate)
            cpu[spec].append(cpu_per_program)
    paired = statistics.median(b / a for a, b in zip(one, two, strict=True))
    return (f"court fuzz --cluster local:2 against local:1 (tree-rust, {examples} programs): "
            f"{statistics.median(two) / statistics.median(one):.2f}x of the medians, "
            f"{paired:.2f}x the median of each round's ratio ({statistics.median(two):.0f} "
            f"against {statistics.median(one):.0f} programs/s; CPU of the whole process tree "
            f"{1000 * statistics.median(cpu['local:2']):.1f} against "
            f"{1000 * statistics.median(cpu['local:1']):.1f} ms a program)")


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--rounds", type=int, default=3, metavar="N")
    p.add_argument("--fuzz-examples", type=int, default=600, metavar="N")
    p.add_argument("--cluster-examples", type=int, default=2000, metavar="N")
    p.add_argument("--only", action="append", choices=ROWS, metavar="ROW",
                   help=f"rows to measure (repeatable; default all of {', '.join(ROWS)})")
    args = p.parse_args(argv)
    if args.rounds < 1:
        p.error("--rounds must be at least 1")
    rows = args.only or list(ROWS)
    print(f"{common.machine_info()['processor']}, {os.cpu_count()} cpus, "
          f"load average {os.getloadavg()[0]:.2f}; medians of {args.rounds} rounds", flush=True)
    try:
        with tempfile.TemporaryDirectory(prefix="members-table-") as tmp:
            for row in rows:
                if row == "fuzz":
                    line = row_fuzz(args.rounds, args.fuzz_examples)
                elif row == "cluster":
                    line = row_cluster(args.rounds, args.cluster_examples)
                else:
                    line = globals()[f"row_{row}"](args.rounds, Path(tmp))
                print(line, flush=True)
    except suite.WrongAnswer as e:
        print(f"wrong answer or failed run: {e}", file=sys.stderr)
        return 1
    except subprocess.TimeoutExpired as e:
        print(f"timed out: {e}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
