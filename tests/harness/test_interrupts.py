"""SIGINT and SIGTERM sent to a real `python -m court.cli run`: at the start of a run, while a case
runs, and while the report set is written. Every time the command exits 130 (SIGINT) or 143
(SIGTERM), the report set is one consistent set, every selected case is in it (the one in flight
`interrupted`, the rest `not-run`), and no worker is left."""

from __future__ import annotations

import signal
import textwrap
import time

import pytest
from process_checks import assert_gone
from run_support import (
    assert_consistent_set,
    court_process,
    family,
    kill_started,
    slow_corpus,
    stop,
    wait_for_file,
    wait_for_line,
    wait_until_busy,
)

STATUS = {signal.SIGINT: 130, signal.SIGTERM: 143}
CASES = 50


@pytest.fixture(autouse=True)
def _no_court_left():
    yield
    kill_started()


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM], ids=["SIGINT", "SIGTERM"])
def test_signal_while_a_case_runs(tmp_path, sig):
    corpus = slow_corpus(tmp_path, quick=3, slow=CASES - 3)
    out = tmp_path / "rep"
    proc = court_process(["run", str(corpus), "--impl", "tree", "--jobs", "1",
                          "--report-dir", str(out)])
    # The quick cases' broken expectations print a line each; after the third the slow cases
    # start, and a worker that burns CPU is running one.
    wait_for_line(proc, "a-quick2")
    workers = family(proc.pid)
    assert workers, "a worker should be running"
    wait_until_busy(workers)
    stop(proc, sig)
    assert proc.returncode == STATUS[sig]
    report = assert_consistent_set(out)
    assert report is not None
    assert report["run"]["complete"] is False
    o = report["summary"]["outcomes"]
    assert report["summary"]["cases"] == CASES == len(report["cases"]) == sum(o.values())
    assert o["expectation-broken"] == 3
    assert o["interrupted"] == 1, o  # the slow case in flight, not a crash
    assert o["infrastructure-error"] == 0
    assert o["not-run"] == CASES - 3 - 1 - o["agree"]
    assert "Incomplete run" in (out / "summary.md").read_text()
    assert_gone(workers, grace=10)


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM], ids=["SIGINT", "SIGTERM"])
def test_signal_while_the_reports_are_written(tmp_path, sig):
    """A signal that lands while the set is being staged is held until the set is in place: the
    old set is replaced whole by the new one, and the command still exits 130/143."""
    corpus = slow_corpus(tmp_path, quick=CASES, slow=0)
    out = tmp_path / "rep"
    marker = tmp_path / "staging"
    # The first court run leaves an old set; the second is slowed while it stages its files.
    first = court_process(["run", str(corpus), "--impl", "tree", "--report-dir", str(out),
                           "--filter", "a-quick1*"])
    first.communicate(timeout=300)
    assert first.returncode == 1
    old = assert_consistent_set(out)
    assert old is not None and old["summary"]["cases"] == 11
    wrapper = textwrap.dedent(f"""
        import pathlib, sys, time
        import court.report.write as w
        real = w._write_synced
        def slow(path, data):
            real(path, data)
            pathlib.Path({str(marker)!r}).touch()
            time.sleep(1.0)
        w._write_synced = slow
        from court.cli import main
        sys.argv = ["court", *sys.argv[1:]]
        sys.exit(main(sys.argv[1:]))
    """)
    proc = court_process(["run", str(corpus), "--impl", "tree", "--report-dir", str(out)],
                         wrapper=wrapper)
    wait_for_file(marker)
    workers = family(proc.pid)
    stop(proc, sig, times=2)  # a second one while held changes nothing
    assert proc.returncode == STATUS[sig]
    report = assert_consistent_set(out)
    assert report is not None
    assert report["summary"]["cases"] == CASES  # the new set, whole
    assert report["run"]["complete"] is True  # every case was judged before the signal
    assert not [p for p in out.iterdir() if p.name.startswith(".court-staging-")]
    assert_gone(workers, grace=10)


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM], ids=["SIGINT", "SIGTERM"])
def test_signal_before_any_case_leaves_the_old_set(tmp_path, sig):
    """Stopped while its workers start: the reports are written, every case `not-run` or
    `interrupted`, and they replace the old set whole."""
    corpus = slow_corpus(tmp_path, quick=0, slow=CASES)
    out = tmp_path / "rep"
    marker = tmp_path / "starting"
    wrapper = textwrap.dedent(f"""
        import pathlib, sys, time
        import court.workers.supervisor as s
        real = s.WorkerProcess.launch  # every start (warm or on demand) launches first
        def launch(self):
            pathlib.Path({str(marker)!r}).touch()
            time.sleep(2.0)
            real(self)
        s.WorkerProcess.launch = launch
        from court.cli import main
        sys.exit(main(sys.argv[1:]))
    """)
    proc = court_process(["run", str(corpus), "--impl", "tree", "--jobs", "2",
                          "--report-dir", str(out)], wrapper=wrapper)
    wait_for_file(marker)
    stop(proc, sig)
    assert proc.returncode == STATUS[sig]
    report = assert_consistent_set(out)
    assert report is not None
    o = report["summary"]["outcomes"]
    assert sum(o.values()) == CASES and o["agree"] == 0
    assert o["interrupted"] + o["not-run"] == CASES


def test_signal_while_a_one_shot_product_runs_leaves_no_process(tmp_path):
    """A one-shot (observation-json) member that hangs: the interrupt kills its process group
    too, not only the warm workers."""
    import sys

    from run_support import corpus

    marker = tmp_path / "hanging"
    product = tmp_path / "hang.py"
    product.write_text(f"import pathlib, time\npathlib.Path({str(marker)!r}).touch()\n"
                       "time.sleep(3600)\n")
    cfg = tmp_path / "court.toml"
    cfg.write_text(f'[products.hang]\nprotocol = "observation-json"\n'
                   f'command = ["{sys.executable}", "{product}", "{{file}}"]\n')
    out = tmp_path / "rep"
    proc = court_process(["run", str(corpus(tmp_path, CASES)), "--impl", "tree,hang",
                          "--config", str(cfg), "--jobs", "1", "--report-dir", str(out)])
    wait_for_file(marker)
    everyone = family(proc.pid)
    assert any("hang.py" in " ".join(p.cmdline()) for p in everyone)
    stop(proc, signal.SIGINT)
    assert proc.returncode == 130
    report = assert_consistent_set(out)
    o = report["summary"]["outcomes"]
    assert o["interrupted"] == 1 and o["not-run"] == CASES - 1
    assert_gone(everyone, grace=10)


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM], ids=["SIGINT", "SIGTERM"])
def test_an_interrupted_fuzz_campaign_still_says_what_it_tried(sig):
    proc = court_process(["fuzz", "--court", "tree-rust", "--examples", "10000000", "--seed", "3",
                          "--plain", "--no-save", "--parallel", "1", "--jobs", "1"])
    wait_for_line(proc, "seed 3")
    deadline = time.monotonic() + 240
    while len(workers := family(proc.pid)) < 2 and time.monotonic() < deadline:
        time.sleep(0.2)  # the members' workers start after the seed line
    wait_until_busy(workers)
    try:
        proc.send_signal(sig)
        out, _ = proc.communicate(timeout=120)
    finally:
        proc.kill()
    assert proc.returncode == STATUS[sig]
    assert "interrupted after" in out
    programs = int(out.split("programs: ", 1)[1].split()[0])
    assert programs > 0
    assert "findings: 0" in out
    assert_gone(workers, grace=10)


@pytest.mark.parametrize("entry", ["program", "in-process"])
@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM], ids=["SIGINT", "SIGTERM"])
def test_a_signal_once_the_reports_are_in_place_exits_by_it_without_a_traceback(tmp_path, sig,
                                                                                 entry):
    """The signal lands after the set is in place, while the command puts its signal handlers
    back (sent from the court's own test seam at exactly that point, not after a sleep): the
    set stays whole, the command exits 130/143, and nothing prints a traceback; whether `main`
    is the program (no arguments) or called in process with its arguments."""
    corpus = slow_corpus(tmp_path, quick=2, slow=0)
    out = tmp_path / "rep"
    call = "m.main()" if entry == "program" else "m.main(sys.argv[1:])"
    wrapper = textwrap.dedent(f"""
        import importlib, os, sys
        m = importlib.import_module("court.cli.main")  # the module, not its main function
        m.before_restore = lambda: os.kill(os.getpid(), {int(sig)})
        sys.argv = ["court", *sys.argv[1:]]
        sys.exit({call})
    """)
    proc = court_process(["run", str(corpus), "--impl", "tree", "--report-dir", str(out)],
                         wrapper=wrapper)
    try:
        _, err = proc.communicate(timeout=300)
    finally:
        proc.kill()
    assert proc.returncode == STATUS[sig], err[-2000:]  # not 1 (the broken expectations)
    assert "Traceback" not in err and "KeyboardInterrupt" not in err, err[-2000:]
    report = assert_consistent_set(out)
    assert report is not None and report["run"]["complete"] is True
    assert report["summary"]["cases"] == 2
