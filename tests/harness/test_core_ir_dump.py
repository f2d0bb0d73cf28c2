"""`court core-ir`: each kernel's Core IR id of a program; where two differ, the first node at
which the trees part (its path, its source position, both canonical texts); and the pointer to
it from `court compare` and the FAILURES of `court run`."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from court.cli import main
from court.cli.failures import print_failures
from court.cli.terminal import core_ir_argv, make_term, render
from implementations import kernels

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "corpus" / "examples" / "access-control-delete.lspx"
PROGRAM = "(define (f x) (+ x 1))\n(display (f 2))\n"


def court(capsys, *argv: str) -> tuple[int, str, str]:
    status = main([*argv])
    out, err = capsys.readouterr()
    return status, out, err


@pytest.fixture
def program(tmp_path: Path) -> Path:
    p = tmp_path / "p.lspx"
    p.write_text(PROGRAM, encoding="utf-8")
    return p


def plant(monkeypatch, change) -> None:
    """The topaz kernel reads the program as it does, then ``change`` alters its tree."""
    real = kernels._topaz_core_ir

    def planted(source: bytes, filename: str):
        prog, text = real(source, filename)
        change(prog)
        return prog, text
    monkeypatch.setattr(kernels, "_topaz_core_ir", planted)


def test_the_ids_agree_on_a_corpus_example(capsys) -> None:
    status, out, _ = court(capsys, "core-ir", str(EXAMPLE))
    assert status == 0
    lines = out.splitlines()
    assert lines[0].startswith("tree ") and lines[1].startswith("topaz-tree ")
    ids = {line.split()[-1] for line in lines[:2]}
    assert len(ids) == 1 and len(ids.pop()) == 64
    assert lines[2] == "the Core IR ids agree"


def test_a_planted_leaf_difference_shows_its_path_span_and_both_texts(
        capsys, monkeypatch, program) -> None:
    def change(prog) -> None:
        prog.forms[0].value.body.args[1].value = 2
    plant(monkeypatch, change)
    status, out, _ = court(capsys, "core-ir", str(program), "--json")
    assert status == 1
    result = json.loads(out)
    assert result["agree"] is False
    [d] = result["differences"]
    assert (d["left"], d["right"]) == ("tree", "topaz-tree")
    assert d["form"] == 0 and d["path"] == [0, 0, 2]
    assert d["span"] == f"{program}:1:20"
    assert d["texts"] == {"tree": "(const 1)", "topaz-tree": "(const 2)"}
    status, out, _ = court(capsys, "core-ir", str(program))
    assert status == 1
    assert f"first differing node of tree and topaz-tree: form 0, child 0.0.2 ({program}:1:20)" \
        in out
    assert "  tree        (const 1)" in out and "  topaz-tree  (const 2)" in out


def test_a_node_whose_own_fields_differ_is_the_first_differing_node(
        capsys, monkeypatch, program) -> None:
    def change(prog) -> None:
        prog.forms[0].value.body.tail = False  # the call's children are the same
    plant(monkeypatch, change)
    status, out, _ = court(capsys, "core-ir", str(program), "--json")
    [d] = json.loads(out)["differences"]
    assert status == 1 and d["path"] == [0, 0]
    assert d["texts"]["tree"].startswith("(tail-app (global +)")
    assert d["texts"]["topaz-tree"].startswith("(app (global +)")


def test_a_missing_form_is_a_difference_at_that_form(capsys, monkeypatch, program) -> None:
    plant(monkeypatch, lambda prog: prog.forms.pop())
    status, out, _ = court(capsys, "core-ir", str(program), "--json")
    [d] = json.loads(out)["differences"]
    assert status == 1 and (d["form"], d["path"]) == (1, [])
    assert d["texts"]["topaz-tree"] == "(no form)"


def test_a_long_node_is_cut_around_the_difference(capsys, monkeypatch, tmp_path) -> None:
    p = tmp_path / "long.lspx"
    p.write_text(f"(display (list {' '.join(str(i) for i in range(200))}))\n", encoding="utf-8")

    def change(prog) -> None:
        call = prog.forms[0].args[0]
        call.args.pop()  # one argument fewer: the call itself is the first differing node
        call.parts.pop()
    plant(monkeypatch, change)
    status, out, _ = court(capsys, "core-ir", str(p), "--json")
    [d] = json.loads(out)["differences"]
    assert status == 1 and d["path"] == [1]
    assert d["texts"]["tree"].endswith("(const 198) (const 199))")
    status, out, _ = court(capsys, "core-ir", str(p))
    shown = [line for line in out.splitlines() if line.startswith("  tree ")]
    assert len(shown) == 1 and shown[0].startswith("  tree        …") and len(shown[0]) <= 100
    assert "(const 199))" in shown[0]


def test_a_source_error_is_reported_as_the_kernels_diagnostic(capsys, tmp_path) -> None:
    p = tmp_path / "bad.lspx"
    p.write_text("(display (if))\n", encoding="utf-8")
    status, out, err = court(capsys, "core-ir", str(p), "--json")
    assert status == 1 and err == ""
    result = json.loads(out)
    assert result["agree"] is False and result["differences"] == []
    for m in result["implementations"]:
        assert m["core_ir_id"] is None and m["diagnostic"].startswith(f"E130 {p}:1:10 ")
    status, out, _ = court(capsys, "core-ir", str(p))
    assert status == 1 and f"tree        no Core IR: E130 {p}:1:10" in out


def test_the_json_shape(capsys, program) -> None:
    status, out, _ = court(capsys, "core-ir", str(program), "--impl", "vm,topaz-vm", "--json")
    result = json.loads(out)
    assert status == 0
    assert set(result) == {"program", "implementations", "differences", "agree"}
    assert [m["impl"] for m in result["implementations"]] == ["vm", "topaz-vm"]
    assert all(set(m) == {"impl", "core_ir_id", "diagnostic"} and m["diagnostic"] is None
               for m in result["implementations"])
    assert result["agree"] is True and result["differences"] == []


@pytest.mark.parametrize("argv, message", [
    (["--impl", "tree,nope"], "unknown implementation 'nope'"),
    (["--impl", "tree"], "two or more"),
    (["--impl", "tree,tree"], "twice"),
])
def test_usage_errors_exit_2(capsys, program, argv, message) -> None:
    status, out, err = court(capsys, "core-ir", str(program), *argv)
    assert status == 2 and out == "" and message in err


def test_an_unreadable_program_exits_2(capsys, tmp_path) -> None:
    status, _, err = court(capsys, "core-ir", str(tmp_path / "missing.lspx"))
    assert status == 2 and "cannot read" in err


CORE_IR_DIVERGENCE = {"axis": "core_ir", "values": {"tree": "a", "topaz-vm": "b", "guile": "c"},
                      "groups": [["guile", "tree"], ["topaz-vm"]]}


def test_the_pointer_names_a_built_in_member_of_each_group() -> None:
    assert core_ir_argv(CORE_IR_DIVERGENCE, "p.lspx") == \
        ["court", "core-ir", "p.lspx", "--impl", "tree,topaz-vm"]
    assert core_ir_argv({**CORE_IR_DIVERGENCE, "groups": [["guile"], ["tree"]]}, "p") is None
    assert core_ir_argv({"axis": "values", "values": {}}, "p") is None


def test_compare_output_points_at_court_core_ir(capsys) -> None:
    result = {"status": "completed", "court": "c", "verdict": "disagree",
              "observations": {}, "factions": [["tree"], ["topaz-vm"]],
              "divergence": {**CORE_IR_DIVERGENCE, "groups": [["tree"], ["topaz-vm"]],
                             "values": {"tree": "a", "topaz-vm": "b"}}}
    render(result, make_term(plain=True), program="p.lspx")
    assert "first differing node: court core-ir p.lspx --impl tree,topaz-vm" in \
        capsys.readouterr().out


def test_failures_point_at_court_core_ir(capsys, tmp_path) -> None:
    case = {"id": "x", "outcome": "disagree", "program": str(tmp_path / "x.lspx"),
            "divergence": CORE_IR_DIVERGENCE, "reproduce": ["court", "compare", "x.lspx"]}
    report = {"cases": [case], "summary": {}}
    print_failures(report, make_term(plain=True))
    out = capsys.readouterr().out
    assert "first differing node:" in out
    assert f"court core-ir {tmp_path / 'x.lspx'} --impl tree,topaz-vm" in out.replace(" \\\n", " ")
