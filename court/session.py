"""Running cases on a court: one warm worker per member, every member under the same limits.

Members of one case run at the same time on separate workers when ``jobs`` allows it, otherwise
one after another; either way each sees the same source, input and limits. A disagreement is run
once more to confirm it before it is reported, and so is a member fault (a crash, a broken
reply). A member that timed out while the others answered
is run once more with a longer wall clock before it counts; a member that reached a limit the
others finished far within is run once more with a raised budget, and the verdict records what
that showed.
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass, field, replace
from typing import Any

from .catalog import Resolution
from .verdict import Verdict, judge, project
from .workers import forkserver
from .workers.adapters import ONESHOT
from .workers.bounds import check_output
from .workers.faults import Fault
from .workers.forkserver import builtin_impl
from .workers.limits import Limits
from .workers.protocol import check_run_reply, fill_defaults
from .workers.supervisor import WorkerProcess

OBSERVATION_SCHEMA = "lispex.court-observation/v1"
# A re-run with a raised budget gets this many times the meter limits the member ran out of ...
BUDGET_FACTOR = 10
# ... and, like a re-run after a timeout, this many times the wall clock.
WALL_FACTOR = 3


class InputRejected(Exception):
    """Every member refused the input datum: the user's mistake, reported as such. (A member
    that refuses an input the others accept is that member's fault, not the user's.)"""


def fault_observation(member: str, fault: Fault, wall: float,
                      strays: list[str] | None = None) -> dict[str, Any]:
    faults = [fault.to_json()]
    if strays and fault.kind != "cleanup":
        faults.append({"kind": "cleanup", "message": "; ".join(strays)})
    return {
        "schema": OBSERVATION_SCHEMA,
        "implementation": member,
        "semantic": {"status": "infrastructure-error", "values": [], "stdout": "",
                     "exit_status": None, "diagnostics": [], "warnings": [],
                     "resource_outcome": {"status": "unknown"}},
        "resources": {"court_wall_seconds": wall},
        "products": {},
        "faults": faults,
    }


@dataclass
class CaseResult:
    observations: dict[str, dict[str, Any]]
    verdict: Verdict
    wall_seconds: float
    first_run: dict[str, dict[str, Any]] | None = None  # when a confirmation re-run happened
    faults: list[dict[str, Any]] = field(default_factory=list)

    def core_ir_id(self) -> str | None:
        ids = {o.get("products", {}).get("core_ir_id") for o in self.observations.values()}
        ids.discard(None)
        return ids.pop() if len(ids) == 1 else None

    def core_ir_ids(self) -> dict[str, str]:
        """Each member's Core IR id, for the members that report one."""
        out = {}
        for m, o in self.observations.items():
            cid = (o.get("products") or {}).get("core_ir_id")
            if cid:
                out[m] = cid
        return out

    def bytecode_ids(self) -> dict[str, str]:
        """Each member's compiled-code id, for the members that compile (vm, topaz-vm)."""
        out = {}
        for m, o in self.observations.items():
            bid = (o.get("products") or {}).get("bytecode_id")
            if bid:
                out[m] = bid
        return out

    def bytecode_id(self) -> str | None:
        """The bytecode id of the comparison: the bytecode VM's when it is a member, otherwise
        the first compiling member's (each compiler has its own code, so ids differ by member;
        ``bytecode_ids`` has them all)."""
        ids = self.bytecode_ids()
        return ids.get("vm") or next(iter(ids.values()), None)


class CourtSession:
    def __init__(self, resolution: Resolution, limits: Limits, jobs: int | None = 1,
                 recycle_after: int = 500) -> None:
        self.resolution = resolution
        self.limits = limits
        # None: as many members at once as this process has CPUs.
        self.jobs = max(1, jobs) if jobs else max(1, len(os.sched_getaffinity(0)))
        self.workers: dict[str, WorkerProcess] = {
            m: WorkerProcess(p, limits, recycle_after)
            for m, p in resolution.products.items() if p.protocol == "court-worker/v1"}
        self._request: tuple[tuple, dict[str, Any]] | None = None  # this case's request
        self._sent: dict[str, float] = {}  # members whose request went ahead: when
        self.cleanup_faults: list[dict[str, Any]] = []
        # One worker template serves the whole court: it preloads every member it can fork.
        preload = tuple(dict.fromkeys(
            impl for w in self.workers.values() if (impl := builtin_impl(w.product))))
        for w in self.workers.values():
            w.preload = preload
        self._template = bool(preload) and forkserver.enabled()
        if self._template:
            forkserver.acquire(preload)

    def warm(self) -> None:
        """Start every member's worker that is not running, all at once: each is launched (and
        sent its hello) before any answer is awaited. A member that fails to start keeps its
        fault for its next request, which reports it as that member's result."""
        pending = [w for w in self.workers.values() if not w.alive()]
        for w in pending:
            try:
                w.launch()
            except Fault as f:
                w.start_fault = f
        for w in pending:
            try:
                w.finish_start()
            except Fault as f:
                w.start_fault = f

    def __enter__(self) -> CourtSession:
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def close(self) -> None:
        for m, w in self.workers.items():
            for problem in w.stop():
                self.cleanup_faults.append({"member": m, "kind": "cleanup", "message": problem})
        if self._template:
            self._template = False
            forkserver.release()

    def product_ids(self) -> dict[str, str | None]:
        return {m: w.product_id for m, w in self.workers.items()}

    def worker_request(self, source: bytes, input_text: str | None,
                       filename: str) -> dict[str, Any]:
        """The `run` request of a case, built once per case for all its members."""
        key = (source, input_text, filename, self.limits.profile, self.limits.meter_limits)
        cached = self._request
        if cached is not None and cached[0] == key:
            return cached[1]
        request: dict[str, Any] = {"op": "run", "filename": filename, "input": input_text,
                                   "profile": self.limits.profile,
                                   "limits": self.limits.meter_limits or {}}
        try:
            request["source"] = source.decode("utf-8")
        except UnicodeDecodeError:
            import base64

            request["source_b64"] = base64.b64encode(source).decode("ascii")
        self._request = (key, request)
        return request

    def run_member(self, member: str, source: bytes, input_text: str | None,
                   filename: str) -> dict[str, Any]:
        product = self.resolution.products[member]
        t0 = self._sent.pop(member, None) or time.perf_counter()
        strays: list[str] = []
        try:
            if product.protocol == "court-worker/v1":
                request = self.worker_request(source, input_text, filename)
                worker = self.workers[member]
                try:
                    reply = worker.run(request)
                finally:
                    strays = worker.take_cleanup()
                problem = check_run_reply(reply)
                if problem:
                    # Its state is unknown after a reply of the wrong shape: a fresh worker
                    # takes the next case.
                    worker.stop()
                    strays += worker.take_cleanup()
                    raise Fault("protocol", f"{member}: {problem}; the worker was restarted")
                if strays:
                    raise Fault("cleanup", "; ".join(strays))
                if not reply["ok"]:
                    # An input-error is this member's refusal of the input datum: the user's
                    # mistake only when every member refuses it (see run_members).
                    err = reply["error"]
                    raise Fault(err["kind"], err["message"])
                check_output(reply["observation"], member, self.limits)
                obs = fill_defaults(reply["observation"])
            else:
                obs = ONESHOT[product.protocol](product, source, input_text, filename,
                                                self.limits)
            obs.setdefault("resources", {})["court_wall_seconds"] = time.perf_counter() - t0
        except Fault as f:
            return fault_observation(member, f, time.perf_counter() - t0, strays)
        except InputRejected:
            raise
        except Exception as e:  # noqa: BLE001 - a broken adapter or reply: this member's fault
            return fault_observation(member, Fault("internal", f"{type(e).__name__}: {e}"),
                                     time.perf_counter() - t0, strays)
        return obs

    def run_members(self, source: bytes, input_text: str | None,
                    filename: str) -> dict[str, dict[str, Any]]:
        members = list(self.resolution.members)
        if self._sent:  # a case that ended early (an exception, an aborted call)
            for m in self._sent:
                self.workers[m].cancel_prefetch()
            self._sent.clear()
        if any(not w.alive() for w in self.workers.values()):
            self.warm()
        if self.jobs > 1 and len(members) > 1:
            # Members run at once in their own processes, ``jobs`` at a time: each worker gets
            # its request ahead of time and computes while this thread collects the replies in
            # order (no thread hand-off per member). Other members run here, meanwhile.
            out: dict[str, dict[str, Any]] = {}
            for i, m in enumerate(members):
                for ahead in members[i:i + self.jobs]:
                    self._prefetch(ahead, source, input_text, filename)
                out[m] = self.run_member(m, source, input_text, filename)
        else:
            out = {m: self.run_member(m, source, input_text, filename) for m in members}
        refusals = [f["message"] for o in out.values() for f in o.get("faults", ())
                    if f["kind"] == "input-error"]
        if refusals and len(refusals) == len(out):
            raise InputRejected(refusals[0])
        # A member that refused an input the others read is a member fault (court/verdict.py).
        return out

    def use_limits(self, limits: Limits) -> Limits:
        """Run the next cases under ``limits`` (on every member); returns the limits replaced."""
        saved, self.limits = self.limits, limits
        for w in self.workers.values():
            w.limits = limits
        return saved

    def run_with(self, limits: Limits, member: str, source: bytes, input_text: str | None,
                 filename: str) -> dict[str, Any]:
        """Run one member under other limits (a re-run), then put the session's back."""
        saved, worker = self.limits, self.workers.get(member)
        saved_worker = worker.limits if worker else None
        self.limits = limits
        if worker:
            worker.limits = limits
        try:
            return self.run_member(member, source, input_text, filename)
        finally:
            self.limits = saved
            if worker:
                worker.limits = saved_worker  # type: ignore[assignment]

    def judge(self, observations: dict[str, dict[str, Any]]) -> Verdict:
        return judge(observations, self.resolution.meter_models(), self.resolution.lineages(),
                     self.resolution.witnesses())

    def _rerun_timeouts(self, observations: dict[str, dict[str, Any]], source: bytes,
                        input_text: str | None, filename: str) -> None:
        """A wall-clock timeout may be the machine's load: run the member once more with a
        longer clock. Its new observation replaces the old; a second timeout says so."""
        timed_out = [m for m, o in observations.items()
                     if any(f["kind"] == "timeout" for f in o.get("faults", ()))]
        if not timed_out:
            return
        answered = [m for m, o in observations.items()
                    if o["semantic"]["status"] != "infrastructure-error"]
        if all(observations[m]["semantic"]["status"] == "resource" for m in answered):
            # Nobody answered, or all that did reached a limit of their own: a longer clock can
            # only show the program is expensive, which the verdict already says.
            return
        longer = replace(self.limits, timeout=self.limits.timeout * WALL_FACTOR)
        for m in timed_out:
            again = self.run_with(longer, m, source, input_text, filename)
            for f in again.get("faults", []):
                if f["kind"] == "timeout":
                    f["message"] += (f" (a second time: the re-run with {longer.timeout:g} s "
                                     "timed out too)")
            observations[m] = again

    def _rerun_limited(self, verdict: Verdict, observations: dict[str, dict[str, Any]],
                       source: bytes, input_text: str | None, filename: str) -> Verdict:
        """Re-run each member of a one-sided limit with a raised budget. If every one of them
        then finishes with the others' result, its meters merely count more than the others'
        (they are of other meter models): not a finding. Otherwise the one-sided limit stands
        with what the re-run showed."""
        assert verdict.evidence is not None
        answered = [m for m, o in observations.items() if o["semantic"]["status"] != "resource"]
        reference = project(observations[answered[0]])
        axes = [a for a in verdict.axes if a in reference and a not in ("resource_outcome",
                                                                        "meters")]
        explained = True
        for entry in verdict.evidence["limited"]:
            obs = observations[entry["member"]]
            if entry["limit_value"] is None:
                entry["rerun"] = {"ran": False, "why": "the recursion limit is fixed by the "
                                  "language, the same for every member; it cannot be raised"}
                explained = False
                continue
            ran = (obs.get("resources") or {}).get("limits") or {}
            raised = {k.removesuffix("-limit"): v * BUDGET_FACTOR for k, v in ran.items()}
            for k, v in (self.limits.meter_limits or {}).items():
                raised.setdefault(k, v * BUDGET_FACTOR)
            limits = replace(self.limits, timeout=self.limits.timeout * WALL_FACTOR,
                             meter_limits=raised)
            again = self.run_with(limits, entry["member"], source, input_text, filename)
            sem = again["semantic"]
            proj = project(again)
            same = sem["status"] not in ("resource", "infrastructure-error") and \
                all(proj[a] == reference[a] for a in axes)
            rerun: dict[str, Any] = {"ran": True, "meter_limits": raised,
                                     "timeout_seconds": limits.timeout, "status": sem["status"],
                                     "resource_outcome": sem.get("resource_outcome"),
                                     "usage": proj["meters"], "agrees_with_others": same}
            if again.get("faults"):
                rerun["faults"] = again["faults"]
            entry["rerun"] = rerun
            explained = explained and same
        if explained:
            verdict.kind = "not-comparable"
            verdict.reasons.append(
                f"with a raised budget (x{BUDGET_FACTOR}) every member that reached a limit "
                "finished with the others' result: its meters count more (another meter model)")
        else:
            verdict.confirmed = True
        return verdict

    def _prefetch(self, member: str, source: bytes, input_text: str | None,
                  filename: str) -> None:
        worker = self.workers.get(member)
        if worker is None or member in self._sent:
            return
        sent = worker.prefetch(self.worker_request(source, input_text, filename))
        if sent is not None:
            self._sent[member] = sent

    def run_case(self, source: bytes, input_text: str | None = None,
                 filename: str = "program.lspx", confirm: bool = True) -> CaseResult:
        """One case on every member. With ``confirm`` (the default) a disagreement or a member
        fault is run again, a timeout once more with a longer clock, a one-sided limit with a
        raised budget; without it (a reducer's many trials) the first verdict stands."""
        t0 = time.perf_counter()
        observations = self.run_members(source, input_text, filename)
        if confirm:
            self._rerun_timeouts(observations, source, input_text, filename)
        verdict = self.judge(observations)
        first = None
        if confirm and verdict.kind == "one-sided-limit":
            verdict = self._rerun_limited(verdict, observations, source, input_text, filename)
        # A member fault is confirmed like a disagreement: a worker killed from outside (the
        # OOM killer, a user's kill) looks like a crash once and must not be reported as a bug.
        if confirm and verdict.kind in ("disagree", "member-fault"):
            again = self.run_members(source, input_text, filename)
            second = self.judge(again)
            first = observations
            if second.signature() == verdict.signature():
                verdict.confirmed = True
            else:
                observations, verdict = again, second
                if verdict.kind != "not-comparable":
                    verdict.kind = "not-comparable"
                    verdict.reasons.append("the divergence did not reproduce on a re-run "
                                           "(nondeterministic)")
                verdict.confirmed = False
        return CaseResult(observations, verdict, time.perf_counter() - t0, first)
