"""Fault injection: a generated corpus, test-only faulty products, and a check that no process
is left, including grandchildren that left their group or were re-parented.

Each `court run` here is a child process marked with a fresh environment variable, which every
process it starts (and their descendants) inherits: after the run, no live process anywhere may
carry the mark. The pytest process is made a child subreaper too, so that whatever the court
failed to reap is re-parented here rather than to init, and is seen.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import uuid
from dataclasses import dataclass
from pathlib import Path

import pytest
from fault_support import FAULTY, MARK, N_CASES, ROOT, case_id, live_marked
from process_checks import assert_none_left, children, still_running

from court.workers import reaper


@pytest.fixture(scope="session")
def corpus(tmp_path_factory) -> Path:
    """50 blessed cases `(+ i 1)`; three of them carry the fault trigger."""
    root = tmp_path_factory.mktemp("fault-corpus")
    for i in range(N_CASES):
        note = " ; FAULT" if i in FAULTY else ""
        (root / f"{case_id(i)}.lspx").write_text(f"(+ {i} 1){note}\n")
        (root / f"{case_id(i)}.expect.toml").write_text(
            'schema = "lispex.court-expectation/v1"\nstatus = "ok"\n'
            f'values = ["{i + 1}"]\nstdout = ""\nexit_status = 0\nwarnings = []\n')
    return root


@dataclass
class Run:
    status: int
    out: str
    err: str
    report: dict
    mark: str

    def case(self, i: int) -> dict:
        return next(c for c in self.report["cases"] if c["id"] == case_id(i))


@pytest.fixture
def court_run(tmp_path, corpus):
    """Run `court run` over the corpus with the given products; check that nothing is left."""
    reaper.become_subreaper()
    before = children()
    marks: list[str] = []

    def run(products: str, members: str, *extra: str, timeout: float = 600,
            corpus: Path = corpus) -> Run:
        config = tmp_path / "court.toml"
        config.write_text(products)
        reports = tmp_path / f"reports-{len(marks)}"
        mark = uuid.uuid4().hex
        marks.append(mark)
        env = dict(os.environ, PYTHONPATH=str(ROOT), **{MARK: mark})
        env.pop("GITHUB_ACTIONS", None)
        done = subprocess.run(
            [sys.executable, "-m", "court.cli", "run", str(corpus), "--config", str(config),
             "--impl", members, "--report-dir", str(reports), "--jobs", "2", "--timeout", "120",
             *extra],
            capture_output=True, text=True, timeout=timeout, env=env, cwd=tmp_path)
        path = reports / "court-report.json"
        assert path.exists(), done.stderr[-2000:]
        report = json.loads(path.read_text())
        return Run(done.returncode, done.stdout, done.stderr, report, mark)

    yield run
    for mark in marks:
        alive = still_running(live_marked(mark), grace=10)
        for p in alive:
            p.kill()
        assert not alive, [(p.pid, p.cmdline()) for p in alive]
    # What this test's runs left behind (processes other tests keep, such as a warm worker
    # template of an in-process session, are theirs to answer for).
    assert_none_left(before, grace=5)


