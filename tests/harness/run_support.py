"""Helpers of the run-level fault tests: generated corpora, report-set checks, child processes."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import psutil

from court.report.write import FILES, render_all

ROOT = Path(__file__).resolve().parents[2]

EXPECT = """schema = "lispex.court-expectation/v1"
status = "ok"
values = [{value}]
stdout = ""
exit_status = 0
warnings = []
"""


def corpus(root: Path, n: int = 50, name: str = "corpus") -> Path:
    """``n`` small blessed cases, ids case00..caseNN."""
    folder = root / name
    folder.mkdir(parents=True, exist_ok=True)
    for i in range(n):
        (folder / f"case{i:02d}.lspx").write_text(f"(* {i} 3)")
        (folder / f"case{i:02d}.expect.toml").write_text(EXPECT.format(value=f'"{i * 3}"'))
    return folder


def slow_corpus(root: Path, quick: int = 3, slow: int = 47) -> Path:
    """``quick`` cases whose expectation is broken (each prints a line when it finishes, which
    tells a test the run is under way), then ``slow`` cases that keep a worker busy."""
    folder = root / "slowcorpus"
    folder.mkdir(parents=True, exist_ok=True)
    for i in range(quick):
        # Padded to be the largest files, so that a scheduler that runs big cases first still
        # starts with these.
        (folder / f"a-quick{i}.lspx").write_text(f"(+ {i} 1)\n;; {'padding ' * 64}\n")
        (folder / f"a-quick{i}.expect.toml").write_text(EXPECT.format(value='"-1"'))
    for i in range(slow):  # seconds each: an interrupt cannot fall between two of them
        (folder / f"b-slow{i:02d}.lspx").write_text(
            "(define (f n) (if (= n 0) 0 (f (- n 1)))) (f 2000000)")
    return folder


def load(folder: Path) -> dict:
    return json.loads((folder / FILES[0]).read_text("utf-8"))


def assert_consistent_set(folder: Path) -> dict | None:
    """The report folder holds one run's set: when court-report.json exists, the other three
    files are exactly what that JSON renders to. Returns the report (None when there is none)."""
    json_path = folder / FILES[0]
    if not json_path.exists():
        return None
    report = load(folder)
    want = render_all(report)
    for name in FILES[1:]:
        assert (folder / name).read_bytes() == want[name], f"{name} is not from this run"
    return report


def court_process(argv: list[str], *, wrapper: str | None = None) -> subprocess.Popen:
    """``python -m court.cli ARGV`` (or a wrapper script that patches the court first), with
    this checkout on the path."""
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    env.pop("GITHUB_STEP_SUMMARY", None)
    env.pop("GITHUB_ACTIONS", None)
    cmd = [sys.executable, "-c", wrapper, *argv] if wrapper else \
        [sys.executable, "-m", "court.cli", *argv]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env,
                            cwd=ROOT, text=True)
    STARTED.append(proc)
    return proc


# Every court process started, so that a test that fails half-way leaves none running (see
# kill_started).
STARTED: list[subprocess.Popen] = []


def kill_started() -> None:
    while STARTED:
        proc = STARTED.pop()
        if proc.poll() is None:
            proc.kill()
            proc.communicate()


def wait_for_line(proc: subprocess.Popen, needle: str, timeout: float = 240) -> str:
    """Read the child's stdout until a line containing ``needle`` (generous: the machine may be
    loaded)."""
    deadline = time.monotonic() + timeout
    seen = []
    assert proc.stdout is not None
    while time.monotonic() < deadline:
        line = proc.stdout.readline()
        if not line:
            raise AssertionError(f"the court ended before {needle!r}: {seen[-5:]}; stderr: "
                                 f"{proc.stderr.read() if proc.stderr else ''}")
        seen.append(line)
        if needle in line:
            return line
    raise AssertionError(f"no {needle!r} within {timeout} s")


def wait_for_file(path: Path, timeout: float = 240) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if path.exists():
            return
        time.sleep(0.05)
    raise AssertionError(f"{path} did not appear within {timeout} s")


def family(pid: int) -> list[psutil.Process]:
    try:
        return psutil.Process(pid).children(recursive=True)
    except psutil.Error:
        return []


def wait_until_busy(procs: list[psutil.Process], cpu: float = 0.2,
                    timeout: float = 240) -> None:
    """Until one of ``procs`` has used ``cpu`` more seconds of CPU: a worker is running a case
    (reading the line of the case before says only that the next one is about to start)."""
    def used() -> dict[int, float]:
        out = {}
        for p in procs:
            try:
                t = p.cpu_times()
                out[p.pid] = t.user + t.system
            except psutil.Error:
                pass
        return out

    start = used()
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        now = used()
        if any(now[pid] - start.get(pid, 0.0) >= cpu for pid in now):
            return
        time.sleep(0.02)
    raise AssertionError(f"no worker became busy within {timeout} s")


def stop(proc: subprocess.Popen, sig: int, times: int = 1, timeout: float = 120) -> None:
    """Send ``sig`` (``times`` times) and wait for the court to exit; it is killed if it has
    not (so a failing test leaves nothing behind)."""
    try:
        for _ in range(times):
            proc.send_signal(sig)
        proc.communicate(timeout=timeout)
    finally:
        proc.kill()

