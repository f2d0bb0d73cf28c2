"""The fuzzer's bug-finding power: each seeded bug of bench/seeded_bugs, alone, against
`court fuzz`.

For every bug the script writes a temporary court.toml declaring the buggy product (the
implementation with that one bug, through bench/seeded_bugs/worker.py, in the meter model of the
product it replaces) and a court that is `all-four` with that member replaced, then runs

    court fuzz --court power --config TMP --seconds N --seed S --max-findings 1

and prints a table: the bug, where it lives, found or not, seconds to the first finding (the
campaign's wall time without the minimisation), the size of the minimised program, whether the
healthy `all-four` makes no finding on that program (it agrees, or every member reaches the same
limit, which is not comparable and not a finding; a finding the healthy court also makes is not
the bug's), and the kill rate.

    python bench/fuzz_power.py                        # every bug, 60 s each
    python bench/fuzz_power.py --bugs remainder-sign,apply-drops-middle --seconds 20
    python bench/fuzz_power.py --kernel               # only the kernel bugs
    python bench/fuzz_power.py --list

A bug seeded into a kernel (`lispex-kernel`, `topaz-kernel`) is carried by both members of that
lineage, so both are replaced by seeded workers, each in its own meter model and in the lineage
of the member it replaces; kernel bugs are reported in their own table and summary ("kernel
bugs: found/total, median seconds to the first finding"), beside the back-end bugs.

``--examples N`` gives each bug a budget of N programs instead of seconds: the same seed then
tries the same programs whatever the host's speed or load, so found-or-not is reproducible
(seconds to the first finding are still printed). On a host that generates P programs a second,
``--examples`` 60*P matches ``--seconds 60``.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.seeded_bugs.registry import BUGS  # noqa: E402

WORKER = ROOT / "bench" / "seeded_bugs" / "worker.py"
ALL_FOUR = ("tree", "vm", "topaz-tree", "topaz-vm")


def meter_model(impl: str) -> str:
    from court.catalog import builtin_products

    return builtin_products()[impl].meter_model or impl


@dataclass
class Outcome:
    bug: str
    where: str
    family: str
    found: bool
    seconds: float | None
    size_chars: int | None
    forms: int | None
    kind: str | None
    healthy_agrees: bool | None
    programs: int | None
    note: str = ""
    minimized: str | None = None


def lineage(impl: str) -> str:
    from court.catalog import builtin_products

    return builtin_products()[impl].lineage


def court_toml(name: str) -> str:
    """The court `power`: all-four with every member that carries bug ``name`` replaced by a
    seeded worker. A back-end bug replaces its one member (a product of its own); a kernel bug
    replaces both members of its lineage, each in its own meter model and in the lineage of the
    member it replaces, so that the court still weighs two lineages."""
    bug = BUGS[name]
    carriers = bug.members
    products, members = [], []
    for m in ALL_FOUR:
        if m not in carriers:
            members.append(m)
            continue
        pid = f"seeded-{name}-{m}" if bug.is_kernel else f"seeded-{name}"
        members.append(pid)
        command = json.dumps([sys.executable, str(WORKER), "--bug", name, "--impl", m])
        extra = f'lineage = "{lineage(m)}"\n' if bug.is_kernel else ""
        products.append(f'[products.{pid}]\ncommand = {command}\n'
                        f'protocol = "court-worker/v1"\nmeter_model = "{meter_model(m)}"\n'
                        f"{extra}\n")
    return "".join(products) + f"[courts.power]\nmembers = {json.dumps(members)}\n"


def env() -> dict[str, str]:
    out = dict(os.environ)
    out["PYTHONPATH"] = str(ROOT) + (os.pathsep + out["PYTHONPATH"]
                                     if out.get("PYTHONPATH") else "")
    return out


def run_one(name: str, seconds: float, seed: int, reduce_seconds: float,
            extra: list[str], examples: int | None = None) -> Outcome:
    from court.fuzz.reduce import parse

    bug = BUGS[name]
    with tempfile.TemporaryDirectory(prefix="fuzz-power-") as tmp:
        d = Path(tmp)
        (d / "court.toml").write_text(court_toml(name))
        save = d / "found"
        argv = [sys.executable, "-m", "court.cli", "fuzz", "--court", "power",
                "--config", str(d / "court.toml"),
                *(["--examples", str(examples)] if examples else ["--seconds", str(seconds)]),
                "--seed", str(seed), "--max-findings", "1", "--save-dir", str(save),
                "--quarantine", str(d / "none.toml"), "--reduce-seconds", str(reduce_seconds),
                *extra]
        t0 = time.perf_counter()
        # A budget of programs is given the time of 10 programs a second, slower than any host.
        budget = examples / 10 if examples else seconds
        run = subprocess.run(argv, capture_output=True, text=True, env=env(), cwd=d,
                             timeout=budget * 4 + reduce_seconds * 4 + 120)
        wall = time.perf_counter() - t0
        out = run.stdout
        programs = _int(r"(?m)^programs(?: generated)?: (\d+)", out)
        # 3 with "could not be judged": the campaign ran, and some programs went unjudged.
        unjudged = run.returncode == 3 and "could not be judged" in out
        if run.returncode not in (0, 1) and not unjudged:
            return Outcome(name, f"{bug.impl}: {bug.where}", bug.family, False, None, None,
                           None, None, None, programs,
                           f"court fuzz exited {run.returncode}: {run.stderr.strip()[-200:]}")
        found = sorted(save.glob("fuzz-*.lspx"))
        if not found:
            return Outcome(name, f"{bug.impl}: {bug.where}", bug.family, False, None, None,
                           None, None, None, programs,
                           "some programs could not be judged" if unjudged else "")
        # The campaign's own clock at the first finding ("  SIG: kind, axis, after 12.3 s, ...").
        first = _float(r"(?m)^\s+[0-9a-f]{12}: .*?, after ([\d.]+) s", out)
        if first is None:
            campaign = _float(r"(?m)^programs(?: generated)?: \d+(?: \([^)]*\))? in ([\d.]+) s",
                              out) or wall
            first = campaign * (1 - (_float(r"reducing (\d+)%", out) or 0.0) / 100)
        text = "".join(found[0].read_text("utf-8").splitlines(keepends=True)[1:])
        record = json.loads(next(save.glob("*.finding.json")).read_text("utf-8"))
        agrees = healthy_agrees(d, found[0], record.get("input"))
        return Outcome(name, f"{bug.impl}: {bug.where}", bug.family, True,
                       first, len(text), _forms(parse, text),
                       record["signature"]["kind"], agrees, programs, minimized=text)


def _forms(parse, text: str) -> int | None:
    """Top-level forms of a minimised program; None when it does not read (a reader bug's)."""
    try:
        return len(parse(text))
    except Exception:  # noqa: BLE001 - any reader diagnostic
        return None


def healthy_agrees(d: Path, program: Path, input_text: str | None) -> bool:
    """The healthy all-four makes no finding on the program: it agrees, or it is not comparable
    because every member reached a limit (one member alone reaching it would be a finding)."""
    argv = [sys.executable, "-m", "court.cli", "compare", str(program), "--court", "all-four",
            "--json"]
    if input_text is not None:
        argv += ["--input", input_text]
    run = subprocess.run(argv, capture_output=True, text=True, env=env(), cwd=d, timeout=300)
    try:
        verdict = json.loads(run.stdout)["verdict"]
    except (ValueError, KeyError):
        return False
    return verdict in ("agree", "not-comparable")


def _int(pattern: str, text: str) -> int | None:
    m = re.search(pattern, text)
    return int(m.group(1)) if m else None


def _float(pattern: str, text: str) -> float | None:
    m = re.search(pattern, text)
    return float(m.group(1)) if m else None


def table(rows: list[Outcome]) -> str:
    head = ("bug", "where", "family", "found", "s to find", "min chars", "forms", "kind",
            "healthy agrees", "programs")
    body = [(r.bug, r.where, r.family, "yes" if r.found and r.healthy_agrees else
             ("no" if not r.found else "false"),
             f"{r.seconds:.1f}" if r.seconds is not None else "-",
             str(r.size_chars) if r.size_chars is not None else "-",
             str(r.forms) if r.forms is not None else "-", r.kind or "-",
             "-" if r.healthy_agrees is None else ("yes" if r.healthy_agrees else "NO"),
             str(r.programs) if r.programs is not None else "-") for r in rows]
    widths = [max(len(x) for x in col) for col in zip(head, *body, strict=True)]
    lines = ["  ".join(x.ljust(w) for x, w in zip(head, widths, strict=True))]
    lines += ["  ".join(x.ljust(w) for x, w in zip(row, widths, strict=True)) for row in body]
    return "\n".join(lines)


def killed_in_time(r: Outcome, args: argparse.Namespace) -> bool:
    """Found within the budget. The campaign finishes the block in flight when its time is up,
    so a finding can come a little after the budget: it is reported, but not counted as found
    within it. With a budget of programs, every finding came within it."""
    return r.found and bool(r.healthy_agrees) and (
        args.examples is not None or (r.seconds or 0.0) <= args.seconds)


def summary(rows: list[Outcome], label: str, args: argparse.Namespace) -> str:
    """"kernel bugs: 9/12 found, median 4.1 s to the first finding" (the median over the bugs
    found within the budget)."""
    found = sorted(r.seconds or 0.0 for r in rows if killed_in_time(r, args))
    median = (f"median {statistics.median(found):.1f} s to the first finding" if found
              else "none found")
    return f"{label}: {len(found)}/{len(rows)} found, {median}"


def report(rows: list[Outcome], label: str, args: argparse.Namespace) -> None:
    print(f"\n{label}\n")
    print(table(rows))
    killed = sum(1 for r in rows if killed_in_time(r, args))
    budget_text = f"{args.examples} programs" if args.examples else f"{args.seconds:g} s"
    print(f"\nkill rate: {killed} of {len(rows)} ({killed / len(rows):.0%}) within "
          f"{budget_text} each, seed {args.seed}")
    print(summary(rows, label, args))
    late = [f"{r.bug} ({r.seconds:.1f} s)" for r in rows
            if r.found and r.healthy_agrees and not killed_in_time(r, args)]
    if late:
        print("found only after the budget: " + ", ".join(late))
    survivors = [r.bug for r in rows if not (r.found and r.healthy_agrees)]
    if survivors:
        print("survived: " + ", ".join(survivors))
    for r in rows:
        if r.found and not r.healthy_agrees:
            print(f"{r.bug}: the healthy all-four disagrees too on {r.minimized!r}")


def main() -> int:
    p = argparse.ArgumentParser(prog="python bench/fuzz_power.py", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--bugs", help="comma-separated bug names (default: all)")
    p.add_argument("--kernel", action="store_true",
                   help="only the bugs seeded into a kernel (every member of a lineage)")
    budget = p.add_mutually_exclusive_group()
    budget.add_argument("--seconds", type=float, default=60.0, help="fuzzing budget per bug")
    budget.add_argument("--examples", type=int, metavar="N",
                        help="a budget of N programs per bug instead (load-independent)")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--reduce-seconds", type=float, default=20.0)
    p.add_argument("--list", action="store_true", help="list the bugs and exit")
    p.add_argument("--json", metavar="FILE", help="also write the rows as JSON")
    p.add_argument("fuzz_args", nargs="*", help="after --: more `court fuzz` arguments")
    args = p.parse_args()
    if args.list:
        for b in BUGS.values():
            print(f"{b.name:30} {b.impl:13} {b.where:24} {b.family:22} {b.what}")
        return 0
    names = [n for n in (args.bugs or "").split(",") if n] or [
        n for n, b in BUGS.items() if b.is_kernel or not args.kernel]
    unknown = [n for n in names if n not in BUGS]
    if unknown:
        p.error(f"unknown bugs: {', '.join(unknown)} (see --list)")
    rows = []
    for n in names:
        row = run_one(n, args.seconds, args.seed, args.reduce_seconds, args.fuzz_args,
                      args.examples)
        rows.append(row)
        print(f"... {n}: {'found' if row.found else 'not found'} {row.note}", file=sys.stderr,
              flush=True)
    kernel = [r for r in rows if BUGS[r.bug].is_kernel]
    backend = [r for r in rows if not BUGS[r.bug].is_kernel]
    for group, label in ((backend, "back-end bugs"), (kernel, "kernel bugs")):
        if group:
            report(group, label, args)
    if kernel and backend:
        print()
        print(summary(backend, "back-end bugs", args))
        print(summary(kernel, "kernel bugs", args))
    if args.json:
        Path(args.json).write_text(json.dumps([r.__dict__ for r in rows], indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
