"""SIGTERM treated like SIGINT, and signals held while a report set is being put in place.

A CI runner cancels a job with SIGTERM, a user with Ctrl-C (SIGINT): both stop the run the same
way (the runner sees a KeyboardInterrupt), and the command exits 128 + the signal's number (130,
143), as shells report a death by that signal.
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager

EXIT_SIGINT = 128 + signal.SIGINT  # 130
EXIT_SIGTERM = 128 + signal.SIGTERM  # 143


class Terminated(KeyboardInterrupt):
    """SIGTERM arrived: stop like Ctrl-C, exit 143."""


_received: list[int] = []


def install() -> Callable[[], None]:
    """Make SIGTERM raise Terminated in the main thread, as SIGINT raises KeyboardInterrupt.
    Returns a function that puts the previous handlers back (the command line is also called
    in process, by tests and tools)."""
    if threading.current_thread() is not threading.main_thread():
        return lambda: None
    _received.clear()

    def on_term(signum: int, frame: object) -> None:
        _received.append(signum)
        raise Terminated

    def on_int(signum: int, frame: object) -> None:
        _received.append(signum)
        raise KeyboardInterrupt

    old = {signal.SIGTERM: signal.signal(signal.SIGTERM, on_term)}
    if signal.getsignal(signal.SIGINT) is signal.default_int_handler:
        old[signal.SIGINT] = signal.signal(signal.SIGINT, on_int)

    def restore() -> None:
        for s, h in old.items():
            signal.signal(s, h)

    return restore


def exit_on_signal() -> None:
    """For the rest of the process: SIGINT and SIGTERM end it at once with 130 or 143 (a
    SystemExit, so without a traceback), whatever it is doing. Once a command's work is done
    nothing is left to stop cleanly."""
    if threading.current_thread() is not threading.main_thread():
        return

    def leave(signum: int, frame: object) -> None:
        _received.append(signum)
        raise SystemExit(status_for(signum))

    for s in (signal.SIGINT, signal.SIGTERM):
        signal.signal(s, leave)


def exit_status(exc: BaseException | None = None) -> int:
    """130 or 143, for the signal that stopped the command."""
    if isinstance(exc, Terminated):
        return EXIT_SIGTERM
    if exc is None and _received and _received[-1] == signal.SIGTERM:
        return EXIT_SIGTERM
    return EXIT_SIGINT


class Held:
    """Signals that arrived while held; ``signum`` is the first, or None."""

    def __init__(self) -> None:
        self.signum: int | None = None


@contextmanager
def held() -> Iterator[Held]:
    """Hold SIGINT and SIGTERM for the duration (writing a report set takes milliseconds): the
    set is then either the old one or the new one, never half of each. The caller sees what
    arrived in ``Held.signum`` and exits accordingly."""
    got = Held()
    if threading.current_thread() is not threading.main_thread():
        yield got
        return

    def note(signum: int, frame: object) -> None:
        _received.append(signum)
        if got.signum is None:
            got.signum = signum

    old = {s: signal.signal(s, note) for s in (signal.SIGINT, signal.SIGTERM)}
    try:
        yield got
    finally:
        for s, h in old.items():
            signal.signal(s, h)


def status_for(signum: int) -> int:
    return EXIT_SIGTERM if signum == signal.SIGTERM else EXIT_SIGINT
