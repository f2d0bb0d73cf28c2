"""`court compare` end to end: real worker subprocesses, real foreign products."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from court.catalog import load_config, resolve
from court.cli import main
from court.session import CourtSession
from court.workers.limits import Limits
from implementations import registry

BOTH = "tree,vm" if "vm" in registry.ids() else "tree"


def run_json(capsys, *argv: str) -> tuple[int, dict]:
    code = main(["compare", *argv, "--json"])
    out = capsys.readouterr().out
    return code, json.loads(out)


def program(tmp_path: Path, text: str, name: str = "p.lspx") -> str:
    path = tmp_path / name
    path.write_text(text)
    return str(path)


def test_agreement_on_the_base_court(tmp_path, capsys):
    p = program(tmp_path, "(define (f n) (if (< n 2) n (+ (f (- n 1)) (f (- n 2))))) (f 15)")
    code, result = run_json(capsys, p, "--impl", BOTH)
    assert code == 0
    assert result["schema"] == "lispex.court-result/v1"
    assert result["verdict"] == "agree"
    for obs in result["observations"].values():
        assert obs["semantic"]["values"] == ["610"]
        assert obs["products"]["product_id"]
        assert obs["resources"]["peak_rss_bytes"] > 0
        assert obs["resources"]["cpu_seconds"] >= 0
    assert result["core_ir_id"]


def test_seeded_bug_is_a_disagreement(tmp_path, capsys, court_toml):
    p = program(tmp_path, "(display (quotient -7 2)) (quotient 7 2)")
    code, result = run_json(capsys, p, "--court", "seeded", "--config", str(court_toml))
    assert code == 1
    assert result["verdict"] == "disagree"
    assert result["divergence"]["axis"] == "stdout"
    assert result["divergence"]["values"] == {"tree": "-3", "buggy": "-4"}
    assert sorted(map(sorted, result["factions"])) == [["buggy"], ["tree"]]
    assert result["details"]["confirmed"] is True


def test_seeded_bug_hidden_when_not_exercised(tmp_path, capsys, court_toml):
    p = program(tmp_path, "(quotient 7 2)")
    code, result = run_json(capsys, p, "--court", "seeded", "--config", str(court_toml))
    assert (code, result["verdict"]) == (0, "agree")


def test_input_reaches_foreign_products(tmp_path, capsys, court_toml):
    p = program(tmp_path, "(car input)")
    code, result = run_json(capsys, p, "--court", "seeded", "--config", str(court_toml),
                            "--input", "(41 2)")
    assert code == 0
    assert {o["semantic"]["values"][0] for o in result["observations"].values()} == {"41"}


def test_worker_that_dies_mid_case_is_a_member_fault_only_for_it(tmp_path, court_toml):
    config = load_config(court_toml)
    res = resolve(config, "flaky")
    with CourtSession(res, Limits(timeout=5)) as session:
        first = session.run_case(b"(display 'die-now) 1")
        assert first.verdict.kind == "member-fault"
        assert first.observations["tree"]["semantic"]["status"] == "ok"
        fake = first.observations["fake"]
        assert fake["semantic"]["status"] == "infrastructure-error"
        assert fake["faults"][0]["kind"] == "crash"
        # The next case runs, on a respawned worker.
        second = session.run_case(b"(+ 1 2)")
        assert second.verdict.kind == "agree"


def test_hanging_worker_is_stopped_at_the_timeout(tmp_path, court_toml):
    config = load_config(court_toml)
    res = resolve(config, "flaky")
    with CourtSession(res, Limits(timeout=1.0)) as session:
        case = session.run_case(b"'hang-now")
        fake = case.observations["fake"]
        assert fake["faults"][0]["kind"] == "timeout"
        assert fake["resources"]["court_wall_seconds"] < 10  # the re-run's longer clock: 3 s
        assert case.verdict.kind == "member-fault"
        assert session.run_case(b"(* 6 7)").verdict.kind == "agree"


def test_garbage_on_the_protocol_stream_is_a_protocol_fault(court_toml):
    res = resolve(load_config(court_toml), "flaky")
    with CourtSession(res, Limits(timeout=5)) as session:
        case = session.run_case(b"'garbage-now")
        assert case.observations["fake"]["faults"][0]["kind"] == "protocol"


def test_grandchildren_are_killed_with_the_worker(court_toml):
    res = resolve(load_config(court_toml), "flaky")
    with CourtSession(res, Limits(timeout=1.0)) as session:
        case = session.run_case(b"'(spawn-child hang-now)")
        assert case.observations["fake"]["faults"][0]["kind"] == "timeout"
    # the autouse no_orphans fixture checks that the sleeping grandchild is gone


def test_lispex_cli_protocol_compares_what_it_can(tmp_path, capsys, court_toml):
    p = program(tmp_path, "(display \"hi\") (newline) (values 1 2)")
    code, result = run_json(capsys, p, "--impl", "tree,cli", "--config", str(court_toml))
    assert result["verdict"] == "agree", result
    assert "stdout" in result["details"]["uncompared_axes"]
    assert "values" in result["details"]["uncompared_axes"]
    p2 = program(tmp_path, "(car '())", "err.lspx")
    code, result = run_json(capsys, p2, "--impl", "tree,cli", "--config", str(court_toml))
    assert result["verdict"] == "agree"
    cli = result["observations"]["cli"]["semantic"]
    assert cli["status"] == "runtime-error" and cli["diagnostics"][0]["code"] == "E310"


def test_unavailable_court_names_what_is_missing(tmp_path, capsys):
    p = program(tmp_path, "1")
    config = tmp_path / "ghost.toml"
    config.write_text('[products.broken]\ncommand = ["/nonexistent/lispex"]\n'
                      'protocol = "lispex-cli"\n'
                      '[courts.ghost]\nmembers = ["tree", "ghost", "broken"]\n')
    code, result = run_json(capsys, p, "--court", "ghost", "--config", str(config))
    assert code == 3
    assert result["status"] == "unavailable"
    assert result["missing_prerequisites"] == ["ghost", "broken"]
    routes = " ".join(result["attempted_routes"])
    assert "ghost: no manifest" in routes and "/nonexistent/lispex" in routes
    assert result["verdict"] is None


def test_resource_outcome_is_not_comparable(tmp_path, capsys):
    p = program(tmp_path, "(define (f) (f)) (f)")
    code, result = run_json(capsys, p, "--impl", BOTH, "--limit", "machine-transition=500")
    assert result["verdict"] in ("not-comparable", "agree")
    if result["verdict"] == "not-comparable":
        assert code == 0
        assert any("resource limit" in r for r in result["reasons"])
        assert main(["compare", p, "--impl", BOTH, "--limit", "machine-transition=500",
                     "--strict", "--json"]) == 1
        capsys.readouterr()


@pytest.mark.parametrize("argv", [
    ["compare", "/nonexistent/program.lspx"],
    ["compare", "PROGRAM", "--court", "no-such-court"],
    ["compare", "PROGRAM", "--limit", "bogus"],
    ["compare", "PROGRAM", "--input", "(1 2"],
    ["compare", "PROGRAM", "--config", "/nonexistent/court.toml"],
])
def test_usage_errors_exit_2_with_one_line(tmp_path, argv):
    p = program(tmp_path, "1")
    argv = [p if a == "PROGRAM" else a for a in argv]
    done = subprocess.run([sys.executable, "-m", "court.cli", *argv], capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 2, done
    assert len(done.stderr.strip().splitlines()) == 1, done.stderr
    assert "Traceback" not in done.stderr


def test_products_lists_availability(capsys):
    assert main(["products", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    ids = {p["id"]: p for p in data["products"]}
    assert ids["tree"]["available"] is True
    assert data["courts"]["tree-rust"] == ["tree", "vm"]
