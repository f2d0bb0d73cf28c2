"""``python -m mcp_server``: the same server as ``court mcp serve``."""

import sys

from .server import main

if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
