"""Warm workers: forked from the template, each in its own session under its own limits, dying
with the court, killable as a group; and the protocol path (large replies, killed workers).

No test here depends on speed: timeouts are generous, and speed figures live in bench/.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import threading
import time

import psutil
import pytest
from process_checks import assert_gone

from court.catalog import load_config, resolve
from court.session import CourtSession
from court.workers import forkserver
from court.workers.limits import Limits
from court.workers.supervisor import WorkerProcess

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BIG = (b"(let loop ((i 0) (acc '())) (if (= i 1000000) acc "
       b"(loop (+ i 1) (cons (* i 7) acc))))")


def product(pid: str):
    return load_config(search_cwd=False).products[pid]


@pytest.fixture
def worker():
    forkserver.acquire(("tree",))
    w = WorkerProcess(product("tree"), Limits(timeout=60, memory_bytes=1 << 30))
    yield w
    w.stop()
    forkserver.release()


def test_a_forked_worker_leads_its_own_session_under_its_own_memory_limit(worker):
    worker.start()
    pid = worker.proc.pid
    assert isinstance(worker.proc, forkserver.ForkedProcess)
    assert os.getpgid(pid) == pid and os.getsid(pid) == pid
    assert psutil.Process(pid).name() == "worker:tree"
    with open(f"/proc/{pid}/limits") as f:
        line = next(x for x in f if x.startswith("Max address space"))
    assert line.split()[3:5] == [str(1 << 30)] * 2
    reply = worker.run({"op": "run", "source": "(+ 1 2)", "filename": "p.lspx"})
    assert reply["observation"]["semantic"]["values"] == ["3"]
    assert worker.product_id and len(worker.product_id) == 64


def test_an_8_mb_reply_arrives_whole(worker):
    reply = worker.run({"op": "run", "source": BIG.decode(), "filename": "big.lspx"})
    values = reply["observation"]["semantic"]["values"]
    assert len(values) == 1 and len(values[0]) > 7_000_000
    text = values[0]
    assert text.startswith("(6999993 6999986 ") and text.endswith(" 14 7 0)")
    assert text.count(" ") == 999_999


def test_a_hung_worker_is_killed_as_a_group_and_the_next_case_respawns(worker):
    worker.limits = Limits(timeout=1.0, memory_bytes=1 << 30)
    worker.start()
    first = worker.proc.pid
    with pytest.raises(Exception) as e:
        worker.run({"op": "run", "source": "(let loop () (loop))", "filename": "p.lspx"})
    assert getattr(e.value, "kind", None) == "timeout"
    assert_gone([first], grace=20)
    reply = worker.run({"op": "run", "source": "(* 6 7)", "filename": "p.lspx"})
    assert reply["observation"]["semantic"]["values"] == ["42"]
    assert worker.proc.pid != first


def test_a_case_that_grew_the_worker_past_half_its_memory_cap_gets_a_fresh_worker_next(worker):
    """Freed memory stays mapped: the case after a big one would run out of memory in that
    worker where it would not in a fresh one, so the big one's worker is not reused."""
    worker.start()
    first = worker.proc.pid
    reply = worker.run({"op": "run", "source": BIG.decode(), "filename": "big.lspx"})
    peak = reply["observation"]["resources"]["peak_rss_bytes"]
    small = {"op": "run", "source": "(* 6 7)", "filename": "p.lspx"}
    assert worker.run(small)["observation"]["semantic"]["values"] == ["42"]
    assert worker.proc.pid == first  # under half of 1 GiB: kept
    worker.limits = Limits(timeout=60, memory_bytes=peak + peak // 2)
    worker.run({"op": "run", "source": BIG.decode(), "filename": "big.lspx"})
    assert worker.run(small)["observation"]["semantic"]["values"] == ["42"]
    assert worker.proc.pid != first
    assert_gone([first], grace=20)


def test_a_worker_killed_mid_reply_is_a_crash_without_a_traceback(worker, capfd):
    worker.start()
    pid = worker.proc.pid

    def kill_soon() -> None:
        # Kill it while it computes or writes the big reply.
        time.sleep(0.3)
        os.killpg(pid, signal.SIGKILL)

    threading.Thread(target=kill_soon, daemon=True).start()
    with pytest.raises(Exception) as e:
        worker.run({"op": "run", "source": BIG.decode(), "filename": "big.lspx"})
    assert getattr(e.value, "kind", None) == "crash"
    assert "killed by SIGKILL" in str(e.value)
    time.sleep(0.2)
    err = capfd.readouterr().err
    assert "Traceback" not in err and "Exception in thread" not in err
    reply = worker.run({"op": "run", "source": "1", "filename": "p.lspx"})
    assert reply["ok"]


def test_workers_started_from_a_thread_that_ended_stay_alive():
    """PR_SET_PDEATHSIG fires when the *thread* that forked exits; the template forks from its
    own only thread, so a court thread that started everything and ended kills nothing."""
    res = resolve(load_config(search_cwd=False), "tree-rust")
    with CourtSession(res, Limits(timeout=30)) as session:
        t = threading.Thread(target=session.warm)
        t.start()
        t.join()
        pids = [w.proc.pid for w in session.workers.values()]
        time.sleep(0.5)
        assert all(psutil.pid_exists(p) for p in pids)
        case = session.run_case(b"(+ 1 2)")
        assert case.verdict.kind == "agree"
        assert [w.proc.pid for w in session.workers.values()] == pids


def test_the_template_and_its_workers_die_with_the_court():
    """A court killed with SIGKILL (no clean-up at all) leaves no template and no worker."""
    script = textwrap.dedent("""
        import os, sys, time
        from court.catalog import load_config, resolve
        from court.session import CourtSession
        from court.workers.limits import Limits
        from court.workers import forkserver
        res = resolve(load_config(search_cwd=False), "tree-rust")
        s = CourtSession(res, Limits(timeout=30))
        s.run_case(b"(+ 1 2)")
        print(forkserver.template_pid(), *[w.proc.pid for w in s.workers.values()], flush=True)
        time.sleep(60)
    """)
    court = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE,
                             env={**os.environ, "PYTHONPATH": ROOT}, cwd=ROOT)
    try:
        pids = [int(x) for x in court.stdout.readline().split()]
        assert len(pids) == 3 and all(psutil.pid_exists(p) for p in pids)
    finally:
        court.kill()
        court.wait(timeout=10)
    assert_gone(pids, grace=20)


def test_a_dead_template_costs_the_running_case_only():
    res = resolve(load_config(search_cwd=False), "tree-rust")
    with CourtSession(res, Limits(timeout=30)) as session:
        assert session.run_case(b"(+ 1 2)").verdict.kind == "agree"
        template = forkserver.template_pid()
        os.killpg(template, signal.SIGKILL)  # its workers go with it (parent-death signal)
        assert_gone([template], grace=20)
        case = session.run_case(b"(+ 1 2)")  # the members see dead workers and respawn
        assert case.verdict.kind == "agree", case.observations
        assert forkserver.template_pid() not in (None, template)


def test_without_the_template_every_worker_is_its_own_interpreter(monkeypatch):
    monkeypatch.setenv("COURT_FORKSERVER", "0")
    res = resolve(load_config(search_cwd=False), "tree-rust")
    with CourtSession(res, Limits(timeout=30)) as session:
        case = session.run_case(b"(list 1 2)")
        assert case.verdict.kind == "agree"
        for w in session.workers.values():
            assert isinstance(w.proc, subprocess.Popen)
            assert "implementations.worker" in " ".join(psutil.Process(w.proc.pid).cmdline())
    assert forkserver.template_pid() is None


def test_a_member_that_cannot_start_is_that_members_fault(tmp_path):
    from court.catalog import Product

    bad = Product(id="nowhere", title="nowhere", protocol="court-worker/v1",
                  command=[str(tmp_path / "no-such-program")])
    w = WorkerProcess(bad, Limits(timeout=5))
    w.preload = ()
    with pytest.raises(Exception) as e:
        w.launch()
    assert getattr(e.value, "kind", None) == "build"


def status_field(pid: int, name: str) -> int:
    with open(f"/proc/{pid}/status") as f:
        line = next(x for x in f if x.startswith(name + ":"))
    return int(line.split()[1])


def test_the_template_stays_single_threaded_and_lends_no_thread_stacks():
    """The Topaz back ends run cases on a thread with a huge stack; warmed in the template, that
    mapping would be inherited by every worker and eat into its RLIMIT_AS."""
    res = resolve(load_config(search_cwd=False), "all-four")
    with CourtSession(res, Limits(timeout=30)) as session:
        case = session.run_case(b"(define (f n) (if (= n 0) 0 (+ 1 (f (- n 1))))) (f 3000)")
        assert case.verdict.kind == "agree"
        template = forkserver.template_pid()
        assert status_field(template, "Threads") == 1
        assert status_field(template, "VmSize") < 256 << 10  # kB
        assert status_field(session.workers["tree"].proc.pid, "VmSize") < 256 << 10


def test_members_ahead_of_time_each_keep_their_own_deadline_and_reply():
    res = resolve(load_config(search_cwd=False), "all-four")
    with CourtSession(res, Limits(timeout=1.5), jobs=2) as session:
        case = session.run_case(b"(let loop () (loop))", confirm=False)
        faults = {m: o["faults"][0]["kind"] for m, o in case.observations.items()}
        assert faults == {m: "timeout" for m in res.members}
        for i in range(3):  # every member answers its own case, in order, afterwards
            case = session.run_case(f"(* {i} 10)".encode())
            assert {m: o["semantic"]["values"] for m, o in case.observations.items()} == \
                {m: [str(i * 10)] for m in res.members}


def test_a_case_cut_short_leaves_no_stale_reply_for_the_next():
    from court.session import InputRejected

    res = resolve(load_config(search_cwd=False), "tree-rust")
    with CourtSession(res, Limits(timeout=30), jobs=2) as session:
        with pytest.raises(InputRejected):  # tree refuses the input; vm was already asked
            session.run_case(b"(list 1)", input_text="(unclosed")
        case = session.run_case(b"(list 2)")
        assert {m: o["semantic"]["values"] for m, o in case.observations.items()} == \
            {"tree": ["(2)"], "vm": ["(2)"]}
        assert case.verdict.kind == "agree"
