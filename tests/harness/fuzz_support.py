"""What the generator's tests share: every shipped back end in process, under the generated
profile with room for tail loops, and the check that the healthy members agree."""

from __future__ import annotations

from pathlib import Path

from court.verdict import judge
from implementations import registry
from implementations.kernels import evaluate

ROOT = Path(__file__).resolve().parents[2]
BACKENDS = {i: registry.load(i) for i in registry.ids()}
PROFILE = "lispex-generated-11088/v1"
# The profile's 400,000 machine transitions are fewer than a program of several tail loops and a
# deep recursion takes; tree and vm (one meter model) would stop at the limit where the topaz
# members (their own meter model) finish, which is not comparable rather than a disagreement.
# Campaigns run under the native profile; here the machine meter gets as much.
LIMITS = {"machine-transition": 100_000_000}


def observe(source: str, input_text: str | None) -> dict:
    return {i: evaluate(source.encode(), b, filename="fuzz.lspx", input_text=input_text,
                        profile_id=PROFILE, limits=LIMITS).to_json()
            for i, b in BACKENDS.items()}


def assert_agree(source: str, input_text: str | None) -> dict:
    obs = observe(source, input_text)
    v = judge(obs)
    statuses = {o["semantic"]["status"] for o in obs.values()}
    # a resource outcome on every member is fine (deep recursion past the limit); anything
    # else must agree
    assert v.kind == "agree" or statuses == {"resource"}, (source, v.reasons, v.divergence)
    return obs
