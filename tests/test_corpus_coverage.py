"""The corpus covers what the language promises: every primitive is called by some conformance
case, every diagnostic code is the outcome of some case, and the whole corpus agrees through the
base court (`tree-rust`, real worker subprocesses) with every blessed expectation holding."""

from __future__ import annotations

import json
import re
from pathlib import Path

from court.cli import main
from court.corpus import discover
from implementations.lispex.errors import catalog
from implementations.lispex.primitives import table

ROOT = Path(__file__).resolve().parent.parent
CONFORMANCE = ROOT / "corpus" / "conformance"
TOKEN = re.compile(r"""[^\s()\[\]{}"';`,]+""")


def corpus_symbols() -> set[str]:
    symbols: set[str] = set()
    for path in CONFORMANCE.rglob("*.lspx"):
        text = path.read_text("utf-8", errors="replace")
        text = re.sub(r'"(?:[^"\\]|\\.)*"', " ", text)  # string contents are not calls
        text = re.sub(r";[^\n]*", " ", text)
        symbols.update(TOKEN.findall(text))
    return symbols


def test_every_primitive_appears_in_a_conformance_case():
    symbols = corpus_symbols()
    missing = [r.name for r in table.rows() if r.name not in symbols]
    assert not missing, missing


def test_every_diagnostic_code_is_the_outcome_of_a_case():
    seen: set[str] = set()
    for case in discover([CONFORMANCE]):
        exp = case.expectation or {}
        if "diagnostic" in exp:
            seen.add(exp["diagnostic"]["code"])
        seen.update(exp.get("warnings", []))
    missing = sorted(set(catalog()) - seen)
    assert not missing, missing


def test_corpus_size():
    assert len(discover([ROOT / "corpus"])) > 500
    assert len(discover([ROOT / "corpus" / "examples"])) >= 30


def test_whole_corpus_agrees_through_tree_rust(tmp_path, capsys):
    code = main(["run", str(ROOT / "corpus"), "--court", "tree-rust", "--jobs", "2",
                 "--report-dir", str(tmp_path)])
    out = capsys.readouterr().out
    report = json.loads((tmp_path / "court-report.json").read_text())
    outcomes = report["summary"]["outcomes"]
    bad = [(c["id"], c["outcome"]) for c in report["cases"] if c["outcome"] != "agree"]
    assert code == 0 and not bad, (bad[:20], out[-2000:])
    assert outcomes["agree"] == report["summary"]["cases"]
