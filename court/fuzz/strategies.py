"""Hypothesis strategies for Lispex programs and inputs: the fuzzer's generator behind
``st.composite``, so that a property test draws the programs `court fuzz` draws and Hypothesis
shrinks a failing one.

    from hypothesis import given, settings
    from court.cli.pytest_plugin import verdict_summary
    from court.fuzz.strategies import lispex_cases

    @settings(max_examples=200, deadline=None)
    @given(case=lispex_cases())
    def test_my_implementation_agrees(lispex_court, case):   # pytest --court-impl tree,mine
        result = lispex_court.compare(case.source, case.input)
        assert result.verdict.kind != "disagree", verdict_summary(result)

``lispex_court`` and ``verdict_summary`` come with the pytest plugin (court.cli.pytest_plugin).
Hypothesis is the ``fuzz`` extra: ``pip install 'lispex-court[fuzz]'``.

How it shrinks: Hypothesis draws the generator's seed and then, for each top-level form of the
program that seed makes, whether to keep it. A failing program shrinks by dropping forms (the
flags shrink towards "drop") and by moving to smaller seeds; each candidate is an ordinary
program, so a shrunk example is one the court can run as it stands. Drawing the generator's
thousands of choices one by one through Hypothesis instead would make every example a hundred
times dearer and shrink towards more forms, not fewer (a zero draw is "yes" to most of its
questions).
"""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

from hypothesis import strategies as st

from .generate import Case, generate
from .trees import parse, render_node

# A form is kept unless its flag shrinks to 0: generated programs start (nearly) whole.
KEEP = st.integers(0, 15).map(bool)


def top_level_forms(source: str) -> tuple[str, list[str]]:
    """The program's header lines (``;!`` pragmas, which must stay first) and its top-level
    forms as text; no forms when it does not read (a source-error program stays whole)."""
    header = "".join(line for line in source.splitlines(keepends=True) if line.startswith(";!"))
    try:
        return header, [render_node(t) for t in parse(source)]
    except Exception:  # noqa: BLE001 - any reader error: the program is kept as it is
        return header, []


@st.composite
def lispex_cases(draw: Any, *, safe: bool = True) -> Case:
    """A generated program with its input (``.source``; ``.input``: datum text, or None).
    ``safe`` programs run to an answer (the default); unsafe ones also include source errors
    and programs that fault."""
    seed = draw(st.integers(0, 2**32 - 1))
    case = generate(random.Random(seed), only_safe=safe)
    header, forms = top_level_forms(case.source)
    if len(forms) < 2:
        return case
    kept = [f for f in forms if draw(KEEP)]
    if not kept:
        kept = forms[-1:]
    return replace(case, source=header + "\n".join(kept) + "\n")


def lispex_programs(*, safe: bool = True) -> st.SearchStrategy[str]:
    """Program texts alone."""
    return lispex_cases(safe=safe).map(lambda case: case.source)
