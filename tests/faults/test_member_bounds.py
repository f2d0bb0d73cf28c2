"""What a member sends is bounded before the court keeps it, and what it leaves is named.

- A reply line that never ends, and a one-shot product that prints without end (the reproduction
  of issue 33 with a court.toml): a `protocol` fault as soon as the answer passes its cap, and
  the court's own peak memory (its ru_maxrss, measured inside the court process) stays far from
  what the member sent.
- The output limit holds for a foreign product as for the built-ins.
- A daemon that keeps a one-shot product's pipes open after the product exited is a `cleanup`
  fault naming the daemon, not the product's timeout; and that case, whose only fault is
  `cleanup`, is `not-comparable` in `court compare` and in `court run` alike.
- A report set is never written larger than the court reads back.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
import uuid
from pathlib import Path

import psutil
import pytest
from fault_support import MARK, ROOT, live_marked

from court.workers import reaper

# The court's peak resident memory while a member floods it. Before the caps the endless reply
# line took the court past 5 GiB and the endless one-shot output past 1.6 GiB; capped, both stay
# near 105 MiB. The bound is generous (a loaded machine, another Python build), not a tuning.
PEAK_BOUND_MIB = 300

# Runs the command line in the court process itself and records that process's peak RSS.
MEASURED = textwrap.dedent("""
    import resource, sys
    from court.cli.main import main
    try:
        status = main(sys.argv[2:])
    finally:
        with open(sys.argv[1], "w") as f:
            f.write(str(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss))
    sys.exit(status)
""")


class Court:
    def __init__(self, tmp: Path) -> None:
        self.tmp = tmp
        self.mark = uuid.uuid4().hex
        self.program = tmp / "p.lspx"
        self.program.write_text('(display "hi")\n')

    def config(self, products: str) -> Path:
        path = self.tmp / "court.toml"
        path.write_text(products)
        return path

    def run(self, *argv: str) -> tuple[subprocess.CompletedProcess, int]:
        """(the finished court, its peak RSS in MiB)."""
        peak = self.tmp / f"peak-{uuid.uuid4().hex}"
        env = dict(os.environ, PYTHONPATH=str(ROOT), **{MARK: self.mark})
        env.pop("GITHUB_ACTIONS", None)
        done = subprocess.run([sys.executable, "-c", MEASURED, str(peak), *argv],
                              capture_output=True, text=True, timeout=600, env=env,
                              cwd=self.tmp)
        return done, int(peak.read_text()) >> 10  # ru_maxrss is in KiB on Linux


@pytest.fixture
def court(tmp_path):
    reaper.become_subreaper()
    c = Court(tmp_path)
    yield c
    _, alive = psutil.wait_procs(live_marked(c.mark), timeout=10)
    for p in alive:
        p.kill()
    assert not alive, [(p.pid, p.cmdline()) for p in alive]


def _faults(result: dict, member: str) -> list[dict]:
    return result["observations"][member].get("faults") or []


def test_an_endless_reply_line_is_a_protocol_fault_with_the_courts_memory_bounded(court):
    worker = court.tmp / "endless.py"
    worker.write_text("import sys\nfor line in sys.stdin:\n"
                      "    sys.stdout.write('{\"id\": 1, \"ok\": true, \"pad\": \"')\n"
                      "    while True:\n        sys.stdout.write('x' * 1048576)\n")
    cfg = court.config(f'[products.x]\nprotocol = "court-worker/v1"\n'
                       f'command = ["{sys.executable}", "{worker}"]\n')
    done, peak = court.run("compare", str(court.program), "--impl", "tree,x", "--config",
                           str(cfg), "--timeout", "300", "--json")
    result = json.loads(done.stdout)
    assert result["verdict"] == "member-fault", result
    fault = _faults(result, "x")[0]
    assert fault["kind"] == "protocol" and "a reply line longer than" in fault["message"], fault
    assert done.returncode == 1, done.stderr[-2000:]
    assert peak < PEAK_BOUND_MIB, f"the court peaked at {peak} MiB"


ENDLESS = 'import sys\nwhile True: sys.stdout.write("x" * 1048576)'
# One observation whose `stdout` holds 100 MiB: well formed, and six times the output limit.
HUNDRED_MIB = ('import sys\nw = sys.stdout.write\n'
               'w(\'{"semantic": {"status": "ok", "values": [], "stdout": "\')\n'
               'for _ in range(100): w("x" * 1048576)\n'
               'w(\'", "exit_status": 0, "diagnostics": [], "warnings": []}}\\n\')\n')


@pytest.mark.parametrize("script", [ENDLESS, HUNDRED_MIB], ids=["endless", "100-MiB"])
def test_huge_one_shot_output_is_a_protocol_fault_with_the_courts_memory_bounded(court, script):
    # issue 33's reproduction (endless: an observation-json product that prints 1 MiB after
    # 1 MiB), and a finite observation of 100 MiB.
    product = court.tmp / "flood.py"
    product.write_text(script)
    cfg = court.config(f'[products.x]\nprotocol = "observation-json"\n'
                       f'command = ["{sys.executable}", "{product}", "{{file}}"]\n')
    done, peak = court.run("compare", str(court.program), "--impl", "tree,x", "--config",
                           str(cfg), "--timeout", "300", "--json")
    result = json.loads(done.stdout)
    assert result["verdict"] == "member-fault", result
    fault = _faults(result, "x")[0]
    assert fault["kind"] == "protocol", fault
    assert "standard output longer than" in fault["message"], fault
    assert done.returncode == 1, done.stderr[-2000:]
    assert peak < PEAK_BOUND_MIB, f"the court peaked at {peak} MiB"


def test_endless_one_shot_output_over_a_corpus_leaves_a_report_merge_reads(court):
    corpus = court.tmp / "corpus"
    corpus.mkdir()
    for i in range(3):
        (corpus / f"c{i}.lspx").write_text(f"(+ {i} 1)\n")
    # issue 33's reproduction, with its court.toml.
    cfg = court.config('[products.x]\nprotocol = "observation-json"\n'
                       'command = ["python3", "-c", "import sys\\nwhile True: '
                       'sys.stdout.write(\'x\' * 1048576)", "{file}"]\n')
    reports = court.tmp / "rep"
    done, peak = court.run("run", str(corpus), "--impl", "tree,x", "--config", str(cfg),
                           "--timeout", "300", "--jobs", "1", "--report-dir", str(reports))
    report = json.loads((reports / "court-report.json").read_text())
    assert report["summary"]["outcomes"]["member-fault"] == 3, report["summary"]
    assert done.returncode == 1, done.stderr[-2000:]
    assert peak < PEAK_BOUND_MIB, f"the court peaked at {peak} MiB"
    merged, _ = court.run("merge", str(reports), "--report-dir", str(court.tmp / "merged"))
    assert merged.returncode == 1, merged.stderr[-2000:]  # the findings, read back


def test_the_output_limit_holds_for_a_foreign_product(court):
    product = court.tmp / "chatty.py"
    product.write_text(
        "import json\n"
        "print(json.dumps({'semantic': {'status': 'ok', 'values': [], 'stdout': 'x' * 2000, "
        "'exit_status': 0, 'diagnostics': [], 'warnings': []}}))\n")
    cfg = court.config(f'[products.x]\nprotocol = "observation-json"\n'
                       f'command = ["{sys.executable}", "{product}", "{{file}}"]\n')
    done, _ = court.run("compare", str(court.program), "--impl", "tree,x", "--config",
                        str(cfg), "--limit", "output-byte=1000", "--json")
    result = json.loads(done.stdout)
    fault = _faults(result, "x")[0]
    assert fault["kind"] == "protocol", fault
    assert "2000 bytes of output, more than the output limit of 1000" in fault["message"]
    assert result["verdict"] == "member-fault" and done.returncode == 1


DAEMON = textwrap.dedent("""
    import json, subprocess, sys
    # A helper that inherits the product's stdout and stderr and outlives it, in its group.
    subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)", "pipe-holder"])
    print(json.dumps({"semantic": {"status": "ok", "values": [], "stdout": "hi",
                                   "exit_status": 0, "diagnostics": [], "warnings": []}}))
""")


def test_a_daemon_holding_a_one_shot_products_pipes_is_named_in_a_cleanup_fault(court):
    product = court.tmp / "daemon.py"
    product.write_text(DAEMON)
    cfg = court.config(f'[products.x]\nprotocol = "observation-json"\n'
                       f'command = ["{sys.executable}", "{product}", "{{file}}"]\n')
    done, _ = court.run("compare", str(court.program), "--impl", "tree,x", "--config",
                        str(cfg), "--timeout", "300", "--json")
    result = json.loads(done.stdout)
    kinds = [f["kind"] for f in _faults(result, "x")]
    assert kinds == ["cleanup"], _faults(result, "x")
    message = _faults(result, "x")[0]["message"]
    assert "pipe-holder" in message and "holding its output open" in message, message
    assert "process " in message  # its pid
    # Its only fault is `cleanup`: not comparable, as in `court run` below.
    assert result["verdict"] == "not-comparable" and done.returncode == 0, result

    reports = court.tmp / "rep"
    ran, _ = court.run("run", str(court.program), "--impl", "tree,x", "--config", str(cfg),
                       "--timeout", "300", "--report-dir", str(reports))
    report = json.loads((reports / "court-report.json").read_text())
    case = report["cases"][0]
    assert case["outcome"] == "not-comparable", case
    assert [f["kind"] for f in case["observations"]["x"]["faults"]] == ["cleanup"]
    assert ran.returncode == 0, ran.stderr[-2000:]
    strict, _ = court.run("run", str(court.program), "--impl", "tree,x", "--config", str(cfg),
                          "--timeout", "300", "--report-dir", str(reports), "--strict")
    assert strict.returncode == 1, strict.stderr[-2000:]


def test_a_report_larger_than_the_court_reads_back_is_not_written(tmp_path, monkeypatch):
    from court.report import write

    folder = tmp_path / "rep"
    folder.mkdir()
    (folder / "court-report.json").write_text("old")
    monkeypatch.setattr(write, "render_all",
                        lambda report: {name: b"x" * 100 for name in write.FILES})
    monkeypatch.setattr(write, "MAX_REPORT_BYTES", 99)
    with pytest.raises(write.ReportWriteError, match="the court reads back; the previous"):
        write.write_all({}, folder)
    assert (folder / "court-report.json").read_text() == "old"
    assert sorted(p.name for p in folder.iterdir()) == ["court-report.json"]
