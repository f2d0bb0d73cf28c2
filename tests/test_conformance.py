"""The conformance corpus: every case, on every shipped implementation, against its expectation.

A case is written once (corpus/conformance/**) and run on each implementation in process.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from court.corpus import discover, normative
from implementations import registry
from implementations.kernels import evaluate

ROOT = Path(__file__).resolve().parent.parent
CASES = discover([ROOT / "corpus" / "conformance"])


def test_corpus_is_large_enough():
    assert len(CASES) > 400
    assert all(c.expectation is not None for c in CASES), [c.id for c in CASES if not c.expectation]


@pytest.mark.parametrize("impl", registry.ids())
@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_case(case, impl):
    obs = evaluate(case.source(), registry.load(impl), filename=case.program.name,
                   input_text=case.input_text(), profile_id=case.profile, limits=case.limits)
    got = normative(obs.to_json()["semantic"])
    want = dict(case.expectation)
    if "diagnostic" in want and "diagnostic" in got:
        # Compare only the span fields the expectation fixes.
        got["diagnostic"] = {k: v for k, v in got["diagnostic"].items() if k in want["diagnostic"]}
    assert got == want
