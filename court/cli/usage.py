"""Usage errors and small argument parsers shared by the subcommands."""

from __future__ import annotations

import argparse


class UsageError(Exception):
    """A bad flag, a missing file, a malformed value: one clear line, exit 2."""


def parse_limit(text: str) -> tuple[str, int]:
    axis, sep, n = text.partition("=")
    # str.isdigit() alone accepts digits int() refuses (superscripts: "²").
    if not sep or not (n.isascii() and n.isdigit()):
        raise argparse.ArgumentTypeError(f"expected AXIS=N, got {text!r}")
    return axis, int(n)
