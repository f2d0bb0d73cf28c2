"""The `court` command line: argument parsing and dispatch to one module per subcommand.

Exit codes: 0 agreement / success, 1 disagreement or broken expectation (for `eval`: the program's
own status), 2 usage or input error, 3 the harness itself failed, 5 no case selected, 130/143
interrupted by SIGINT/SIGTERM. The user-facing texts of ``--help`` are in help.py.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Callable, Sequence

from .. import __version__
from .usage import UsageError, parse_limit

EXIT_USAGE = 2
EXIT_HARNESS = 3

# The MCP front end sits beside the engine, not under it: the command line loads it by name, so
# the engine (``court/``) never imports it.
MCP_SERVER = "mcp_server"


def _mcp_server():
    return importlib.import_module(MCP_SERVER)


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # type: ignore[override]
        hint = suggestion(message, self)
        raise UsageError(f"{self.prog}: {message}{hint} (see {self.prog} --help)")


def _option_strings(parser: argparse.ArgumentParser) -> set[str]:
    """Every flag of ``parser`` and of its subcommands (an unknown flag is reported by the top
    parser, which does not know the subcommand's own)."""
    found: set[str] = set()
    for action in parser._actions:
        found.update(s for s in action.option_strings if s.startswith("--"))
        if isinstance(action, argparse._SubParsersAction):
            for sub in action.choices.values():
                found |= _option_strings(sub)
    return found


def suggestion(message: str, parser: argparse.ArgumentParser) -> str:
    """"; did you mean X?" for a misspelled subcommand or flag, as pytest and git say it."""
    import difflib
    import re

    choice = re.search(r"invalid choice: '([^']*)' \(choose from (.*)\)", message)
    if choice:
        options = re.findall(r"'([^']*)'", choice.group(2)) or \
            [c.strip() for c in choice.group(2).split(",")]
        close = difflib.get_close_matches(choice.group(1), options, n=1)
        return f"; did you mean {close[0]!r}?" if close else ""
    unknown = re.search(r"unrecognized arguments: (.*)", message)
    if unknown:
        flags = [w.split("=")[0] for w in unknown.group(1).split() if w.startswith("--")]
        for flag in flags:
            close = difflib.get_close_matches(flag, sorted(_option_strings(parser)), n=1)
            if close:
                return f"; did you mean {close[0]}?"
    return ""


def build_parser() -> argparse.ArgumentParser:
    from .help import EPILOG, SUMMARY

    p = _Parser(prog="court", description=SUMMARY, epilog=EPILOG,
                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--version", action="version", version=f"court {__version__}")
    sub = p.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)

    from .arguments import add_compare, add_corpus_commands, add_fuzz_commands, command

    e = command(sub, "eval")
    e.add_argument("program", help="the program file (.lspx)")
    e.add_argument("--impl", default="tree", help="implementation id (default: tree)")
    group = e.add_mutually_exclusive_group()
    group.add_argument("--input", help="the input datum, as Lispex text")
    group.add_argument("--input-file", help="a file holding the input datum")
    e.add_argument("--profile", help="resource profile id (default lispex-product-native/v1)")
    e.add_argument("--limit", action="append", type=parse_limit, default=[],
                   metavar="AXIS=N", help="override one meter limit (repeatable)")
    e.add_argument("--json", action="store_true", help="print the observation as JSON")

    d = command(sub, "disasm")
    d.add_argument("program", help="the program file (.lspx)")
    d.add_argument("--impl", default="vm", help="a compiling implementation (default: vm)")

    ci = command(sub, "core-ir")
    ci.add_argument("program", help="the program file (.lspx)")
    ci.add_argument("--impl", default="tree,topaz-tree",
                    help="comma-separated implementation ids, each read by its own kernel "
                         "(default: tree,topaz-tree, one of each built-in lineage)")
    ci.add_argument("--json", action="store_true", help="print the result as one JSON object")

    c = command(sub, "compare")
    add_compare(c)

    add_corpus_commands(sub)

    add_fuzz_commands(sub)

    from .vouchers import add_commands as add_voucher_commands

    add_voucher_commands(sub, _Parser)

    pr = command(sub, "products")
    pr.add_argument("--config", help="a court.toml (default: the nearest court.toml in this folder or a parent)")
    pr.add_argument("--json", action="store_true", help="print as JSON")

    m = command(sub, "mcp")
    msub = m.add_subparsers(dest="mcp_command", metavar="SUBCOMMAND", parser_class=_Parser)
    _mcp_server().add_serve_arguments(
        msub.add_parser("serve", help="serve the Lispex tools on stdin/stdout"))
    return p


def _prestart_template(court: str | None, impl: str | None) -> None:
    """Start the worker template for the members the court will likely have (a fixed court's
    members are known before any configuration is read; a guess naming a product the template
    cannot fork is skipped by it)."""
    from ..catalog import DEFAULT_COURT, FIXED_COURTS
    from ..workers.forkserver import prestart

    impls = [s for s in impl.split(",") if s] if impl else None
    prestart(impls or FIXED_COURTS.get(court or DEFAULT_COURT, ()))


# Tests only: called once a command's work is done, just before its signal handlers are put
# back, the moment a late signal may land (a test sends one from here).
before_restore: Callable[[], None] | None = None


def main(argv: Sequence[str] | None = None) -> int:
    """Run one command. Called without ``argv`` it is the program itself (``court``,
    ``python -m court.cli``), which ends when it returns: a signal after the command's work is
    done still exits 130 or 143, never with a traceback. Called with ``argv`` (in process, by a
    tool or a test) it puts the caller's signal handlers back."""
    from . import signals

    restore: list[Callable[[], None]] = []
    try:
        status = _main(argv, restore)
    except KeyboardInterrupt as k:  # landed in one of _main's own handlers
        status = signals.exit_status(k)
    if not restore:
        return status
    try:
        try:
            if before_restore is not None:
                before_restore()
        finally:
            if argv is None:
                signals.exit_on_signal()
            else:
                restore[0]()
    except KeyboardInterrupt as k:
        # The signal landed before the handlers were settled: settle them again (they may be
        # half put back) and exit as the signal says.
        if argv is None:
            signals.exit_on_signal()
        else:
            restore[0]()
        status = signals.exit_status(k)
    return status


def _main(argv: Sequence[str] | None, restore: list[Callable[[], None]]) -> int:
    parser = build_parser()
    from . import signals

    try:
        args = parser.parse_args(argv)
        if args.command is None:
            parser.print_help()
            return EXIT_USAGE
        if args.command == "eval":
            from .eval import run_eval

            return run_eval(args)
        if args.command == "disasm":
            from .eval import run_disasm

            return run_disasm(args)
        if args.command == "core-ir":
            from .core_ir import run_core_ir

            return run_core_ir(args)
        if args.command == "compare":
            # First of all: the worker template boots while the rest of the command loads.
            _prestart_template(args.court, args.impl)
            try:
                from .compare import run_compare

                return run_compare(args)
            finally:
                from ..workers.forkserver import shutdown

                shutdown()
        if args.command != "mcp":
            restore.append(signals.install())
        if args.command in ("run", "bless", "merge", "replay"):
            from . import run as run_cmd

            return getattr(run_cmd, f"run_{args.command}")(args)
        if args.command in ("fuzz", "reduce"):
            from . import fuzzing as fuzz_cmd

            return getattr(fuzz_cmd, f"run_{args.command}")(args)
        if args.command in ("keys", "verify"):
            from . import vouchers

            return getattr(vouchers, f"run_{args.command}")(args)
        if args.command == "products":
            from .compare import run_products

            return run_products(args)
        if args.command == "mcp":
            if args.mcp_command != "serve":
                raise UsageError("court mcp: expected a subcommand: serve")
            return importlib.import_module(MCP_SERVER + ".server").main(args)
        raise UsageError(f"court: unknown command {args.command}")
    except UsageError as u:
        print(str(u), file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt as k:
        return signals.exit_status(k)
    except BrokenPipeError:
        # The reader went away (`court ... | head`): stop quietly, as other tools do.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 141
    except Exception as e:  # noqa: BLE001 - the edge of the program: one line, never a traceback
        print(f"court: internal error: {type(e).__name__}: {e} (a bug in Lispex Court; "
              "set COURT_DEBUG=1 for the traceback)", file=sys.stderr)
        if os.environ.get("COURT_DEBUG"):
            raise
        return EXIT_HARNESS
