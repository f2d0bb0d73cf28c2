"""The `court` command line: arguments, one module per command, and terminal rendering.

The engine (the rest of ``court/``) is a library; this package is one of its front ends, beside
the MCP server, the benchmarks and cluster workers.
"""

from .main import build_parser, main

__all__ = ["build_parser", "main"]
