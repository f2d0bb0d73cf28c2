"""A receipt made in one copy of the repository, verified in another: the same products verify;
one line changed in an implementation there, and the product check names that member.

Two fresh clones of this checkout's HEAD stand for the issuer's machine and the verifier's; each
runs its own court (PYTHONPATH points at the clone) through the command line.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from voucher_support import ROOT


def _git_checkout() -> bool:
    return shutil.which("git") is not None and subprocess.run(
        ["git", "-C", str(ROOT), "rev-parse", "HEAD"], capture_output=True).returncode == 0


pytestmark = pytest.mark.skipif(not _git_checkout(), reason="needs a git checkout to clone")


def clone(where: Path) -> Path:
    subprocess.run(["git", "clone", "-q", "--no-hardlinks", str(ROOT), str(where)], check=True)
    return where


def court(copy: Path, *argv: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(copy)}
    return subprocess.run([sys.executable, "-m", "court.cli", *argv], cwd=copy, env=env,
                          capture_output=True, text=True, timeout=300)


def test_a_receipt_from_one_clone_verifies_in_another_until_an_implementation_changes(tmp_path):
    issuer, verifier = clone(tmp_path / "issuer"), clone(tmp_path / "verifier")
    keys = tmp_path / "keys"
    assert court(issuer, "keys", "generate", str(keys)).returncode == 0
    rule = "corpus/examples/age-gate"
    receipt = tmp_path / "age-gate.receipt.json"
    made = court(issuer, "compare", f"{rule}.lspx", "--input-file", f"{rule}.input",
                 "--receipt", str(receipt), "--signing-key", str(keys / "court-signing.key"))
    assert made.returncode == 0, made.stderr
    verify = ["verify", str(receipt), "--key", str(keys / "court-signing.pub"), "--source",
              f"{rule}.lspx", "--input", f"{rule}.input", "--json"]
    same = court(verifier, *verify)
    assert same.returncode == 0, same.stdout + same.stderr
    assert json.loads(same.stdout)["result"] == "verified"

    machine = verifier / "implementations" / "tree" / "machine.py"
    lines = machine.read_text("utf-8").splitlines(keepends=True)
    lines[0] = lines[0].rstrip("\n") + " \n"  # one line changed: a trailing space
    machine.write_text("".join(lines), "utf-8")
    changed = court(verifier, *verify)
    summary = json.loads(changed.stdout)
    assert changed.returncode == 1 and summary["result"] == "differs"
    products = next(c for c in summary["checks"] if c["check"] == "products")
    assert products["status"] == "failed"
    assert [f["what"] for f in products["findings"] if not f["ok"]] == ["tree product id"]
    assert "a different build of tree" in products["detail"]
    reexec = next(c for c in summary["checks"] if c["check"] == "re-execution")
    assert reexec["status"] == "not-performed"
