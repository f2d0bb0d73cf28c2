"""Running cases on a court: one warm worker per member, every member under the same limits.

Members of one case run at the same time on separate workers when ``jobs`` allows it, otherwise
one after another; either way each sees the same source, input and limits. A disagreement is run
once more to confirm it before it is reported.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

from . import forkserver
from .adapters import ONESHOT
from .forkserver import builtin_impl
from .products import Resolution
from .supervisor import Fault, Limits, WorkerProcess
from .verdict import Verdict, judge

OBSERVATION_SCHEMA = "lispex.court-observation/v1"


class InputRejected(Exception):
    """Every member refused the input datum: the user's mistake, reported as such."""


def fault_observation(member: str, fault: Fault, wall: float) -> dict[str, Any]:
    return {
        "schema": OBSERVATION_SCHEMA,
        "implementation": member,
        "semantic": {"status": "infrastructure-error", "values": [], "stdout": "",
                     "exit_status": None, "diagnostics": [], "warnings": [],
                     "resource_outcome": {"status": "unknown"}},
        "resources": {"court_wall_seconds": wall},
        "products": {},
        "faults": [fault.to_json()],
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


class CourtSession:
    def __init__(self, resolution: Resolution, limits: Limits, jobs: int = 1,
                 recycle_after: int = 500) -> None:
        self.resolution = resolution
        self.limits = limits
        self.jobs = max(1, jobs)
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
        try:
            if product.protocol == "court-worker/v1":
                request = self.worker_request(source, input_text, filename)
                reply = self.workers[member].run(request)
                if not reply.get("ok"):
                    err = reply.get("error") or {}
                    if err.get("kind") == "input-error":
                        raise InputRejected(err.get("message", "invalid input"))
                    raise Fault(err.get("kind", "protocol"), err.get("message", "worker error"))
                obs = reply["observation"]
            else:
                obs = ONESHOT[product.protocol](product, source, input_text, filename,
                                                self.limits)
        except Fault as f:
            return fault_observation(member, f, time.perf_counter() - t0)
        obs.setdefault("resources", {})["court_wall_seconds"] = time.perf_counter() - t0
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
            return out
        return {m: self.run_member(m, source, input_text, filename) for m in members}

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
        t0 = time.perf_counter()
        observations = self.run_members(source, input_text, filename)
        verdict = judge(observations)
        first = None
        if confirm and verdict.kind == "disagree":
            again = self.run_members(source, input_text, filename)
            second = judge(again)
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
