"""The tree machine's hot tier observes exactly what its walker observes.

Each program runs twice in process: with every body compiled at its first entry (``HOT = 0``) and
with the tier off (the walker alone). The whole observation must be the same: status, values,
stdout, diagnostics with their spans, warnings, every meter's usage and the resource outcome.
Each targeted program also checks that the tier compiled something and that the program does
what it is here for, so that no case passes by never reaching the tier.
"""

from __future__ import annotations

import random

import pytest

import implementations.tree.hot as hot
import implementations.tree.machine as machine
from court.fuzz.generate import generate
from implementations.lispex.run import evaluate
from implementations.tree import TreeBackend


def observe(source: str, monkeypatch: pytest.MonkeyPatch, hot_after: int,
            input_text: str | None = None, limits: dict | None = None) -> dict:
    monkeypatch.setattr(machine, "HOT", hot_after)
    obs = evaluate(source.encode(), TreeBackend(), input_text=input_text, limits=limits).to_json()
    obs.pop("measurements", None)
    return obs


def both(source: str, monkeypatch: pytest.MonkeyPatch, **kw) -> tuple[dict, int]:
    """(observation, bodies compiled), after checking the tier agrees with the walker."""
    compiled = []
    real = hot.Compiler.body

    def counting(self, lam):
        out = real(self, lam)
        compiled.append(out is not None)
        return out
    monkeypatch.setattr(hot.Compiler, "body", counting)
    walker = observe(source, monkeypatch, 10**9, **kw)
    assert not compiled
    tier = observe(source, monkeypatch, 0, **kw)
    assert tier == walker
    return tier, sum(compiled)


def code(obs: dict) -> str | None:
    diags = obs["semantic"]["diagnostics"]
    return diags[0]["code"] if diags else None


LOOP = "(define (f n) (if (= n 0) {end} (f (- n 1))))\n"

CASES = {
    # a primitive's fault inside a compiled body: the walker reports it, with its span
    "primitive-fault": (LOOP.format(end="(car n)") + "(f 5)", "E310"),
    # several values where one is needed, as an operand and as an if's test
    "values-operand": (LOOP.format(end="(+ 1 (floor/ 7 2))") + "(f 5)", "E320"),
    "values-test": ("(define (f n) (if (floor/ n 2) 1 (f (- n 1))))\n(f 5)", "E320"),
    # an unbound global read in a compiled body
    "unbound": (LOOP.format(end="missing") + "(f 5)", "E300"),
    # a letrec slot read before it is initialised, from a hot closure
    "uninitialised": ("(letrec ((k (lambda (n) (if (= n 0) b (k (- n 1)))))\n"
                      "         (a (k 5))\n         (b 1))\n  a)", "E321"),
    # the bignum bound reached by a pure primitive in a compiled body
    "bignum": ("(define (f n x) (if (= n 0) x (f (- n 1) (* x x))))\n(f 40 3)", "E311"),
    # several values returned from a compiled body's tail
    "values-tail": (LOOP.format(end="(floor/ 7 2)")
                    + "(call-with-values (lambda () (f 4)) list)", None),
    # non-tail recursion past the limit through a body whose test is compiled
    "recursion-limit": ("(define (d n) (if (= n 0) 0 (+ 1 (d (- n 1)))))\n(d 10001)", None),
    # a primitive's name redefined: the body must call the program's +, not the primitive
    "redefined-primitive": ("(define (f n acc) (if (= n 0) acc (f (- n 1) (+ acc 2))))\n"
                            "(define (+ a b) (* a b))\n(f 5 1)", None),
    "set-primitive": ("(define (f n acc) (if (= n 0) acc (f (- n 1) (* acc 2))))\n"
                      "(define a (f 3 1))\n(set! * +)\n(list a (f 3 1))", None),
    # a global operator reassigned between calls of the compiled body
    "reassigned-operator": ("(define (g x) x)\n(define (f n) (if (= n 0) (g 1) (f (- n 1))))\n"
                            "(define a (f 3))\n(set! g (lambda (x) (+ x 1)))\n(list a (f 3))",
                            None),
    # let, sequences, lambdas and locals of outer frames in compiled bodies
    "let-seq-lambda": ("(define (f n acc)\n  (let ((m (- n 1)) (k (lambda (x) (* x 2))))\n"
                       "    (vector-length (make-vector 2 0))\n"
                       "    (if (< n 0) acc (f m (cons (k n) acc)))))\n(f 6 '())", None),
    "do-loop": ("(do ((i 0 (+ i 1)) (acc '() (cons (lambda () i) acc)))\n"
                "    ((= i 4) (map (lambda (p) (p)) acc)))", None),
    # a body nested deeper than the compiler goes
    "deep-body": ("(define (f n) (if (= n 0) " + "(+ 1 " * 80 + "0" + ")" * 80
                  + " (f (- n 1))))\n(f 3)", None),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_the_hot_tier_agrees_with_the_walker(name, monkeypatch):
    source, expected = CASES[name]
    obs, compiled = both(source, monkeypatch)
    assert compiled > 0
    if expected is not None:
        assert code(obs) == expected
        assert obs["semantic"]["diagnostics"][0]["span"]["line"] is not None
    else:
        assert obs["semantic"]["status"] in ("ok", "resource"), obs["semantic"]


@pytest.mark.parametrize("limit", [30, 31, 32, 33, 34, 35, 36, 40, 41, 45, 60])
def test_a_limit_met_inside_a_compiled_body_is_met_where_the_walker_meets_it(limit, monkeypatch):
    source = ("(display 1)\n(define (f n acc)\n"
              "  (if (= n 0) acc (f (- n 1) (+ acc (* n n)))))\n(f 20 0)")
    obs, compiled = both(source, monkeypatch, limits={"machine-transition": limit})
    assert compiled > 0
    assert obs["semantic"]["status"] == "resource"
    assert obs["resources"]["usage"]["machine_transitions"] == limit


def test_generated_programs_observe_the_same_with_and_without_the_tier(monkeypatch):
    compiled_total = 0
    for seed in range(250):
        case = generate(random.Random(seed))
        _, compiled = both(case.source, monkeypatch, input_text=case.input,
                           limits=dict(case.limits) or None)
        compiled_total += compiled
    assert compiled_total > 100
