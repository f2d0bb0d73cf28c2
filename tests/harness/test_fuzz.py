"""The fuzzer's power: seeded bugs in test-only products are found, minimised and saved;
a healthy court yields nothing."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from seeded_products import seeded_config

from court.cli import main
from court.fuzz.reduce import parse
from implementations import registry

FAKES = Path(__file__).resolve().parent / "fakes"


@pytest.mark.parametrize("bug", ["quotient", "list-tail", "float-exponent", "dynamic-wind"])
def test_fuzz_finds_each_seeded_bug(tmp_path, capsys, bug):
    save = tmp_path / "found"
    code = main(["fuzz", "--court", "buggy", "--config", str(seeded_config(tmp_path, bug)),
                 "--seconds", "60", "--seed", "1", "--safe-only", "--max-findings", "1",
                 "--reduce-seconds", "20", "--save-dir", str(save),
                 "--quarantine", str(tmp_path / "none.toml")])
    out = capsys.readouterr().out
    assert code == 1, out
    programs = list(save.glob("fuzz-*.lspx"))
    assert len(programs) == 1
    minimized = programs[0].read_text()
    assert len(parse(minimized)) <= 3, minimized  # at most a few forms
    record = json.loads(next(save.glob("*.finding.json")).read_text())
    assert record["signature"]["kind"] == "disagree"
    assert set(record["observations"]) == {"tree", "seeded"}


def test_quarantined_findings_are_skipped(tmp_path, capsys):
    config = seeded_config(tmp_path, "quotient")
    save = tmp_path / "found"
    args = ["fuzz", "--court", "buggy", "--config", str(config), "--seed", "2", "--safe-only",
            "--reduce-seconds", "5", "--save-dir", str(save)]
    assert main([*args, "--max-findings", "1", "--seconds", "60",
                 "--quarantine", str(tmp_path / "none.toml")]) == 1
    record = json.loads(next(save.glob("*.finding.json")).read_text())
    quarantine = tmp_path / "quarantine.toml"
    quarantine.write_text(f'[[known]]\nsignature = "{record["signature_id"]}"\n'
                          'note = "seeded quotient bug"\n')
    capsys.readouterr()
    main([*args, "--examples", "150", "--quarantine", str(quarantine), "--no-save"])
    out = capsys.readouterr().out
    assert record["signature_id"] not in out.split("findings:")[1]


@pytest.mark.skipif("vm" not in registry.ids(), reason="needs the vm back end")
def test_healthy_court_finds_nothing(tmp_path, capsys):
    code = main(["fuzz", "--court", "tree-rust", "--examples", "150", "--seed", "7",
                 "--save-dir", str(tmp_path / "found")])
    out = capsys.readouterr().out
    assert code == 0, out
    assert "findings: 0" in out
    assert not (tmp_path / "found").exists()


# A worker that greets like the tree worker and dies on every program it is given.
CRASHING = """
import json, os, sys
sys.path.insert(0, {root!r})
from implementations.tree import TreeBackend
from implementations.worker import PeakRss, handle
backend, peak = TreeBackend(), PeakRss()
for line in sys.stdin:
    req = json.loads(line)
    if req.get("op") == "run":
        os._exit(9)
    print(json.dumps(handle(req, backend, peak)), flush=True)
"""


def test_a_campaign_that_could_not_judge_a_program_does_not_exit_0(tmp_path, capsys):
    # Both members die on every program: nothing answered, so nothing was judged. Not a finding
    # (no member answered for the others to differ from), and not a pass either.
    worker = tmp_path / "crashing_worker.py"
    worker.write_text(CRASHING.format(root=str(Path(__file__).resolve().parents[2])))
    config = tmp_path / "court.toml"
    config.write_text("".join(f'[products.{name}]\ncommand = ["{sys.executable}", "{worker}"]\n'
                              'protocol = "court-worker/v1"\n' for name in ("one", "two"))
                      + '[courts.dead]\nmembers = ["one", "two"]\n')
    code = main(["fuzz", "--court", "dead", "--config", str(config), "--examples", "4",
                 "--seed", "1", "--parallel", "1", "--no-save",
                 "--quarantine", str(tmp_path / "none.toml")])
    out = capsys.readouterr().out
    assert code == 3, out
    assert "infrastructure errors 4" in out and "findings: 0" in out
    assert "could not be judged" in out


def test_reduce_shrinks_a_case(tmp_path, capsys):
    config = seeded_config(tmp_path, "quotient")
    case = tmp_path / "big.lspx"
    case.write_text('(define (f x) (+ x 1))\n(display "noise")\n(define y (list 1 2 3))\n'
                    "(list (f 2) (quotient (- 0 7) 2) (length y))\n")
    assert main(["reduce", str(case), "--court", "buggy", "--config", str(config),
                 "--seconds", "30"]) == 0
    out = capsys.readouterr().out
    assert "quotient" in out and len(out) < len(case.read_text())
    assert "noise" not in out


def test_reduce_refuses_a_case_without_divergence(tmp_path, capsys):
    case = tmp_path / "ok.lspx"
    case.write_text("(+ 1 2)")
    assert main(["reduce", str(case), "--court", "buggy", "--config",
                 str(seeded_config(tmp_path, "quotient"))]) == 2
    capsys.readouterr()
