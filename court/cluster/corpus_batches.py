"""A corpus run split across Dask workers, merged into the records a local run makes.

The client reads every case (program bytes, input text) and ships it in batches with the case's
expectation and run table; a worker runs each batch with :func:`court.runner.run_one` on its warm
session, so classification and per-case limits are the local run's own code. Records come back
without the shipped text and are sorted by case id, as :func:`court.runner.run_cases` sorts them:
the same records, verdicts and order as a local run, apart from times.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..catalog import Resolution
from ..corpus import Case
from ..runner import CaseRecord, Interrupted, case_limits, run_one
from ..workers.limits import Limits
from .connect import ClusterSpec, Connection
from .tasks import TaskFigures, TaskPool

MAX_BATCH = 20


@dataclass
class ShippedCase(Case):
    """A case whose program and input travel with it (a worker reads no file)."""

    shipped_source: bytes = b""
    shipped_input: str | None = None

    def source(self) -> bytes:
        return self.shipped_source

    def input_text(self) -> str | None:
        return self.shipped_input


def ship(case: Case) -> ShippedCase:
    """Raises OSError or UnicodeDecodeError as reading the case locally would."""
    return ShippedCase(case.id, case.program, case.input_path, case.expect_path,
                       case.expectation, dict(case.run), case.source(), case.input_text())


def run_batch(resolution: Resolution, limits: Limits,
              cases: list[ShippedCase]) -> list[tuple[Any, str, list, str | None]]:
    """On a worker: each case as a local run would run it; (result, outcome, differences,
    error) per case, in order."""
    from . import hosted

    out = []
    with hosted.session(resolution, case_limits(limits, None)) as session:
        for case in cases:
            r = run_one(session, case, limits)
            out.append((r.result, r.outcome, r.differences, r.error))
    return out


def batch_size(cases: int, threads: int) -> int:
    # About four batches per thread: small enough to balance the tail, large enough that a
    # batch's cost is cases, not scheduling.
    return max(1, min(MAX_BATCH, cases // (4 * max(threads, 1)) or 1))


class ClusterRunner:
    """A stand-in for :func:`court.runner.run_cases` that runs on a cluster; after a run,
    ``describe()`` gives the report's ``run.cluster`` entry."""

    def __init__(self, spec: ClusterSpec) -> None:
        self.spec = spec
        self.figures = TaskFigures()
        self.workers = 0
        self.connection: Connection | None = None  # while a run is on (tests kill its workers)

    def describe(self) -> dict[str, Any]:
        return {"scheduler": self.spec.label(), "workers": self.workers, **self.figures.to_json()}

    def __call__(self, cases: list[Case], resolution: Resolution, limits: Limits, jobs: int = 1,
                 fail_fast: bool = False,
                 on_record: Callable[[CaseRecord], None] | None = None,
                 stop: threading.Event | None = None
                 ) -> tuple[list[CaseRecord], list[dict], bool]:
        del jobs  # a cluster's parallelism is its workers' threads
        records: list[CaseRecord] = []
        stopped = False
        with Connection(self.spec) as conn:
            self.connection = conn
            self.workers = conn.workers()
            pool = TaskPool(conn.client, prefix="corpus")
            self.figures = pool.figures
            try:
                size = batch_size(len(cases), conn.threads())
                batch: list[ShippedCase] = []
                batches: list[list[Case]] = []
                for case in cases:
                    try:
                        batch.append(ship(case))
                    except (OSError, UnicodeDecodeError) as e:
                        records.append(CaseRecord(case, None, "infrastructure-error",
                                                  error=f"cannot read case: {e}"))
                        continue
                    if len(batch) == size:
                        batches.append([*batch])
                        batch.clear()
                if batch:
                    batches.append(batch)
                by_id = {c.id: c for c in cases}
                for i, b in enumerate(batches):
                    pool.submit(("batch", i), run_batch, resolution, limits, b)
                for tag, rows in pool.results():
                    for shipped, row in zip(batches[tag[1]], rows, strict=True):
                        record = CaseRecord(by_id[shipped.id], *row)
                        records.append(record)
                        if on_record:
                            on_record(record)
                        if fail_fast and record.outcome in ("disagree", "expectation-broken"):
                            stopped = True
                    if stopped or (stop is not None and stop.is_set()):
                        stopped = True
                        pool.cancel()
            except KeyboardInterrupt:
                pool.cancel()
                records.sort(key=lambda r: r.case.id)
                raise Interrupted(records) from None
        self.connection = None
        records.sort(key=lambda r: r.case.id)
        return records, conn.cleanup_faults, len(records) == len(cases) and not stopped
