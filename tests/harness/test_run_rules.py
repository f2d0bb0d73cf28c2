"""The run rule: `court run` exits 0 only when every selected case was run and judged, and at
least one was. Faults anywhere in the runner, a slot thread or an adapter become a recorded
infrastructure error for that case (and member), never a lost case; totals always equal the
cases selected. Each test runs a corpus of 50 generated cases."""

from __future__ import annotations

import json
import os

import pytest
from run_support import assert_consistent_set, corpus

from court import runner, session
from court.cli import main

N = 50


def run(args, capsys):
    code = main(["run", *args])
    cap = capsys.readouterr()
    return code, cap.out, cap.err


def test_every_case_agreeing_exits_0(tmp_path, capsys):
    out = tmp_path / "rep"
    code, _, _ = run([str(corpus(tmp_path, N)), "--report-dir", str(out)], capsys)
    assert code == 0
    report = assert_consistent_set(out)
    assert report["summary"]["cases"] == N == report["summary"]["outcomes"]["agree"]
    assert report["run"]["complete"] is True


@pytest.mark.parametrize("how", ["filter", "empty", "shard"])
def test_no_case_selected_exits_5_saying_why(tmp_path, capsys, how):
    if how == "empty":
        (tmp_path / "empty").mkdir()
        args = [str(tmp_path / "empty")]
        why = "holds no case"
    elif how == "filter":
        args = [str(corpus(tmp_path, N)), "--filter", "nothing-*"]
        why = "--filter 'nothing-*' matched none of the 50 cases"
    else:
        one = corpus(tmp_path, 1)
        # With one case and two shards, one of the shards is empty.
        code1 = main(["run", str(one), "--shard", "1/2", "--report-dir", str(tmp_path / "r")])
        code2 = main(["run", str(one), "--shard", "2/2", "--report-dir", str(tmp_path / "r")])
        capsys.readouterr()
        assert sorted([code1, code2]) == [0, 5]
        return
    code, _, err = run([*args, "--report-dir", str(tmp_path / "r")], capsys)
    assert code == 5
    assert len(err.strip().splitlines()) == 1 and why in err


def test_an_exception_judging_one_case_is_an_infrastructure_error_for_it(tmp_path, capsys,
                                                                         monkeypatch):
    real = runner.classify

    def broken(case, result, *rest):
        if case.id == "case07":
            raise TypeError("'NoneType' object is not iterable")
        return real(case, result, *rest)

    monkeypatch.setattr(runner, "classify", broken)
    out = tmp_path / "rep"
    code, _, _ = run([str(corpus(tmp_path, N)), "--report-dir", str(out), "--jobs", "2"],
                     capsys)
    assert code == 3
    report = assert_consistent_set(out)
    o = report["summary"]["outcomes"]
    assert report["summary"]["cases"] == N and o["agree"] == N - 1
    bad = next(c for c in report["cases"] if c["id"] == "case07")
    assert bad["outcome"] == "infrastructure-error"
    assert "internal" in bad["error"] and "TypeError" in bad["error"]


def test_an_adapter_exception_marks_only_that_member(tmp_path, capsys, monkeypatch,
                                                     court_toml):
    real = session.ONESHOT["observation-json"]

    def broken(product, source, *rest):
        if b"* 9 3" in source:
            raise KeyError("values")
        return real(product, source, *rest)

    monkeypatch.setitem(session.ONESHOT, "observation-json", broken)
    out = tmp_path / "rep"
    code, _, _ = run([str(corpus(tmp_path, N)), "--court", "seeded", "--config", str(court_toml),
                      "--report-dir", str(out)], capsys)
    assert code == 3
    report = assert_consistent_set(out)
    assert report["summary"]["cases"] == N
    bad = next(c for c in report["cases"] if c["id"] == "case09")
    assert bad["outcome"] == "infrastructure-error"
    assert bad["observations"]["tree"]["semantic"]["status"] == "ok"
    assert bad["observations"]["buggy"]["faults"][0]["kind"] == "internal"
    assert sum(c["outcome"] == "infrastructure-error" for c in report["cases"]) == 1


def test_a_slot_thread_that_dies_loses_no_case(tmp_path, capsys, monkeypatch):
    """A fault that even the per-case guard does not catch kills the slot thread: its case is
    recorded, a new slot takes over the rest."""

    class SlotKiller(BaseException):
        pass

    real = runner.run_one

    def dies(sess, case, limits, *rest):
        if case.id in ("case03", "case30"):
            raise SlotKiller
        return real(sess, case, limits, *rest)

    monkeypatch.setattr(runner, "run_one", dies)
    out = tmp_path / "rep"
    code, _, _ = run([str(corpus(tmp_path, N)), "--report-dir", str(out), "--jobs", "2"],
                     capsys)
    assert code == 3
    report = assert_consistent_set(out)
    outcomes = {c["id"]: c["outcome"] for c in report["cases"]}
    assert len(outcomes) == N
    assert outcomes["case03"] == outcomes["case30"] == "infrastructure-error"
    assert sum(v == "agree" for v in outcomes.values()) == N - 2


def test_slots_that_cannot_start_record_every_case(tmp_path, capsys, monkeypatch):
    def cannot(*a, **k):
        raise RuntimeError("no session for you")

    monkeypatch.setattr(runner, "CourtSession", cannot)
    out = tmp_path / "rep"
    code, _, _ = run([str(corpus(tmp_path, N)), "--report-dir", str(out)], capsys)
    assert code == 3
    report = assert_consistent_set(out)
    assert report["summary"]["outcomes"]["infrastructure-error"] == N == len(report["cases"])


def test_totals_that_do_not_add_up_exit_3(tmp_path, capsys, monkeypatch):
    from court.cli import run as run_cmd

    real = run_cmd.build

    def loses_one(records, **kw):
        return real(records[1:], **kw)

    monkeypatch.setattr(run_cmd, "build", loses_one)
    code, _, err = run([str(corpus(tmp_path, N)), "--report-dir", str(tmp_path / "r")], capsys)
    assert code == 3
    assert "accounts for 49 cases" in err and "50 were selected" in err


def test_strict_still_fails_on_not_comparable_and_failures_win(tmp_path, capsys):
    cases = corpus(tmp_path, N)
    (cases / "case01.expect.toml").write_text((cases / "case02.expect.toml").read_text())
    code, out, _ = run([str(cases), "--report-dir", str(tmp_path / "r")], capsys)
    assert code == 1 and "case01" in out


def test_a_file_name_that_is_not_utf8_is_one_case_like_any_other(tmp_path, capsys):
    cases = corpus(tmp_path, N - 1)
    name = os.fsdecode(b"bad-\xff-name.lspx")
    (cases / name).write_text("(+ 1 2)")
    out = tmp_path / "rep"
    code, _, _ = run([str(cases), "--report-dir", str(out), "--filter", "*"], capsys)
    assert code == 0
    report = assert_consistent_set(out)
    assert report["summary"]["cases"] == N
    assert "bad-\\xff-name" in {c["id"] for c in report["cases"]}
    # Shards stay a partition with such a name among the ids.
    codes = [main(["run", str(cases), "--shard", f"{k}/3", "--report-dir", str(tmp_path / f"s{k}")])
             for k in (1, 2, 3)]
    capsys.readouterr()
    assert codes == [0, 0, 0]
    assert sum(assert_consistent_set(tmp_path / f"s{k}")["summary"]["cases"]
               for k in (1, 2, 3)) == N


def test_unreadable_case_files_are_recorded_not_lost(tmp_path, capsys):
    cases = corpus(tmp_path, N - 2)
    os.mkfifo(cases / "fifo.lspx")
    (cases / "folder.lspx").mkdir()
    out = tmp_path / "rep"
    code, _, _ = run([str(cases), "--report-dir", str(out)], capsys)
    assert code == 3
    report = assert_consistent_set(out)
    assert report["summary"]["cases"] == N
    errors = {c["id"]: c["error"] for c in report["cases"] if c["outcome"] != "agree"}
    assert set(errors) == {"fifo", "folder"}
    assert "FIFO" in errors["fifo"] and "directory" in errors["folder"]


def test_replay_of_an_impl_report_and_new_members(tmp_path, capsys):
    cases = corpus(tmp_path, N)
    old = tmp_path / "old"
    assert main(["run", str(cases), "--impl", "tree", "--report-dir", str(old)]) == 0
    capsys.readouterr()
    assert main(["replay", str(cases), "--against", str(old)]) == 0
    out = capsys.readouterr().out
    assert f"0 observation(s) moved across {N} case(s)" in out
    assert main(["replay", str(cases), "--against", str(old), "--impl", "tree,vm"]) == 0
    out = capsys.readouterr().out
    assert "new member vm: not in the old report (it had tree)" in out


@pytest.mark.parametrize("content, reason", [
    ("[]", "the top level is list"),
    ("{", "not JSON"),
    ('{"schema": "lispex.court-report/v1"}', "no run object"),
    ('{"schema": "other"}', "schema is 'other'"),
    (b"\xff\xfe", "not UTF-8"),
])
def test_malformed_reports_are_usage_errors_naming_the_file(tmp_path, capsys, content, reason):
    bad = tmp_path / "bad.json"
    bad.write_bytes(content if isinstance(content, bytes) else content.encode())
    for argv in (["merge", str(bad), "--report-dir", str(tmp_path / "m")],
                 ["replay", str(corpus(tmp_path, 2)), "--against", str(bad)]):
        assert main(argv) == 2
        err = capsys.readouterr().err
        assert str(bad) in err and reason in err and "internal error" not in err


def test_a_report_with_a_broken_case_is_refused(tmp_path, capsys):
    old = tmp_path / "old"
    assert main(["run", str(corpus(tmp_path, 2)), "--report-dir", str(old)]) == 0
    report = json.loads((old / "court-report.json").read_text())
    report["cases"][1]["observations"]["tree"] = {"semantic": None}
    (old / "court-report.json").write_text(json.dumps(report))
    capsys.readouterr()
    assert main(["merge", str(old), "--report-dir", str(tmp_path / "m")]) == 2
    assert "cases[1].observations.tree" in capsys.readouterr().err


@pytest.mark.parametrize("toml, reason", [
    ("products = 3", "products must be a table"),
    ("courts = []", "courts must be a table"),
    ("[products.x]\ncommand = [\"\"]\nprotocol = \"lispex-cli\"", "must not be empty"),
    ("[products.x]\ncommand = [\"a\"]\ntitle = 3", "title must be a non-empty string"),
    ("[products.x", "court.toml"),
    ("[courts.c]\nmembers = []", "members must be a non-empty list"),
])
def test_malformed_court_toml_is_a_usage_error(tmp_path, capsys, toml, reason):
    cfg = tmp_path / "court.toml"
    cfg.write_text(toml)
    for cmd in ("run", "bless", "compare"):
        target = str(corpus(tmp_path, 2)) if cmd != "compare" else \
            str(corpus(tmp_path, 2) / "case00.lspx")
        argv = [cmd, target, "--config", str(cfg)] + (["--report-dir", str(tmp_path / "r")]
                                                     if cmd == "run" else [])
        assert main(argv) == 2, cmd
        err = capsys.readouterr().err
        assert reason in err and "internal error" not in err, err


def test_bless_replaces_an_expectation_whole(tmp_path, monkeypatch):
    """An expectation is written beside itself and renamed over the old one: a write that fails
    halfway (an interrupt, a full disk) leaves the old expectation as it was."""
    from pathlib import Path

    from court.cli import run as run_cmd

    path = tmp_path / "x.expect.toml"
    path.write_text("old")
    real = Path.write_text

    def half(self, text, *a, **k):
        real(self, text[:3], *a, **k)
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(Path, "write_text", half)
    with pytest.raises(OSError):
        run_cmd._write_expectation(path, "new text")
    monkeypatch.undo()
    assert path.read_text() == "old"
    assert [p.name for p in tmp_path.iterdir()] == ["x.expect.toml"]
    run_cmd._write_expectation(path, "new text")
    assert path.read_text() == "new text"
