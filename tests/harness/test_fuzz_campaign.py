"""A campaign is reproducible (same seed and code: same programs, same findings), one bug is
one finding, and `--coverage` prints the feedback table."""

from __future__ import annotations

from pathlib import Path

import pytest
from seeded_products import seeded_config

from court.catalog import load_config, resolve
from court.cli import main
from court.fuzz.campaign import Campaign
from court.fuzz.case import Case
from court.session import CourtSession
from court.workers.limits import Limits
from implementations import registry

FAKES = Path(__file__).resolve().parent / "fakes"
ROOT = Path(__file__).resolve().parents[2]


def seeded_court(tmp_path: Path, bug: str):
    return resolve(load_config(seeded_config(tmp_path, bug)), "buggy")


def campaign_run(res, seed: int, examples: int):
    limits = Limits(timeout=30, profile="lispex-generated-11088/v1")
    sessions = [CourtSession(res, limits, jobs=2) for _ in range(2)]
    try:
        # the reducer is bounded by a number of tests, not by time, so that a loaded machine
        # minimises exactly as far as an idle one
        c = Campaign(sessions, None, {}, reduce_seconds=600, seed=seed, corpus=ROOT / "corpus",
                     mutate_percent=30, reduce_tests=250)
        c.run(examples, None)
    finally:
        for s in sessions:
            s.close()
    return c


def test_same_seed_same_programs_and_findings(tmp_path):
    res = seeded_court(tmp_path, "list-tail")
    a = campaign_run(res, 3, 300)
    b = campaign_run(res, 3, 300)
    assert a.programs == b.programs
    assert len(a.programs) == 300
    assert [f.id for f in a.stats.findings] == [f.id for f in b.stats.findings]
    assert a.stats.findings, "the list-tail bug is found in 300 programs"
    # one bug, one finding (how often a stream sights it again depends on the seed; the test
    # below shows later sightings folded in on programs chosen for it)
    assert len(a.stats.findings) == 1, [f.signature for f in a.stats.findings]
    assert len(set(a.programs)) == len(a.programs)


def test_later_sightings_of_one_bug_are_a_duplicate_or_the_same_bug(tmp_path):
    """The same divergence again is a duplicate; the bug shown through another program (a
    different signature whose minimised program needs the same primitive) is the same bug."""
    res = seeded_court(tmp_path, "list-tail")
    limits = Limits(timeout=30, profile="lispex-generated-11088/v1")
    session = CourtSession(res, limits, jobs=2)
    try:
        c = Campaign([session], None, {}, reduce_seconds=600, seed=1, corpus=None,
                     mutate_percent=0, reduce_tests=250)
        first = Case("(write (list-tail (list 1 2 3) 1))\n", None, (), True)
        # a fault on the buggy member (car of the '() it gives) where the first was output
        other = Case("(define (last-of l) (car (list-tail l 1)))\n"
                     "(display (list 'got (last-of (list 4 5))))\n", None, (), True)
        found = [c.examine(case) for case in (first, first, other)]
    finally:
        session.close()
    assert found[0] is not None and found[1] is None and found[2] is None
    assert (c.stats.duplicates, c.stats.same_bug, len(c.stats.findings)) == (1, 1, 1)
    assert found[0].same_bug == 1


@pytest.mark.skipif("vm" not in registry.ids(), reason="needs the vm back end")
def test_coverage_table_is_printed(tmp_path, capsys):
    code = main(["fuzz", "--court", "tree-rust", "--examples", "40", "--seed", "2", "--no-save",
                 "--coverage", "--corpus", str(ROOT / "corpus")])
    out = capsys.readouterr().out
    assert code == 0, out
    for section in ("Core IR node kinds:", "control features:", "diagnostics:", "primitives:",
                    "programs by origin:"):
        assert section in out, out
    assert "duplicate programs skipped" in out and "generating" in out


def test_members_out_of_budget_beside_limited_ones_are_not_infrastructure():
    """topaz counts a transition per call, so a loop growing bignums can fill its memory before
    tree and vm reach their transition limit: not comparable, as the verdict says, and not a
    harness failure in the campaign's summary."""
    from court.fuzz.campaign import _over_budget

    def obs(status, fault=None):
        return {"semantic": {"status": status}, "faults": [{"kind": fault}] if fault else []}

    limited = {"tree": obs("resource"), "vm": obs("resource"),
               "topaz-tree": obs("infrastructure-error", "memory-limit")}
    assert _over_budget(limited)
    answered = dict(limited, vm=obs("ok"))
    assert not _over_budget(answered)
    crashed = dict(limited, **{"topaz-tree": obs("infrastructure-error", "crash")})
    assert not _over_budget(crashed)
    assert not _over_budget({"tree": obs("infrastructure-error", "timeout")})


def test_mutants_run_under_their_own_transition_cap_on_every_member():
    """A corpus mutant whose loop bound was mutated runs to the limit: it gets a smaller budget
    than generated programs, the same on every member, and the session's limits come back."""
    from court.fuzz.case import Case
    from court.fuzz.mutate import MUTANT_LIMITS

    cap = dict(MUTANT_LIMITS)["machine-transition"]
    res = resolve(load_config(None), "tree-rust")
    limits = Limits(timeout=30, profile="lispex-generated-11088/v1")
    with CourtSession(res, limits) as session:
        c = Campaign(session, None, {}, seed=1)
        endless = "(define (spin n) (spin (+ n 1)))\n(spin 0)\n"
        mutant = Case(endless, None, ("mutated",), False, origin="mutated:x",
                      limits=MUTANT_LIMITS)
        result, _ = c._run(mutant)
        assert session.limits is limits
        generated, _ = c._run(Case(endless, None, (), False))
    for m, o in result.observations.items():
        ran = o["resources"]["limits"]["machine-transition-limit"]
        assert ran == cap, (m, o["resources"])
        assert o["semantic"]["status"] == "resource", m
    for m, o in generated.observations.items():
        assert o["resources"]["limits"]["machine-transition-limit"] == 400_000, m


def test_a_campaign_under_a_smaller_budget_keeps_it_for_mutants():
    from court.fuzz.case import Case
    from court.fuzz.mutate import MUTANT_LIMITS

    res = resolve(load_config(None), "tree-rust")
    limits = Limits(timeout=30, profile="lispex-generated-11088/v1",
                    meter_limits={"machine-transition": 20_000})
    with CourtSession(res, limits) as session:
        c = Campaign(session, None, {}, seed=1)
        mutant = Case("(define (spin n) (spin (+ n 1)))\n(spin 0)\n", None, ("mutated",),
                      False, origin="mutated:x", limits=MUTANT_LIMITS)
        result, _ = c._run(mutant)
        assert c._own_limits(mutant) == {"machine-transition": 20_000}
    for m, o in result.observations.items():
        assert o["resources"]["limits"]["machine-transition-limit"] == 20_000, m
