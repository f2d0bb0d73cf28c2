"""The GitHub Actions workflow of docs/ci.md: the doc shows the committed file, the workflow shards
the corpus over 1..4, merges and uploads the reports, and its own court commands really work.

The checks read the workflow as text so they run everywhere; where PyYAML happens to be
installed the structure is checked through a real parser as well (it is not a dependency).
"""

from __future__ import annotations

import glob
import json
import re
import shlex
import shutil
from pathlib import Path

from court.cli import main

ROOT = Path(__file__).resolve().parents[2]
WORKFLOW = ROOT / "docs" / "examples" / "github-workflow.yml"
CI_DOC = ROOT / "docs" / "ci.md"

RUN_LINE = ("court run corpus --shard ${{ matrix.shard }}/4 "
            "--report-dir reports/shard-${{ matrix.shard }}")
MERGE_LINE = "court merge reports/shard-* --report-dir reports/merged"


def workflow() -> str:
    return WORKFLOW.read_text("utf-8")


def job_block(text: str, job: str) -> str:
    """The lines of one job: from `  job:` to the next job at the same indentation."""
    m = re.search(rf"^  {re.escape(job)}:\n((?:(?:    .*)?\n)*)", text, re.M)
    assert m, f"no job {job!r} in the workflow"
    return m.group(1)


def test_the_doc_shows_the_committed_workflow():
    doc = CI_DOC.read_text("utf-8")
    blocks = re.findall(r"^```yaml\n(.*?)^```[ \t]*$", doc, re.S | re.M)
    assert blocks == [workflow()], "docs/ci.md and docs/examples/github-workflow.yml differ"


def test_the_workflow_is_well_formed_text():
    text = workflow()
    assert "\t" not in text, "YAML does not allow tabs for indentation"
    for n, line in enumerate(text.splitlines(), 1):
        indent = len(line) - len(line.lstrip(" "))
        assert indent % 2 == 0, f"line {n}: odd indentation"
        assert line == line.rstrip(), f"line {n}: trailing whitespace"
    assert text.endswith("\n")


def test_every_shard_of_four_runs():
    corpus = job_block(workflow(), "corpus")
    assert "shard: [1, 2, 3, 4]" in corpus
    assert f"run: {RUN_LINE}" in corpus
    assert "fail-fast: false" in corpus
    # Each shard uploads its own reports, also when the run failed.
    assert "uses: actions/upload-artifact@v4" in corpus
    assert "name: shard-${{ matrix.shard }}" in corpus
    assert "path: reports/shard-${{ matrix.shard }}" in corpus
    assert "if: ${{ !cancelled() }}" in corpus


def test_the_merge_job_downloads_merges_and_uploads():
    merge = job_block(workflow(), "merge")
    assert "needs: corpus" in merge
    assert "if: ${{ !cancelled() }}" in merge
    assert "uses: actions/download-artifact@v4" in merge
    assert "pattern: shard-*" in merge and "path: reports\n" in merge
    assert "for k in 1 2 3 4; do" in merge  # every shard must have reported
    assert f"run: {MERGE_LINE}" in merge
    assert "uses: actions/upload-artifact@v4" in merge and "path: reports/merged" in merge


def test_the_structure_parses():
    try:
        import yaml
    except ImportError:  # no parser here: the text checks above stand in for it
        text = workflow()
        assert re.search(r"^on:\n  push:\n", text, re.M)
        assert re.search(r"^jobs:\n  corpus:\n", text, re.M)
        return
    data = yaml.safe_load(workflow())
    triggers = data.get("on", data.get(True))  # YAML 1.1 reads the key `on` as true
    assert "pull_request" in triggers and "push" in triggers
    jobs = data["jobs"]
    assert set(jobs) == {"corpus", "merge"}
    assert jobs["corpus"]["strategy"]["matrix"]["shard"] == [1, 2, 3, 4]
    assert jobs["merge"]["needs"] == "corpus"
    runs = [s.get("run", "") for s in jobs["corpus"]["steps"] + jobs["merge"]["steps"]]
    assert RUN_LINE in runs and MERGE_LINE in runs
    uses = [s.get("uses", "") for s in jobs["merge"]["steps"]]
    assert "actions/download-artifact@v4" in uses and "actions/upload-artifact@v4" in uses


def _line(prefix: str) -> str:
    for raw in workflow().splitlines():
        line = raw.strip()
        if line.startswith(f"run: {prefix}"):
            return line[len("run: "):]
    raise AssertionError(f"no `{prefix}` step")


def test_the_workflow_commands_work(tmp_path, monkeypatch, capsys):
    # The bundled examples stand in for the corpus; the workflow's own command lines run on them.
    examples = tmp_path / "corpus" / "examples"
    shutil.copytree(ROOT / "corpus" / "examples", examples,
                    ignore=shutil.ignore_patterns("*.md"))
    n_cases = len(list(examples.glob("*.lspx")))
    summary = tmp_path / "step-summary.md"
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("GITHUB_STEP_SUMMARY", str(summary))
    monkeypatch.delenv("GITHUB_ACTIONS", raising=False)
    for k in range(1, 5):
        argv = shlex.split(_line("court run").replace("${{ matrix.shard }}", str(k)))
        # One member and one slot keep the test quick; sharding does not depend on either.
        assert main([*argv[1:], "--impl", "tree", "--jobs", "1"]) == 0
    merge = shlex.split(_line("court merge"))
    # The shell expands the glob in the workflow; do the same here.
    merge = [m for arg in merge[1:] for m in (sorted(glob.glob(arg)) if "*" in arg else [arg])]
    assert main(merge) == 0
    capsys.readouterr()
    report = json.loads((tmp_path / "reports" / "merged" / "court-report.json").read_text())
    assert report["summary"]["cases"] == n_cases
    assert report["summary"]["outcomes"]["agree"] == n_cases
    assert len(report["run"]["merged_from"]) == 4
    # Four shard summaries and the merged one went to the step summary, as in the workflow.
    assert summary.read_text().count("## Lispex Court") == 5
