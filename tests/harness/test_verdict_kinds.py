"""The verdict kinds beyond agree/disagree: meter models, one-sided limits and member faults.

Pure `judge` tests pin the rules on hand-made observations; the end-to-end tests run test-only
products (tests/harness/fakes/meter_worker.py, fake_worker.py) through `court compare` and
`court run`.
"""

from __future__ import annotations

import copy
import json
import sys
from pathlib import Path

import pytest

from court.cli import main
from court.verdict import FINDING_KINDS, judge

FAKES = Path(__file__).resolve().parent / "fakes"
LIMITS = {"machine-transition-limit": 10000, "token-limit": 100}
MODELS = {"tree": "lispex-transitions/v1", "vm": "lispex-transitions/v1",
          "topaz-tree": "topaz-tree/v1", "topaz-vm": "topaz-vm/v1"}


def obs(status="ok", values=("3",), transitions=50, limit=None, faults=None):
    sem = {"status": status, "values": list(values) if status == "ok" else [], "stdout": "",
           "exit_status": {"ok": 0, "resource": 2, "infrastructure-error": None}[status],
           "diagnostics": [], "warnings": [], "resource_outcome": {"status": "within-limits"}}
    if status == "resource":
        sem["diagnostics"] = [{"code": f"{limit}-limit", "phase": "resource", "span": None}]
        sem["resource_outcome"] = {"status": "limit-exceeded", "limit": limit,
                                   "code": f"{limit}-limit"}
    o = {"semantic": sem, "resources": {"usage": {"tokens": 5, "machine_transitions": transitions},
                                        "limits": dict(LIMITS)}}
    if faults:
        o["faults"] = faults
        o["resources"] = {}
        sem["resource_outcome"] = {"status": "unknown"}
    return o


def test_finding_kinds_are_exported():
    assert FINDING_KINDS == ("disagree", "one-sided-limit", "member-fault")


def test_meters_are_normative_inside_a_meter_model_only():
    same = {"tree": obs(transitions=50), "vm": obs(transitions=51)}
    v = judge(same, MODELS)
    assert v.kind == "disagree"
    assert v.divergence["axis"] == "meters"
    assert v.divergence["values"] == {"tree": {"machine_transitions": 50, "tokens": 5},
                                      "vm": {"machine_transitions": 51, "tokens": 5}}
    assert v.divergence["meter_model"] == "lispex-transitions/v1"
    assert judge(same).kind == "agree"  # without meter models, meters are evidence
    other = {"tree": obs(transitions=50), "topaz-tree": obs(transitions=7)}
    assert judge(other, MODELS).kind == "agree"


def test_a_split_meter_model_is_shown_inside_the_model_not_as_factions():
    # A meter-only bug in the vm: every member agrees on every semantic axis, so all four are
    # one faction; the split is the model's own (tree | vm), and one against one gives no guess.
    four = {"tree": obs(transitions=50), "vm": obs(transitions=49),
            "topaz-tree": obs(transitions=7), "topaz-vm": obs(transitions=9)}
    v = judge(four, MODELS)
    assert v.kind == "disagree" and v.divergence["axis"] == "meters"
    assert v.divergence["meter_model"] == "lispex-transitions/v1"
    assert sorted(map(sorted, v.factions)) == [["topaz-tree", "topaz-vm", "tree", "vm"]]
    assert v.model_splits == [{"meter_model": "lispex-transitions/v1", "axis": "meters",
                               "groups": [["tree"], ["vm"]]}]
    assert v.suspect is None
    assert v.to_json()["model_splits"] == v.model_splits


def test_a_limit_inside_a_meter_model_is_a_disagreement():
    v = judge({"tree": obs("resource", limit="machine-transition", transitions=10000),
               "vm": obs(transitions=50)}, MODELS)
    assert v.kind == "disagree" and v.divergence["axis"] == "status"
    both = {"tree": obs("resource", limit="machine-transition", transitions=10000),
            "vm": obs("resource", limit="machine-transition", transitions=10000)}
    assert judge(both, MODELS).kind == "agree"  # one model, the same resource outcome
    assert judge(both).kind == "not-comparable"


def test_one_sided_limit_needs_the_others_far_within_it():
    far = {"tree": obs(transitions=50),
           "topaz-vm": obs("resource", limit="machine-transition", transitions=10000)}
    v = judge(far, MODELS)
    assert v.kind == "one-sided-limit"
    assert v.evidence == {"limited": [{"member": "topaz-vm", "limit": "machine-transition",
                                       "limit_value": 10000,
                                       "others_usage": {"tree": 50}}]}
    assert v.divergence["axis"] == "resource_outcome"
    close = copy.deepcopy(far)
    close["tree"]["resources"]["usage"]["machine_transitions"] = 4000
    v = judge(close, MODELS)
    assert v.kind == "not-comparable"
    assert v.reasons == ["topaz-vm: resource limit reached (machine-transition)"]


def test_member_fault_when_the_others_answered():
    crash = [{"kind": "crash", "message": "worker died"}]
    v = judge({"tree": obs(), "vm": obs(), "fake": obs("infrastructure-error", faults=crash)},
              MODELS)
    assert v.kind == "member-fault"
    assert v.evidence["faulted"] == [{"member": "fake", "kind": "crash",
                                      "message": "worker died"}]
    assert v.evidence["answered"] == ["tree", "vm"]
    lone = judge({"tree": obs("infrastructure-error", faults=crash),
                  "vm": obs("infrastructure-error", faults=crash)}, MODELS)
    assert lone.kind == "not-comparable"
    cancelled = [{"kind": "cancelled", "message": "client gave up"}]
    assert judge({"tree": obs(), "vm": obs("infrastructure-error", faults=cancelled)},
                 MODELS).kind == "not-comparable"


def test_a_run_that_disowns_its_count_and_stops_at_the_transition_limit_offers_no_output_count():
    # Found by `python bench/fuzz_power.py` on the healthy all-four: a loop that displays until
    # the transition limit; the vm (meter_exact false) stopped one display later than the tree.
    def stopped(output_bytes, exact=True):
        o = obs("resource", limit="machine-transition", transitions=400000)
        o["resources"]["usage"]["output_bytes"] = output_bytes
        if not exact:
            o["resources"]["meter_exact"] = False
        return o
    assert judge({"tree": stopped(28575), "vm": stopped(28576, exact=False)},
                 MODELS).kind == "agree"
    assert judge({"tree": stopped(28575), "vm": stopped(28576)}, MODELS).kind == "disagree"
    finished = {"tree": obs(), "vm": obs()}
    finished["tree"]["resources"]["usage"]["output_bytes"] = 10
    finished["vm"]["resources"]["usage"]["output_bytes"] = 11
    finished["vm"]["resources"]["meter_exact"] = False
    assert judge(finished, MODELS).kind == "disagree"  # a finished run's output is exact


def test_a_run_that_disowns_its_count_may_meet_another_limit_where_the_model_meets_transitions():
    # Found by `court fuzz --court all-four --seed 34` on the healthy court: a recursion through
    # dynamic-wind past 10,000 levels under the fuzz profile. The tree met the transition limit
    # (400,000) first; the vm, whose count through dynamic-wind strays (meter_exact false), met
    # the recursion limit first. Where each stopped is its own count's business.
    tree = obs("resource", limit="machine-transition", transitions=400000)
    vm = obs("resource", limit="recursion", transitions=399999)
    vm["resources"]["meter_exact"] = False
    assert judge({"tree": tree, "vm": vm}, MODELS).kind == "not-comparable"
    del vm["resources"]["meter_exact"]  # vouched for, the same stop is the model's to judge
    v = judge({"tree": tree, "vm": vm}, MODELS)
    assert v.kind == "disagree" and v.divergence["meter_model"] == "lispex-transitions/v1"


def test_the_recursion_through_dynamic_wind_found_by_seed_34_is_not_a_finding():
    from implementations import registry
    from implementations.kernels import evaluate

    # the program as the campaign minimised it: where the two limits fall depends on every call
    source = (b"(define (f1 p2 p3 . p4) p2)\n(define (loop5 n6) (or (< n6 0) ((= n6 0) ((= n6 0) "
              b"(unless (< n6 0) (display \"\") (case n6 ((0) (quote done)) ((-1 -2) \n"
              b"(quote negative)) (else (dynamic-wind (lambda () #f) (lambda () (loop5 (- n6 1))) "
              b"(lambda () #f)))))))))\n(display (loop5 11000))\n")
    seen = {i: evaluate(source, registry.load(i), profile_id="lispex-generated-11088/v1").to_json()
            for i in ("tree", "vm")}
    # The vm's count no longer strays through dynamic-wind: both stop on the transition limit,
    # at the same count, and the meter model's members agree.
    assert {m: o["semantic"]["resource_outcome"]["limit"] for m, o in seen.items()} == \
        {"tree": "machine-transition", "vm": "machine-transition"}
    assert "meter_exact" not in seen["vm"]["resources"]
    assert seen["vm"]["resources"]["usage"] == seen["tree"]["resources"]["usage"]
    assert judge(seen, MODELS).kind == "agree"


def test_running_out_of_a_budget_while_the_others_reach_a_limit_is_not_a_finding():
    # Found by `court fuzz --court all-four --seed 1`: a loop that grows its bignums, which
    # topaz (one transition per call) carries far enough to fill the worker's memory while tree
    # and vm reach their machine-transition limit first. Nobody answered: nothing to compare.
    oom = [{"kind": "memory-limit", "message": "the worker ran out of memory"}]
    limited = {"tree": obs("resource", limit="machine-transition"),
               "vm": obs("resource", limit="machine-transition"),
               "topaz-tree": obs("infrastructure-error", faults=oom)}
    assert judge(limited, MODELS).kind == "not-comparable"
    timeout = [{"kind": "timeout", "message": "no answer within 10 s"}]
    limited["topaz-tree"] = obs("infrastructure-error", faults=timeout)
    assert judge(limited, MODELS).kind == "not-comparable"
    # A crash is the member's, whatever the others did.
    limited["topaz-tree"] = obs("infrastructure-error",
                                faults=[{"kind": "crash", "message": "worker died"}])
    assert judge(limited, MODELS).kind == "member-fault"
    # And running out of memory where another member answered still is a finding.
    limited["vm"] = obs()
    limited["topaz-tree"] = obs("infrastructure-error", faults=oom)
    assert judge(limited, MODELS).kind == "disagree"  # tree's limit inside the shared model
    del limited["tree"]
    assert judge(limited, MODELS).kind == "member-fault"


def test_a_disagreement_among_those_that_answered_wins_over_a_fault():
    crash = [{"kind": "crash", "message": "worker died"}]
    v = judge({"tree": obs(values=("1",)), "vm": obs(values=("2",)),
               "fake": obs("infrastructure-error", faults=crash)}, MODELS)
    assert v.kind == "disagree" and v.divergence["axis"] == "values"
    assert v.reasons == ["fake: infrastructure error (crash)"]


def _config(tmp_path: Path, meter_model: str | None) -> Path:
    model = f'meter_model = "{meter_model}"\n' if meter_model else ""
    py = sys.executable
    path = tmp_path / "court.toml"
    path.write_text(f"""
[products.looper]
command = ["{py}", "{FAKES / 'meter_worker.py'}", "--mode", "loop"]
{model}
[products.meterbug]
command = ["{py}", "{FAKES / 'meter_worker.py'}", "--mode", "meters"]
{model}
[products.fake]
command = ["{py}", "{FAKES / 'fake_worker.py'}"]

[courts.looping]
members = ["tree", "looper"]
[courts.metering]
members = ["tree", "meterbug"]
[courts.flaky]
members = ["tree", "fake"]
""")
    return path


def _compare(tmp_path, capsys, config, court, source, *extra):
    program = tmp_path / "p.lspx"
    program.write_text(source)
    code = main(["compare", str(program), "--court", court, "--config", str(config), "--json",
                 *extra])
    return code, json.loads(capsys.readouterr().out)


def test_one_sided_limit_is_reported_with_the_rerun(tmp_path, capsys):
    config = _config(tmp_path, None)
    code, r = _compare(tmp_path, capsys, config, "looping", "(define (spin-here) 42)\n"
                       "(spin-here)\n", "--limit", "machine-transition=20000")
    assert r["verdict"] == "one-sided-limit", r
    assert code == 1
    [entry] = r["details"]["evidence"]["limited"]
    assert entry["member"] == "looper" and entry["limit"] == "machine-transition"
    assert entry["limit_value"] == 20000
    assert entry["others_usage"]["tree"] < 2000
    rerun = entry["rerun"]
    assert rerun["ran"] and rerun["meter_limits"]["machine-transition"] == 200000
    assert rerun["status"] == "resource" and rerun["agrees_with_others"] is False
    assert r["details"]["confirmed"] is True


def test_a_looping_member_of_the_same_meter_model_disagrees(tmp_path, capsys):
    config = _config(tmp_path, "lispex-transitions/v1")
    code, r = _compare(tmp_path, capsys, config, "looping", "(define (spin-here) 42)\n"
                       "(spin-here)\n", "--limit", "machine-transition=20000")
    assert (code, r["verdict"], r["divergence"]["axis"]) == (1, "disagree", "status")


@pytest.mark.parametrize("model, verdict", [("lispex-transitions/v1", "disagree"),
                                            (None, "agree")])
def test_meter_divergence_between_members_of_one_model(tmp_path, capsys, model, verdict):
    config = _config(tmp_path, model)
    code, r = _compare(tmp_path, capsys, config, "metering", "(+ 1 2)\n")
    assert r["verdict"] == verdict, r
    if verdict == "disagree":
        assert code == 1
        assert r["divergence"]["axis"] == "meters"
        values = r["divergence"]["values"]
        assert values["meterbug"]["machine_transitions"] == \
            values["tree"]["machine_transitions"] + 1
        assert r["details"]["confirmed"] is True


def test_a_crashing_member_is_a_member_fault_and_fails_the_run(tmp_path, capsys):
    config = _config(tmp_path, None)
    code, r = _compare(tmp_path, capsys, config, "flaky", "(display 'die-now)\n")
    assert (code, r["verdict"]) == (1, "member-fault"), r
    assert r["details"]["evidence"]["faulted"][0]["member"] == "fake"
    assert r["details"]["evidence"]["faulted"][0]["kind"] == "crash"
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    (corpus / "dies.lspx").write_text("(display 'die-now)\n")
    (corpus / "fine.lspx").write_text("(+ 1 2)\n")
    reports = tmp_path / "reports"
    code = main(["run", str(corpus), "--court", "flaky", "--config", str(config),
                 "--report-dir", str(reports), "--jobs", "1"])
    capsys.readouterr()
    assert code == 1
    report = json.loads((reports / "court-report.json").read_text())
    outcomes = {c["id"]: c["outcome"] for c in report["cases"]}
    assert outcomes == {"dies": "member-fault", "fine": "agree"}
    assert report["summary"]["outcomes"]["member-fault"] == 1


def test_a_timeout_is_rerun_with_a_longer_clock_before_it_counts(tmp_path, capsys):
    config = _config(tmp_path, None)
    code, r = _compare(tmp_path, capsys, config, "flaky", "(display 'hang-now)\n",
                       "--timeout", "1")
    assert (code, r["verdict"]) == (1, "member-fault"), r
    fault = r["details"]["evidence"]["faulted"][0]
    assert fault["kind"] == "timeout" and "a second time" in fault["message"]
    assert "3 s" in fault["message"]


def test_a_timeout_beside_members_that_reached_a_limit_is_not_rerun(tmp_path, capsys):
    """A longer clock could only show that the program is expensive: the members that did not
    time out all ran out of a meter, so the verdict is not-comparable at once."""
    config = _config(tmp_path, None)
    code, r = _compare(tmp_path, capsys, config, "flaky",
                       "(display 'hang-now)\n(let loop () (loop))\n", "--timeout", "1",
                       "--limit", "machine-transition=1000")
    assert r["verdict"] == "not-comparable", r
    faults = [f for o in r["observations"].values() for f in o.get("faults", [])]
    assert [f["kind"] for f in faults] == ["timeout"]
    assert "a second time" not in faults[0]["message"]


def test_a_run_that_disowns_its_transition_count_compares_the_other_figures():
    inexact = obs(transitions=51)
    inexact["resources"]["meter_exact"] = False
    assert judge({"tree": obs(transitions=50), "vm": inexact}, MODELS).kind == "agree"
    inexact["resources"]["usage"]["tokens"] = 6
    v = judge({"tree": obs(transitions=50), "vm": inexact}, MODELS)
    assert v.kind == "disagree" and v.divergence["values"]["vm"] == {"tokens": 6}


@pytest.mark.parametrize("source", [
    "(+ 1 2)", "(list 1 (car 1))", "(guard (e (#t 'caught)) (list (car 1) 2))",
    "(+ 1 (call/cc (lambda (k) (list (k 5) 2))))",
    "(define (f n) (if (= n 0) 0 (+ 1 (f (- n 1))))) (f 10001)",
    "(define (loop i acc) (if (= i 0) acc (loop (- i 1) (cons i acc)))) (length (loop 50 '()))",
    # Found by `court fuzz --court all-four --seed 1`: an uncaught raise inside an argument.
    "(car (raise 0))", "(list 1 (raise-continuable 'x))",
])
def test_tree_and_vm_count_alike_wherever_the_vm_vouches_for_its_count(source):
    from implementations import registry
    from implementations.lispex.run import evaluate

    tree, vm = (evaluate(source.encode(), registry.load(i)).to_json() for i in ("tree", "vm"))
    if vm["resources"].get("meter_exact") is False:
        assert "meter_exact" not in tree["resources"]  # the tree never overpays
        return
    assert tree["resources"]["usage"] == vm["resources"]["usage"]


def test_a_member_that_refuses_an_input_the_others_read_is_a_member_fault(tmp_path, capsys):
    """Only an input every member refuses is the user's mistake (exit 2); one member refusing
    it is that member's fault, a finding, in compare and in a corpus run alike."""
    from seeded_products import seeded_config

    config = seeded_config(tmp_path, "input-strings")
    program = tmp_path / "p.lspx"
    program.write_text("(car input)\n")
    code = main(["compare", str(program), "--court", "buggy", "--config", str(config), "--json",
                 "--input", '("ok" 1)'])
    r = json.loads(capsys.readouterr().out)
    assert (code, r["verdict"]) == (1, "member-fault"), r
    assert r["details"]["evidence"]["faulted"][0] == {
        "member": "seeded", "kind": "input-error",
        "message": r["details"]["evidence"]["faulted"][0]["message"]}
    code = main(["compare", str(program), "--court", "buggy", "--config", str(config), "--json",
                 "--input", '("ok"'])
    assert code == 2 and "invalid input datum" in capsys.readouterr().err
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    (corpus / "s.lspx").write_text("(car input)\n")
    (corpus / "s.input").write_text('("ok" 1)\n')
    (corpus / "n.lspx").write_text("(car input)\n")
    (corpus / "n.input").write_text("(1 2)\n")
    reports = tmp_path / "reports"
    code = main(["run", str(corpus), "--court", "buggy", "--config", str(config),
                 "--report-dir", str(reports), "--jobs", "1"])
    capsys.readouterr()
    report = json.loads((reports / "court-report.json").read_text())
    assert code == 1
    assert {c["id"]: c["outcome"] for c in report["cases"]} == {"s": "member-fault",
                                                               "n": "agree"}
