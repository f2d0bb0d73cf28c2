"""`court fuzz --cluster`: chunks on Dask workers, each finding confirmed, minimised once, saved
once; the same seeds give the same programs wherever they run; a killed worker loses nothing."""

from __future__ import annotations

import json
import threading

from cluster_helpers import kill_a_busy_worker, ours, require_dask
from process_checks import assert_gone
from seeded_products import seeded_config

from court.catalog import load_config, resolve
from court.cli import main
from court.cli.arguments import FUZZ_PROFILE
from court.workers.limits import Limits

require_dask()

from court.cluster import hosted  # noqa: E402
from court.cluster.connect import ClusterSpec, Connection  # noqa: E402
from court.cluster.fuzz_chunks import FuzzJob, chunk_seed, run_campaign, run_chunk  # noqa: E402

LIMITS = Limits(timeout=30, memory_bytes=1 << 30, profile=FUZZ_PROFILE, meter_limits={})


def test_a_seeded_bug_is_found_and_saved_once(tmp_path, capsys):
    save = tmp_path / "found"
    code = main(["fuzz", "--court", "buggy", "--config",
                 str(seeded_config(tmp_path, "dynamic-wind")), "--cluster", "local:2",
                 "--examples", "300", "--seed", "1", "--safe-only", "--reduce-seconds", "20",
                 "--timeout", "30", "--save-dir", str(save),
                 "--quarantine", str(tmp_path / "none.toml")])
    out = capsys.readouterr().out
    assert code == 1, out
    assert "cluster: local:2, 2 workers" in out
    assert "programs generated: 300 " in out
    records = [json.loads(p.read_text()) for p in save.glob("*.finding.json")]
    programs = list(save.glob("fuzz-*.lspx"))
    assert records and len(programs) == len(records)
    ids = [r["signature_id"] for r in records]
    assert len(set(ids)) == len(ids)  # one file per signature
    assert f"findings: {len(records)}" in out
    # The bug fired in more programs than it has signatures: the rest were duplicates, not files.
    duplicates = int(out.split("duplicates ")[1].split()[0])
    assert duplicates >= 1, out
    for r in records:
        assert r["signature"]["kind"] == "disagree"
        assert set(r["observations"]) == {"tree", "seeded"}
        assert r["seed"] == 1 and r["chunk_seed"] == chunk_seed(1, r["chunk"])
        assert len(r["minimized"]) <= len(r["original"])


def test_the_same_seeds_give_the_same_programs_wherever_they_run(tmp_path):
    res = resolve(load_config(seeded_config(tmp_path, "none")), "buggy")
    job = FuzzJob(res, LIMITS, seed=5, only_safe=False)
    with Connection(ClusterSpec(local_workers=2)) as conn:
        result = run_campaign(conn, job, examples=40, seconds=None, save_dir=None,
                              chunk_programs=10)
    assert sorted(result.digests) == [0, 1, 2, 3]
    assert result.stats.generated == 40
    try:
        here = {i: run_chunk(job, i, 10).programs_digest for i in range(4)}
    finally:
        hosted.close_sessions()
    assert here == result.digests
    assert len(set(here.values())) == 4  # and different chunks are different programs


def test_a_worker_killed_mid_campaign_loses_no_program_and_no_finding(tmp_path):
    res = resolve(load_config(seeded_config(tmp_path, "dynamic-wind")), "buggy")
    job = FuzzJob(res, LIMITS, seed=1, only_safe=True)
    done: dict = {}
    with Connection(ClusterSpec(local_workers=2)) as conn:
        undisturbed = run_campaign(conn, job, examples=300, seconds=None, save_dir=None,
                                   reduce_seconds=5, chunk_programs=10)

        def run() -> None:
            done["result"] = run_campaign(conn, job, examples=300, seconds=None,
                                          save_dir=tmp_path / "found", reduce_seconds=5,
                                          chunk_programs=10)

        thread = threading.Thread(target=run)
        thread.start()
        try:
            killed, orphans = kill_a_busy_worker(conn.client)
        finally:
            thread.join(timeout=600)
        assert not thread.is_alive()
    result = done["result"]
    assert result.figures.retried >= 1
    assert result.stats.generated == 300  # the killed chunk ran again, once, in full
    assert sorted(result.digests) == list(range(30))
    assert result.stats.findings
    assert {f.id for f in result.stats.findings} == {f.id for f in undisturbed.stats.findings}
    assert result.digests == undisturbed.digests
    saved = list((tmp_path / "found").glob("*.finding.json"))
    assert len(saved) == len(result.stats.findings)
    assert_gone([killed, *orphans], grace=60, counts=ours)
