"""Argument definitions of the subcommands, kept apart from their implementations so that
building the parser (every `court` start, `court --help`) imports nothing heavy."""

from __future__ import annotations

import argparse
from typing import Any

from .help import COMMANDS
from .vouchers import add_receipt_options, add_run_receipt_options

FUZZ_PROFILE = "lispex-generated-11088/v1"
TIMEOUT_HELP = ("wall-clock safety net in seconds per member per case (default 60); the meters "
                "(--profile, --limit) are the limit")

def command(sub: Any, name: str) -> argparse.ArgumentParser:
    """A subcommand parser with its user-facing description, examples and exit codes."""
    short, description, epilog = COMMANDS[name]
    return sub.add_parser(name, help=short, description=description, epilog=epilog,
                          formatter_class=argparse.RawDescriptionHelpFormatter)


def add_output(p: argparse.ArgumentParser) -> None:
    p.add_argument("--plain", action="store_true",
                   help="plain text without colour or tables (the default when not a terminal)")


def add_compare(p: argparse.ArgumentParser) -> None:
    p.add_argument("program", help="the program file (.lspx)")
    group = p.add_mutually_exclusive_group()
    group.add_argument("--input", help="the input datum, as Lispex text")
    group.add_argument("--input-file", help="a file holding the input datum")
    who = p.add_mutually_exclusive_group()
    who.add_argument("--court", help="court name (default tree-rust)")
    who.add_argument("--impl", help="an ad-hoc panel: comma-separated product ids")
    p.add_argument("--profile", help="resource profile id")
    p.add_argument("--limit", action="append", default=[], metavar="AXIS=N",
                   help="override one meter limit (repeatable)")
    p.add_argument("--timeout", type=float, default=None, help=TIMEOUT_HELP)
    p.add_argument("--memory-limit", type=int, default=2048, metavar="MIB",
                   help="address-space limit per worker in MiB (64..1048576, default 2048)")
    p.add_argument("--jobs", type=int, default=2, help="members run at once (default 2)")
    p.add_argument("--config", help="a court.toml (default: the nearest court.toml in this folder or a parent)")
    p.add_argument("--json", action="store_true", help="print the result as one JSON object")
    p.add_argument("--strict", action="store_true", help="not-comparable exits 1")
    p.add_argument("--wide", action="store_true",
                   help="show resources and product ids even on a narrow terminal")
    add_receipt_options(p)
    add_output(p)


def add_common(p: argparse.ArgumentParser) -> None:
    p.add_argument("paths", nargs="*", default=["corpus"], metavar="PATH",
                   help="case files or folders (default: corpus)")
    who = p.add_mutually_exclusive_group()
    who.add_argument("--court", help="court name (default tree-rust)")
    who.add_argument("--impl", help="an ad-hoc panel: comma-separated product ids")
    p.add_argument("--jobs", type=int, default=None,
                   help="parallel slots (default: one per CPU this process may use)")
    p.add_argument("-k", dest="keyword", metavar="EXPR",
                   help="only case ids matching EXPR: substrings joined with and, or, not and "
                        "parentheses, as pytest -k (e.g. -k 'numbers and not slow')")
    p.add_argument("--filter", action="append", default=[], metavar="GLOB",
                   help="only case ids matching GLOB (repeatable: any of them)")
    p.add_argument("--profile", help="resource profile id")
    p.add_argument("--limit", action="append", default=[], metavar="AXIS=N")
    p.add_argument("--timeout", type=float, default=None, help=TIMEOUT_HELP)
    p.add_argument("--memory-limit", type=int, default=2048, metavar="MIB",
                   help="address-space limit per worker in MiB (64..1048576, default 2048)")
    p.add_argument("--config", help="a court.toml (default: the nearest court.toml in this folder or a parent)")
    add_output(p)


def add_corpus_commands(sub: Any) -> None:
    r = command(sub, "run")
    add_common(r)
    r.add_argument("--lf", "--last-failed", dest="last_failed", action="store_true",
                   help="only the cases that failed in the report in --report-dir (all cases "
                        "when it records no failure)")
    r.add_argument("--shard", metavar="K/N", help="run the K-th of N stable slices")
    r.add_argument("--report-dir", default="reports", help="where reports go (default reports/)")
    r.add_argument("--strict", action="store_true",
                   help="not-comparable and infrastructure errors fail the run")
    r.add_argument("-x", "--exitfirst", "--fail-fast", dest="fail_fast", action="store_true",
                   help="stop at the first failure")
    loud = r.add_mutually_exclusive_group()
    loud.add_argument("-v", "--verbose", action="store_true",
                      help="a line for every case as it is judged, agreeing ones too")
    loud.add_argument("-q", "--quiet", action="store_true",
                      help="only the failures and one summary line")
    add_run_receipt_options(r)
    add_cluster(r)
    b = command(sub, "bless")
    add_common(b)
    m = command(sub, "merge")
    m.add_argument("dirs", nargs="+", metavar="DIR", help="report folders or files")
    m.add_argument("--report-dir", default="reports", help="where the merged report goes")
    rp = command(sub, "replay")
    add_common(rp)
    rp.add_argument("--against", required=True, metavar="OLD_REPORT",
                    help="a court-report.json (or its folder) from an earlier run")


def add_fuzz_commands(sub: Any) -> None:
    f = command(sub, "fuzz")
    f.add_argument("--court", default="tree-rust", help="court name (default tree-rust)")
    f.add_argument("--impl", help="an ad-hoc panel: comma-separated product ids")
    budget = f.add_mutually_exclusive_group()
    budget.add_argument("--examples", type=int, help="how many programs to generate")
    budget.add_argument("--seconds", type=float, help="how long to fuzz (default 60)")
    f.add_argument("--seed", type=int, default=None,
                   help="seed of the generator (default: a random one, printed at the start; "
                        "the same seed and budget generate the same programs)")
    f.add_argument("--save-dir", default="corpus/regressions",
                   help="where minimised findings are saved (default corpus/regressions)")
    f.add_argument("--no-save", action="store_true", help="report findings without saving")
    f.add_argument("--quarantine", default="corpus/regressions/quarantine.toml",
                   help="known findings to skip (TOML [[known]] signature = ...)")
    f.add_argument("--reduce-seconds", type=float, default=30.0,
                   help="time budget for minimising each finding")
    f.add_argument("--safe-only", action="store_true", help="generate only safe-mode programs")
    f.add_argument("--max-findings", type=int, help="stop after this many findings")
    f.add_argument("--corpus", default="corpus", metavar="DIR",
                   help="programs to mutate (default corpus/; a missing folder: none)")
    f.add_argument("--mutate", type=int, default=30, metavar="PERCENT",
                   help="share of programs that are corpus mutants (default 30)")
    f.add_argument("--parallel", type=int, default=3, metavar="N",
                   help="cases evaluated at once, each on its own warm workers (default 3)")
    f.add_argument("--no-steer", action="store_true",
                   help="do not steer generation by the feedback table")
    f.add_argument("--coverage", action="store_true",
                   help="print the feedback table: what the programs exercised")
    _limits(f)
    add_output(f)
    add_cluster(f)
    r = command(sub, "reduce")
    r.add_argument("case", help="the program file (an .input file beside it is used)")
    r.add_argument("--court", default="tree-rust")
    r.add_argument("--impl", help="an ad-hoc panel: comma-separated product ids")
    r.add_argument("--input", help="the input datum (default: the .input file beside the case)")
    r.add_argument("--input-file", help=argparse.SUPPRESS)
    r.add_argument("--seconds", type=float, default=60.0, help="time budget (default 60)")
    r.add_argument("--out", help="also write the smallest program to this file")
    _limits(r)


def add_cluster(p: argparse.ArgumentParser) -> None:
    where = p.add_mutually_exclusive_group()
    where.add_argument("--cluster", metavar="local[:N]",
                       help="run on N local Dask worker processes (default N: the cores); "
                            "needs pip install 'lispex-court[cluster]'")
    where.add_argument("--scheduler", metavar="tcp://HOST:PORT",
                       help="run on the workers of a running Dask scheduler (docs/cluster.md)")


def _limits(p: argparse.ArgumentParser) -> None:
    p.add_argument("--profile", default=FUZZ_PROFILE,
                   help=f"resource profile (default {FUZZ_PROFILE}: small, so runaway programs "
                        "stop early)")
    p.add_argument("--limit", action="append", default=[], metavar="AXIS=N")
    p.add_argument("--timeout", type=float, default=5.0, help="seconds per member per case")
    p.add_argument("--memory-limit", type=int, default=1024, metavar="MIB")
    p.add_argument("--jobs", type=int, default=2, help="members run at once (default 2)")
    p.add_argument("--config", help="a court.toml (default: the nearest court.toml in this folder or a parent)")
