"""The VM against the tree interpreter on what the corpus pins only loosely: depth, tail calls,
escapes, handlers, meters, memory."""

from __future__ import annotations

import tracemalloc

import pytest

from implementations import registry
from implementations.lispex.run import evaluate

TREE = registry.load("tree")
VM = registry.load("vm")


def run(src: str, impl=VM, **kw):
    return evaluate(src.encode(), impl, **kw)


def same(src: str, **kw):
    t, v = run(src, TREE, **kw), run(src, VM, **kw)
    tj, vj = t.to_json()["semantic"], v.to_json()["semantic"]
    assert vj == tj
    return v


def test_registered() -> None:
    assert "vm" in registry.ids()
    assert VM.id == "vm"
    assert VM.product_id() != TREE.product_id()


@pytest.mark.parametrize("n, status", [(9999, "ok"), (10000, "ok"), (10001, "resource")])
def test_recursion_limit_is_non_tail_depth_10000(n: int, status: str) -> None:
    src = f"(define (d n) (if (= n 0) 0 (+ 1 (d (- n 1))))) (d {n})"
    obs = same(src)
    assert obs.status == status
    if status == "resource":
        assert obs.resource_outcome["limit"] == "recursion-limit"


def test_recursion_limit_is_not_catchable() -> None:
    src = ("(define (d n) (if (= n 0) 0 (+ 1 (d (- n 1)))))"
           "(guard (e (#t 'caught)) (with-exception-handler (lambda (c) 1) (lambda () (d 20000))))")
    assert same(src).status == "resource"


@pytest.mark.parametrize("body", [
    "(apply loop (list (- n 1)))",
    "(call-with-values (lambda () (- n 1)) loop)",
    "(call-with-values (lambda () (values (- n 1))) (lambda (m) (loop m)))",
])
def test_apply_and_call_with_values_keep_tail_position(body: str) -> None:
    src = f"(define (loop n) (if (= n 0) 'done {body})) (loop 30000)"
    assert same(src).values == ["done"]


@pytest.mark.parametrize("n, status", [(9000, "ok"), (10001, "resource")])
def test_callbacks_are_non_tail_calls(n: int, status: str) -> None:
    # each level is one callback call (the callback's own call to deep is a tail call)
    src = ("(define (deep n) (if (= n 0) 0 (car (map (lambda (x) (deep (- n 1))) '(1)))))"
           f"(deep {n})")
    assert same(src).status == status


def test_escape_runs_after_thunks_but_uncaught_error_does_not() -> None:
    esc = ("(call/cc (lambda (k) (dynamic-wind (lambda () (display \"in \"))"
           " (lambda () (k 'out)) (lambda () (display \"after \")))))")
    obs = same(esc)
    assert obs.values == ["out"] and obs.stdout == "in after "
    err = ("(dynamic-wind (lambda () (display \"in \")) (lambda () (car '()))"
           " (lambda () (display \"after \")))")
    obs = same(err)
    assert obs.status == "runtime-error" and obs.stdout == "in "


def test_stale_continuation_is_e340() -> None:
    obs = same("(define k #f) (+ 1 (call/cc (lambda (c) (set! k c) 1))) (k 5)")
    assert obs.diagnostics[0].code == "E340"


def test_handler_return_from_raise_is_e332_to_the_outer_handler() -> None:
    src = ("(with-exception-handler (lambda (c) (if (error-object? c) 'outer c))"
           " (lambda () (with-exception-handler (lambda (c) 'inner) (lambda () (raise 'x)))))")
    obs = same(src)
    assert obs.diagnostics[0].code == "E332"


def test_guard_reraises_with_the_same_continuability() -> None:
    src = ("(with-exception-handler (lambda (c) 10)"
           " (lambda () (+ 1 (guard (e ((string? e) 0)) (raise-continuable 'x)))))")
    assert same(src).values == ["11"]


def test_error_spans_follow_the_tree() -> None:
    for src in ["(define (f x) (car x))\n(f 1)", "(+ 1 (values 1 2))", "(letrec ((a b) (b 1)) a)",
                "undefined-variable", "(map (lambda (x y) x) '(1))", "((lambda (x) x))"]:
        same(src)


def test_machine_transition_count_matches_the_tree() -> None:
    src = ("(define (fib n) (if (< n 2) n (+ (fib (- n 1)) (fib (- n 2)))))"
           "(define (s l) (fold-left + 0 (map (lambda (x) (* x x)) l)))"
           "(list (fib 12) (s '(1 2 3)) (apply max '(1 5 2)) (string-append \"a\" \"b\"))")
    t, v = run(src, TREE), run(src, VM)
    assert v.usage == t.usage
    for limit in (10, 500, t.usage["machine_transitions"] - 1):
        same(src, limits={"machine-transition": limit})


def _peak(n: int) -> int:
    src = f"(define (loop i acc) (if (= i 0) acc (loop (- i 1) (+ acc 1)))) (loop {n} 0)"
    tracemalloc.start()
    try:
        assert run(src).values == [str(n)]
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def test_tail_loop_runs_in_flat_memory() -> None:
    small, large = _peak(2_000), _peak(40_000)
    assert large < small * 1.5 + 64_000
