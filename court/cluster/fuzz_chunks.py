"""A fuzzing campaign in (seed, budget) chunks on Dask workers.

Chunk ``i`` of a campaign with seed ``S`` generates ``budget`` programs from the chunk seed
:func:`chunk_seed` (S, i): the programs depend on those two numbers only, never on the worker
that runs the chunk, how many workers there are, or the order chunks finish in. A chunk runs its
programs through :class:`court.fuzz.campaign.Campaign` on the worker's warm session, which
confirms each disagreement; it does not minimise (``reduce_seconds=0``). The client merges the
chunks' figures, deduplicates findings by signature across chunks, and has each new signature
minimised once, as its own task, before saving it as a local campaign would.
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Callable
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any

from ..catalog import Resolution
from ..fuzz.campaign import Campaign, Finding, Stats, save_finding
from ..workers.limits import Limits
from .connect import Connection
from .tasks import TaskFigures, TaskPool

CHUNK_PROGRAMS = 25  # small, so a lost worker costs little and a deadline is overrun little


@dataclass(frozen=True)
class FuzzJob:
    """What every task of one campaign shares (it crosses the network with each task)."""

    resolution: Resolution
    limits: Limits
    seed: int
    only_safe: bool = False
    quarantine: tuple[str, ...] = ()


@dataclass
class ChunkResult:
    index: int
    seed: int
    stats: Stats  # findings in it are confirmed, not minimised, one per signature
    wall_seconds: float
    programs_digest: str  # sha256 over the chunk's programs and inputs, in order


@dataclass
class Reduced:
    minimized: str
    tests: int
    observations: dict[str, Any]
    seconds: float


@dataclass
class CampaignResult:
    stats: Stats
    figures: TaskFigures
    workers: int
    wall_seconds: float
    generate_seconds: float  # summed over workers, like eval_seconds and reduce_seconds
    chunks: int
    digests: dict[int, str] = field(default_factory=dict)
    warm_seconds: float = 0.0  # starting the workers' court sessions, before wall_seconds


def chunk_seed(campaign_seed: int, index: int) -> int:
    digest = hashlib.sha256(f"lispex-court-fuzz/{campaign_seed}/{index}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


def each_case(seed: int, count: int, only_safe: bool, body: Callable[[Any], None]) -> None:
    """Call ``body`` on the ``count`` programs of ``seed``, in their fixed order: the same seeded
    stream a local campaign draws from (without steering, which depends on what ran before)."""
    from ..fuzz.campaign import ProgramSource

    source = ProgramSource(seed, only_safe=only_safe)
    for _ in range(count):
        body(source.next(None, None))


def run_chunk(job: FuzzJob, index: int, count: int) -> ChunkResult:
    """On a worker: one chunk's programs through the court."""
    from . import hosted

    seed = chunk_seed(job.seed, index)
    digest = hashlib.sha256()
    t0 = time.perf_counter()
    with hosted.session(job.resolution, job.limits) as session:
        campaign = Campaign(session, None, dict.fromkeys(job.quarantine, ""),
                            reduce_seconds=0.0, seed=seed)

        def body(case: Any) -> None:
            digest.update(case.source.encode("utf-8") + b"\0" + (case.input or "").encode()
                          + b"\0")
            result, wall = campaign._run(case)
            campaign.stats.eval_seconds += wall  # so that generating is what is left
            campaign.examine(case, result)

        each_case(seed, count, job.only_safe, body)
    return ChunkResult(index, seed, campaign.stats, time.perf_counter() - t0,
                       digest.hexdigest())


def reduce_finding(job: FuzzJob, source: str, input_text: str | None, sig: dict[str, Any],
                   seconds: float) -> Reduced:
    """On a worker: minimise one finding while its signature holds, then observe the result."""
    from ..fuzz.reduce import reduce
    from . import hosted

    t0 = time.perf_counter()
    with hosted.session(job.resolution, job.limits) as session:
        campaign = Campaign(session, None, {}, reduce_seconds=seconds, seed=job.seed)
        minimized, tests = reduce(source, lambda text: campaign.holds(text, input_text, sig),
                                  seconds=seconds)
        final = session.run_case(minimized.encode("utf-8"), input_text, "fuzz.lspx")
    return Reduced(minimized, tests, final.observations, time.perf_counter() - t0)


_COUNTS = [f.name for f in fields(Stats) if isinstance(getattr(Stats(), f.name), int | float)]


def _add(total: Stats, part: Stats) -> None:
    for name in _COUNTS:
        setattr(total, name, getattr(total, name) + getattr(part, name))
    room = 5 - len(total.infra_examples)
    total.infra_examples.extend(part.infra_examples[:max(room, 0)])


def run_campaign(conn: Connection, job: FuzzJob, *, examples: int | None,
                 seconds: float | None, save_dir: Path | None, reduce_seconds: float = 30.0,
                 max_findings: int | None = None, chunk_programs: int = CHUNK_PROGRAMS,
                 on_finding: Callable[[Finding], None] | None = None,
                 on_progress: Callable[[Stats], None] | None = None) -> CampaignResult:
    """Run chunks until ``examples`` programs (or ``seconds``) are done; the client side."""
    if examples is None and seconds is None:
        raise ValueError("a campaign needs a budget: examples or seconds")
    warm_seconds = warm_workers(conn, job)
    start = time.perf_counter()
    pool = TaskPool(conn.client, prefix=f"fuzz{job.seed}")
    window = 2 * conn.threads()
    total = Stats()
    seen: set[str] = set()
    waiting: dict[str, tuple[Finding, int]] = {}  # signature id -> (raw finding, chunk index)
    digests: dict[int, str] = {}
    gen_seconds = 0.0
    next_index = 0
    planned = 0  # programs handed out so far
    stopping = False

    def enough() -> bool:
        if stopping:
            return True
        if examples is not None:
            return planned >= examples
        return time.perf_counter() - start > (seconds or 0.0)

    def refill() -> None:
        nonlocal next_index, planned
        while pool.count("chunk") < window and not enough():
            n = chunk_programs if examples is None else min(chunk_programs, examples - planned)
            pool.submit(("chunk", next_index), run_chunk, job, next_index, n)
            next_index += 1
            planned += n

    refill()
    try:
        for tag, result in pool.results():
            if tag[0] == "chunk":
                part: ChunkResult = result
                digests[part.index] = part.programs_digest
                _add(total, part.stats)
                gen_seconds += max(part.wall_seconds - part.stats.eval_seconds
                                   - part.stats.reduce_seconds, 0.0)
                for f in part.stats.findings:
                    if f.id in seen:
                        total.duplicates += 1
                    elif max_findings is None or len(seen) < max_findings:
                        seen.add(f.id)
                        waiting[f.id] = (f, part.index)
                        pool.submit(("reduce", f.id), reduce_finding, job, f.original, f.input,
                                    f.signature, reduce_seconds)
                if max_findings is not None and len(seen) >= max_findings and not stopping:
                    stopping = True
                    for fut, (t, *_rest) in list(pool.pending.items()):
                        if t[0] == "chunk":
                            pool.pending.pop(fut)
                            fut.cancel()
                if on_progress:
                    on_progress(total)
            else:
                red: Reduced = result
                raw, index = waiting.pop(tag[1])
                finding = Finding(raw.id, raw.signature, raw.original, red.minimized, raw.input,
                                  raw.features, red.observations, red.tests)
                total.reduce_seconds += red.seconds
                if save_dir is not None:
                    finding.path = save_finding(
                        save_dir, finding, job.seed, job.resolution.court,
                        {"chunk": index, "chunk_seed": chunk_seed(job.seed, index)})
                total.findings.append(finding)
                if on_finding:
                    on_finding(finding)
            refill()
    except BaseException:
        pool.cancel()
        raise
    return CampaignResult(total, pool.figures, conn.workers(), time.perf_counter() - start,
                          gen_seconds, len(digests), digests, warm_seconds)


def warm_workers(conn: Connection, job: FuzzJob) -> float:
    """Start every connected worker's court session at once, before the campaign's clock starts
    (as starting the cluster is left out of it); returns the seconds it took. A worker that
    cannot warm up is left to start its session on its first chunk, as it would without this:
    warming changes when the work is done, never what is done."""
    from . import hosted

    t0 = time.perf_counter()
    try:
        conn.client.run(hosted.warm, job.resolution, job.limits)
    except Exception:  # noqa: BLE001, S110 - a dead or departing worker: its chunks go elsewhere
        pass
    return time.perf_counter() - t0
