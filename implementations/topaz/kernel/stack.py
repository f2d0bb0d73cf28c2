"""Deep front-end work: the reader and printer are iterative, the normalizer recurses as deep
as the source nests. It runs on the calling thread first; work that runs out of recursion there
is done again from scratch on a thread with a big stack and a raised recursion limit."""

from __future__ import annotations

import sys
import threading
from collections.abc import Callable
from typing import Any

from implementations import bigstack

BIG_STACK = 512 << 20
BIG_RECURSION = 1_000_000
_lock = threading.Lock()  # the recursion limit is process-wide


def deep(fn: Callable[[], Any], reset: Callable[[], None]) -> Any:
    """``fn()``; after a RecursionError, ``reset()`` then ``fn()`` again on a big stack."""
    try:
        return fn()
    except RecursionError:
        pass
    reset()

    def big() -> Any:
        with _lock:
            old = sys.getrecursionlimit()
            sys.setrecursionlimit(max(old, BIG_RECURSION))
            try:
                return fn()
            finally:
                sys.setrecursionlimit(old)
    return bigstack.run(big, BIG_STACK)
