"""Work on the calling thread first, for the topaz back ends' builds.

Starting a thread with a big stack costs about a tenth of a typical prepare, and most programs
nest shallowly. A build touches nothing outside itself, so one that runs out of recursion (or
memory) on the calling thread is simply done again from scratch on the big stack, and where it
ran never shows.
"""

from __future__ import annotations

import sys
import threading
from collections.abc import Callable
from typing import Any

# Frames work on the calling thread may use: CPython's default limit, which the calling thread's
# stack is made to take.
CALLER_FRAMES = 1000
DEEPER = object()  # what on_caller_stack returns when the work needs a big stack

_lock = threading.Lock()  # the recursion limit is process-wide


def on_caller_stack(fn: Callable[[], Any]) -> Any:
    """``fn()`` on the calling thread, or :data:`DEEPER` when it runs out of recursion (or
    memory) there. Only for work that touches nothing outside itself, so that the caller can do
    it again from scratch on a big stack. The recursion limit is only ever lowered here, and
    only when something raised it beyond what the calling thread's stack is known to take.
    """
    with _lock:
        old_limit = sys.getrecursionlimit()
        frame, depth = sys._getframe(), 0
        while frame is not None:
            depth += 1
            frame = frame.f_back
        limit = min(old_limit, depth + CALLER_FRAMES)
        try:
            if limit != old_limit:
                sys.setrecursionlimit(limit)
            return fn()
        except (RecursionError, MemoryError):
            return DEEPER
        finally:
            if limit != old_limit:
                sys.setrecursionlimit(old_limit)
