"""Normalizer limits: nesting (source and what derived forms expand into) and the
normalization-step meter. Split from test_normalizer.py, whose helpers it uses."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from normalizer_helpers import program, run, value_of  # noqa: E402

from implementations.lispex.errors import ResourceExhausted
from implementations.lispex.meters import AXIS_IDS, NORMALIZATION, RECURSION_LIMIT, Meter

# --- nesting limits ------------------------------------------------------------------------

N = 100_000

DEEP_RESOURCE = {
    "application": "(f " * N + "1" + ")" * N,
    "lambda": "(lambda () " * N + "1" + ")" * N,
    "let": "(let ((a 1)) " * N + "a" + ")" * N,
    "define-value": "(define x " + "(g " * N + "1" + ")" * N + ")",
}


def assert_recursion_limit(obs: Any) -> None:
    assert obs.status == "resource", [d.render() for d in obs.diagnostics]
    assert obs.exit_status == 2 and obs.stdout == "" and obs.values == []
    assert obs.resource_outcome == {"status": "limit-exceeded", "limit": "recursion-limit",
                                    "code": "recursion-limit"}
    assert [d.code for d in obs.diagnostics] == ["recursion-limit"]


@pytest.mark.parametrize("shape", sorted(DEEP_RESOURCE))
def test_deep_nesting_is_the_recursion_limit_outcome(shape: str) -> None:
    assert_recursion_limit(run(DEEP_RESOURCE[shape]))


@pytest.mark.parametrize("src, column", [
    ("(" * N + ")" * N, N),
    ("(f " * N + "(if 1)" + ")" * N, 3 * N + 1),
    ("(f " * N + "1" + ")" * N + "\n(lambda)", 1),
], ids=["innermost-empty-application", "innermost-malformed-if", "error-after-deep-form"])
def test_source_of_any_depth_is_normalized_and_its_source_errors_found(src: str,
                                                                        column: int) -> None:
    # As with a stack grown on the heap: nesting alone is never the outcome of normalizing; the
    # source error inside (or after) 100,000 levels is found where it is.
    obs = run(src)
    assert obs.status == "source-error" and obs.exit_status == 1
    assert [(d.code, d.phase, d.span.column) for d in obs.diagnostics] == \
        [("E130", "normalizer", column)]


def test_deep_internal_definitions_are_the_recursion_limit_outcome() -> None:
    assert_recursion_limit(run("(define (f) " + "(define (g) " * N + "1" + ") 1" * N + ")"))


@pytest.mark.parametrize("src", [
    "(begin " * N + "1" + ")" * N,
    "(module m " + "(begin " * N + "1" + ")" * N + ")",
], ids=["top-level-begin", "module-body"])
def test_deep_top_level_begins_splice_without_recursion(src: str) -> None:
    # A top-level begin splices its forms in place: not expression nesting, so no limit.
    assert value_of(src) == ["1"]


WIDE_OR = """
import resource
resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))
from implementations import registry
from implementations.lispex.run import evaluate
for n in (9000, 100000):
    obs = evaluate(b"(or " + b"#f " * n + b"1)", registry.load("tree"))
    print(obs.status, *obs.values, *[d.code for d in obs.diagnostics])
"""


def test_a_wide_or_expands_in_linear_memory_and_counts_as_nesting() -> None:
    # `or` expands into one nested let per operand, and that expansion counts toward the
    # nesting limit: 9,000 operands work, 100,000 are the recursion-limit outcome. Either way
    # in linear memory (a child with 1 GB of address space, so a regression cannot hurt).
    done = subprocess.run([sys.executable, "-c", WIDE_OR], capture_output=True, timeout=120,
                          cwd=Path(__file__).resolve().parents[2])
    assert done.stdout.split() == [b"ok", b"1", b"resource", b"recursion-limit"], \
        done.stderr[-300:]


def test_the_nesting_limit_is_exact_and_not_a_diagnostic() -> None:
    depth = RECURSION_LIMIT - 1  # plus the innermost constant: exactly at the limit
    p = program("(f " * depth + "1" + ")" * depth)
    assert p.canonical_text().count("(app (global f)") == depth - 1
    depth += 1
    with pytest.raises(ResourceExhausted) as info:
        program("(f " * depth + "1" + ")" * depth)
    assert info.value.code == "recursion-limit"


def test_deep_runtime_recursion_is_the_recursion_limit_outcome_and_not_catchable() -> None:
    src = ("(define (deep n) (if (= n 0) 0 (+ 1 (deep (- n 1)))))\n"
           "(guard (e (#t 'caught)) (deep 100000))")
    assert_recursion_limit(run(src))


# --- the normalization-step meter ----------------------------------------------------------


def limits(**overrides: int) -> Meter:
    big = dict.fromkeys(AXIS_IDS, 10**9)
    big.update({k.replace("_", "-"): v for k, v in overrides.items()})
    return Meter(big)


@pytest.mark.parametrize("src,steps", [("1", 1), ("(f 1 2)", 4), ("(if a b c)", 4)])
def test_one_step_per_expression(src: str, steps: int) -> None:
    meter = limits()
    program(src, meter)
    assert meter.used[NORMALIZATION] == steps


@pytest.mark.parametrize("src", [
    "(define (f x) (or (g x) (h x))) (f 1)",
    "(let loop ((i 0)) (cond ((= i 3) `(done ,i)) (else (loop (+ i 1)))))",
    "(do ((i 0 (+ i 1))) ((= i 2) (case i ((1) 'a) (else 'b))))",
    "(module m (export f) (define (f) (let* ((a 1) (b a)) (and a b))))",
])
def test_normalization_limit_is_exact(src: str) -> None:
    meter = limits()
    program(src, meter)
    used = meter.used[NORMALIZATION]
    program(src, limits(normalization_step=used))  # exactly enough
    short = limits(normalization_step=used - 1)
    with pytest.raises(ResourceExhausted) as info:
        program(src, short)
    assert info.value.code == "normalization-limit"
    assert short.used[NORMALIZATION] == used - 1


def test_generated_syntax_is_charged() -> None:
    one, three = limits(), limits()
    program("(or a)", one)
    program("(or a b c)", three)
    # Each operand but the last also makes a temporary's let/if, which costs a step of its own.
    assert three.used[NORMALIZATION] > one.used[NORMALIZATION] + 2


def test_normalization_limit_through_evaluate() -> None:
    obs = run("(display 1) (f (g (h 1)))", limits={"normalization-step": 3})
    assert (obs.status, obs.exit_status, obs.stdout, obs.values) == ("resource", 2, "", [])
    assert obs.resource_outcome == {"status": "limit-exceeded", "limit": "normalization-step",
                                    "code": "normalization-limit"}
    assert obs.usage["normalization_steps"] == 3
    assert "core_ir_id" not in obs.products
