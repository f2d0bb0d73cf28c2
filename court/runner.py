"""Corpus runs: every case on every member of a court, with warm workers in parallel slots.

Each slot owns one CourtSession (one warm worker per member) and takes cases from a shared queue;
``--jobs N`` gives N slots. A case's members run one after another inside its slot, so the N slots
keep N cores busy. Results come back in completion order and are sorted by case id for the report.
"""

from __future__ import annotations

import fnmatch
import hashlib
import queue
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from .corpus import Case, normative
from .differences import KnownDifferences
from .products import Resolution
from .session import CaseResult, CourtSession, InputRejected
from .supervisor import Limits
from .verdict import Verdict

OUTCOMES = ("agree", "disagree", "not-comparable", "expectation-broken", "infrastructure-error",
            "known-difference")


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
        # A member that cannot express an axis (a witness has no Lispex diagnostic codes, a
        # transcript-only product no separate values) is held only to the axes it can.
        skip = {a.removeprefix("diagnostic_") and ("diagnostic" if a.startswith("diagnostic_")
                                                  else a)
                for a in obs.get("uncomparable_axes") or []}
        if "diagnostic" in got and "diagnostic" in want:
            got["diagnostic"] = {k: v for k, v in got["diagnostic"].items()
                                 if k in want["diagnostic"]}
        for axis in ("status", "exit_status", "stdout", "values", "warnings", "diagnostic"):
            if axis in skip:
                continue
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
    known_difference: str | None = None  # the id of the entry that explains a disagreement

    @property
    def verdict(self) -> Verdict | None:
        return self.result.verdict if self.result else None


def classify(case: Case, result: CaseResult, known: KnownDifferences | None = None,
             source: str = "") -> CaseRecord:
    v = result.verdict
    infra = any(o["semantic"]["status"] == "infrastructure-error"
                for o in result.observations.values())
    diffs = expectation_differences(case, result.observations)
    if known:
        entry = None
        if v.kind == "disagree":
            entry = known.match(result.observations, v.factions, source, case.id)
        elif infra or v.kind == "not-comparable":
            entry = known.match_resource(result.observations, source, case.id)
        if entry is not None:
            # The witness differs here on purpose; the other members are still held to the
            # expectation.
            witness = set(known.by_member)
            rest = [d for d in diffs if d["member"] not in witness]
            return CaseRecord(case, result, "expectation-broken" if rest else "known-difference",
                              rest, known_difference=entry.id)
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


def run_cases(cases: list[Case], resolution: Resolution, limits: Limits, jobs: int = 1,
              fail_fast: bool = False,
              on_record: Callable[[CaseRecord], None] | None = None,
              stop: threading.Event | None = None) -> tuple[list[CaseRecord], list[dict], bool]:
    """Run ``cases``; returns (records sorted by id, cleanup faults, complete?)."""
    todo: queue.Queue = queue.Queue()
    for c in cases:
        todo.put(c)
    records: list[CaseRecord] = []
    lock = threading.Lock()
    stop = stop or threading.Event()
    cleanup: list[dict] = []
    sessions: list[CourtSession] = []
    known = KnownDifferences.for_products(resolution.products)

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
                record = run_one(session, case, limits, known)
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


def run_one(session: CourtSession, case: Case, limits: Limits,
            known: KnownDifferences | None = None) -> CaseRecord:
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
    return classify(case, result, known, source.decode("utf-8", "replace"))
