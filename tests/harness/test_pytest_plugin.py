"""The court inside pytest: corpus cases as test items (one per case, pytest's own -k, -x, --lf,
-n, --junitxml, the court's divergence as the failure report), and the Hypothesis strategy that
finds a planted bug and shrinks the program."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from importlib.metadata import entry_points
from pathlib import Path
from xml.etree import ElementTree as ET

import pytest

ROOT = Path(__file__).resolve().parents[2]
FAKES = Path(__file__).resolve().parent / "fakes"
EXAMPLES = ROOT / "corpus" / "examples"
# Installed, the package registers the plugin as an entry point of the same name, so naming it
# here as well loads it once, installed or not.
PLUGIN = ["-p", "court.cli.pytest_plugin"]


def test_the_entry_point_is_named_as_its_module():
    import tomllib

    data = tomllib.loads((ROOT / "pyproject.toml").read_text())
    assert data["project"]["entry-points"]["pytest11"] == {
        "court.cli.pytest_plugin": "court.cli.pytest_plugin"}
    installed = [e for e in entry_points(group="pytest11") if e.value == "court.cli.pytest_plugin"]
    assert all(e.name == e.value for e in installed)


def pytest_in(folder: Path, *args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(
        [str(ROOT), *filter(None, [os.environ.get("PYTHONPATH")])])}
    env.pop("PYTEST_ADDOPTS", None)
    return subprocess.run([sys.executable, "-m", "pytest", *PLUGIN, "-p", "no:randomly", *args],
                          cwd=folder, capture_output=True, text=True, timeout=600, env=env)


@pytest.fixture
def cases(tmp_path):
    """Six corpus examples copied into a folder of their own (with an empty ini, so that pytest
    takes the folder as its root)."""
    folder = tmp_path / "cases"
    folder.mkdir()
    (folder / "pytest.ini").write_text("[pytest]\n")
    names = sorted(p.stem for p in EXAMPLES.glob("age-gate*.lspx"))[:3] + \
        sorted(p.stem for p in EXAMPLES.glob("loan-precheck*.lspx"))[:3]
    for name in names:
        for path in EXAMPLES.glob(f"{name}.*"):
            if path.name in (f"{name}.lspx", f"{name}.input", f"{name}.expect.toml"):
                shutil.copy(path, folder / path.name)
    (folder / "notes.lspx").write_text("(+ 1 2)")  # no expectation: not a case, not collected
    return folder


def test_one_item_per_case_and_all_pass(cases):
    proc = pytest_in(cases, "-q", "--court", "tree-rust")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "6 passed" in proc.stdout, proc.stdout
    listed = pytest_in(cases, "--collect-only", "-q")
    items = [line for line in listed.stdout.splitlines() if "::" in line]
    assert len(items) == 6 and not [i for i in items if "notes" in i], listed.stdout


def test_k_x_lf_junitxml_and_the_court_divergence_as_the_failure(cases):
    broken = sorted(cases.glob("age-gate*.expect.toml"))[0]
    text = broken.read_text()
    broken.write_text(text.replace("values = [", 'values = [\n    "(something else)",', 1)
                      if "values = [" in text else text + '\nvalues = ["(something else)"]\n')
    proc = pytest_in(cases, "-q", "--junitxml", "out.xml")
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert "1 failed, 5 passed" in proc.stdout, proc.stdout
    assert "expectation broken on values" in proc.stdout  # the court's own account
    assert "reproduce:" in proc.stdout and "court run " in proc.stdout
    suite = ET.parse(cases / "out.xml").getroot()
    assert len(suite.findall(".//testcase")) == 6 and len(suite.findall(".//failure")) == 1
    proc = pytest_in(cases, "-q", "--lf")
    assert "1 failed" in proc.stdout and "passed" not in proc.stdout.split("failed")[-1], \
        proc.stdout
    proc = pytest_in(cases, "-q", "-k", "loan")
    assert proc.returncode == 0 and "3 passed" in proc.stdout, proc.stdout
    proc = pytest_in(cases, "-q", "-x", "-k", "age")
    assert proc.returncode == 1 and "1 failed" in proc.stdout, proc.stdout


@pytest.mark.skipif(shutil.which("true") is None, reason="needs a POSIX userland")
def test_xdist_gives_each_worker_its_own_court(cases):
    pytest.importorskip("xdist")
    proc = pytest_in(cases, "-q", "-n", "2", "--court", "tree-rust")
    assert proc.returncode == 0 and "6 passed" in proc.stdout, proc.stdout + proc.stderr


def test_an_unknown_court_fails_every_case_with_the_reason(cases):
    proc = pytest_in(cases, "-q", "-x", "--court", "all-fuor")
    assert proc.returncode == 1
    assert "unknown court 'all-fuor' (did you mean 'all-four'?)" in proc.stdout, proc.stdout


PROPERTY = '''
from hypothesis import HealthCheck, given, settings

from court.cli.pytest_plugin import verdict_summary
from court.fuzz.strategies import lispex_cases

FIRST = []


@settings(max_examples=200, deadline=None, database=None, derandomize=True,
          suppress_health_check=list(HealthCheck))
@given(case=lispex_cases())
def test_agrees(lispex_court, case):
    result = lispex_court.compare(case.source, case.input)
    if result.verdict.kind == "disagree" and not FIRST:
        FIRST.append(len(case.source))
        open("first.txt", "w").write(str(len(case.source)))
    if result.verdict.kind == "disagree":
        open("last.txt", "w").write(case.source)
    assert result.verdict.kind != "disagree", verdict_summary(result)
'''


def test_a_property_test_finds_a_planted_bug_and_shrinks_the_program(tmp_path):
    folder = tmp_path / "prop"
    folder.mkdir()
    (folder / "pytest.ini").write_text("[pytest]\n")
    (folder / "court.toml").write_text(
        f'[products.minus]\ncommand = ["{sys.executable}", "{FAKES / "seeded_worker.py"}", '
        '"--bug", "list-three"]\nprotocol = "court-worker/v1"\n'
        '[courts.planted]\nmembers = ["tree", "minus"]\n')
    (folder / "test_prop.py").write_text(PROPERTY)
    proc = pytest_in(folder, "-q", "--court", "planted", "test_prop.py")
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert "Falsifying example" in proc.stdout and "disagree:" in proc.stdout, proc.stdout
    first = int((folder / "first.txt").read_text())
    shrunk = (folder / "last.txt").read_text()
    # The minimal failing program Hypothesis reports is the last one it tried that failed.
    assert "list" in shrunk and len(shrunk) < first, (first, shrunk)
    assert json.dumps(shrunk)[1:-1][:40] in proc.stdout.replace("\\n", "\n") or \
        shrunk.splitlines()[0][:40] in proc.stdout
