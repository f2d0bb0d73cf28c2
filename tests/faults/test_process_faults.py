"""Faults of the processes themselves: a built-in worker killed mid-case, the court killed with
SIGKILL while a foreign worker runs, and running out of memory on every built-in member."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
import uuid

import pytest
from fault_support import MARK, ROOT, live_marked, worker_toml
from process_checks import assert_gone

from court.catalog import builtin_products
from court.workers.faults import Fault
from court.workers.limits import Limits
from court.workers.supervisor import WorkerProcess

SPIN = "(define (loop) (loop)) (loop)"


def test_a_killed_built_in_worker_is_described_by_its_signal() -> None:
    worker = WorkerProcess(builtin_products()["tree"], Limits(timeout=300))
    try:
        worker.start()
        pid = worker.proc.pid
        outcome: list = []

        def ask() -> None:
            try:
                worker.run({"op": "run", "source": SPIN, "filename": "spin.lspx", "input": None,
                            "profile": None, "limits": {"machine-transition": 10**12}})
            except Fault as f:
                outcome.append(f)

        t = threading.Thread(target=ask)
        t.start()
        time.sleep(1.0)  # the case is in flight (it would spin for hours)
        os.kill(pid, signal.SIGKILL)
        t.join(timeout=120)
        assert outcome, "the request did not end"
        fault = outcome[0]
        assert fault.kind == "crash"
        assert "killed by SIGKILL" in fault.message and "still running" not in fault.message
        assert_gone([pid], grace=0)
    finally:
        worker.stop()


def test_a_foreign_worker_dies_with_a_sigkilled_court(tmp_path, corpus) -> None:
    (tmp_path / "court.toml").write_text(worker_toml("hang"))
    mark = uuid.uuid4().hex
    env = dict(os.environ, PYTHONPATH=str(ROOT), **{MARK: mark})
    court = subprocess.Popen(
        [sys.executable, "-m", "court.cli", "run", str(corpus), "--config",
         str(tmp_path / "court.toml"), "--impl", "tree,faulty", "--jobs", "1", "--timeout",
         "600", "--report-dir", str(tmp_path / "reports")],
        env=env, cwd=tmp_path, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        # Wait until the foreign worker is hanging on its FAULT case: it is up, and the court has
        # stopped using CPU for a while (every earlier case is done).
        deadline = time.monotonic() + 300
        foreign = []
        while time.monotonic() < deadline and not foreign:
            foreign = [p for p in live_marked(mark) if "faulty_worker.py" in " ".join(p.cmdline())]
            time.sleep(0.2)
        assert foreign, "the foreign worker never started"
        time.sleep(2.0)
        court.send_signal(signal.SIGKILL)
        court.wait(timeout=60)
        assert_gone(live_marked(mark), grace=30)
    finally:
        if court.poll() is None:
            court.kill()
            court.wait()
        for p in live_marked(mark):
            p.kill()


OOM = ("(define (build n acc) (if (= n 0) acc (build (- n 1) (cons (make-vector 1000000 n) "
       "acc))))\n(length (build 400 (quote ())))\n")


@pytest.mark.parametrize("members", ["tree,vm,topaz-tree,topaz-vm"])
def test_running_out_of_memory_is_memory_limit_on_every_member(court_run, tmp_path,
                                                               members: str) -> None:
    corpus = tmp_path / "oom-corpus"
    corpus.mkdir()
    for i in range(50):
        (corpus / f"c{i:03d}.lspx").write_text(OOM if i in (7, 31) else f"(+ {i} 1)\n")
    run = court_run("", members, "--memory-limit", "400", corpus=corpus)
    report = run.report
    assert report["summary"]["cases"] == 50 == len(report["cases"])
    for c in report["cases"]:
        i = int(c["id"][1:])
        if i in (7, 31):
            for m, o in c["observations"].items():
                assert o["semantic"]["status"] == "infrastructure-error", (m, o["semantic"])
                assert [f["kind"] for f in o["faults"]] == ["memory-limit"], (m, o["faults"])
        else:
            assert c["outcome"] == "agree", c
    # No member could answer those two cases: they are unjudged, and a run with an unjudged case
    # exits 3 (docs/court.md, exit codes), naming how many.
    assert run.status == 3
    assert "2 case(s) could not be judged" in run.out


def test_source_nested_100000_deep_is_a_source_error_on_every_member(tmp_path) -> None:
    # The innermost `()` is an empty application (E130), found by every member as a stack grown
    # on the heap finds it: not the recursion limit, not a crash.
    program = tmp_path / "deep.lspx"
    program.write_text("(" * 100_000 + ")" * 100_000 + "\n")
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    done = subprocess.run([sys.executable, "-m", "court.cli", "compare", str(program), "--court",
                           "all-four", "--json", "--timeout", "300"],
                          capture_output=True, text=True, timeout=900, env=env, cwd=tmp_path)
    import json

    result = json.loads(done.stdout)
    assert result["verdict"] == "agree", result.get("reasons")
    for m, o in result["observations"].items():
        sem = o["semantic"]
        assert sem["status"] == "source-error", (m, sem)
        assert [(d["code"], d["span"]["column"]) for d in sem["diagnostics"]] == \
            [("E130", 100_000)], m
    assert done.returncode == 0
