"""Factions, meter-model splits, lineage verdicts and the suspect (court/verdict.py,
court/suspect.py).

Pure `judge` tests pin each case on hand-made observations, with the lineages a court would pass
(the Topaz members as a lineage of their own, as a foreign lineage from a court.toml can be
today); the end-to-end tests run a seeded vm (bench/seeded_bugs/worker.py) and the meter fake
(tests/harness/fakes/meter_worker.py) through `court compare --json`.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from court.catalog import load_config, resolve
from court.cli import main
from court.fuzz.campaign import Campaign
from court.fuzz.case import Case
from court.session import CaseResult, CourtSession
from court.verdict import judge
from court.workers.limits import Limits

ROOT = Path(__file__).resolve().parents[2]
FAKES = Path(__file__).resolve().parent / "fakes"
FOUR = ("tree", "vm", "topaz-tree", "topaz-vm")
MODELS = {"tree": "lispex-transitions/v1", "vm": "lispex-transitions/v1",
          "topaz-tree": "topaz-tree/v1", "topaz-vm": "topaz-vm/v1"}
ONE_KERNEL = {m: "lispex-kernel" for m in FOUR}
TWO_KERNELS = {"tree": "lispex-kernel", "vm": "lispex-kernel",
               "topaz-tree": "topaz-kernel", "topaz-vm": "topaz-kernel"}


def obs(values=("1",), transitions=50, core_ir="ir-a"):
    return {"semantic": {"status": "ok", "values": list(values), "stdout": "", "exit_status": 0,
                         "diagnostics": [], "warnings": [],
                         "resource_outcome": {"status": "within-limits"}},
            "resources": {"usage": {"tokens": 5, "machine_transitions": transitions}},
            "products": {"core_ir_id": core_ir} if core_ir else {}}


def four(odd=(), transitions=None):
    """all-four with the members in ``odd`` answering 2 where the others answer 1; the tree/vm
    model's counts as given (a vm whose values differ counts differently too)."""
    counts = transitions or {"tree": 50, "vm": 50, "topaz-tree": 7, "topaz-vm": 9}
    return {m: obs(values=["2" if m in odd else "1"], transitions=counts[m]) for m in FOUR}


def factions(v):
    return sorted(sorted(f) for f in v.factions)


# ---- factions across meter models --------------------------------------------------------------

@pytest.mark.parametrize("lineages", [ONE_KERNEL, TWO_KERNELS], ids=["one-kernel", "two-kernels"])
@pytest.mark.parametrize("member", FOUR)
def test_a_lone_value_bug_in_any_member_names_that_member(member, lineages):
    counts = {"tree": 50, "vm": 50, "topaz-tree": 7, "topaz-vm": 9}
    counts[member] += 3  # wrong values, and a tree/vm count that differs with them
    v = judge(four(odd=[member], transitions=counts), MODELS, lineages)
    assert v.kind == "disagree" and v.divergence["axis"] == "values"
    assert factions(v) == sorted([sorted(m for m in FOUR if m != member), [member]])
    assert v.model_splits == []  # tree and vm are in different factions already
    assert v.suspect["member"] == member and v.suspect["certain"] is False
    if lineages is TWO_KERNELS:
        assert "alone against its own lineage" in v.suspect["basis"]


def test_the_vm_value_bug_does_not_leave_the_tree_standing_alone():
    # apply spreading its list before the leading arguments: only the vm is wrong, and its
    # count differs from the tree's with its values. The tree agrees with the Topaz members
    # on every axis it shares with them.
    v = judge(four(odd=["vm"], transitions={"tree": 50, "vm": 61, "topaz-tree": 7,
                                            "topaz-vm": 9}), MODELS, TWO_KERNELS)
    assert factions(v) == [["topaz-tree", "topaz-vm", "tree"], ["vm"]]
    assert v.suspect["member"] == "vm"


def test_a_meter_only_bug_in_the_vm_is_a_split_inside_the_model():
    v = judge(four(transitions={"tree": 50, "vm": 49, "topaz-tree": 7, "topaz-vm": 9}),
              MODELS, TWO_KERNELS)
    assert v.kind == "disagree" and v.divergence["axis"] == "meters"
    assert v.divergence["meter_model"] == "lispex-transitions/v1"
    assert factions(v) == [sorted(FOUR)]  # no semantic faction
    assert v.model_splits == [{"meter_model": "lispex-transitions/v1", "axis": "meters",
                               "groups": [["tree"], ["vm"]]}]
    assert v.suspect is None  # one against one inside the model
    assert v.signature() != judge(four(transitions={"tree": 50, "vm": 48, "topaz-tree": 7,
                                                    "topaz-vm": 9}), MODELS).signature()


# ---- lineage against lineage -------------------------------------------------------------------

def test_two_lineages_against_each_other_get_no_guess_and_are_named():
    v = judge(four(odd=["topaz-tree", "topaz-vm"]), MODELS, TWO_KERNELS)
    assert v.kind == "disagree" and v.divergence["axis"] == "values"
    assert factions(v) == [["topaz-tree", "topaz-vm"], ["tree", "vm"]]
    s = v.suspect
    assert s["member"] is None and s["withheld"] is True
    assert s["lineages"] == {"lispex-kernel": ["tree", "vm"],
                             "topaz-kernel": ["topaz-tree", "topaz-vm"]}
    assert s["basis"].startswith("lineage against lineage on values: ")
    assert "lispex-kernel (tree, vm)" in s["basis"] and \
        "topaz-kernel (topaz-tree, topaz-vm)" in s["basis"]


def test_an_independent_voice_turns_lineage_against_lineage_into_a_guess():
    observations = four(odd=["tree", "vm"])
    observations["guile"] = obs(values=["1"], core_ir=None)
    v = judge(observations, MODELS, {**TWO_KERNELS, "guile": "guile"}, {"guile"})
    s = v.suspect
    assert s["member"] is None and s["members"] == ["tree", "vm"]
    assert s["odd"] == "lineage" and s["lineages"] == ["lispex-kernel"]
    assert "2 of 3 independent lineages" in s["basis"] and "kernel suspect" in s["basis"]
    assert not s.get("withheld") and not s.get("candidate_known_difference")
    # A third lineage of built-ins is an independent voice too.
    third = four(odd=["tree", "vm"])
    third["chibi"] = obs(values=["1"], core_ir=None)
    assert judge(third, MODELS, {**TWO_KERNELS, "chibi": "chibi"}).suspect["members"] == \
        ["tree", "vm"]


def test_a_member_against_its_siblings_and_every_other_lineage_is_the_suspect():
    observations = four(odd=["topaz-vm"])
    observations["guile"] = obs(values=["1"], core_ir=None)
    v = judge(observations, MODELS, {**TWO_KERNELS, "guile": "guile"}, {"guile"})
    assert v.suspect["member"] == "topaz-vm"
    assert "alone against its own lineage (topaz-kernel)" in v.suspect["basis"]


# ---- the panel: built-ins and witnesses --------------------------------------------------------

PANEL = {"tree": "lispex-kernel", "topaz-vm": "topaz-kernel", "guile": "guile", "chez": "chez",
         "mit": "mit"}
WITNESSES = {"guile", "chez", "mit"}


def panel(odd):
    return {m: obs(values=["2" if m in odd else "1"], core_ir=None if m in WITNESSES else "ir")
            for m in PANEL}


def test_the_built_ins_against_every_witness_are_the_odd_ones():
    v = judge(panel(odd=["tree", "topaz-vm"]), None, PANEL, WITNESSES)
    s = v.suspect
    assert s["odd"] == "built-ins" and s["members"] == ["topaz-vm", "tree"]
    assert "every witness that answered" in s["basis"] and "kernel suspect" in s["basis"]
    assert v.candidate_known_difference is None and v.finding
    # A witness that did not answer is not needed: the others still stand together.
    some = panel(odd=["tree", "topaz-vm"])
    some["mit"]["semantic"].update(status="infrastructure-error", values=[], exit_status=None)
    some["mit"]["faults"] = [{"kind": "crash", "message": "segfault"}]
    assert judge(some, None, PANEL, WITNESSES).suspect["odd"] == "built-ins"


def test_one_witness_alone_is_the_suspect_and_a_candidate_known_difference():
    v = judge(panel(odd=["mit"]), None, PANEL, WITNESSES)
    s = v.suspect
    assert s["member"] == "mit" and s["odd"] == "witness"
    assert s["candidate_known_difference"] is True and "not a finding" in s["basis"]
    assert v.candidate_known_difference == "mit"
    # The witness court (one built-in, one witness) is one voice against one: no guess.
    two = {m: o for m, o in panel(odd=["guile"]).items() if m in ("tree", "guile")}
    w = judge(two, None, PANEL, WITNESSES)
    assert w.suspect is None and w.candidate_known_difference is None


def test_the_campaign_counts_a_lone_witness_as_a_candidate_not_a_finding():
    res = resolve(load_config(None), "tree-rust")
    with CourtSession(res, Limits(timeout=30)) as session:
        c = Campaign(session, None, {}, seed=1)
        observations = panel(odd=["mit"])
        case = Case("(list 1)", None, (), False)
        verdict = judge(observations, None, PANEL, WITNESSES)
        assert c.examine(case, CaseResult(observations, verdict, 0.0)) is None
    assert c.stats.candidate_differences == 1 and c.stats.findings == []


# ---- the Core IR axis --------------------------------------------------------------------------

def test_a_core_ir_difference_across_lineages_is_its_own_axis():
    observations = four()
    for m in ("topaz-tree", "topaz-vm"):
        observations[m]["products"]["core_ir_id"] = "ir-b"
    v = judge(observations, MODELS, TWO_KERNELS)
    assert v.kind == "disagree" and v.divergence["axis"] == "core_ir"
    assert v.divergence["groups"] == [["tree", "vm"], ["topaz-tree", "topaz-vm"]]
    assert v.divergence["values"]["tree"] == "ir-a"
    assert factions(v) == [sorted(FOUR)]
    assert "core_ir" in v.axes and v.axes.index("core_ir") > v.axes.index("diagnostic_span")
    assert v.suspect["withheld"] is True and "on core_ir" in v.suspect["basis"]
    # Within one lineage the front end is shared: not the axis's to judge.
    assert judge(observations, MODELS, ONE_KERNEL).kind == "agree"


def test_a_core_ir_difference_never_hides_a_semantic_one():
    observations = four(odd=["topaz-tree", "topaz-vm"])
    for m in ("topaz-tree", "topaz-vm"):
        observations[m]["products"]["core_ir_id"] = "ir-b"
    v = judge(observations, MODELS, TWO_KERNELS)
    assert v.divergence["axis"] == "values"
    assert v.to_json()["core_ir_groups"] == [["tree", "vm"], ["topaz-tree", "topaz-vm"]]
    # ... nor hides behind a split inside a meter model: it explains one.
    split = four(transitions={"tree": 50, "vm": 49, "topaz-tree": 7, "topaz-vm": 9})
    split["topaz-vm"]["products"]["core_ir_id"] = "ir-b"
    assert judge(split, MODELS, TWO_KERNELS).divergence["axis"] == "core_ir"


# ---- end to end --------------------------------------------------------------------------------

def _config(tmp_path: Path) -> Path:
    py = sys.executable
    worker = ROOT / "bench" / "seeded_bugs" / "worker.py"
    path = tmp_path / "court.toml"
    path.write_text(f"""
[products.vm-apply-bug]
command = ["{py}", "{worker}", "--bug", "apply-spreads-second", "--impl", "vm"]
meter_model = "lispex-transitions/v1"
lineage = "lispex-kernel"
[products.tree-meter-bug]
command = ["{py}", "{FAKES / 'meter_worker.py'}", "--mode", "meters"]
meter_model = "lispex-transitions/v1"
lineage = "lispex-kernel"
[courts.four-vm-bug]
members = ["tree", "vm-apply-bug", "topaz-tree", "topaz-vm"]
[courts.four-meter-bug]
members = ["tree-meter-bug", "vm", "topaz-tree", "topaz-vm"]
""")
    return path


def _compare(tmp_path, capsys, court, source):
    program = tmp_path / "p.lspx"
    program.write_text(source)
    code = main(["compare", str(program), "--court", court, "--config", str(_config(tmp_path)),
                 "--json"])
    return code, json.loads(capsys.readouterr().out)


def test_court_compare_names_the_vm_for_its_apply_bug(tmp_path, capsys):
    code, r = _compare(tmp_path, capsys, "four-vm-bug",
                       "(display (apply list 1 '(2 3) '(4 5)))\n(newline)\n")
    assert code == 1 and r["verdict"] == "disagree"
    assert sorted(map(sorted, r["factions"])) == [["topaz-tree", "topaz-vm", "tree"],
                                                   ["vm-apply-bug"]]
    assert r["suspect"]["member"] == "vm-apply-bug"
    assert set(r["core_ir_ids"]) == {"tree", "vm-apply-bug", "topaz-tree", "topaz-vm"}


def test_court_compare_shows_a_meter_only_bug_inside_the_model(tmp_path, capsys):
    code, r = _compare(tmp_path, capsys, "four-meter-bug", "(+ 1 2)\n")
    assert code == 1 and r["verdict"] == "disagree"
    assert [sorted(f) for f in r["factions"]] == [sorted(["tree-meter-bug", "vm", "topaz-tree",
                                                          "topaz-vm"])]
    assert r["divergence"]["axis"] == "meters"
    [split] = r["model_splits"]
    assert split["meter_model"] == "lispex-transitions/v1"
    assert sorted(map(sorted, split["groups"])) == [["tree-meter-bug"], ["vm"]]
