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
import signal
import statistics
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import psutil

from .catalog import Resolution
from .corpus import Case, normative
from .differences import KnownDifferences
from .files import safe_text
from .session import CaseResult, CourtSession, InputRejected
from .verdict import FINDING_KINDS, Verdict, transcript, unjudged
from .workers.limits import Limits

OUTCOMES = ("agree", "disagree", "one-sided-limit", "member-fault", "not-comparable",
            "expectation-broken", "infrastructure-error", "known-difference", "interrupted",
            "not-run")
# Outcomes that fail a run whatever the flags; --strict adds not-comparable.
FAILURES = ("disagree", "one-sided-limit", "member-fault", "expectation-broken")
# Outcomes of a case that was run and judged; any other outcome means the run cannot pass.
JUDGED = ("agree", "not-comparable", "known-difference", *FAILURES)


def failed(outcomes: dict[str, int]) -> bool:
    """Whether a report's outcome counts fail the run (a report from before the finding kinds
    existed simply has none of them)."""
    return any(outcomes.get(k, 0) for k in FAILURES)


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
        uncompared = set(obs.get("uncomparable_axes") or ())
        got = normative(obs["semantic"])
        expected = dict(want)
        if "diagnostic" in got and "diagnostic" in expected:
            if "diagnostic_phase" in uncompared:
                expected["diagnostic"] = {k: v for k, v in expected["diagnostic"].items()
                                          if k != "phase"}
            got["diagnostic"] = {k: v for k, v in got["diagnostic"].items()
                                 if k in expected["diagnostic"]}
        axes = ["status", "exit_status", "stdout", "values", "warnings", "diagnostic"]
        # A member that cannot express an axis (a witness has no Lispex diagnostic codes or
        # warnings) is held only to the axes it can.
        if "diagnostic_code" in uncompared:
            axes.remove("diagnostic")
        if "warnings" in uncompared:
            axes.remove("warnings")
        if uncompared & {"stdout", "values"}:
            # The product prints output and values as one transcript: hold it against the
            # transcript the blessed expectation implies.
            axes = [a for a in axes if a not in uncompared] + ["transcript"]
            expected["transcript"] = transcript({"stdout": want.get("stdout"),
                                                 "values": want.get("values")})
            got["transcript"] = transcript(obs["semantic"])
        for axis in axes:
            if got.get(axis) != expected.get(axis):
                diffs.append({"member": member, "axis": axis, "expected": expected.get(axis),
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
    infra = unjudged(result.observations)
    diffs = expectation_differences(case, result.observations)
    if known:
        entry = None
        if v.kind == "disagree":
            entry = known.match(result.observations, v.factions, source, case.id)
        elif infra or v.kind in ("not-comparable", "one-sided-limit"):
            # A witness running on where the Lispex members reached a limit; or, not comparable
            # for another reason, witnesses that differ from them on what was compared.
            entry = known.match_resource(result.observations, source, case.id) or \
                (known.match(result.observations, v.factions, source, case.id)
                 if v.kind == "not-comparable" else None)
        if entry is not None:
            # The witness differs here on purpose; the other members are still held to the
            # expectation.
            witness = set(known.by_member)
            rest = [d for d in diffs if d["member"] not in witness]
            return CaseRecord(case, result, "expectation-broken" if rest else "known-difference",
                              rest, known_difference=entry.id)
    if v.kind in FINDING_KINDS:
        # A finding is the case's outcome even beside a fault: the members that answered
        # disagree, or a member failed where the others answered.
        return CaseRecord(case, result, v.kind, diffs)
    if infra:
        return CaseRecord(case, result, "infrastructure-error", diffs)
    if diffs:
        return CaseRecord(case, result, "expectation-broken", diffs)
    if v.kind == "not-comparable" and case.expectation is not None and len(v.factions) == 1:
        # Every member reached the same resource outcome the blessed expectation pins: the
        # members agree on it, whatever the general rule for resource outcomes says.
        return CaseRecord(case, result, "agree", diffs)
    return CaseRecord(case, result, v.kind, diffs)


class Interrupted(Exception):
    """The run was stopped by a signal; ``args[0]`` holds a record for every selected case."""


# A slot that dies is replaced, at most this many times per slot, before the cases it leaves
# are recorded as infrastructure errors rather than retried forever.
SLOT_RESTARTS = 2


def fault_record(case: Case, kind: str, message: str) -> CaseRecord:
    """A case the court could not judge, with the fault that stopped it named."""
    return CaseRecord(case, None, "infrastructure-error", error=f"{kind}: {message}")


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
    sorted by id, run-level faults, complete?).

    Every case gets exactly one record, whatever happens: an exception while running or judging
    a case is an ``infrastructure-error`` for it (fault named); a slot thread that dies is
    replaced and its case recorded; cases left when ``fail_fast`` stops the run are ``not-run``.
    On an interrupt (KeyboardInterrupt, which a SIGTERM handler may raise) the cases in flight
    are ``interrupted``, the rest ``not-run``, and :class:`Interrupted` carries the records.
    """
    jobs = default_jobs() if jobs is None else jobs
    todo: queue.Queue = queue.Queue()
    for c in longest_first(cases, walls):
        todo.put(c)
    records: dict[str, CaseRecord] = {}
    inflight: dict[int, Case] = {}
    lock = threading.Lock()
    stop = stop or threading.Event()
    interrupted = threading.Event()
    closed = threading.Event()  # once set, late records from stuck slots are dropped
    faults: list[dict] = []
    sessions: list[CourtSession] = []
    known = KnownDifferences.for_products(resolution.products)

    def keep(record: CaseRecord) -> None:
        with lock:
            if closed.is_set() or record.case.id in records:
                return
            if interrupted.is_set():
                record = interrupted_record(record.case)
            records[record.case.id] = record
        if on_record:
            try:
                on_record(record)
            except Exception as e:  # noqa: BLE001 - progress display must not lose a case
                with lock:
                    faults.append({"member": None, "kind": "internal",
                                   "message": f"progress display failed: {_name(e)}"})
        if fail_fast and record.outcome in FAILURES:
            stop.set()

    def slot() -> None:
        me = threading.get_ident()
        session = None
        try:
            session = CourtSession(resolution, case_limits(limits, None), jobs=1)
            with lock:
                sessions.append(session)
            while not stop.is_set():
                try:
                    case = todo.get_nowait()
                except queue.Empty:
                    return
                with lock:
                    inflight[me] = case
                try:
                    record = run_one(session, case, limits, known)
                except Exception as e:  # noqa: BLE001 - one case's fault, never a lost case
                    record = fault_record(case, "internal", f"while running the case: {_name(e)}")
                keep(record)
                with lock:
                    inflight.pop(me, None)
        finally:
            if session is not None:
                try:
                    session.close()
                except Exception as e:  # noqa: BLE001
                    with lock:
                        faults.append({"member": None, "kind": "cleanup",
                                       "message": f"closing a slot failed: {_name(e)}"})
                with lock:
                    faults.extend(session.cleanup_faults)

    def guarded_slot() -> None:
        try:
            slot()
        except BaseException as e:  # noqa: BLE001 - the slot broke (its session, or worse): it
            # ends here, its case is recorded, and the main loop starts another slot.
            me = threading.get_ident()
            with lock:
                case = inflight.pop(me, None)
                faults.append({"member": None, "kind": "internal",
                               "message": f"a slot died: {_name(e)}"})
            if case is not None:
                keep(fault_record(case, "internal", f"the slot running it died: {_name(e)}"))

    threads: list[threading.Thread] = []

    def start(n: int) -> None:
        for _ in range(n):
            t = threading.Thread(target=guarded_slot, daemon=True)
            threads.append(t)
            t.start()

    slots = max(1, jobs)
    try:
        start(slots)
        restarts = 0
        while True:
            for t in threads:
                t.join(timeout=0.1)
            alive = sum(t.is_alive() for t in threads)
            if alive == 0 and (stop.is_set() or todo.empty()):
                break
            if alive < slots and not todo.empty() and not stop.is_set():
                if restarts >= SLOT_RESTARTS * slots:
                    if alive == 0:
                        break
                    continue
                restarts += 1
                start(1)
    except KeyboardInterrupt:
        interrupted.set()
        stop.set()
        for s in list(sessions):
            for w in s.workers.values():
                try:
                    w.stop()
                except Exception:  # noqa: BLE001, S110 - the slot records its own faults
                    pass
        _kill_member_sessions()
        for t in threads:
            t.join(timeout=5)
        raise Interrupted(_account(cases, records, inflight, lock, closed, interrupted=True),
                          faults) from None
    out = _account(cases, records, inflight, lock, closed, interrupted=False,
                   slots_died=not stop.is_set())
    complete = all(r.outcome != "not-run" for r in out) and len(out) == len(cases)
    return out, faults, complete


def _kill_member_sessions() -> None:
    """On an interrupt, stop every member process still running, one-shot products included:
    each was started as the leader of its own session (and process group), so the group goes."""
    try:
        children = psutil.Process().children(recursive=True)
    except psutil.Error:
        return
    for child in children:
        try:
            if os.getsid(child.pid) == child.pid:
                os.killpg(child.pid, signal.SIGKILL)
        except (OSError, psutil.Error):
            pass
    psutil.wait_procs(children, timeout=2)


def interrupted_record(case: Case) -> CaseRecord:
    return CaseRecord(case, None, "interrupted",
                      error="the run was interrupted while this case ran")


def _account(cases: list[Case], records: dict[str, CaseRecord], inflight: dict[int, Case],
             lock: threading.Lock, closed: threading.Event, *,
             interrupted: bool, slots_died: bool = False) -> list[CaseRecord]:
    """One record per selected case, sorted by id: what ran, what was in flight, what never
    started."""
    with lock:
        closed.set()
        running = {c.id for c in inflight.values()}
        out = []
        for c in cases:
            r = records.get(c.id)
            if r is None:
                if c.id in running:
                    r = interrupted_record(c) if interrupted else \
                        fault_record(c, "internal", "the slot running it never finished")
                elif interrupted:
                    r = CaseRecord(c, None, "not-run", error="not started: the run was "
                                                              "interrupted")
                elif slots_died:
                    r = fault_record(c, "internal", "not run: every slot died before it")
                else:
                    r = CaseRecord(c, None, "not-run", error="not started: the run stopped "
                                                              "early")
            out.append(r)
    out.sort(key=lambda r: r.case.id)
    return out


def _name(e: BaseException) -> str:
    return f"{type(e).__name__}: {e}"


def case_limits(base: Limits, case: Case | None) -> Limits:
    if case is None or not case.run:
        return base
    meter = dict(base.meter_limits or {})
    meter.update(case.limits)
    return Limits(timeout=base.timeout, memory_bytes=base.memory_bytes,
                  profile=case.profile or base.profile, meter_limits=meter)


def run_one(session: CourtSession, case: Case, limits: Limits,
            known: KnownDifferences | None = None) -> CaseRecord:
    session.limits = case_limits(limits, case)
    for w in session.workers.values():
        w.limits = session.limits
    try:
        source = case.source()
        input_text = case.input_text()
        t0 = time.perf_counter()
        result = session.run_case(source, input_text, safe_text(case.program.name))
    except (OSError, UnicodeDecodeError) as e:
        return CaseRecord(case, None, "infrastructure-error",
                          error=f"cannot read case: {safe_text(str(e))}")
    except InputRejected as e:
        return CaseRecord(case, None, "infrastructure-error",
                          error=f"malformed input datum: {e}")
    del t0
    return classify(case, result, known, source.decode("utf-8", "replace"))
