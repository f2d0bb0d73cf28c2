"""Running compiled code where deep Python recursion is safe.

A non-tail Lispex call nests a few Python frames, and a procedure body nests one per level of
expression, so a legal program (10,000 non-tail calls deep, or an ``and`` of fifty thousand
operands) needs far more than CPython's default recursion limit of 1,000. CPython 3.11 keeps
Python-to-Python calls off the C stack, so what grows is mostly heap; the rare paths that do
recurse in C are covered by running on a thread with a large stack, and the recursion limit is
raised in proportion to the stack actually obtained.

A process with a small address-space limit (the court's workers may run under RLIMIT_AS) cannot
always map a large stack: smaller ones are tried, and as a last resort the calling thread is
used with a limit its default stack can take. Runs are serialised because the recursion limit
is process-wide; it is put back when each run ends.
"""

from __future__ import annotations

import sys
import threading
from collections.abc import Callable
from typing import Any

from implementations import bigstack

STACK_SIZES = (256 << 20, 64 << 20, 16 << 20)
CALLER_STACK = 8 << 20  # what the calling thread is assumed to have (the usual default)
BYTES_PER_LEVEL = 64  # generous: a Python-to-Python call uses no C stack at all in 3.11
MAX_RECURSION = 2_000_000

_lock = threading.Lock()


def _limit(stack_bytes: int) -> int:
    return min(MAX_RECURSION, stack_bytes // BYTES_PER_LEVEL)


def on_big_stack(fn: Callable[[], Any]) -> Any:
    """``fn()`` where deep recursion is safe; its result, or its exception re-raised here."""
    if bigstack.stack_bytes() >= STACK_SIZES[0]:
        # A worker serving this back end already runs on a stack this big (bigstack.py).
        with _lock:
            old_limit = sys.getrecursionlimit()
            sys.setrecursionlimit(max(old_limit, _limit(STACK_SIZES[0])))
            try:
                return fn()
            finally:
                sys.setrecursionlimit(old_limit)
    outcome: list = [None, None]

    def target() -> None:
        try:
            outcome[0] = fn()
        except BaseException as e:  # noqa: BLE001 - every outcome goes back to the caller
            outcome[1] = e

    with _lock:
        old_limit = sys.getrecursionlimit()
        try:
            for size in STACK_SIZES:
                sys.setrecursionlimit(max(old_limit, _limit(size)))
                old_size = threading.stack_size()
                try:
                    threading.stack_size(size)
                    worker = threading.Thread(target=target, name="topaz-tree", daemon=True)
                    worker.start()
                except (RuntimeError, MemoryError, ValueError):
                    continue  # this stack could not be mapped: try a smaller one
                finally:
                    threading.stack_size(old_size)
                worker.join()
                break
            else:
                sys.setrecursionlimit(max(old_limit, _limit(CALLER_STACK)))
                target()
        finally:
            sys.setrecursionlimit(old_limit)
    error = outcome[1]
    if error is not None:
        outcome[1] = None
        raise error
    return outcome[0]
