"""The report set is written as a set: a failed write (full disk, a crash between two renames)
never leaves a new court-report.json beside an old run's files, nor a truncated file in place of
a good one; `court run` on a full disk keeps the old set, says so once, and exits 3."""

from __future__ import annotations

import errno
import os
import subprocess
from pathlib import Path

import pytest
from run_support import assert_consistent_set, corpus

from court.cli import main
from court.report import write
from court.report.write import FILES, ReportWriteError, write_all


def _report(tmp_path: Path, n: int, capsys, out: Path) -> dict:
    code = main(["run", str(corpus(tmp_path, n, name=f"c{n}")), "--impl", "tree", "--jobs", "1",
                 "--report-dir", str(out)])
    capsys.readouterr()
    assert code == 0
    report = assert_consistent_set(out)
    assert report is not None and report["summary"]["cases"] == n
    return report


def _snapshot(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in folder.iterdir() if p.is_file()}


@pytest.mark.parametrize("fail_at", range(len(FILES)))
def test_enospc_while_staging_keeps_the_old_set(tmp_path, capsys, monkeypatch, fail_at):
    out = tmp_path / "rep"
    old = _report(tmp_path, 3, capsys, out)
    before = _snapshot(out)
    new = dict(old, cases=old["cases"][:1])
    real = write._write_synced
    calls = []

    def full(path: Path, data: bytes) -> None:
        calls.append(path.name)
        if len(calls) > fail_at:
            # Half a file reaches the disk, then the disk is full.
            with open(path, "wb") as f:
                f.write(data[: len(data) // 2])
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        real(path, data)

    monkeypatch.setattr(write, "_write_synced", full)
    with pytest.raises(ReportWriteError, match="No space left on device"):
        write_all(new, out)
    assert _snapshot(out) == before
    assert not [p for p in out.iterdir() if p.name.startswith(".court-staging-")]


@pytest.mark.parametrize("crash_after", range(len(FILES)))
def test_crash_between_renames_never_mixes_runs(tmp_path, capsys, monkeypatch, crash_after):
    """A process stopped (SIGKILL, power loss) between two renames: whatever court-report.json
    is there belongs with the files beside it; the next write makes a whole set again."""
    out = tmp_path / "rep"
    old = _report(tmp_path, 3, capsys, out)
    new = dict(old, cases=old["cases"][:1])
    real = os.replace
    moved = []

    def replace(src, dst):
        if Path(dst).parent == out and len(moved) == crash_after:
            raise OSError(errno.EIO, "simulated crash")
        moved.append(dst)
        real(src, dst)

    monkeypatch.setattr(write.os, "replace", replace)
    with pytest.raises(ReportWriteError):
        write_all(new, out)
    monkeypatch.setattr(write.os, "replace", real)
    assert assert_consistent_set(out) is None  # the JSON is gone until a whole set is in place
    write_all(new, out)
    assert assert_consistent_set(out)["cases"] == new["cases"]


def test_stale_staging_folders_are_removed(tmp_path, capsys):
    out = tmp_path / "rep"
    _report(tmp_path, 2, capsys, out)
    stale = out / ".court-staging-left-by-a-killed-court"
    stale.mkdir()
    (stale / FILES[0]).write_text("{")
    _report(tmp_path, 2, capsys, out)
    assert not stale.exists()


def _can_mount_tmpfs(where: Path) -> bool:
    where.mkdir()
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", str(where)],
                          capture_output=True)
    return done.returncode == 0


def test_full_disk_run_keeps_the_old_set_and_exits_3(tmp_path, capsys):
    """A real full disk: a 64 KiB tmpfs holds the report of 3 cases but not the one of 60."""
    mnt = tmp_path / "small"
    if not _can_mount_tmpfs(mnt):
        pytest.skip("cannot mount a tmpfs here (needs root); the ENOSPC tests above simulate it")
    try:
        out = mnt / "rep"
        _report(tmp_path, 3, capsys, out)
        before = _snapshot(out)
        code = main(["run", str(corpus(tmp_path, 60, name="big")), "--impl", "tree",
                     "--jobs", "2", "--report-dir", str(out)])
        err = capsys.readouterr().err
        assert code == 3
        lines = [line for line in err.splitlines() if line.startswith("court:")]
        assert len(lines) == 1 and "No space left on device" in lines[0], err
        assert "untouched" in lines[0]
        assert _snapshot(out) == before
        assert assert_consistent_set(out)["summary"]["cases"] == 3
    finally:
        subprocess.run(["umount", str(mnt)], check=False)


def test_report_dir_that_cannot_be_written_is_refused_before_any_case(tmp_path, capsys,
                                                                     monkeypatch):
    from court.workers import supervisor

    def no_workers(self):
        raise AssertionError("a worker started")

    monkeypatch.setattr(supervisor.WorkerProcess, "start", no_workers)
    cases = corpus(tmp_path, 2)
    a_file = tmp_path / "file"
    a_file.write_text("")
    for bad in (a_file, a_file / "sub", Path("/proc/court-cannot-write-here")):
        assert main(["run", str(cases), "--impl", "tree", "--report-dir", str(bad)]) == 2
        err = capsys.readouterr().err
        assert "--report-dir" in err and len(err.strip().splitlines()) == 1
    monkeypatch.undo()
    good = tmp_path / "good"
    _report(tmp_path, 2, capsys, good)
    assert main(["merge", str(good), "--report-dir", str(a_file)]) == 2
    assert "--report-dir" in capsys.readouterr().err
