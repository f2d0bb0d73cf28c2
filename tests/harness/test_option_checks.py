"""Options and files are checked before any worker starts: each bad one is exit 2 with one line
naming it, for every command that takes it, and no process is started."""

from __future__ import annotations

import json
import os

import pytest
from run_support import corpus

from court.cli import main
from court.files import MAX_INPUT_BYTES, MAX_PROGRAM_BYTES
from court.workers import supervisor


@pytest.fixture(autouse=True)
def no_worker(monkeypatch):
    def start(self):
        raise AssertionError("a worker started before the options were checked")

    monkeypatch.setattr(supervisor.WorkerProcess, "start", start)


@pytest.fixture
def paths(tmp_path):
    cases = corpus(tmp_path, 2)
    (tmp_path / "old.json").write_text(json.dumps({
        "schema": "lispex.court-report/v1", "products": [{"id": "tree", "product_id": None}],
        "cases": [], "run": {"court": "tree-rust", "started_at": "2026-01-01T00:00:00",
                             "finished_at": "2026-01-01T00:00:00", "complete": True,
                             "duration_seconds": 0}}))
    return cases, tmp_path


def commands(cases, tmp_path):
    program = str(cases / "case00.lspx")
    return {
        "run": ["run", str(cases), "--report-dir", str(tmp_path / "r")],
        "bless": ["bless", str(cases)],
        "replay": ["replay", str(cases), "--against", str(tmp_path / "old.json")],
        "compare": ["compare", program],
        "fuzz": ["fuzz", "--examples", "1", "--no-save"],
        "reduce": ["reduce", program],
    }


BAD = {
    "unknown profile": (["--profile", "nope/v1"], "unknown profile 'nope/v1'"),
    "empty profile": (["--profile", ""], "--profile"),
    "unknown axis": (["--limit", "steps=10"], "unknown meter axis 'steps'"),
    "malformed limit": (["--limit", "machine-transition"], "expected AXIS=N"),
    "huge limit": (["--limit", f"machine-transition={2 ** 60}"], "larger than 2^53"),
    # str.isdigit() is true of "²", which int() refuses: every digit must be one int() reads.
    "superscript limit": (["--limit", "machine-transition=²"], "expected AXIS=N"),
    "superscript timeout": (["--timeout", "²"], "invalid float value"),
    "superscript memory": (["--memory-limit", "²"], "invalid int value"),
    "superscript jobs": (["--jobs", "²"], "invalid int value"),
    "timeout nan": (["--timeout", "nan"], "--timeout must be a finite number"),
    "timeout inf": (["--timeout", "inf"], "--timeout must be a finite number"),
    "timeout zero": (["--timeout", "0"], "--timeout must be a finite number"),
    "timeout negative": (["--timeout", "-1"], "--timeout must be a finite number"),
    "memory zero": (["--memory-limit", "0"], "--memory-limit must be between"),
    "memory huge": (["--memory-limit", str(1 << 40)], "--memory-limit must be between"),
    "jobs zero": (["--jobs", "0"], "--jobs must be between"),
    "impl empty item": (["--impl", "tree,,vm"], "an empty item"),
    "impl trailing comma": (["--impl", "tree,"], "an empty item"),
    "impl twice": (["--impl", "tree,tree"], "names 'tree' twice"),
    "impl unknown": (["--impl", "tree,nosuch"], "unknown product 'nosuch'"),
    "empty court": (["--court", ""], "--court must not be empty"),
    "empty config": (["--config", ""], "--config must not be empty"),
}
WHERE = {"run", "bless", "replay", "compare", "fuzz", "reduce"}
NOT_FOR = {("fuzz", "empty court"), ("reduce", "empty court")}


@pytest.mark.parametrize("bad", list(BAD))
@pytest.mark.parametrize("cmd", sorted(WHERE))
def test_bad_option_is_exit_2_before_any_worker(paths, capsys, cmd, bad):
    if (cmd, bad) in NOT_FOR:
        pytest.skip("the option does not apply")
    cases, tmp_path = paths
    extra, message = BAD[bad]
    argv = commands(cases, tmp_path)[cmd] + extra
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert message in err and len(err.strip().splitlines()) == 1, err


@pytest.mark.parametrize("extra, message", [
    (["--shard", "0/3"], "--shard must be K/N"),
    (["--shard", "4/3"], "--shard must be K/N"),
    (["--shard", "²/3"], "--shard must be K/N"),
    (["--shard", "1/"], "--shard must be K/N"),
    (["--filter", ""], "--filter must not be empty"),
    (["--report-dir", ""], "--report-dir must not be empty"),
])
def test_bad_run_option_is_exit_2(paths, capsys, extra, message):
    cases, tmp_path = paths
    assert main(["run", str(cases), "--report-dir", str(tmp_path / "r"), *extra]) == 2
    assert message in capsys.readouterr().err


@pytest.mark.parametrize("cmd", ["run", "fuzz"])
@pytest.mark.parametrize("value", ["local:²", "local:0", "local:x"])
def test_bad_cluster_is_exit_2(paths, capsys, cmd, value):
    cases, tmp_path = paths
    argv = commands(cases, tmp_path)[cmd] + ["--cluster", value]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert "--cluster must be local or local:N" in err and len(err.strip().splitlines()) == 1


def test_eval_checks_profile_and_limits(paths, capsys):
    cases, _ = paths
    program = str(cases / "case00.lspx")
    for extra, message in ((["--profile", "nope"], "unknown profile"),
                           (["--limit", "steps=1"], "unknown meter axis"),
                           (["--limit", "output-byte=²"], "expected AXIS=N")):
        assert main(["eval", program, *extra]) == 2
        assert message in capsys.readouterr().err


def _special_files(tmp_path):
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    return {"a FIFO": str(fifo), "a device": "/dev/zero", "a directory": str(tmp_path)}


@pytest.mark.parametrize("cmd", ["eval", "compare", "reduce"])
def test_special_files_are_refused_as_program_and_input(paths, capsys, cmd):
    cases, tmp_path = paths
    program = str(cases / "case00.lspx")
    special = tmp_path / "special"
    special.mkdir()
    for kind, path in _special_files(special).items():
        assert main([cmd, path]) == 2
        err = capsys.readouterr().err
        assert f"the program is {kind}" in err, err
        if cmd != "reduce":
            assert main([cmd, program, "--input-file", path]) == 2
            assert f"the input is {kind}" in capsys.readouterr().err


def test_oversized_program_and_input_are_refused_reading_at_most_the_cap(paths, capsys,
                                                                         monkeypatch):
    cases, tmp_path = paths
    big = tmp_path / "big.lspx"
    with open(big, "wb") as f:  # sparse: 1 GiB on the name, nothing on the disk
        f.truncate(1 << 30)
    read = []
    real = os.read

    def counting(fd, n):
        data = real(fd, n)
        read.append(len(data))
        return data

    from court import files

    monkeypatch.setattr(files.os, "read", counting)  # os.read, for this test only
    assert main(["compare", str(big)]) == 2
    assert "larger than the court's cap of 1 MiB" in capsys.readouterr().err
    assert sum(read) == MAX_PROGRAM_BYTES + 1
    read.clear()
    assert main(["compare", str(cases / "case00.lspx"), "--input-file", str(big)]) == 2
    assert "the input is larger than" in capsys.readouterr().err
    program = len((cases / "case00.lspx").read_bytes())
    assert sum(read) == program + MAX_INPUT_BYTES + 1


def test_run_refuses_a_path_that_is_neither_case_nor_folder(paths, capsys):
    cases, tmp_path = paths
    fifo = tmp_path / "fifo.lspx"
    os.mkfifo(fifo)
    assert main(["run", str(fifo), "--report-dir", str(tmp_path / "r")]) == 2
    assert "neither a case file nor a folder" in capsys.readouterr().err
    assert main(["run", "", "--report-dir", str(tmp_path / "r")]) == 2
    assert "must not be empty" in capsys.readouterr().err


def test_run_help_documents_the_exit_statuses(capsys):
    with pytest.raises(SystemExit):
        main(["run", "--help"])
    out = capsys.readouterr().out
    for line in ("5    no case selected", "130  interrupted by SIGINT", "143 by SIGTERM",
                 "3    the harness failed"):
        assert line in out
