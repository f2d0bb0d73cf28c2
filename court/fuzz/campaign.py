"""A fuzzing campaign: generated and mutated cases through a court, findings confirmed,
minimised, deduplicated and saved.

Reproducible: programs come from seeded ``random.Random`` streams, in blocks. Block k is drawn
(with the steering of every block processed so far, i.e. up to k-2) while block k-1 is being
evaluated on the court's sessions, then block k-1's results are examined in program order. So
the same seed and code give the same programs and the same findings, however the evaluations
interleave. Exact duplicate programs are skipped before they are run.

A finding is a case whose verdict kind is in ``verdict.FINDING_KINDS`` (a confirmed
disagreement, and the kinds other parts of the court add). Its signature is coarse: the kind,
the class of the first differing axis (outcome, output, warnings, diagnostic, span), who sided
with whom, and (except for output and span divergences) each member's status and diagnostic code.
It is what the reducer keeps while it minimises, not a judgement that two findings are one bug:
that is decided after minimisation, where a finding whose minimised program's operators contain
(or are contained in) those of an earlier one with the same factions is counted as that one
(``duplicates`` when the signatures match too, ``same bug`` otherwise).
"""

from __future__ import annotations

import hashlib
import json
import queue
import random
import time
import tomllib
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from ..differences import KnownDifferences
from ..session import CaseResult, CourtSession
from ..verdict import BUDGET_FAULTS, FINDING_KINDS
from .case import Case
from .feedback import Coverage
from .generate import generate
from .mutate import Mutator
from .reduce import parse, reduce
from .signatures import PRIMITIVES

AXIS_CLASS = {"status": "outcome", "exit_status": "outcome", "stdout": "output",
              "values": "output", "transcript": "output", "warnings": "warnings",
              "diagnostic_code": "diagnostic", "diagnostic_phase": "diagnostic",
              "diagnostic_span": "span", "resource_outcome": "outcome", "meters": "meters"}
BLOCK = 32
CENSUS_EVERY = 8  # the Core IR census costs a normalisation: every 8th program is walked
# Forms that route values rather than compute them: a bug seen through `cond` in one minimised
# program and through `if` in another is still one bug.
BORING = {"define", "display", "write", "newline", "println", "begin", "quote", "lambda",
          "list", "let", "let*", "letrec", "if", "cond", "case", "when", "unless", "set!"}
# Operators too common in minimised programs to tell two findings apart: sharing one of these is
# no sign that two divergences come from one bug (sharing `list-tail` or `quotient` is).
COMMON = {"car", "cdr", "cons", "+", "-", "*", "=", "<", ">", "<=", ">=", "not", "null?", "pair?",
          "number?", "length", "map", "apply", "and", "or", "values", "call-with-values", "raise",
          "raise-continuable", "error", "with-exception-handler", "guard", "call/cc",
          "dynamic-wind", "equal?", "eqv?", "eq?", "vector", "string-append", "quasiquote",
          "unquote", "unquote-splicing", "do", "error-object-message", "error-object?"}
# The heads a fingerprint keeps: the language's primitives and syntactic forms, not the names a
# program gives its own procedures and variables (g15 here is k3 there).
KEYWORDS = set(PRIMITIVES) | {"quasiquote", "unquote", "unquote-splicing", "guard", "and", "or",
                              "do", "values", "call-with-values", "call/cc", "dynamic-wind"}


def finding_kinds() -> tuple[str, ...]:
    return FINDING_KINDS


def signature(result: CaseResult) -> dict[str, Any] | None:
    v = result.verdict
    if v.kind not in finding_kinds():
        return None
    axis = v.divergence["axis"] if v.divergence else None
    cls = AXIS_CLASS.get(axis, axis)
    sig: dict[str, Any] = {"kind": v.kind, "axis": cls,
                           "factions": sorted(sorted(f) for f in v.factions)}
    if v.model_splits:  # who split inside a meter model, where the factions do not show it
        sig["model_splits"] = sorted([split["meter_model"], sorted(sorted(g) for g in split["groups"])]
                                     for split in v.model_splits)
    if cls not in ("output", "span"):
        codes = {}
        for m, o in sorted(result.observations.items()):
            sem = o["semantic"]
            diag = (sem.get("diagnostics") or [None])[0]
            fault = (o.get("faults") or [None])[0]
            # A member fault is told by its kind (crash, timeout, ...), as a diagnostic by code.
            codes[m] = [sem["status"], diag["code"] if diag else (fault["kind"] if fault else None)]
        sig["codes"] = codes
    return sig


def signature_id(sig: dict[str, Any]) -> str:
    return hashlib.sha256(json.dumps(sig, sort_keys=True).encode()).hexdigest()[:12]


def fingerprint(program: str) -> tuple[str, ...]:
    """The primitives and forms a (minimised) program applies, boilerplate left out."""
    try:
        forms = parse(program)
    except Exception:  # noqa: BLE001 - an unreadable program is its own fingerprint
        return ("<unreadable>", hashlib.sha256(program.encode()).hexdigest()[:8])
    heads: set[str] = set()
    stack = list(forms)
    while stack:
        t = stack.pop()
        if t[0] == "list":
            if t[1] and t[1][0][0] == "atom":
                heads.add(t[1][0][1])
            stack.extend(t[1])
        elif t[0] == "vec":
            stack.extend(t[1])
    return tuple(sorted((heads & KEYWORDS) - BORING))


def _over_budget(observations: dict[str, dict]) -> bool:
    """Every fault is a spent budget (memory, wall clock) and every other member reached a limit
    of its own: the verdict's not-comparable case, not a harness failure."""
    faults = [f for o in observations.values() for f in o.get("faults", [])]
    others = [o for o in observations.values() if not o.get("faults")]
    return bool(faults) and bool(others) and \
        all(f["kind"] in BUDGET_FAULTS for f in faults) and \
        all(o["semantic"]["status"] == "resource" for o in others)


def load_quarantine(path: Path | None) -> dict[str, str]:
    if path is None or not path.exists():
        return {}
    data = tomllib.loads(path.read_text("utf-8"))
    return {k["signature"]: k.get("note", "") for k in data.get("known", [])}


@dataclass
class Finding:
    id: str
    signature: dict[str, Any]
    original: str
    minimized: str
    input: str | None
    features: tuple[str, ...]
    observations: dict[str, Any]
    reduce_tests: int
    origin: str = "generated"
    index: int = 0  # which program of the campaign found it
    seconds: float = 0.0  # campaign time to this finding
    same_bug: int = 0  # later cases counted as this bug
    path: Path | None = None
    limits: dict[str, int] = field(default_factory=dict)  # meter limits it ran under, if its own


@dataclass
class Stats:
    generated: int = 0
    mutated: int = 0
    agree: int = 0
    not_comparable: int = 0
    infrastructure: int = 0
    unconfirmed: int = 0
    quarantined: int = 0
    duplicates: int = 0  # findings of a signature already found
    same_bug: int = 0  # findings judged the same bug after minimisation
    duplicate_programs: int = 0  # exact duplicate programs, skipped before running
    known_differences: int = 0  # disagreements a witness's known-differences file explains
    # disagreements where one witness stands alone against every other lineage: candidates for
    # its known-differences file, not findings of a Lispex bug
    candidate_differences: int = 0
    outside_subset: int = 0  # programs skipped: outside the shared subset of a witness
    gen_seconds: float = 0.0
    eval_seconds: float = 0.0  # summed over parallel sessions
    wait_seconds: float = 0.0  # time the campaign waited for evaluations
    reduce_seconds: float = 0.0
    findings: list[Finding] = field(default_factory=list)
    infra_examples: list[tuple[str, str, str, str]] = field(default_factory=list)


class ProgramSource:
    """The campaign's programs, in a fixed order for a seed: generated and corpus mutants
    mixed, exact duplicates skipped."""

    def __init__(self, seed: int, *, only_safe: bool = False, corpus: Path | None = None,
                 mutate_percent: int = 30) -> None:
        self.gen_rng = random.Random(f"generate:{seed}")
        self.mix_rng = random.Random(f"mix:{seed}")
        self.only_safe = only_safe
        self.mutator = Mutator(corpus, random.Random(f"mutate:{seed}")) \
            if corpus is not None and mutate_percent > 0 else None
        self.mutate_percent = mutate_percent if self.mutator and self.mutator.available() else 0
        self.seen: set[bytes] = set()
        self.duplicates = 0

    def next(self, coverage: Coverage | None, steering) -> Case:
        for _ in range(100):
            case = None
            if self.mutate_percent and self.mix_rng.randrange(100) < self.mutate_percent:
                case = self.mutator.mutant()
            if case is None:
                case = generate(self.gen_rng, only_safe=self.only_safe, steering=steering)
            key = hashlib.sha256(f"{case.input}\0{case.source}".encode()).digest()
            if key in self.seen:
                self.duplicates += 1
                continue
            self.seen.add(key)
            return case
        return case  # a space this small repeats itself; run the duplicate rather than stall


class Campaign:
    def __init__(self, sessions: list[CourtSession] | CourtSession, save_dir: Path | None,
                 quarantine: dict[str, str], reduce_seconds: float = 30.0, seed: int = 0, *,
                 only_safe: bool = False, corpus: Path | None = None,
                 mutate_percent: int = 30, steer: bool = True, reduce_tests: int = 3000) -> None:
        self.sessions = sessions if isinstance(sessions, list) else [sessions]
        self.session = self.sessions[0]
        self.save_dir = save_dir
        self.quarantine = quarantine
        self.reduce_seconds = reduce_seconds
        self.reduce_tests = reduce_tests  # a bound in tests, not in time: reproducible anywhere
        self.seed = seed
        self.stats = Stats()
        self.seen: set[str] = set()
        self.bugs: dict[tuple, Finding] = {}
        self.coverage = Coverage()
        self.steer = steer
        self.source = ProgramSource(seed, only_safe=only_safe, corpus=corpus,
                                    mutate_percent=mutate_percent)
        # Read once: a session's limits change while it runs a case under its own.
        self.base_meter = dict(self.session.limits.meter_limits or {})
        self.free: queue.Queue[CourtSession] = queue.Queue()
        for s in self.sessions:
            self.free.put(s)
        self.programs: list[str] = []  # every program run, in order (for reproducibility)
        self.start = time.perf_counter()
        self.on_finding = None  # callback(Finding)
        self.on_progress = None  # callback(Stats), after each program examined
        self.known = KnownDifferences.for_products(self.session.resolution.products)
        self.admits = None  # a predicate over program text (a witness's shared subset), or None

    # -- running ---------------------------------------------------------------------------

    def _run(self, case: Case, confirm: bool = True) -> tuple[CaseResult, float]:
        session = self.free.get()
        saved = None
        try:
            if case.limits:
                meter = dict(session.limits.meter_limits or {})
                meter.update(self._own_limits(case))
                saved = session.use_limits(replace(session.limits, meter_limits=meter))
            t0 = time.perf_counter()
            result = session.run_case(case.source.encode("utf-8"), case.input, "fuzz.lspx",
                                      confirm=confirm)
            return result, time.perf_counter() - t0
        finally:
            if saved is not None:
                session.use_limits(saved)
            self.free.put(session)

    def _own_limits(self, case: Case) -> dict[str, int]:
        """The meter limits a case runs under that are not the campaign's: its own caps (a
        campaign run under less keeps less)."""
        base = self.base_meter
        return {axis: min(n, base.get(axis, n)) for axis, n in case.limits}

    def _draw(self, n: int) -> list[Case]:
        t0 = time.perf_counter()
        steering = self.coverage.steering() if self.steer else None
        cases = []
        for _ in range(n):
            case = self.source.next(self.coverage, steering)
            if self.admits is not None and not self.admits(case.source):
                self.stats.outside_subset += 1
                continue
            index = self.stats.generated + self.stats.mutated + len(cases)
            self.coverage.add_program(case, census=index % CENSUS_EVERY == 0)
            cases.append(case)
        self.stats.duplicate_programs = self.source.duplicates
        self.stats.gen_seconds += time.perf_counter() - t0
        return cases

    def run(self, examples: int | None, seconds: float | None,
            max_findings: int | None = None) -> Stats:
        pool = ThreadPoolExecutor(max_workers=len(self.sessions))
        pending: list[tuple[Case, Future]] = []
        done = 0
        try:
            while True:
                n = BLOCK if examples is None else min(BLOCK, examples - done)
                out_of_time = seconds is not None and time.perf_counter() - self.start > seconds
                block: list[tuple[Case, Future]] = []
                if n > 0 and not out_of_time:
                    cases = self._draw(n)
                    done += n
                    block = [(c, pool.submit(self._run, c)) for c in cases]
                if not pending and not block:
                    break
                if self._examine_block(pending, max_findings):
                    for _, f in block:
                        f.cancel()
                    break
                pending = block
        finally:
            for _, f in pending:
                f.cancel()
            pool.shutdown(wait=True, cancel_futures=True)
        return self.stats

    def _examine_block(self, block: list[tuple[Case, Future]],
                       max_findings: int | None) -> bool:
        """Examine results in program order; True when the campaign must stop."""
        for case, fut in block:
            t0 = time.perf_counter()
            result, wall = fut.result()
            self.stats.wait_seconds += time.perf_counter() - t0
            self.stats.eval_seconds += wall
            self.examine(case, result)
            if self.on_progress is not None:
                self.on_progress(self.stats)
            if max_findings and len(self.stats.findings) >= max_findings:
                return True
        return False

    # -- judging ---------------------------------------------------------------------------

    def examine(self, case: Case, result: CaseResult | None = None) -> Finding | None:
        s = self.stats
        if result is None:
            result = self._run(case)[0]
        if case.origin.startswith("mutated"):
            s.mutated += 1
        else:
            s.generated += 1
        self.programs.append(case.source)
        self.coverage.add_observations(result.observations)
        kind = result.verdict.kind
        if kind == "agree":
            s.agree += 1
            return None
        if kind not in finding_kinds():
            broken = [(m, f) for m, o in result.observations.items()
                      for f in o.get("faults", [])]
            if broken and self.known and self.known.match_resource(
                    result.observations, case.source) is not None:
                s.not_comparable += 1  # the witness ran on where a Lispex meter stopped
            elif broken and _over_budget(result.observations):
                s.not_comparable += 1  # an expensive program, as the verdict says
            elif broken:
                s.infrastructure += 1
                if len(s.infra_examples) < 5:
                    m, f = broken[0]
                    s.infra_examples.append((m, f["kind"], f["message"], case.source))
            elif result.verdict.confirmed is False:
                s.unconfirmed += 1
            else:
                s.not_comparable += 1
            return None
        if self.known and (self.known.match(result.observations, result.verdict.factions,
                                            case.source) is not None or
                           (kind == "one-sided-limit" and self.known.match_resource(
                               result.observations, case.source) is not None)):
            s.known_differences += 1
            return None
        if result.verdict.candidate_known_difference:
            s.candidate_differences += 1
            return None
        sig = signature(result)
        assert sig is not None
        sid = signature_id(sig)
        if sid in self.quarantine:
            s.quarantined += 1
            return None
        # A signature seen before is no proof of the same bug (on a court of two members every
        # value difference has one signature): the minimised programs decide, below.
        repeat = sid in self.seen
        self.seen.add(sid)
        t1 = time.perf_counter()
        minimized, tests = reduce(
            case.source, lambda text: self.holds(text, case.input, sig, case.limits),
            seconds=self.reduce_seconds, max_tests=self.reduce_tests)
        final = self._run(Case(minimized, case.input, case.features, case.safe,
                               limits=case.limits))[0]
        s.reduce_seconds += time.perf_counter() - t1
        if self.known and self.known.match(final.observations, final.verdict.factions,
                                           minimized) is not None:
            # Reduced, the program shows a listed difference its first shape hid.
            s.known_differences += 1
            return None
        bug = (sig["kind"], json.dumps(sig["factions"]), fingerprint(minimized))
        earlier = self.same_bug(bug)
        if earlier is not None:
            if repeat:
                s.duplicates += 1
            else:
                s.same_bug += 1
                earlier.same_bug += 1
            return None
        # A second bug under a signature already found needs a name (and a file) of its own.
        fid = signature_id({**sig, "minimized": minimized}) if repeat else sid
        finding = Finding(fid, sig, case.source, minimized, case.input, case.features,
                          final.observations, tests, case.origin,
                          s.generated + s.mutated, time.perf_counter() - self.start,
                          limits=self._own_limits(case))
        self.bugs[bug] = finding
        if self.save_dir is not None:
            finding.path = self.save(finding)
        s.findings.append(finding)
        if self.on_finding is not None:
            self.on_finding(finding)
        return finding

    def same_bug(self, bug: tuple) -> Finding | None:
        """An earlier finding of the same factions whose minimised program's operators contain
        this one's, or are contained in them, or share one that is not common: `(list-tail l 1)`
        printing a wrong list and `(car (list-tail l 1))` failing under two handlers are one
        bug (both need `list-tail`), whatever kind and axis each divergence shows."""
        kind, factions, ops = bug
        for (k, f, other), finding in self.bugs.items():
            if f != factions or not ops or not other:
                continue
            if k == kind and (set(ops) <= set(other) or set(other) <= set(ops)):
                return finding
            if (set(ops) & set(other)) - COMMON:
                return finding
        return None

    def holds(self, text: str, input_text: str | None, sig: dict[str, Any],
              limits: tuple[tuple[str, int], ...] = ()) -> bool:
        result = self._run(Case(text, input_text, (), False, limits=limits), confirm=False)[0]
        return signature(result) == sig

    def save(self, f: Finding) -> Path:
        assert self.save_dir is not None
        return save_finding(self.save_dir, f, self.seed, self.session.resolution.court)


def save_finding(save_dir: Path, f: Finding, seed: int | None, court: str,
                 provenance: dict[str, Any] | None = None) -> Path:
    """Write a finding as a corpus case (program, input) beside its record; returns the program.
    ``provenance`` adds fields to the record (a cluster campaign names the chunk it came from)."""
    save_dir.mkdir(parents=True, exist_ok=True)
    stem = save_dir / f"fuzz-{f.id}"
    under = "".join(f"; run with --limit {k}={v}" for k, v in sorted(f.limits.items()))
    stem.with_suffix(".lspx").write_text(
        f";; found by court fuzz (seed {seed}, {f.origin}{under}); {f.signature['kind']} "
        f"on {f.signature['axis']}\n" + f.minimized, "utf-8")
    if f.input is not None:
        stem.with_suffix(".input").write_text(f.input + "\n", "utf-8")
    record = {"schema": "lispex.court-finding/v1", "signature": f.signature,
              "signature_id": f.id, "seed": seed, "court": court, "origin": f.origin,
              "features": list(f.features), "original": f.original,
              "minimized": f.minimized, "input": f.input, "reduce_tests": f.reduce_tests,
              "meter_limits": dict(sorted(f.limits.items())),
              "observations": {m: {k: o[k] for k in ("semantic", "products") if k in o}
                               for m, o in f.observations.items()}}
    record.update(provenance or {})
    path = stem.with_name(stem.name + ".finding.json")
    path.write_text(json.dumps(record, ensure_ascii=False, indent=1) + "\n", "utf-8")
    return stem.with_suffix(".lspx")
