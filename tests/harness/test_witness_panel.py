"""The panel: Chez Scheme and MIT Scheme beside Guile, each a lineage of its own, and the known
differences that keep a healthy panel quiet without hiding a kernel bug.

Tests that run a Scheme skip, saying so, where its binary is not on PATH; the rest (manifests,
matching on a panel) runs everywhere.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from seeded_products import FAKES

from court.catalog import FIXED_COURTS, builtin_products, load_config, resolve
from court.cli import main
from court.differences import KnownDifferences, load
from court.fuzz.campaign import Campaign
from court.fuzz.generate import Case
from court.session import CourtSession
from court.workers.limits import Limits

ROOT = Path(__file__).resolve().parents[2]
WITNESSES = {"guile": ("guile",), "chez": ("scheme", "chezscheme"), "mit": ("mit-scheme",)}
PACKAGES = {"guile": "guile-3.0", "chez": "chezscheme", "mit": "mit-scheme"}


def needs(witness: str):
    found = any(shutil.which(b) for b in WITNESSES[witness])
    return pytest.mark.skipif(not found, reason=f"{' or '.join(WITNESSES[witness])} is not on "
                              f"PATH (Debian: apt-get install {PACKAGES[witness]}); the {witness} "
                              "witness cannot run")


def each_witness(*names: str):
    return pytest.mark.parametrize("witness", [pytest.param(w, marks=needs(w)) for w in names])


def obs(status="ok", values=("1",), code=None):
    diags = [{"code": code, "phase": "runtime", "message": "", "irritants": [], "span": None}] \
        if code else []
    return {"semantic": {"status": status, "values": list(values), "stdout": "",
                         "exit_status": 0 if status == "ok" else 1, "diagnostics": diags,
                         "warnings": [], "resource_outcome": {"status": "within-limits"}},
            "resources": {}, "products": {}}


# ---- the court and its manifests ---------------------------------------------------------------

def test_the_panel_holds_one_member_of_each_builtin_lineage_and_every_witness():
    products = builtin_products()
    assert FIXED_COURTS["panel"] == ("tree", "topaz-vm", "guile", "chez", "mit")
    for w in ("guile", "chez", "mit"):
        p = products[w]
        assert p.lineage == w and p.worker_module == f"implementations.{w}.worker"
        entries = load(p.known_differences)
        ids = {d.id for d in entries}
        # Lispex's own rules come from the file every witness includes, its own entries after.
        assert {"reader-char-literal-delimiter", "no-infinities", "letrec-is-sequential"} <= ids
        assert f"{w}-fault-messages" in ids and f"{w}-fault-objects-written" in ids
        assert all(d.explain and d.title for d in entries)


def test_no_reader_entry_excuses_a_reader_error_on_its_own():
    """Every entry about a Lispex reader error names the construct it is about (a pattern of
    the program's text, or the one corpus case that pins it), so a reader that refuses valid
    syntax is still caught."""
    rules = load(ROOT / "implementations" / "witness" / "lispex-rules.toml")
    reader = [d for d in rules if set(d.lispex_codes) & {"E100", "E140", "E150"}]
    assert reader and all(d.source is not None or d.uses or d.cases for d in reader)
    hex_char = "(list #\\x41 #\\space #\\a)"
    assert not any(d.source is not None and d.source.search(hex_char) for d in reader)


# ---- availability ------------------------------------------------------------------------------

@pytest.mark.parametrize("witness", sorted(WITNESSES))
def test_a_witness_is_unavailable_without_its_binary_and_says_where_it_looked(
        witness, tmp_path, monkeypatch):
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    (bin_dir / "python3").symlink_to(sys.executable)
    monkeypatch.setenv("PATH", str(bin_dir))
    res = resolve(load_config(search_cwd=False), impls=["tree", witness])
    assert not res.available and res.missing == [witness]
    route = res.attempted_routes[0]
    assert f"implementations.{witness}.worker" in route
    assert "not found on PATH" in route
    # The worker started anyway (by hand) answers its hello with the routes it tried.
    done = subprocess.run([sys.executable, "-m", f"implementations.{witness}.worker"],
                          input='{"id": 1, "op": "hello"}\n', capture_output=True, text=True,
                          env=dict(os.environ, PATH=str(bin_dir), PYTHONPATH=str(ROOT)),
                          timeout=60)
    reply = json.loads(done.stdout)
    assert reply["ok"] is False and reply["error"]["kind"] == "build"
    for binary in WITNESSES[witness]:
        assert repr(binary) in reply["error"]["message"]
    assert PACKAGES[witness] in reply["error"]["message"]


@each_witness("chez", "mit")
def test_a_witness_with_its_binary_is_available_and_agrees_on_an_example(witness, capsys):
    res = resolve(load_config(search_cwd=False), impls=["tree", witness])
    assert res.available, res.attempted_routes
    code = main(["compare", str(ROOT / "corpus/examples/age-gate.lspx"), "--input-file",
                 str(ROOT / "corpus/examples/age-gate.input"), "--impl", f"tree,{witness}",
                 "--json"])
    r = json.loads(capsys.readouterr().out)
    assert code == 0 and r["verdict"] == "agree", r
    assert r["lineages"][witness] == witness
    o = r["observations"][witness]
    assert o["uncomparable_axes"] == ["diagnostic_code", "diagnostic_phase", "diagnostic_span"]
    assert o["products"]["product_id"].startswith(f"{witness}-")


# ---- the preludes ------------------------------------------------------------------------------

@each_witness("chez", "mit")
def test_each_case_starts_from_a_fresh_environment_in_a_sandbox(witness):
    res = resolve(load_config(search_cwd=False), impls=[witness])
    with CourtSession(res, Limits(timeout=60)) as s:
        def run(src, inp=None):
            return s.run_case(src.encode(), inp).observations[witness]["semantic"]

        assert run("(define leaked 41) leaked")["values"] == ["41"]
        assert run("leaked")["status"] == "runtime-error"  # nothing survives a case
        assert run("(define (f) (set! inner 1)) (define inner 0) (f) inner")["values"] == ["1"]
        assert run("inner")["status"] == "runtime-error"
        assert run("(set! car 5) car")["values"] == ["5"]
        assert run("(car '(1))")["values"] == ["1"]  # nor does an assignment to a primitive
        assert run("(define list 3) list")["values"] == ["3"]
        assert run("(list 1 2)")["values"] == ["(1 2)"]
        assert run("input", "(age 3)")["values"] == ["(age 3)"]
        assert run("input")["status"] == "runtime-error"
        for probe in ('(open-input-file "/etc/passwd")', "(eval 1)", "(exit 0)",
                      "(system \"true\")", "(current-time)", "(load \"x\")",
                      "(the-environment)", "(system-global-environment)",
                      "(interaction-environment)"):
            assert run(probe)["status"] == "runtime-error", probe
        out = run('(display "hi") (write "a\\nb") (values 1 2.5 1e21 0.5 -0.0 #\\space)')
        assert out["stdout"] == 'hi"a\\nb"'
        assert out["values"] == ["1", "2.5", "1000000000000000000000.0", "0.5", "-0.0",
                                 "#\\space"]
        assert run("(values)")["values"] == [] and run("(display 1)")["values"] == []
        assert run("(define x 1)")["values"] == [] and run("(when #f 1)")["values"] == []
        assert run("(if 1 2)")["status"] == "source-error"
        assert run("(display 1) (if 1 2)")["stdout"] == ""  # expanded before it runs
        assert run("(define-syntax m 1)")["status"] == "source-error"
        warned = run("(% 7 3) (list-first '(a))")
        assert [w["code"] for w in warned["warnings"]] == ["W330", "W331"]
        assert run("(define (f) 1) (list f car first)")["values"] == \
            ["(#<procedure f> #<procedure car> #<procedure car>)"]
        # A runaway recursion is a resource outcome, and the witness lives on.
        assert run("(define (f n) (+ 1 (f n))) (f 1)")["status"] == "resource"
        assert run("(+ 1 2)")["values"] == ["3"]


@each_witness("guile", "chez", "mit")
def test_the_output_limit_holds_and_the_witness_lives_on(witness):
    res = resolve(load_config(search_cwd=False), impls=[witness])
    with CourtSession(res, Limits(timeout=60, meter_limits={"output-byte": 100})) as s:
        sem = s.run_case(b'(define (f) (display "xxxx") (f)) (f)').observations[witness]
        assert sem["semantic"]["status"] == "resource" and sem["semantic"]["stdout"] == ""
        assert s.run_case(b"(+ 1 1)").observations[witness]["semantic"]["values"] == ["2"]


@each_witness("guile", "chez", "mit")
def test_a_spin_under_a_transition_limit_is_a_resource_outcome_not_a_deadline(witness):
    """A Scheme counts no transitions: under a machine-transition limit it gets a time budget
    (at least 3 s) and then the resource outcome `time-budget`, long before the court's
    deadline; the next case runs on a fresh Scheme."""
    res = resolve(load_config(search_cwd=False), impls=[witness])
    with CourtSession(res, Limits(timeout=120, meter_limits={"machine-transition": 1000})) as s:
        spin = s.run_case(b"(define (f) (f)) (f)").observations[witness]
        assert spin["semantic"]["status"] == "resource", spin
        assert spin["semantic"]["resource_outcome"]["limit"] == "time-budget"
        assert s.run_case(b"(+ 1 1)").observations[witness]["semantic"]["values"] == ["2"]


# ---- known differences on a panel --------------------------------------------------------------

@pytest.mark.parametrize("witness,program,entry", [
    pytest.param("guile", "(make-bytevector 2 -2)", "guile-make-bytevector-fill",
                 marks=needs("guile")),
    pytest.param("chez", "(make-bytevector 2 -2)", "chez-make-bytevector-fill",
                 marks=needs("chez")),
    pytest.param("mit", "(guard (e (#t e)) (car 1))", "mit-fault-objects-written",
                 marks=needs("mit")),
])
def test_one_listed_difference_per_witness_is_matched(witness, program, entry, tmp_path,
                                                      capsys):
    p = tmp_path / "p.lspx"
    p.write_text(program + "\n")
    code = main(["compare", str(p), "--impl", f"tree,{witness}", "--json"])
    r = json.loads(capsys.readouterr().out)
    assert r["verdict"] == "disagree", r
    assert r["known_difference"]["id"] == entry and r["known_difference"]["member"] == witness
    assert code == 0


def test_on_a_panel_every_witness_apart_from_lispex_needs_an_entry_of_its_own():
    rules = load(ROOT / "implementations" / "witness" / "lispex-rules.toml")
    known = KnownDifferences({"guile": rules, "chez": rules, "mit": []})
    lispex = obs("ok", ["0"])
    scheme = obs("runtime-error", [], code="x:error")
    observations = {"tree": lispex, "topaz-vm": lispex, "guile": scheme, "chez": scheme,
                    "mit": lispex}
    factions = [["tree", "topaz-vm", "mit"], ["guile", "chez"]]
    src = "(letrec ((a 0) (b a)) b)"
    assert known.match(observations, factions, src).id == "letrec-is-sequential"
    # mit stands apart too, and its file (here empty) does not explain it: a finding.
    observations["mit"] = scheme
    assert known.match(observations, [["tree", "topaz-vm"], ["guile", "chez", "mit"]],
                       src) is None
    # The Lispex members split: no list excuses that.
    observations["mit"] = lispex
    observations["topaz-vm"] = obs("ok", ["1"])
    assert known.match(observations, [["tree", "mit"], ["topaz-vm"], ["guile", "chez"]],
                       src) is None


@pytest.mark.parametrize("witness", [pytest.param(w, marks=needs(w))
                                     for w in ("guile", "chez", "mit")])
def test_a_reader_bug_that_refuses_valid_syntax_is_caught_by_each_witness(witness, tmp_path,
                                                                         capsys):
    """A planted kernel bug: the tree's reader refuses the hex character literal #\\x41 (E150).
    The witness court disagrees and no known difference explains it away."""
    config = tmp_path / "court.toml"
    config.write_text(f"""
[products.seeded]
command = ["{sys.executable}", "{FAKES / 'seeded_worker.py'}", "--bug", "hex-char"]
protocol = "court-worker/v1"
lineage = "lispex-kernel"
[courts.planted]
members = ["seeded", "{witness}"]
""")
    program = tmp_path / "hex.lspx"
    program.write_text("(list #\\x41 #\\a)\n")
    code = main(["compare", str(program), "--config", str(config), "--court", "planted",
                 "--json"])
    r = json.loads(capsys.readouterr().out)
    assert r["verdict"] == "disagree" and "known_difference" not in r, r
    assert r["observations"]["seeded"]["semantic"]["diagnostics"][0]["code"] == "E150"
    assert r["observations"][witness]["semantic"]["values"] == ["(#\\A #\\a)"]
    assert code == 1
    # A character literal Lispex does refuse (no delimiter after it) stays a listed difference.
    program.write_text("(list #\\ab)\n")
    main(["compare", str(program), "--config", str(config), "--court", "planted", "--json"])
    r = json.loads(capsys.readouterr().out)
    if r["verdict"] == "disagree":
        assert r["known_difference"]["id"] == "reader-char-literal-delimiter", r


# ---- findings ----------------------------------------------------------------------------------

def test_two_bugs_with_one_coarse_signature_are_two_findings(tmp_path):
    """On a court of two members every value difference has the same coarse signature; two
    bugs seen that way are still two findings when their minimised programs differ."""
    config = tmp_path / "court.toml"
    config.write_text(f"""
[products.seeded]
command = ["{sys.executable}", "{FAKES / 'seeded_worker.py'}", "--bug", "quotient,list-tail"]
protocol = "court-worker/v1"
[courts.buggy]
members = ["tree", "seeded"]
""")
    res = resolve(load_config(config), "buggy")
    session = CourtSession(res, Limits(timeout=30, profile="lispex-generated-11088/v1"), jobs=2)
    try:
        c = Campaign([session], None, {}, reduce_seconds=600, seed=1, corpus=None,
                     mutate_percent=0, reduce_tests=200)
        first = Case("(write (quotient -7 2))\n", None, (), True)
        second = Case("(write (list-tail (list 1 2 3) 1))\n", None, (), True)
        found = [c.examine(case) for case in (first, second, first)]
    finally:
        session.close()
    assert found[0] is not None and found[1] is not None, c.stats
    assert found[0].signature == found[1].signature  # one coarse signature, two bugs
    assert found[0].id != found[1].id  # each its own name, so its own file
    assert found[2] is None and c.stats.duplicates == 1 and len(c.stats.findings) == 2


def test_a_finding_says_which_lineages_stood_where():
    from court.cli.fuzzing import lineage_stands

    lineages = {"tree": "lispex-kernel", "topaz-vm": "lispex-kernel", "guile": "guile",
                "chez": "chez", "mit": "mit"}
    assert lineage_stands([["topaz-vm", "tree"], ["chez", "guile"], ["mit"]], lineages) == \
        "lispex-kernel (topaz-vm, tree) | chez, guile | mit"
    assert lineage_stands([["tree"], ["vm"]], {"tree": "k", "vm": "k"}) == ""
