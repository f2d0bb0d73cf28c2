"""Tasks on the cluster, none lost: submission, completion, and a rerun when a worker is lost.

Two mechanisms rerun a task whose worker died, disconnected or was killed. The scheduler itself
reschedules a task that was running on a lost worker (up to ``allowed-failures`` times; it counts
each in the task's ``suspicious`` figure, which we read back); past that the task fails with
``KilledWorker`` and this pool resubmits it under a new key. Both count as a retried task. A task
that raises an ordinary exception is a bug, not bad luck: it stops the run (:class:`TaskFailed`).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Hashable, Iterator
from dataclasses import dataclass
from typing import Any

MAX_RESUBMITS = 3


class TaskFailed(Exception):
    """A task raised on a worker, or kept losing its worker past every resubmission."""


@dataclass
class TaskFigures:
    tasks: int = 0  # tasks completed
    retried: int = 0  # reruns after a lost worker (scheduler reschedules and resubmissions)

    def to_json(self) -> dict[str, int]:
        return {"tasks": self.tasks, "retried_tasks": self.retried}


def _lost_worker(exc: BaseException | None) -> bool:
    from concurrent.futures import CancelledError

    from distributed.comm.core import CommClosedError
    from distributed.scheduler import KilledWorker

    return isinstance(exc, KilledWorker | CommClosedError | CancelledError | OSError)


def _suspicious(keys: list[str], dask_scheduler: Any = None) -> dict[str, int]:
    tasks = dask_scheduler.tasks
    return {k: tasks[k].suspicious for k in keys if k in tasks}


class TaskPool:
    """Tasks tagged by the caller; results come back as ``(tag, result)`` in completion order."""

    def __init__(self, client: Any, prefix: str = "court") -> None:
        from distributed import as_completed

        self.client = client
        self.prefix = prefix
        self.figures = TaskFigures()
        self.pending: dict[Any, tuple[Hashable, Callable, tuple, int]] = {}
        self._done = as_completed()
        self._serial = itertools.count()
        # Pickled by value, so the scheduler needs no court installed to answer.
        self._query = _by_value(_suspicious)

    def submit(self, tag: Hashable, fn: Callable, *args: Any, attempt: int = 0) -> None:
        key = f"{self.prefix}-{fn.__name__}-{next(self._serial)}-{attempt}"
        fut = self.client.submit(fn, *args, key=key, pure=False)
        self.pending[fut] = (tag, fn, args, attempt)
        self._done.add(fut)

    def count(self, kind: Any) -> int:
        """How many pending tasks have a tag whose first element is ``kind``."""
        return sum(1 for tag, *_ in self.pending.values()
                   if isinstance(tag, tuple) and tag and tag[0] == kind)

    def results(self) -> Iterator[tuple[Hashable, Any]]:
        """Yield results until nothing is pending; the caller may submit more in between."""
        while self.pending:
            fut = next(self._done)
            entry = self.pending.pop(fut, None)
            if entry is None:  # cancelled by us
                continue
            tag, fn, args, attempt = entry
            if fut.status == "finished":
                try:
                    self.figures.retried += sum(
                        self.client.run_on_scheduler(self._query, [fut.key]).values())
                except Exception:  # noqa: BLE001 - the figure is advisory; the result is not
                    pass
                result = fut.result()
                fut.release()
                self.figures.tasks += 1
                yield tag, result
                continue
            exc = _exception(fut)
            fut.release()
            if _lost_worker(exc) and attempt < MAX_RESUBMITS:
                self.figures.retried += 1
                self.submit(tag, fn, *args, attempt=attempt + 1)
                continue
            self.cancel()
            why = f"{type(exc).__name__}: {exc}" if exc else fut.status
            raise TaskFailed(f"a {fn.__name__} task failed on the cluster ({why})")

    def cancel(self) -> None:
        futures = list(self.pending)
        self.pending.clear()
        if futures:
            try:
                self.client.cancel(futures)
            except Exception:  # noqa: BLE001 - cancelling on a lost connection is best effort
                pass


def _exception(fut: Any) -> BaseException | None:
    try:
        return fut.exception(timeout=5)
    except BaseException as e:  # noqa: BLE001 - a cancelled future raises instead of returning
        return e


def _by_value(fn: Callable) -> Callable:
    """A copy of ``fn`` that cloudpickle ships by value (it is not importable by name)."""
    import types

    copy = types.FunctionType(fn.__code__, {"__builtins__": __builtins__}, fn.__name__)
    copy.__defaults__ = fn.__defaults__
    copy.__qualname__ = f"<cluster>.{fn.__name__}"
    copy.__module__ = "__court_cluster__"
    return copy
