"""What the commands make of the options they share: the configuration, the court, the limits
and the input datum, each checked before any worker starts (a mistake is a usage error, exit 2).
"""

from __future__ import annotations

import argparse
from pathlib import Path

from ..catalog import Config, ConfigError, Resolution, load_config, resolve
from ..workers.limits import Limits
from . import checks
from .usage import UsageError


def limits_from(args: argparse.Namespace) -> Limits:
    """Checked limits (profile, meter axes, timeout, memory, jobs): see checks.py."""
    return checks.limits(args)


def config_from(args: argparse.Namespace) -> Config:
    if getattr(args, "config", None) is not None and not args.config.strip():
        raise UsageError("court: --config must not be empty")
    try:
        return load_config(Path(args.config) if args.config else None)
    except ConfigError as e:
        raise UsageError(f"court: {e}") from None


def resolution(args: argparse.Namespace, court: str | None = None) -> Resolution:
    """The court named by --court / --impl, after checking the list and the names in it."""
    checks.nonempty(args, "court")
    config = config_from(args)
    impls = checks.impl_list(getattr(args, "impl", None))
    checks.check_known_products(impls, config)
    try:
        return resolve(config, court or getattr(args, "court", None), impls)
    except ConfigError as e:
        raise UsageError(f"court: {e}") from None


def check_input(text: str | None, label: str = "--input") -> None:
    """Reject a malformed input datum before any worker starts: it is the user's mistake. The
    message names where the datum came from (the file, or --input) and the position."""
    if text is None:
        return
    from implementations.lispex.errors import LispexError
    from implementations.lispex.reader import read_datum_text

    try:
        read_datum_text(text, label)
    except LispexError as e:
        where = f"{label}:{e.span[1]}:{e.span[2]}" if e.span is not None else label
        raise UsageError(f"court: invalid input datum in {where}: {e.code} {e.message}") from None


def input_label(args: argparse.Namespace) -> str:
    return getattr(args, "input_file", None) or "--input"
