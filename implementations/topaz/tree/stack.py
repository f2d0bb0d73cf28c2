"""Running compiled code where deep Python recursion is safe.

A non-tail Lispex call nests a few Python frames, and a procedure body nests one per level of
expression, so a legal program (10,000 non-tail calls deep, or an ``and`` of fifty thousand
operands) needs far more than CPython's default recursion limit of 1,000. CPython 3.11 keeps
Python-to-Python calls off the C stack, but some paths still recurse in C, so the work runs on a
thread with a large stack and a raised recursion limit. Runs are serialised: the recursion limit
is process-wide, and it is put back when the last run ends.
"""

from __future__ import annotations

import sys
import threading
from collections.abc import Callable
from typing import Any

STACK_BYTES = 512 * 1024 * 1024
RECURSION = 2_000_000

_lock = threading.Lock()


def on_big_stack(fn: Callable[[], Any]) -> Any:
    """``fn()`` on a large-stack thread; its result, or its exception re-raised here."""
    outcome: list = [None, None]

    def target() -> None:
        try:
            outcome[0] = fn()
        except BaseException as e:  # noqa: BLE001 - every outcome goes back to the caller
            outcome[1] = e

    with _lock:
        old_limit = sys.getrecursionlimit()
        sys.setrecursionlimit(max(old_limit, RECURSION))
        try:
            old_size = threading.stack_size(STACK_BYTES)
            try:
                worker = threading.Thread(target=target, name="topaz-tree", daemon=True)
                worker.start()
            finally:
                threading.stack_size(old_size)
            worker.join()
        finally:
            sys.setrecursionlimit(old_limit)
    if outcome[1] is not None:
        error = outcome[1]
        outcome[1] = None
        raise error
    return outcome[0]
