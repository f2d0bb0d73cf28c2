"""Corpus scheduling: the longest cases first, by the previous report's wall times; the report
itself does not depend on the order."""

from __future__ import annotations

import json
from pathlib import Path

from court.cli import main
from court.corpus import Case
from court.runner import expected_walls, longest_first


def case(cid: str) -> Case:
    return Case(cid, Path(f"{cid}.lspx"), None, Path(f"{cid}.expect.toml"))


def test_longest_first_puts_unknown_cases_at_the_median_and_keeps_ties_in_order():
    cases = [case(x) for x in ("a", "b", "c", "d", "new1", "e", "new2")]
    walls = {"a": 0.1, "b": 3.0, "c": 0.5, "d": 0.5, "e": 1.0, "gone": 9.0}
    order = [c.id for c in longest_first(cases, walls)]
    # median of the known (0.1, 3.0, 0.5, 0.5, 1.0) is 0.5: the new cases sit with c and d
    assert order == ["b", "e", "c", "d", "new1", "new2", "a"]
    assert [c.id for c in longest_first(cases, {})] == [c.id for c in cases]
    assert [c.id for c in longest_first(cases, None)] == [c.id for c in cases]


def test_expected_walls_skips_what_it_cannot_read():
    report = {"cases": [{"id": "x", "wall_seconds": 1.5}, {"id": "y"}, {"wall_seconds": 2},
                        {"id": "z", "wall_seconds": "slow"}, "junk", {"id": "w", "wall_seconds": 0}]}
    assert expected_walls(report) == {"x": 1.5, "w": 0.0}
    assert expected_walls({"cases": "nope"}) == {}
    assert expected_walls([]) == {}


def test_a_run_with_a_history_reports_the_same_cases_in_id_order(tmp_path, capsys):
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    for i in range(8):
        (corpus / f"c{i}.lspx").write_text(f"(+ {i} {i})")
    out = tmp_path / "reports"
    assert main(["run", str(corpus), "--report-dir", str(out)]) == 0
    first = json.loads((out / "court-report.json").read_text())
    # A history that says the last case ids took longest: they run first this time.
    history = {**first, "cases": [dict(c, wall_seconds=float(i))
                                  for i, c in enumerate(first["cases"])]}
    (out / "court-report.json").write_text(json.dumps(history))
    assert main(["run", str(corpus), "--report-dir", str(out)]) == 0
    second = json.loads((out / "court-report.json").read_text())
    ids = [c["id"] for c in second["cases"]]
    assert ids == sorted(ids) == [c["id"] for c in first["cases"]]
    assert [c["outcome"] for c in second["cases"]] == [c["outcome"] for c in first["cases"]]
    capsys.readouterr()
    # An unreadable history is no history.
    (out / "court-report.json").write_text("{not json")
    assert main(["run", str(corpus), "--report-dir", str(out)]) == 0


def test_run_cases_takes_cases_longest_first(tmp_path):
    from court.catalog import load_config, resolve
    from court.corpus import discover
    from court.runner import run_cases
    from court.workers.limits import Limits

    for i in range(5):
        (tmp_path / f"c{i}.lspx").write_text(f"(list {i})")
    cases = discover([tmp_path])
    walls = {c.id: float(i) for i, c in enumerate(cases)}  # the last is the longest
    seen: list[str] = []
    res = resolve(load_config(search_cwd=False), "tree-rust")
    records, _, complete = run_cases(cases, res, Limits(timeout=30), jobs=1,
                                     on_record=lambda r: seen.append(r.case.id), walls=walls)
    assert complete and seen == [c.id for c in reversed(cases)]
    assert [r.case.id for r in records] == sorted(c.id for c in cases)
