"""Choosing cases as pytest does: -k expressions, repeated --filter globs, --last-failed."""

from __future__ import annotations

import json
from types import SimpleNamespace

import pytest

from court.cli import main
from court.cli.select import KeywordError, choose, compile_keyword

IDS = ["numbers/quotient", "numbers/slow-expt", "lists/list-tail", "lists/append",
       "strings/Upcase"]


@pytest.mark.parametrize("expr,want", [
    ("quotient", ["numbers/quotient"]),
    ("list and not tail", ["lists/append"]),
    ("numbers or strings", ["numbers/quotient", "numbers/slow-expt", "strings/Upcase"]),
    ("not (numbers or lists)", ["strings/Upcase"]),
    ("(numbers and not slow) or append", ["numbers/quotient", "lists/append"]),
    ("UPCASE", ["strings/Upcase"]),  # case-insensitive, as pytest
    ("s/l", ["lists/list-tail"]),  # any substring of the id, slashes included
    ("not not quotient", ["numbers/quotient"]),
    ("", IDS),
])
def test_keyword_expressions(expr, want):
    pred = compile_keyword(expr)
    assert [i for i in IDS if pred(i)] == want


@pytest.mark.parametrize("expr,where", [("and", "column 1"), ("a or", "column 5"),
                                        ("(a", "column 3"), ("a b", "column 3"),
                                        ("a )", "column 3")])
def test_bad_keyword_expressions_name_the_column(expr, where):
    with pytest.raises(KeywordError, match=where):
        compile_keyword(expr)


def cases(ids):
    return [SimpleNamespace(id=i) for i in ids]


def test_filters_are_ored_and_combine_with_k():
    args = SimpleNamespace(keyword="not slow", filter=["numbers/*", "strings/*"],
                           last_failed=False)
    assert [c.id for c in choose(cases(IDS), args)] == ["numbers/quotient", "strings/Upcase"]


def make_corpus(root):
    corpus = root / "corpus"
    for name, src in (("good", "(+ 1 2)"), ("quot", "(quotient -7 2)"),
                      ("other", "(* 2 3)"), ("quot-too", "(quotient -9 2)")):
        (corpus / name).parent.mkdir(parents=True, exist_ok=True)
        (corpus / f"{name}.lspx").write_text(src)
    return corpus


def ran(folder):
    report = json.loads((folder / "court-report.json").read_text())
    return sorted(c["id"] for c in report["cases"])


def test_k_and_repeated_filter_on_the_command_line(tmp_path, capsys, court_toml):
    corpus = make_corpus(tmp_path)
    rep = tmp_path / "rep"
    common = [str(corpus), "--court", "seeded", "--config", str(court_toml), "--report-dir",
              str(rep), "--plain"]
    assert main(["run", *common, "-k", "quot and not too"]) == 1
    assert ran(rep) == ["quot"]
    assert main(["run", *common, "--filter", "good", "--filter", "oth*"]) == 0
    assert ran(rep) == ["good", "other"]
    assert main(["run", *common, "-k", "quot or"]) == 2
    assert "-k 'quot or': expected a word or '(' at column 8" in capsys.readouterr().err


def test_last_failed_reruns_the_failures_of_the_previous_report(tmp_path, capsys, court_toml):
    corpus = make_corpus(tmp_path)
    rep = tmp_path / "rep"
    common = [str(corpus), "--court", "seeded", "--config", str(court_toml), "--report-dir",
              str(rep), "--plain"]
    assert main(["run", *common, "--last-failed"]) == 1  # no report yet: everything runs
    assert "no report in" in capsys.readouterr().err
    assert ran(rep) == ["good", "other", "quot", "quot-too"]
    assert main(["run", *common, "--last-failed"]) == 1
    assert "2 case(s) that failed last time" in capsys.readouterr().err
    assert ran(rep) == ["quot", "quot-too"]
    assert main(["run", *common, "--last-failed", "-k", "too"]) == 1
    assert ran(rep) == ["quot-too"]
    assert main(["run", *common, "--filter", "good"]) == 0
    assert main(["run", *common, "--last-failed"]) == 1  # no failure recorded: all run again
    assert "had no failures" in capsys.readouterr().err
    assert ran(rep) == ["good", "other", "quot", "quot-too"]


def test_a_broken_last_report_is_a_usage_error(tmp_path, capsys):
    rep = tmp_path / "rep"
    rep.mkdir()
    (rep / "court-report.json").write_text("{not json")
    corpus = make_corpus(tmp_path)
    assert main(["run", str(corpus), "--impl", "tree", "--report-dir", str(rep),
                 "--last-failed"]) == 2
    assert "--last-failed: cannot read" in capsys.readouterr().err
