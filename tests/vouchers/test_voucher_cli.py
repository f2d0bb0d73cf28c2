"""The command line: `court keys generate`, `court compare --receipt`, `court run --receipts`
and `court verify` (text, --json and exit statuses)."""

from __future__ import annotations

import json
import os
import re
import stat
from pathlib import Path

import pytest
from voucher_support import ROOT

from court.cli import main

EXAMPLES = ROOT / "corpus" / "examples"


@pytest.fixture(scope="module")
def keydir(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("cli") / "keys"
    assert main(["keys", "generate", str(folder)]) == 0
    return folder


def test_keys_generate_makes_an_owner_only_private_key(keydir, capsys, tmp_path):
    private = keydir / "court-signing.key"
    assert stat.S_IMODE(os.stat(private).st_mode) == 0o600
    assert (keydir / "court-signing.pub").read_text().startswith("-----BEGIN PUBLIC KEY-----")
    assert main(["keys", "generate", str(keydir)]) == 2
    assert "never overwritten" in capsys.readouterr().err


def test_receipt_options_go_together(keydir, capsys, tmp_path):
    prog = tmp_path / "p.lspx"
    prog.write_text("(+ 1 2)")
    assert main(["compare", str(prog), "--receipt", str(tmp_path / "r.json")]) == 2
    assert "needs --signing-key" in capsys.readouterr().err
    assert main(["compare", str(prog), "--signing-key", str(keydir / "court-signing.key")]) == 2
    assert "needs --receipt" in capsys.readouterr().err
    assert main(["compare", str(prog), "--receipt", str(tmp_path / "r.json"), "--signing-key",
                 str(tmp_path / "none.key")]) == 2
    assert "cannot read it" in capsys.readouterr().err
    assert not (tmp_path / "r.json").exists()


def test_compare_receipt_then_verify(keydir, capsys, tmp_path):
    rule, data = EXAMPLES / "age-gate.lspx", EXAMPLES / "age-gate.input"
    receipt = tmp_path / "age-gate.receipt.json"
    assert main(["compare", str(rule), "--input-file", str(data), "--receipt", str(receipt),
                 "--signing-key", str(keydir / "court-signing.key"), "--plain"]) == 0
    capsys.readouterr()
    pub = str(keydir / "court-signing.pub")
    code = main(["verify", str(receipt), "--key", pub, "--source", str(rule), "--input",
                 str(data), "--json"])
    summary = json.loads(capsys.readouterr().out)
    assert code == 0 and summary["result"] == "verified"
    assert summary["schema"] == "lispex.court-verification/v1"
    assert summary["receipt_digest"] and summary["policy_digest"] is None
    assert [c["code"] for c in summary["checks"]] == [
        "V100", "V110", "V120", "V130", "V140", "V150", "V160", "V170", "V180", "V190", "V191",
        "V199"]
    assert {c["check"]: c["status"] for c in summary["checks"]}["policy"] == "not-performed"
    # The wrong input: the request check fails, re-execution is not performed (exit 1).
    wrong = tmp_path / "other.input"
    wrong.write_text("((age 30))")
    assert main(["verify", str(receipt), "--key", pub, "--source", str(rule), "--input",
                 str(wrong)]) == 1
    out = capsys.readouterr().out
    assert re.search(r"^V160 request +failed", out, re.M)
    assert re.search(r"^V190 re-execution +not-performed", out, re.M)
    # --no-reexec without the source: verified, with what was not checked listed.
    assert main(["verify", str(receipt), "--key", pub, "--no-reexec"]) == 0
    out = capsys.readouterr().out
    assert re.search(r"^V190 re-execution +not-performed --no-reexec", out, re.M)
    assert "result: verified (8 checks performed, 4 not performed" in out
    # No key at all: could not verify.
    assert main(["verify", str(receipt)]) == 2
    assert "no key to verify with" in capsys.readouterr().out


def test_verify_refuses_unusable_files(keydir, capsys, tmp_path):
    assert main(["verify", str(tmp_path / "missing.json"), "--key",
                 str(keydir / "court-signing.pub")]) == 2
    assert "cannot read the receipt" in capsys.readouterr().err
    assert main(["verify", str(tmp_path / "missing.json"), "--policy",
                 str(tmp_path / "none.toml")]) == 2
    assert "cannot read it" in capsys.readouterr().err


def test_run_receipts_one_per_case_each_verified(keydir, capsys, tmp_path):
    folder = tmp_path / "receipts"
    code = main(["run", str(EXAMPLES), "-k", "age-gate", "--receipts", str(folder),
                 "--signing-key", str(keydir / "court-signing.key"), "--report-dir",
                 str(tmp_path / "reports"), "--plain", "--jobs", "1"])
    assert code == 0
    err = capsys.readouterr().err
    receipts = sorted(folder.rglob("*.receipt.json"))
    assert len(receipts) == 3 and f"receipts: 3 in {folder}" in err
    for r in receipts:
        name = r.name.removesuffix(".receipt.json")
        argv = ["verify", str(r), "--key", str(keydir / "court-signing.pub"), "--source",
                str(EXAMPLES / f"{name}.lspx")]
        if (EXAMPLES / f"{name}.input").exists():
            argv += ["--input", str(EXAMPLES / f"{name}.input")]
        assert main(argv) == 0, capsys.readouterr().out
        capsys.readouterr()


def test_a_case_whose_file_changed_during_the_run_gets_no_receipt(keydir, capsys, tmp_path,
                                                                  monkeypatch):
    from court.cli import run as run_cmd
    from court.cli import vouchers

    def stale(cases):
        # As if the file had been edited between the start of the run and its receipts.
        snapshot = vouchers.read_cases(cases)
        first = sorted(snapshot)[0]
        source, input_text = snapshot[first]
        snapshot[first] = (source + b" ", input_text)
        return snapshot

    monkeypatch.setattr(run_cmd, "read_cases", stale)
    folder = tmp_path / "receipts"
    code = main(["run", str(EXAMPLES), "-k", "age-gate", "--receipts", str(folder),
                 "--signing-key", str(keydir / "court-signing.key"), "--report-dir",
                 str(tmp_path / "reports"), "--plain", "--jobs", "1"])
    err = capsys.readouterr().err
    assert code == 3
    assert "no receipt for 1 case(s) whose files changed during the run" in err
    assert len(list(folder.rglob("*.receipt.json"))) == 2
