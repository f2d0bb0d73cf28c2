"""`court run`, `merge`, `replay` and `bless` end to end, and the report files they write."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest
import xmlschema

from court.cli import main

ROOT = Path(__file__).resolve().parents[2]
REPORT_SCHEMA = json.loads((ROOT / "docs" / "schemas" / "court-report.schema.json").read_text())
JUNIT = xmlschema.XMLSchema(str(ROOT / "tests" / "data" / "junit.xsd"))

EXPECT_OK = """schema = "lispex.court-expectation/v1"
status = "ok"
values = [{value}]
stdout = ""
exit_status = 0
warnings = []
"""


def make_corpus(root: Path, n: int = 12) -> Path:
    corpus = root / "corpus"
    for i in range(n):
        folder = corpus / ("a" if i % 2 else "b")
        folder.mkdir(parents=True, exist_ok=True)
        (folder / f"case{i}.lspx").write_text(f"(* {i} {i})")
        (folder / f"case{i}.expect.toml").write_text(EXPECT_OK.format(value=f'"{i * i}"'))
    return corpus


def read_reports(folder: Path) -> dict:
    report = json.loads((folder / "court-report.json").read_text())
    jsonschema.validate(report, REPORT_SCHEMA)
    JUNIT.validate(str(folder / "junit.xml"))
    html = (folder / "report.html").read_text()
    assert "<svg" in html and "http://" not in html.replace('xmlns="http://www.w3.org/2000/svg"',
                                                            "")
    assert "https://" not in html
    assert (folder / "summary.md").read_text().startswith("## Lispex Court")
    return report


def test_run_writes_valid_reports(tmp_path, capsys, court_toml):
    corpus = make_corpus(tmp_path)
    # One broken expectation and one seeded divergence.
    (corpus / "a" / "case1.expect.toml").write_text(EXPECT_OK.format(value='"2"'))
    (corpus / "b" / "quot.lspx").write_text("(quotient -7 2)")
    out = tmp_path / "rep"
    code = main(["run", str(corpus), "--court", "seeded", "--config", str(court_toml),
                 "--report-dir", str(out), "--jobs", "2"])
    capsys.readouterr()
    assert code == 1
    report = read_reports(out)
    o = report["summary"]["outcomes"]
    assert o["expectation-broken"] == 1 and o["disagree"] == 1
    assert o["agree"] == 11 and report["summary"]["cases"] == 13
    assert report["run"]["complete"] is True
    junit = (out / "junit.xml").read_text()
    assert junit.count("<failure") == 2
    assert 'name="product.tree"' in junit


def test_shards_merge_to_the_same_totals(tmp_path, capsys):
    corpus = make_corpus(tmp_path, 20)
    whole = tmp_path / "whole"
    assert main(["run", str(corpus), "--impl", "tree", "--report-dir", str(whole)]) == 0
    parts = []
    for k in (1, 2, 3):
        d = tmp_path / f"shard{k}"
        assert main(["run", str(corpus), "--impl", "tree", "--shard", f"{k}/3",
                     "--report-dir", str(d)]) == 0
        parts.append(str(d))
    merged = tmp_path / "merged"
    assert main(["merge", *parts, "--report-dir", str(merged)]) == 0
    capsys.readouterr()
    a, b = read_reports(whole), read_reports(merged)
    assert a["summary"]["outcomes"] == b["summary"]["outcomes"]
    assert [c["id"] for c in a["cases"]] == [c["id"] for c in b["cases"]]
    assert len(b["run"]["merged_from"]) == 3
    sizes = [len(json.loads((Path(p) / "court-report.json").read_text())["cases"])
             for p in parts]
    assert sum(sizes) == 20 and all(sizes)


def test_merging_overlapping_shards_is_refused(tmp_path, capsys):
    corpus = make_corpus(tmp_path, 4)
    d = tmp_path / "r"
    main(["run", str(corpus), "--impl", "tree", "--report-dir", str(d)])
    assert main(["merge", str(d), str(d), "--report-dir", str(tmp_path / "m")]) == 2
    capsys.readouterr()


def test_replay_detects_moved_results(tmp_path, capsys):
    corpus = make_corpus(tmp_path, 6)
    old = tmp_path / "old"
    assert main(["run", str(corpus), "--impl", "tree", "--report-dir", str(old)]) == 0
    assert main(["replay", str(corpus), "--impl", "tree", "--against", str(old)]) == 0
    # A deliberate change: the case now computes something else.
    (corpus / "a" / "case3.lspx").write_text("(* 3 4)")
    capsys.readouterr()
    assert main(["replay", str(corpus), "--impl", "tree", "--against", str(old)]) == 1
    out = capsys.readouterr().out
    assert "moved" in out and "case3" in out and '"12"' in out


def test_bless_writes_and_refreshes_but_never_blesses_a_disagreement(tmp_path, capsys,
                                                                      court_toml):
    corpus = tmp_path / "c"
    corpus.mkdir()
    (corpus / "fresh.lspx").write_text('(display "x") (list 1 "two" #\\3)')
    (corpus / "quot.lspx").write_text("(quotient -7 2)")
    code = main(["bless", str(corpus), "--court", "seeded", "--config", str(court_toml)])
    out = capsys.readouterr().out
    assert code == 1 and "refused" in out
    assert not (corpus / "quot.expect.toml").exists()
    text = (corpus / "fresh.expect.toml").read_text()
    assert 'stdout = "x"' in text and "values = [" in text
    # Blessed cases then hold.
    assert main(["run", str(corpus / "fresh.lspx"), "--impl", "tree",
                 "--report-dir", str(tmp_path / "r")]) == 0
    capsys.readouterr()


@pytest.mark.parametrize("content", ['schema = "nope"', "status = ", 'schema = "lispex.court-'
                                     'expectation/v1"\nbogus_field = 1'])
def test_malformed_case_exits_2_naming_the_file(tmp_path, capsys, content):
    corpus = make_corpus(tmp_path, 2)
    bad = corpus / "a" / "case1.expect.toml"
    bad.write_text(content)
    assert main(["run", str(corpus), "--impl", "tree", "--report-dir", str(tmp_path / "r")]) == 2
    err = capsys.readouterr().err
    assert "case1.expect.toml" in err and len(err.strip().splitlines()) == 1


def test_ctrl_c_writes_incomplete_reports_and_exits_130(tmp_path):
    import signal
    import subprocess
    import sys
    import time

    import psutil
    from process_checks import assert_gone

    corpus = tmp_path / "slow"
    corpus.mkdir()
    for i in range(40):
        (corpus / f"loop{i}.lspx").write_text(
            "(define (f n) (if (= n 0) 0 (f (- n 1)))) (f 300000)")
    out = tmp_path / "rep"
    proc = subprocess.Popen([sys.executable, "-m", "court.cli", "run", str(corpus), "--impl",
                             "tree", "--report-dir", str(out), "--jobs", "1"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)

    def worker_cpu() -> float:
        # CPU time of the workers (not the worker template, which runs no case): a case here
        # costs about a second of it, so this counts cases done however loaded the machine is.
        total = 0.0
        for p in psutil.Process(proc.pid).children(recursive=True):
            try:
                if p.name().startswith("worker:") or "implementations.worker" in p.cmdline():
                    total += p.cpu_times().user
            except psutil.Error:
                pass
        return total

    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and worker_cpu() < 2.5:  # a case or two done
        time.sleep(0.1)
    workers = psutil.Process(proc.pid).children(recursive=True)
    proc.send_signal(signal.SIGINT)
    proc.communicate(timeout=60)
    assert proc.returncode == 130
    report = json.loads((out / "court-report.json").read_text())
    jsonschema.validate(report, REPORT_SCHEMA)
    JUNIT.validate(str(out / "junit.xml"))
    assert report["run"]["complete"] is False
    # Every case is accounted for: the one in flight interrupted, the rest not run.
    o = report["summary"]["outcomes"]
    assert report["summary"]["cases"] == 40 == sum(o.values())
    assert o["interrupted"] == 1 and o["not-run"] == 40 - 1 - o["agree"]
    assert "Incomplete run" in (out / "summary.md").read_text()
    assert_gone(workers, grace=5)
