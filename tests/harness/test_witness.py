"""The witness (GNU Guile through a prelude), lineages and known differences.

Tests that run Guile skip, saying so, where `guile` is not on PATH (Debian: apt-get install
guile-3.0); everything else (lineage counting, manifests, matching) runs everywhere.
"""

from __future__ import annotations

import json
import os
import shutil
import sys
from pathlib import Path

import pytest

from court.catalog import FIXED_COURTS, builtin_products, load_config, resolve
from court.cli import main
from court.corpus import Case
from court.differences import DifferencesError, KnownDifferences, load
from court.fuzz.subset import SharedSubset
from court.runner import classify
from court.session import CaseResult, CourtSession
from court.verdict import judge
from court.workers.limits import Limits

GUILE = shutil.which("guile")
needs_guile = pytest.mark.skipif(GUILE is None, reason="guile is not on PATH "
                                 "(Debian: apt-get install guile-3.0); the witness cannot run")
ROOT = Path(__file__).resolve().parents[2]
DIFFERENCES = ROOT / "implementations" / "guile" / "known-differences.toml"
KERNEL = {m: "lispex-kernel" for m in ("tree", "vm", "topaz-tree", "topaz-vm")}


def obs(status="ok", values=("1",), code=None, stdout="", uncomparable=()):
    diags = [{"code": code, "phase": "runtime", "message": "", "irritants": [],
              "span": {"file": "p", "line": 1, "column": 1, "start": 0, "end": 1}}] if code else []
    out = {"semantic": {"status": status, "values": list(values), "stdout": stdout,
                        "exit_status": {"ok": 0, "resource": 2}.get(status, 1),
                        "diagnostics": diags, "warnings": [],
                        "resource_outcome": {"status": "within-limits"}},
           "resources": {}, "products": {}}
    if uncomparable:
        out["uncomparable_axes"] = list(uncomparable)
    return out


# ---- lineage -----------------------------------------------------------------------------------

def test_four_builtins_against_one_foreign_member_is_no_majority():
    observations = {m: obs(values=["1"]) for m in KERNEL}
    observations["guile"] = obs(values=["2"])
    v = judge(observations, lineages={**KERNEL, "guile": "guile"})
    assert v.kind == "disagree"
    assert v.suspect["member"] is None and v.suspect["withheld"] is True
    assert "one" in v.suspect["basis"] and "lispex-kernel" in v.suspect["basis"]
    # Counting members instead (no lineages known) would have blamed guile, 4 against 1.
    assert judge(observations).suspect["member"] == "guile"


def test_a_majority_of_independent_lineages_still_gives_a_guess():
    observations = {"tree": obs(values=["1"]), "vm": obs(values=["1"]),
                    "chibi": obs(values=["1"]), "guile": obs(values=["2"])}
    v = judge(observations, lineages={"tree": "lispex-kernel", "vm": "lispex-kernel", "chibi": "chibi",
                             "guile": "guile"})
    assert v.suspect["member"] == "guile" and not v.suspect.get("withheld")
    assert "2 of 3 independent lineages" in v.suspect["basis"]


def test_a_loner_inside_its_own_lineage_counts_members():
    # tree, vm and topaz-vm share the kernel; topaz-tree differs from its siblings, so the
    # difference is in what it does not share, and members count one each.
    observations = {m: obs(values=["1"]) for m in ("tree", "vm", "topaz-vm")}
    observations["topaz-tree"] = obs(values=["2"])
    v = judge(observations, lineages=KERNEL)
    assert v.suspect["member"] == "topaz-tree" and "3 of 4 members" in v.suspect["basis"]


def test_manifests_carry_lineages():
    products = builtin_products()
    assert {products[m].lineage for m in ("tree", "vm")} == {"lispex-kernel"}
    assert {products[m].lineage for m in ("topaz-tree", "topaz-vm")} == {"topaz-kernel"}
    assert products["guile"].lineage == "guile" and products["guile"].requires == ["guile"]
    assert FIXED_COURTS["witness"] == ("tree", "guile")


def test_a_foreign_product_is_its_own_lineage_unless_it_says(tmp_path):
    (tmp_path / "court.toml").write_text(
        '[products.a]\ncommand = ["a"]\n[products.b]\ncommand = ["b"]\nlineage = "shared"\n'
        '[products.c]\ncommand = ["c"]\nlineage = ""\n')
    from court.catalog import ConfigError

    with pytest.raises(ConfigError, match="lineage"):
        load_config(tmp_path / "court.toml")
    (tmp_path / "court.toml").write_text(
        '[products.a]\ncommand = ["a"]\n[products.b]\ncommand = ["b"]\nlineage = "shared"\n')
    config = load_config(tmp_path / "court.toml")
    assert config.products["a"].lineage == "a" and config.products["b"].lineage == "shared"


def test_court_products_json_shows_lineages(capsys):
    assert main(["products", "--json"]) == 0
    r = json.loads(capsys.readouterr().out)
    rows = {p["id"]: p for p in r["products"]}
    assert rows["tree"]["lineage"] == "lispex-kernel" and rows["guile"]["lineage"] == "guile"
    assert set(r["lineages"]["lispex-kernel"]) == {"tree", "vm"}
    assert set(r["lineages"]["topaz-kernel"]) == {"topaz-tree", "topaz-vm"}
    assert r["courts"]["witness"] == ["tree", "guile"]


# ---- availability ------------------------------------------------------------------------------

def test_witness_is_unavailable_without_guile_and_names_the_route(tmp_path):
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    (bin_dir / "python").symlink_to(sys.executable)
    env = dict(os.environ, PATH=str(bin_dir))
    import subprocess

    done = subprocess.run([sys.executable, "-m", "court.cli", "compare",
                           str(ROOT / "corpus/examples/age-gate.lspx"), "--court", "witness",
                           "--json"], capture_output=True, text=True, env=env, timeout=120)
    assert done.returncode == 3, done.stderr
    r = json.loads(done.stdout)
    assert r["status"] == "unavailable" and r["missing_prerequisites"] == ["guile"]
    assert "implementations.guile.worker" in r["attempted_routes"][0]
    assert "'guile' not found on PATH" in r["attempted_routes"][0]


@needs_guile
def test_witness_is_available_with_guile_and_agrees_on_an_example(capsys):
    res = resolve(load_config(search_cwd=False), "witness")
    assert res.available, res.attempted_routes
    code = main(["compare", str(ROOT / "corpus/examples/age-gate.lspx"), "--input-file",
                 str(ROOT / "corpus/examples/age-gate.input"), "--court", "witness", "--json"])
    r = json.loads(capsys.readouterr().out)
    assert code == 0 and r["verdict"] == "agree"
    assert r["lineages"] == {"tree": "lispex-kernel", "guile": "guile"}
    g = r["observations"]["guile"]
    assert g["uncomparable_axes"] == ["diagnostic_code", "diagnostic_phase", "diagnostic_span"]
    assert g["products"]["product_id"].startswith("guile-3")


@needs_guile
def test_compare_names_a_listed_difference_and_does_not_fail_on_it(tmp_path, capsys):
    """`court compare` applies the witness's known differences as `run` and `fuzz` do: the
    members still disagree (the verdict says so), the entry that explains it is named, and the
    exit status is 0; a new difference still fails."""
    listed = tmp_path / "listed.lspx"
    listed.write_text("(expt 0.0 0)\n")
    code = main(["compare", str(listed), "--court", "witness", "--json"])
    r = json.loads(capsys.readouterr().out)
    assert r["verdict"] == "disagree", r
    assert r["known_difference"]["id"] == "expt-zero-exponent-exactness"
    assert r["known_difference"]["member"] == "guile"
    assert code == 0
    code = main(["compare", str(listed), "--court", "witness", "--plain"])
    out = capsys.readouterr().out
    assert code == 0 and "known difference expt-zero-exponent-exactness of guile" in out, out
    agreed = tmp_path / "agreed.lspx"
    agreed.write_text("(+ 1 2)\n")
    assert main(["compare", str(agreed), "--court", "witness", "--json"]) == 0
    assert "known_difference" not in json.loads(capsys.readouterr().out)


@needs_guile
def test_the_witness_sandbox_and_fresh_environment_per_case():
    res = resolve(load_config(search_cwd=False), impls=["guile"])
    with CourtSession(res, Limits(timeout=60)) as s:
        def run(src, inp=None):
            return s.run_case(src.encode(), inp).observations["guile"]["semantic"]

        assert run("(define leaked 41) leaked")["values"] == ["41"]
        assert run("leaked")["status"] == "runtime-error"  # nothing survives a case
        assert run("(set! car 5) car")["values"] == ["5"]
        assert run("(car '(1))")["values"] == ["1"]  # nor does an assignment to a primitive
        for probe in ('(open-file "/etc/passwd" "r")', "(@ (guile) open-file)",
                      "(current-time)", "(primitive-load \"x\")", "(eval 1 #f)",
                      "(system \"true\")"):
            assert run(probe)["status"] == "runtime-error", probe
        out = run('(display "hi") (write "a\\nb") (values 1 2.5 1e21 #\\space)')
        assert out["stdout"] == 'hi"a\\nb"'
        assert out["values"] == ["1", "2.5", "1000000000000000000000.0", "#\\space"]
        assert run("(values)")["values"] == [] and run("(display 1)")["values"] == []
        assert run("(if 1 2)")["status"] == "source-error"
        warned = run("(% 7 3) (list-first '(a))")
        assert [w["code"] for w in warned["warnings"]] == ["W330", "W331"]
        assert run("input", "(age 3)")["values"] == ["(age 3)"]
        # Guile 3.0.8 itself segfaults on these; the prelude refuses them first.
        assert run("(list-ref '(a b) -1)")["status"] == "runtime-error"
        assert run("(+ 1 2)")["values"] == ["3"]


@needs_guile
def test_the_witness_honours_the_output_limit_and_the_deadline():
    res = resolve(load_config(search_cwd=False), impls=["guile"])
    limits = Limits(timeout=3, meter_limits={"output-byte": 100})
    with CourtSession(res, limits) as s:
        sem = s.run_case(b'(define (f) (display "xxxx") (f)) (f)').observations["guile"]
        assert sem["semantic"]["status"] == "resource" and sem["semantic"]["stdout"] == ""
        spin = s.run_case(b"(define (f) (f)) (f)").observations["guile"]
        assert spin["semantic"]["status"] == "infrastructure-error"
        assert spin["faults"][0]["kind"] == "timeout"
        assert s.run_case(b"(+ 1 1)").observations["guile"]["semantic"]["values"] == ["2"]


# ---- known differences -------------------------------------------------------------------------

def test_the_shipped_known_differences_load_and_are_explained():
    entries = load(DIFFERENCES)
    assert len(entries) >= 20
    ids = [d.id for d in entries]
    assert len(ids) == len(set(ids))
    assert {d.side for d in entries} == {"lispex", "witness"}
    assert all(len(d.explain) > 40 for d in entries)


def test_malformed_known_differences_are_refused(tmp_path):
    bad = tmp_path / "d.toml"
    for text, what in [
        ('[[difference]]\nid = "x"\nside = "lispex"\ntitle = "t"\nexplain = "e"\n', "criterion"),
        ('[[difference]]\nid = "x"\nside = "nobody"\ntitle = "t"\nexplain = "e"\n'
         'uses = ["car"]\n', "side"),
        ('[[difference]]\nid = "x"\nside = "lispex"\ntitle = "t"\nexplain = "e"\n'
         'uses = ["car"]\ncolour = 1\n', "unknown keys"),
        ('[[difference]]\nid = "x"\nside = "lispex"\ntitle = "t"\nexplain = "e"\n'
         'source = "("\n', "source"),
    ]:
        bad.write_text(text)
        with pytest.raises(DifferencesError, match=what):
            load(bad)


def known() -> KnownDifferences:
    return KnownDifferences({"guile": load(DIFFERENCES)})


def test_a_listed_difference_matches_by_code_and_answer_and_a_new_one_does_not():
    k = known()
    div = {"tree": obs("runtime-error", [], code="E313"),
           "guile": obs("ok", ["+inf.0"], uncomparable=["diagnostic_code"])}
    assert k.match(div, [["tree"], ["guile"]], "(/ 1 0.0)").id == "no-infinities"
    # The same kernel code, but the witness answered an ordinary number: not this entry.
    odd = {"tree": obs("runtime-error", [], code="E313"), "guile": obs("ok", ["7"])}
    assert k.match(odd, [["tree"], ["guile"]], "(/ 1 0.0)") is None
    # Matching by program feature: uses `module`.
    mod = {"tree": obs("ok", ["9"]), "guile": obs("source-error", [], code="guile:x")}
    assert k.match(mod, [["tree"], ["guile"]], "(module m (export f))\n9").id == \
        "module-header"
    assert k.match(mod, [["tree"], ["guile"]], ";; module\n9") is None  # comments do not count
    # Only when the witness is the one alone in its faction.
    assert k.match(div, [["tree", "guile"]], "(/ 1 0.0)") is None


def test_classify_names_the_known_difference_and_keeps_new_ones_as_disagreements(tmp_path):
    prog = tmp_path / "p.lspx"
    prog.write_text("(/ 1 0.0)")
    case = Case("p", prog, None, tmp_path / "p.expect.toml")
    div = {"tree": obs("runtime-error", [], code="E313"),
           "guile": obs("ok", ["+inf.0"], uncomparable=["diagnostic_code"])}
    result = CaseResult(div, judge(div, {"tree": "lispex-kernel"}), 0.0)
    record = classify(case, result, known(), "(/ 1 0.0)")
    assert (record.outcome, record.known_difference) == ("known-difference", "no-infinities")
    assert classify(case, result, KnownDifferences({"guile": []}), "(/ 1 0.0)").outcome == \
        "disagree"


def test_the_shared_subset_skips_programs_with_listed_features():
    subset = SharedSubset(known())
    assert subset.active
    assert subset.admits("(define (f x) (* x 2)) (f 21)")
    assert subset.excluded_by("(list '+5 1)").id == "symbol-grammar"
    assert subset.excluded_by("(module m (export f)) 1").id == "module-header"
    assert not SharedSubset(KnownDifferences({})).active


@needs_guile
def test_witness_run_over_examples_is_green(tmp_path):
    from court.corpus import discover
    from court.runner import run_cases

    res = resolve(load_config(search_cwd=False), "witness")
    cases = discover([ROOT / "corpus" / "examples"])
    records, faults, complete = run_cases(cases, res, Limits(timeout=60), jobs=1)
    assert complete and not faults
    bad = [(r.case.id, r.outcome) for r in records
           if r.outcome not in ("agree", "known-difference")]
    assert bad == []


def test_the_prelude_binds_exactly_the_lispex_primitives():
    import re

    from implementations.lispex.primitives.table import rows

    text = (ROOT / "implementations/guile/lispex-witness/prelude.scm").read_text("utf-8")
    bound = set(re.findall(r'\("([^"]+)" \. ,', text))
    assert bound == {r.name for r in rows()}


def test_the_comparison_record_carries_core_ir_and_bytecode_ids(capsys, tmp_path):
    p = tmp_path / "p.lspx"
    p.write_text("(define (f x) (* x 2)) (f 21)")
    assert main(["compare", str(p), "--impl", "tree,vm", "--json"]) == 0
    r = json.loads(capsys.readouterr().out)
    vm = r["observations"]["vm"]["products"]
    assert r["core_ir_id"] == vm["core_ir_id"] and len(r["core_ir_id"]) == 64
    assert r["bytecode_id"] == vm["bytecode_id"] and r["bytecode_ids"] == {"vm": vm["bytecode_id"]}
    assert r["lineages"] == {"tree": "lispex-kernel", "vm": "lispex-kernel"}


@needs_guile
def test_court_run_reports_known_differences_and_lineages(tmp_path, capsys):
    corpus = tmp_path / "c"
    corpus.mkdir()
    (corpus / "same.lspx").write_text("(list 1 2.5 \"s\")")
    (corpus / "inf.lspx").write_text("(/ 1 0.0)")  # Lispex E313, Guile +inf.0: listed
    reports = tmp_path / "r"
    code = main(["run", str(corpus), "--court", "witness", "--report-dir", str(reports)])
    assert code == 0, capsys.readouterr()
    report = json.loads((reports / "court-report.json").read_text())
    cases = {c["id"]: c for c in report["cases"]}
    assert cases["same"]["outcome"] == "agree"
    assert (cases["inf"]["outcome"], cases["inf"]["known_difference"]) == \
        ("known-difference", "no-infinities")
    assert {p["id"]: p["lineage"] for p in report["products"]} == \
        {"tree": "lispex-kernel", "guile": "guile"}
    assert "| guile | guile |" in (reports / "summary.md").read_text()
    import jsonschema

    schema = json.loads((ROOT / "docs/schemas/court-report.schema.json").read_text())
    jsonschema.validate(report, schema)
