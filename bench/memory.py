"""Show that a tail loop runs in memory flat in its number of iterations.

    python bench/memory.py [--impl ID ...] [--sizes 10000,100000,1000000]

For each implementation and each size, the tail loop of bench/programs/tailloop.lspx runs with
that many steps, measured two ways:

* tracemalloc, in this process: the peak of Python allocations during the run, less what was
  allocated before it. It sees every Python object the run creates, frames included.
* ru_maxrss of a fresh subprocess per size: the child loads everything and runs a 10-step loop
  first, so the growth it reports is the run's own, not the interpreter's start-up. It sees what
  tracemalloc cannot (the C stack, allocator slack), at page granularity.

Flat means the growth at 10^6 steps is about the growth at 10^4; a loop that kept a frame per
step would grow a hundredfold.
"""

from __future__ import annotations

import argparse
import gc
import json
import re
import resource
import subprocess
import sys
import time
import tracemalloc
from pathlib import Path

import common  # noqa: I001 (puts the repository root on sys.path before the imports below)

from implementations import registry
from implementations.kernels import evaluate

TAILLOOP = common.PROGRAMS_DIR / "tailloop.lspx"
STEPS_LITERAL = re.compile(r"\(loop 1000000 0\)")


def source_for(steps: int) -> bytes:
    text = TAILLOOP.read_text("utf-8")
    # The program names its step count once, as a literal; rewrite just that call.
    new, n = STEPS_LITERAL.subn(f"(loop {steps} 0)", text)
    if n != 1:
        raise SystemExit(f"{TAILLOOP}: expected one `(loop 1000000 0)` call to resize")
    return new.encode()


def run_checked(impl_id: str, steps: int) -> None:
    obs = evaluate(source_for(steps), registry.load(impl_id), filename=str(TAILLOOP))
    if obs.status != "ok" or obs.values != [str(steps)]:
        raise SystemExit(f"tailloop {steps} on {impl_id}: status {obs.status}, "
                         f"values {obs.values}, expected [{steps}]")


def traced_growth(impl_id: str, steps: int) -> tuple[int, float]:
    """(peak bytes allocated during the run beyond those live before it, seconds)."""
    run_checked(impl_id, 10)  # first-run costs (imports, caches) are not the loop's
    gc.collect()
    tracemalloc.start()
    try:
        before, _ = tracemalloc.get_traced_memory()
        tracemalloc.reset_peak()
        t0 = time.perf_counter()
        run_checked(impl_id, steps)
        elapsed = time.perf_counter() - t0
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    return peak - before, elapsed


def maxrss_kib() -> int:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss  # KiB on Linux


def child(impl_id: str, steps: int) -> None:
    run_checked(impl_id, 10)  # load the modules and fill the caches before the baseline
    gc.collect()
    before = maxrss_kib()
    run_checked(impl_id, steps)
    print(json.dumps({"before_kib": before, "after_kib": maxrss_kib()}))


def rss_growth(impl_id: str, steps: int) -> dict[str, int]:
    proc = subprocess.run(
        [sys.executable, str(Path(__file__).resolve()), "--child", impl_id, str(steps)],
        capture_output=True, text=True, timeout=600)
    if proc.returncode != 0:
        raise SystemExit(f"child for {impl_id} at {steps} failed:\n{proc.stderr}")
    return json.loads(proc.stdout)


def _kib(n_bytes: float) -> str:
    return f"{n_bytes / 1024:,.0f} KiB"


def print_rows(header: list[str], rows: list[list[str]]) -> None:
    if sys.stdout.isatty():
        from rich.console import Console
        from rich.table import Table
        table = Table(title="memory growth of the tail loop")
        for i, h in enumerate(header):
            table.add_column(h, justify="left" if i < 2 else "right")
        for row in rows:
            table.add_row(*row)
        Console().print(table)
        return
    widths = [max(len(r[i]) for r in [header, *rows]) for i in range(len(header))]
    for r in [header, ["-" * w for w in widths], *rows]:
        print("  ".join(c.ljust(w) if i < 2 else c.rjust(w)
                        for i, (c, w) in enumerate(zip(r, widths, strict=True))))


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--impl", action="append", metavar="ID",
                   help=f"implementation (repeatable; default: all of "
                        f"{', '.join(registry.ids())})")
    p.add_argument("--sizes", default="10000,100000,1000000",
                   help="comma-separated step counts (default 10000,100000,1000000)")
    p.add_argument("--child", nargs=2, metavar=("ID", "STEPS"), help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    if args.child:
        child(args.child[0], int(args.child[1]))
        return 0
    impls = args.impl or registry.ids()
    unknown = [i for i in impls if i not in registry.ids()]
    if unknown:
        p.error(f"unknown implementation(s) {', '.join(unknown)}; "
                f"available: {', '.join(registry.ids())}")
    sizes = [int(s) for s in args.sizes.split(",")]
    info = common.machine_info()
    print(f"Python {info['python']} on {info['platform']}, {info['cpu_count']} logical CPUs")
    header = ["impl", "steps", "tracemalloc peak growth", "run time (traced)",
              "ru_maxrss growth", "ru_maxrss total"]
    rows = []
    for impl in impls:
        for steps in sizes:
            print(f"  {impl} at {steps:,} steps", file=sys.stderr, flush=True)
            growth, secs = traced_growth(impl, steps)
            rss = rss_growth(impl, steps)
            rows.append([impl, f"{steps:,}", _kib(growth), f"{secs:.2f} s",
                         f"{rss['after_kib'] - rss['before_kib']:,} KiB",
                         f"{rss['after_kib']:,} KiB"])
    print_rows(header, rows)
    return 0


if __name__ == "__main__":
    sys.exit(main())
