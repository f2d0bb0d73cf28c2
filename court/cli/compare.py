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
from typing import Any

from ..record import result_json, unavailable_result
from ..session import CourtSession, InputRejected
from ..verdict import FINDING_KINDS
from .checks import read_input, read_program
from .options import check_input, config_from, input_label, limits_from, resolution
from .terminal import make_term
from .usage import UsageError
from .vouchers import compare_receipt, signing_key

EXIT_AGREE, EXIT_DISAGREE, EXIT_USAGE, EXIT_HARNESS = 0, 1, 2, 3


def known_difference(res: Any, case: Any, source: bytes) -> dict[str, str] | None:
    """The witness's listed difference that explains this case's disagreement, as `court run`
    and `court fuzz` apply it; None when there is none (or no witness)."""
    from ..differences import KnownDifferences

    known = KnownDifferences.for_products(res.products)
    v = case.verdict
    if not known or v.kind not in FINDING_KINDS:
        return None
    text = source.decode("utf-8", "replace")
    d = known.match(case.observations, v.factions, text) or \
        known.match_resource(case.observations, text)
    if d is None:
        return None
    member = next((m for m, entries in known.by_member.items() if d in entries), "?")
    return {"id": d.id, "member": member, "side": d.side, "title": d.title}


def exit_code(result: dict[str, Any], strict: bool) -> int:
    if result["status"] == "unavailable":
        return EXIT_HARNESS
    verdict = result["verdict"]
    if verdict == "agree" or result.get("known_difference"):
        return EXIT_AGREE
    if verdict in FINDING_KINDS:
        return EXIT_DISAGREE
    return EXIT_DISAGREE if strict else EXIT_AGREE


def run_compare(args: argparse.Namespace) -> int:
    limits = limits_from(args)
    source = read_program(args.program)
    input_text = read_input(args)
    check_input(input_text, input_label(args))
    key = signing_key(args, "receipt")
    res = resolution(args)
    term = make_term(plain=args.plain)
    case = None
    if not res.available:
        result = unavailable_result(res)
    else:
        try:
            with CourtSession(res, limits, jobs=args.jobs) as session:
                case = session.run_case(source, input_text, Path(args.program).name)
            result = result_json(res.court, case, session.cleanup_faults, res.lineages())
            known = known_difference(res, case, source)
            if known is not None:
                result["known_difference"] = known
        except InputRejected as e:
            raise UsageError(f"court: invalid input datum: {e}") from None
    if args.json:
        sys.stdout.write(json.dumps(result, ensure_ascii=False) + "\n")
    else:
        from .terminal import render

        render(result, term, wide=args.wide, program=args.program)
        known = result.get("known_difference")
        if known:
            term.line(f"known difference {known['id']} of {known['member']}: {known['title']} "
                      "(listed, so not a failure; see its known-differences file)",
                      style="yellow")
        if result.get("verdict") == "not-comparable" and not args.strict:
            term.line("warning: not comparable; exit 0 (use --strict to fail)", style="yellow")
    if key is not None and case is None:
        print("court: no receipt: the court did not run", file=sys.stderr)
    if key is not None and case is not None:
        failed = compare_receipt(args, key, res, limits, source, input_text, case)
        if failed is not None:
            return failed
    return exit_code(result, args.strict)


def run_products(args: argparse.Namespace) -> int:
    config = config_from(args)
    rows = []
    for pid, p in config.products.items():
        ok, why = p.availability()
        rows.append({"id": pid, "title": p.title, "protocol": p.protocol, "family": p.family,
                     "version": p.version, "lineage": p.lineage, "available": ok,
                     "why_not": why or None,
                     "route": p.route(), "origin": p.origin})
    courts = {c: list(m) for c, m in config.courts.items()}
    lineages: dict[str, list[str]] = {}
    for r in rows:
        lineages.setdefault(r["lineage"], []).append(r["id"])
    if args.json:
        sys.stdout.write(json.dumps({"schema": "lispex.court-products/v1", "products": rows,
                                     "courts": courts, "lineages": lineages}) + "\n")
        return 0
    term = make_term()
    if term.plain:
        # A pipe or a log: one line per product, fields named, never a table split mid-word.
        for r in rows:
            available = "yes" if r["available"] else f"no ({r['why_not']})"
            term.wrapped(f"{r['id']}: {r['title'] or '-'}; family {r['family'] or '-'}, version "
                         f"{r['version'] or '-'}, lineage {r['lineage']}, available {available}, "
                         f"protocol {r['protocol']}, route {r['route']}, origin {r['origin']}")
    else:
        term.console.print(_products_table(rows))
    for lineage, members in lineages.items():
        if len(members) > 1:
            term.wrapped(f"lineage {lineage}: {', '.join(members)} share one kernel; against "
                         "another lineage they count as one voice")
    for name, members in courts.items():
        term.wrapped(f"court {name}: {', '.join(members)}")
    return 0


def _products_table(rows: list[dict[str, Any]]) -> Any:
    from rich.table import Table

    t = Table(title="products", title_justify="left")
    for col in ("id", "title", "family", "version", "lineage", "available", "protocol", "route",
                "origin"):
        t.add_column(col, overflow="fold")
    for r in rows:
        t.add_row(r["id"], r["title"] or "-", r["family"] or "-", r["version"] or "-",
                  r["lineage"], "yes" if r["available"] else f"no ({r['why_not']})",
                  r["protocol"], r["route"], r["origin"])
    return t
