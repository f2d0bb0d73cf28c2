"""The MCP server of Lispex Court: Lispex tools over stdio, in protocol revisions 2025-11-25 and
2026-07-28 at once.

    court mcp serve [--product ID_OR_MANIFEST ...] [--timeout SECONDS] [--profile ID]
                    [--signing-key KEY]
    python -m mcp_server [same options]

This module stays import-light (argparse only): ``court`` builds its parser from it for every
subcommand, and the server's cold start is measured.
"""

from __future__ import annotations

import argparse

DEFAULT_TIMEOUT = 10.0
DEFAULT_PROFILE = "lispex-mcp-local-authoring/v1"


def add_serve_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--product", action="append", default=[], metavar="ID_OR_MANIFEST",
                   help="offer one more product: a built-in product id, a product manifest "
                        "(.toml) or a court.toml with products and courts (repeatable); Topaz "
                        "products are offered only when named here")
    p.add_argument("--timeout", type=float, default=DEFAULT_TIMEOUT, metavar="SECONDS",
                   help=f"wall-clock limit of one lispex_eval or lispex_compare call "
                        f"(default {DEFAULT_TIMEOUT:g})")
    p.add_argument("--profile", default=DEFAULT_PROFILE, metavar="ID",
                   help=f"default resource profile of the tools (default {DEFAULT_PROFILE})")
    p.add_argument("--signing-key", metavar="KEY",
                   help="an Ed25519 private key (court keys generate): lispex_compare then "
                        "returns a signed receipt when called with \"receipt\": true")
