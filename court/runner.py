"""Corpus runs: every case on every member of a court, with warm workers in parallel slots.

Each slot owns one CourtSession (one warm worker per member) and takes cases from a shared queue;
``--jobs N`` gives N slots. A case's members run one after another inside its slot, so the N slots
keep N cores busy. Results come back in completion order and are sorted by case id for the report.

The queue holds the longest cases first, by the wall times of the previous report when there is
one (``expected_walls``): a long case started last would leave every other slot idle while it
runs; started first, the short ones fill the other slots around it until the end.
"""

from __future__ import annotations

import fnmatch
import hashlib
import os
import queue
import statistics
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from .corpus import Case, normative
from .products import Resolution
from .session import CaseResult, CourtSession, InputRejected
from .supervisor import Limits
from .verdict import Verdict

OUTCOMES = ("agree", "disagree", "not-comparable", "expectation-broken", "infrastructure-error")


def shard_of(case_id: str, n: int) -> int:
    """A stable shard number in 1..n for a case id (independent of corpus order and machine)."""
    digest = hashlib.sha256(case_id.encode("utf-8")).digest()
    return int.from_bytes(digest[:8], "big") % n + 1


def select(cases: list[Case], shard: tuple[int, int] | None, pattern: str | None) -> list[Case]:
    out = cases
    if pattern:
        out = [c for c in out if fnmatch.fnmatchcase(c.id, pattern)]
    if shard:
        k, n = shard
        out = [c for c in out if shard_of(c.id, n) == k]
    return out


def expectation_differences(case: Case, observations: dict[str, dict]) -> list[dict[str, Any]]:
    """Where each member's normative projection departs from the blessed expectation."""
    want = case.expectation
    if want is None:
        return []
    diffs = []
    for member, obs in observations.items():
        if obs["semantic"]["status"] == "infrastructure-error":
            continue
        got = normative(obs["semantic"])
        if "diagnostic" in got and "diagnostic" in want:
            got["diagnostic"] = {k: v for k, v in got["diagnostic"].items()
                                 if k in want["diagnostic"]}
        for axis in ("status", "exit_status", "stdout", "values", "warnings", "diagnostic"):
            if got.get(axis) != want.get(axis):
                diffs.append({"member": member, "axis": axis, "expected": want.get(axis),
                              "got": got.get(axis)})
    return diffs


@dataclass
class CaseRecord:
    case: Case
    result: CaseResult | None
    outcome: str
    differences: list[dict[str, Any]] = field(default_factory=list)
    error: str | None = None  # a malformed case (e.g. its input datum does not read)

    @property
    def verdict(self) -> Verdict | None:
        return self.result.verdict if self.result else None


def classify(case: Case, result: CaseResult) -> CaseRecord:
    v = result.verdict
    infra = any(o["semantic"]["status"] == "infrastructure-error"
                for o in result.observations.values())
    diffs = expectation_differences(case, result.observations)
    if infra:
        return CaseRecord(case, result, "infrastructure-error", diffs)
    if v.kind == "disagree":
        return CaseRecord(case, result, "disagree", diffs)
    if diffs:
        return CaseRecord(case, result, "expectation-broken", diffs)
    if v.kind == "not-comparable" and case.expectation is not None and len(v.factions) == 1:
        # Every member reached the same resource outcome the blessed expectation pins: the
        # members agree on it, whatever the general rule for resource outcomes says.
        return CaseRecord(case, result, "agree", diffs)
    return CaseRecord(case, result, v.kind, diffs)


class Interrupted(Exception):
    pass


def expected_walls(report: dict[str, Any]) -> dict[str, float]:
    """Case id -> wall seconds, from a `lispex.court-report/v1` document (a malformed entry is
    skipped: scheduling is only a matter of speed)."""
    out: dict[str, float] = {}
    cases = report.get("cases") if isinstance(report, dict) else None
    for c in cases if isinstance(cases, list) else []:
        if isinstance(c, dict) and isinstance(c.get("id"), str) and \
                isinstance(c.get("wall_seconds"), int | float):
            out[c["id"]] = float(c["wall_seconds"])
    return out


def longest_first(cases: list[Case], walls: dict[str, float] | None) -> list[Case]:
    """Cases by expected wall time, longest first; a case the history does not know counts as a
    typical one (the median), and equal ones keep their order."""
    if not walls:
        return list(cases)
    known = [walls[c.id] for c in cases if c.id in walls]
    typical = statistics.median(known) if known else 0.0
    return sorted(cases, key=lambda c: -walls.get(c.id, typical))


def default_jobs() -> int:
    """One slot per CPU this process may run on: each slot keeps one worker busy at a time."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return max(1, os.cpu_count() or 1)


def run_cases(cases: list[Case], resolution: Resolution, limits: Limits, jobs: int | None = 1,
              fail_fast: bool = False,
              on_record: Callable[[CaseRecord], None] | None = None,
              stop: threading.Event | None = None,
              walls: dict[str, float] | None = None) -> tuple[list[CaseRecord], list[dict], bool]:
    """Run ``cases`` (longest first when ``walls`` gives last run's times); returns (records
    sorted by id, cleanup faults, complete?)."""
    jobs = default_jobs() if jobs is None else jobs
    todo: queue.Queue = queue.Queue()
    for c in longest_first(cases, walls):
        todo.put(c)
    records: list[CaseRecord] = []
    lock = threading.Lock()
    stop = stop or threading.Event()
    cleanup: list[dict] = []
    sessions: list[CourtSession] = []

    def slot() -> None:
        session = CourtSession(resolution, _case_limits(limits, None), jobs=1)
        with lock:
            sessions.append(session)
        try:
            while not stop.is_set():
                try:
                    case = todo.get_nowait()
                except queue.Empty:
                    return
                record = run_one(session, case, limits)
                with lock:
                    records.append(record)
                if on_record:
                    on_record(record)
                if fail_fast and record.outcome in ("disagree", "expectation-broken"):
                    stop.set()
        finally:
            session.close()
            with lock:
                cleanup.extend(session.cleanup_faults)

    threads = [threading.Thread(target=slot, daemon=True) for _ in range(max(1, jobs))]
    for t in threads:
        t.start()
    try:
        while any(t.is_alive() for t in threads):
            for t in threads:
                t.join(timeout=0.1)
    except KeyboardInterrupt:
        stop.set()
        for s in sessions:
            for w in s.workers.values():
                w.stop()
        for t in threads:
            t.join(timeout=5)
        records.sort(key=lambda r: r.case.id)
        raise Interrupted(records) from None
    records.sort(key=lambda r: r.case.id)
    complete = len(records) == len(cases)
    return records, cleanup, complete


def _case_limits(base: Limits, case: Case | None) -> Limits:
    if case is None or not case.run:
        return base
    meter = dict(base.meter_limits or {})
    meter.update(case.limits)
    return Limits(timeout=base.timeout, memory_bytes=base.memory_bytes,
                  profile=case.profile or base.profile, meter_limits=meter)


def run_one(session: CourtSession, case: Case, limits: Limits) -> CaseRecord:
    session.limits = _case_limits(limits, case)
    for w in session.workers.values():
        w.limits = session.limits
    try:
        source = case.source()
        input_text = case.input_text()
        t0 = time.perf_counter()
        result = session.run_case(source, input_text, case.program.name)
    except (OSError, UnicodeDecodeError) as e:
        return CaseRecord(case, None, "infrastructure-error", error=f"cannot read case: {e}")
    except InputRejected as e:
        return CaseRecord(case, None, "infrastructure-error",
                          error=f"malformed input datum: {e}")
    del t0
    return classify(case, result)
