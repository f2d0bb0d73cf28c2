"""What pytest users expect of a test runner's command line, and the small promises of the plain
output: `python -m court`, did-you-mean, `-x`, `-q`, `-v`, `--lf`, court.toml found in a parent
folder, positions in diagnostics and input errors, tables that never split a word in a pipe."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from court.cli import main

EXPECT = """schema = "lispex.court-expectation/v1"
status = "ok"
values = [{value}]
stdout = ""
exit_status = 0
warnings = []
"""


@pytest.fixture
def corpus(tmp_path, monkeypatch):
    folder = tmp_path / "corpus"
    folder.mkdir()
    for name, program, value in (("a-good", "(* 2 3)", '"6"'), ("b-wrong", "(* 2 2)", '"5"'),
                                 ("c-good", "(+ 1 1)", '"2"')):
        (folder / f"{name}.lspx").write_text(program)
        (folder / f"{name}.expect.toml").write_text(EXPECT.format(value=value))
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("COLUMNS", "100")
    return folder


def usage_message(argv: list[str], capsys) -> str:
    assert main(argv) == 2
    return capsys.readouterr().err


def test_python_dash_m_court_is_the_court_command(tmp_path):
    proc = subprocess.run([sys.executable, "-m", "court", "--version"], capture_output=True,
                          text=True, timeout=120)
    assert proc.returncode == 0 and proc.stdout.startswith("court "), proc.stderr


def test_a_misspelled_command_flag_or_court_gets_a_suggestion(corpus, capsys):
    assert "did you mean 'compare'?" in usage_message(["comapre", "x.lspx"], capsys)
    assert "did you mean --fail-fast?" in usage_message(["run", "corpus", "--fial-fast"], capsys)
    assert "did you mean 'all-four'?" in usage_message(
        ["run", "corpus", "--court", "all-fuor", "--report-dir", "rep"], capsys)


def test_exitfirst_quiet_verbose_and_lf(corpus, capsys):
    assert main(["run", "corpus", "-x", "-q", "--jobs", "1", "--report-dir", "rep"]) == 1
    out = capsys.readouterr().out
    report = json.loads((corpus.parent / "rep" / "court-report.json").read_text())
    outcomes = {c["id"]: c["outcome"] for c in report["cases"]}
    assert outcomes["b-wrong"] == "expectation-broken"
    assert "not-run" in outcomes.values() or outcomes["c-good"] == "agree"
    assert "FAILURES (1)" in out and "members" not in out and "median wall" not in out
    assert main(["run", "corpus", "--lf", "-v", "--report-dir", "rep"]) == 1
    out = capsys.readouterr().out
    again = json.loads((corpus.parent / "rep" / "court-report.json").read_text())
    # What failed, and what the stop at the first failure left unjudged.
    rerun = {c["id"] for c in again["cases"]}
    assert rerun == {"b-wrong"} | {k for k, v in outcomes.items() if v == "not-run"}
    assert "b-wrong: expectation-broken" in out
    assert main(["run", "corpus", "-v", "--report-dir", "rep2"]) == 1
    out = capsys.readouterr().out
    assert "a-good: agree" in out and "c-good: agree" in out  # every case gets its line


def test_court_toml_is_found_in_a_parent_folder_and_a_foreign_one_is_passed_over(
        tmp_path, monkeypatch, capsys):
    (tmp_path / "court.toml").write_text('[courts.mine]\nmembers = ["tree", "vm"]\n')
    deep = tmp_path / "a" / "b"
    deep.mkdir(parents=True)
    (deep / "p.lspx").write_text("(* 6 7)")
    # Another tool's file of the same name, nearer: it defines no products or courts.
    (tmp_path / "a" / "court.toml").write_text('[tool.other]\nsetting = 1\n')
    monkeypatch.chdir(deep)
    assert main(["compare", "p.lspx", "--court", "mine", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["court"] == "mine"
    assert main(["compare", "p.lspx", "--json"]) == 0  # the built-in courts still work
    capsys.readouterr()


def test_plain_compare_shows_diagnostic_positions_and_wide_resources(tmp_path, monkeypatch,
                                                                      capsys):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "e.lspx").write_text("(define x 1)\n  (car x)")
    assert main(["compare", "e.lspx", "--plain", "--wide"]) == 0
    out = capsys.readouterr().out
    assert "E310 e.lspx:2:3 car: expected a pair 1" in out
    assert "wall " in out and "peak rss " in out and "product " in out


def test_an_input_file_that_is_not_one_datum_is_named_with_the_position(tmp_path, monkeypatch,
                                                                        capsys):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "p.lspx").write_text("input")
    (tmp_path / "two.input").write_text("1\n  2")
    message = usage_message(["compare", "p.lspx", "--input-file", "two.input"], capsys)
    assert "invalid input datum in two.input:2:3: E100" in message, message


def test_products_in_a_pipe_are_lines_that_never_split_a_word(capsys, monkeypatch):
    monkeypatch.setenv("COLUMNS", "60")
    assert main(["products"]) == 0
    out = capsys.readouterr().out
    assert "│" not in out and "┃" not in out  # no boxed table in a pipe
    words = set(out.split())
    assert "court-worker/v1," in words or "court-worker/v1" in words
