"""`court compare` and `court products`: one program on a court, from the terminal.

A compare is judged by how soon it answers, so this module imports little at the top: the worker
template starts first (it imports the implementations while we import the rest), and the
session machinery and rich load after it.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..products import ConfigError, load_config, resolve
from .eval import read_input, read_program
from .usage import UsageError, parse_limit

if TYPE_CHECKING:
    from ..supervisor import Limits

EXIT_AGREE, EXIT_DISAGREE, EXIT_USAGE, EXIT_HARNESS = 0, 1, 2, 3



def limits_from(args: argparse.Namespace) -> Limits:
    meter = {}
    for text in args.limit:
        try:
            axis, n = parse_limit(text)
        except argparse.ArgumentTypeError as e:
            raise UsageError(f"court: --limit: {e}") from None
        meter[axis] = n
    if args.timeout <= 0:
        raise UsageError("court: --timeout must be positive")
    from ..supervisor import Limits

    return Limits(timeout=args.timeout, memory_bytes=args.memory_limit << 20,
                  profile=args.profile, meter_limits=meter)


def config_from(args: argparse.Namespace):
    try:
        return load_config(Path(args.config) if args.config else None)
    except ConfigError as e:
        raise UsageError(f"court: {e}") from None


def exit_code(result: dict[str, Any], strict: bool) -> int:
    if result["status"] == "unavailable":
        return EXIT_HARNESS
    verdict = result["verdict"]
    if verdict == "agree":
        return EXIT_AGREE
    if verdict == "disagree":
        return EXIT_DISAGREE
    return EXIT_DISAGREE if strict else EXIT_AGREE


def check_input(text: str | None) -> None:
    """Reject a malformed input datum before any worker starts: it is the user's mistake."""
    if text is None:
        return
    from implementations.lispex.errors import LispexError
    from implementations.lispex.reader import read_datum_text

    try:
        read_datum_text(text, "<input>")
    except LispexError as e:
        raise UsageError(f"court: invalid input datum: {e.code} {e.message}") from None


def run_compare(args: argparse.Namespace) -> int:
    source = read_program(args.program)
    input_text = read_input(args)
    impls = [s for s in args.impl.split(",") if s] if args.impl else None
    limits = limits_from(args)
    check_input(input_text)
    config = config_from(args)
    try:
        res = resolve(config, args.court, impls)
    except ConfigError as e:
        raise UsageError(f"court: {e}") from None
    from ..record import result_json, unavailable_result
    from ..session import CourtSession, InputRejected

    console = None
    if not args.json:
        from .render import make_console

        console = make_console()
    if not res.available:
        result = unavailable_result(res)
    else:
        try:
            with CourtSession(res, limits, jobs=args.jobs) as session:
                case = session.run_case(source, input_text, Path(args.program).name)
            result = result_json(res.court, case, session.cleanup_faults)
        except InputRejected as e:
            raise UsageError(f"court: invalid input datum: {e}") from None
    if args.json:
        sys.stdout.write(json.dumps(result, ensure_ascii=False) + "\n")
    else:
        from .render import render

        render(result, console)
        if result.get("verdict") == "not-comparable" and not args.strict:
            console.print("[yellow]warning: not comparable; exit 0 (use --strict to fail)"
                          "[/yellow]")
    return exit_code(result, args.strict)


def run_products(args: argparse.Namespace) -> int:
    config = config_from(args)
    rows = []
    for pid, p in config.products.items():
        ok, why = p.availability()
        rows.append({"id": pid, "title": p.title, "protocol": p.protocol, "family": p.family,
                     "version": p.version, "available": ok, "why_not": why or None,
                     "route": p.route(), "origin": p.origin})
    courts = {c: list(m) for c, m in config.courts.items()}
    if args.json:
        sys.stdout.write(json.dumps({"schema": "lispex.court-products/v1", "products": rows,
                                     "courts": courts}) + "\n")
        return 0
    from rich.table import Table

    t = Table(title="products")
    for col in ("id", "available", "protocol", "route", "origin"):
        t.add_column(col, overflow="fold")
    for r in rows:
        t.add_row(r["id"], "yes" if r["available"] else f"no ({r['why_not']})", r["protocol"],
                  r["route"], r["origin"])
    from rich.console import Console

    c = Console()
    c.print(t)
    for name, members in courts.items():
        c.print(f"court {name}: {', '.join(members)}")
    return 0
