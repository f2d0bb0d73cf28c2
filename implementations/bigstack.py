"""A worker that serves its requests on one thread with a large stack.

The topaz back ends run code that nests Python frames as deep as a Lispex program nests calls,
so they run it on a thread with a large stack; starting such a thread costs about a tenth of a
millisecond, more than a small program's whole run. A back end that names the stack it wants
(``stack_bytes``) therefore gets a worker whose request loop runs on one such thread, started
once (``implementations/worker.py``), and runs in place when :func:`stack_bytes` says the calling
thread has enough. Anywhere else (a test evaluating in process, a worker whose big thread could
not be had) the back ends start their own thread per run, as they always did.

Only back ends that ask get the thread: under the worker's address-space limit a stack mapped
for the worker's whole life is room the heap no longer has.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

_sizes: dict[int, int] = {}  # thread ident -> stack bytes, for the threads run() started


def stack_bytes() -> int:
    """The stack size of the calling thread if :func:`run` started it, else 0 (unknown)."""
    return _sizes.get(threading.get_ident(), 0)


def run(fn: Callable[[], Any], size: int) -> Any:
    """``fn()`` on a new thread with a ``size``-byte stack, or on the calling thread when such
    a thread cannot be had (the address space is too tight); its result, or its exception
    re-raised here."""
    box: dict[str, Any] = {}

    def target() -> None:
        me = threading.get_ident()
        _sizes[me] = size
        try:
            box["value"] = fn()
        except BaseException as e:  # noqa: BLE001 - handed back to the calling thread
            box["error"] = e
        finally:
            _sizes.pop(me, None)

    thread = None
    old = threading.stack_size()
    try:
        threading.stack_size(size)
        thread = threading.Thread(target=target, name="worker-big-stack")
        thread.start()
    except (RuntimeError, MemoryError, ValueError):
        thread = None
    finally:
        threading.stack_size(old)
    if thread is None:
        return fn()
    thread.join()
    if "error" in box:
        raise box.pop("error")
    return box.get("value")
