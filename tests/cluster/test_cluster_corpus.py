"""`court run --cluster`: cases split across Dask workers, one report as a local run makes it."""

from __future__ import annotations

import json
import threading
from pathlib import Path

from cluster_helpers import kill_a_busy_worker, ours, require_dask, slow_corpus
from process_checks import assert_gone
from seeded_products import seeded_config

from court.catalog import load_config, resolve
from court.cli import main
from court.corpus import discover
from court.runner import run_cases
from court.workers.limits import Limits

require_dask()

from court.cluster.connect import ClusterSpec  # noqa: E402
from court.cluster.corpus_batches import ClusterRunner  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]


def comparable(report: dict) -> list[dict]:
    """The report's cases without what a run may vary: times and resource figures."""
    out = []
    for c in report["cases"]:
        c = {k: v for k, v in c.items() if k != "wall_seconds"}
        c["observations"] = {m: {k: v for k, v in o.items() if k != "resources"}
                             for m, o in c.get("observations", {}).items()}
        out.append(c)
    return out


def test_corpus_run_through_the_cluster_matches_a_local_run(tmp_path, capsys):
    common = ["run", str(ROOT / "corpus"), "--filter", "conformance/[a-d]*",
              "--config", str(seeded_config(tmp_path, "none")), "--court", "buggy"]
    assert main([*common, "--report-dir", str(tmp_path / "local")]) == 0
    assert main([*common, "--cluster", "local:2", "--report-dir", str(tmp_path / "dask")]) == 0
    out = capsys.readouterr().out
    assert "cluster: local:2, 2 workers" in out
    local = json.loads((tmp_path / "local" / "court-report.json").read_text())
    dask = json.loads((tmp_path / "dask" / "court-report.json").read_text())
    assert len(local["cases"]) > 50  # the filter picked a real slice of the corpus
    assert comparable(dask) == comparable(local)
    assert dask["summary"]["outcomes"] == local["summary"]["outcomes"]
    assert dask["run"]["cluster"]["workers"] == 2
    assert dask["run"]["cluster"]["retried_tasks"] == 0
    assert "cluster" not in local["run"]
    assert "Ran on Dask (local:2, 2 workers)" in (tmp_path / "dask" / "summary.md").read_text()


def test_a_worker_killed_mid_run_loses_no_case(tmp_path):
    cases = discover([slow_corpus(tmp_path / "slow")])
    res = resolve(load_config(seeded_config(tmp_path, "none")), "buggy")
    limits = Limits(timeout=60)
    local, _, complete = run_cases(cases, res, limits, jobs=2)
    assert complete

    runner = ClusterRunner(ClusterSpec(local_workers=2))
    done: dict = {}

    def run() -> None:
        done["result"] = runner(cases, res, limits)

    thread = threading.Thread(target=run)
    thread.start()
    try:
        killed, orphans = kill_a_busy_worker(_client_of(runner))
    finally:
        thread.join(timeout=600)
    assert not thread.is_alive()
    records, cleanup, complete = done["result"]
    assert complete
    assert [r.case.id for r in records] == [r.case.id for r in local]
    assert [r.outcome for r in records] == [r.outcome for r in local]
    assert [r.result.verdict.kind for r in records] == [r.result.verdict.kind for r in local]
    assert [r.result.observations["tree"]["semantic"] for r in records] == \
        [r.result.observations["tree"]["semantic"] for r in local]
    assert runner.describe()["retried_tasks"] >= 1
    # The killed worker's implementation workers were orphaned; they must end by themselves.
    assert_gone([killed, *orphans], grace=60, counts=ours)


def _client_of(runner: ClusterRunner, timeout: float = 180.0):
    """The Dask client of a runner that is starting in another thread."""
    import time

    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        conn = runner.connection
        if conn is not None:
            return conn.client
        time.sleep(0.05)
    raise AssertionError("the cluster did not start")
