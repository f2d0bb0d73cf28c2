"""Property: the tree interpreter and the VM give the same normative observation.

Programs are generated as source text: closures, recursion (tail and non-tail), lists, numbers,
strings, multiple values, errors, handlers, guard, call/cc and dynamic-wind, so that both the
happy paths and the fault paths (with their codes and spans) are compared. Everything runs in
process and is bounded, so the whole property takes a few seconds.
"""

from __future__ import annotations

from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from court.corpus import discover
from implementations import registry
from implementations.lispex.run import evaluate

PRELUDE = """
(define (sum-to n acc) (if (<= n 0) acc (sum-to (- n 1) (+ acc n))))
(define (depth n) (if (<= n 0) 0 (+ 1 (depth (- n 1)))))
(define (twice f x) (f (f x)))
(define counter 0)
(define (bump!) (set! counter (+ counter 1)) counter)
"""

LEAVES = ["0", "1", "2", "-3", "7", "1/2", "2.5", '"ab"', '""', "#t", "#f", "'()", "'sym",
          "'(1 2 3)", "#\\a", "counter"]


@st.composite
def expr(draw, depth: int = 3, names: tuple = ()) -> str:  # noqa: C901
    if depth <= 0 or draw(st.integers(0, 4)) == 0:
        pool = LEAVES + list(names)
        return draw(st.sampled_from(pool))
    d = depth - 1

    def sub(extra: tuple = ()) -> str:
        return draw(expr(d, names + extra))

    v = f"v{depth}"
    kind = draw(st.integers(0, 27))
    if kind == 0:
        return f"({draw(st.sampled_from(['+', '-', '*', '<', '=', '<=']))} {sub()} {sub()})"
    if kind == 1:
        return f"(if {sub()} {sub()} {sub()})"
    if kind == 2:
        return f"(let (({v} {sub()})) {sub((v,))})"
    if kind == 3:
        return f"((lambda ({v}) {sub((v,))}) {sub()})"
    if kind == 4:
        return f"({draw(st.sampled_from(['car', 'cdr', 'null?', 'pair?', 'length']))} {sub()})"
    if kind == 5:
        return f"(cons {sub()} {sub()})"
    if kind == 6:
        return f"(list {sub()} {sub()} {sub()})"
    if kind == 7:
        return f"(string-append {sub()} {sub()})"
    if kind == 8:
        return f"(map (lambda ({v}) {sub((v,))}) {sub()})"
    if kind == 9:
        return f"(filter (lambda ({v}) {sub((v,))}) {sub()})"
    if kind == 10:
        return f"(fold-left (lambda (acc {v}) {sub(('acc', v))}) {sub()} {sub()})"
    if kind == 11:
        return (f"(guard (c ((error-object? c) (error-object-message c)) ((symbol? c) c)) "
                f"{sub()})")
    if kind == 12:
        return f"(raise {draw(st.sampled_from(LEAVES))})"
    if kind == 13:
        return f'(error "boom" {sub()})'
    if kind == 14:
        return f"(call/cc (lambda (k) {sub(('k',))}))"
    if kind == 15:
        return (f"(call-with-values (lambda () (values {sub()} {sub()})) "
                f"(lambda (a b) {sub(('a', 'b'))}))")
    if kind == 16:
        return f"(apply {draw(st.sampled_from(['+', 'list', 'max']))} (list {sub()} {sub()}))"
    if kind == 17:
        return f"(begin (display {sub()}) {sub()})"
    if kind == 18:
        return (f"(with-exception-handler (lambda (c) {sub(('c',))}) "
                f"(lambda () (+ 1 (raise-continuable {sub()}))))")
    if kind == 19:
        return (f'(dynamic-wind (lambda () (display "[")) (lambda () {sub()}) '
                f'(lambda () (display "]")))')
    if kind == 20:
        return f"(values {sub()} {sub()})"
    if kind == 21:
        n = draw(st.integers(0, 30))
        return draw(st.sampled_from([f"(sum-to {n} 0)", f"(depth {n})"]))
    if kind == 22:
        return f"(twice (lambda ({v}) {sub((v,))}) {sub()})"
    if kind == 23:
        return f"(begin (bump!) {sub()})"
    if kind == 24:
        return f"(let loop ((i 0) (acc {sub()})) (if (< i 3) (loop (+ i 1) (cons i acc)) acc))"
    if kind == 25:
        return f"(cond ({sub()} {sub()}) (else {sub()}))"
    if kind == 26:
        return f"(and {sub()} {sub()})"
    return f"(or {sub()} {sub()})"


def normative(obs) -> dict:
    s = obs.to_json()["semantic"]
    diag = [(d["code"], d["phase"], d["span"] and (d["span"]["line"], d["span"]["column"]))
            for d in s["diagnostics"]]
    return {"status": s["status"], "values": s["values"], "stdout": s["stdout"],
            "exit_status": s["exit_status"], "diagnostics": diag,
            "warnings": [w["code"] for w in s["warnings"]]}


TREE = registry.load("tree")
VM = registry.load("vm")


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(expr(), min_size=1, max_size=3))
def test_tree_and_vm_agree(forms: list[str]) -> None:
    source = (PRELUDE + "\n".join(forms)).encode()
    tree = evaluate(source, TREE)
    vm = evaluate(source, VM)
    assert normative(vm) == normative(tree), source.decode()
    # The VM's weights reproduce the tree's machine-transition count exactly, after faults,
    # handlers and escapes too, and it vouches for its count.
    assert vm.usage == tree.usage, source.decode()
    assert vm.meter_exact and tree.meter_exact, source.decode()


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(expr(), min_size=1, max_size=3), st.lists(st.floats(0, 1), min_size=1,
                                                          max_size=4))
def test_tree_and_vm_stop_at_the_same_transition(forms: list[str], at: list[float]) -> None:
    # A transition limit anywhere in the run: the VM stops (or faults first, or writes its
    # output) where the tree interpreter does, though it pays a fused instruction at once.
    source = (PRELUDE + "\n".join(forms)).encode()
    total = evaluate(source, TREE).usage["machine_transitions"]
    for limit in sorted({1 + int(x * total) for x in at}):
        limits = {"machine-transition": limit}
        tree = evaluate(source, TREE, limits=limits)
        vm = evaluate(source, VM, limits=limits)
        assert normative(vm) == normative(tree), (limit, source.decode())
        assert vm.usage == tree.usage and vm.meter_exact, (limit, source.decode())


def test_the_vm_counts_exactly_on_every_corpus_case() -> None:
    root = Path(__file__).resolve().parents[1] / "corpus"
    strays, differ = [], []
    for case in discover([root]):
        kw = {"filename": str(case.program), "input_text": case.input_text(),
              "profile_id": case.profile, "limits": case.limits or None}
        tree = evaluate(case.source(), TREE, **kw)
        vm = evaluate(case.source(), VM, **kw)
        if not vm.meter_exact:
            strays.append(case.id)
        if vm.usage != tree.usage:
            differ.append((case.id, tree.usage, vm.usage))
    assert strays == [] and differ == []
