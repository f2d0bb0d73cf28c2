"""topaz-tree: what the conformance corpus does not pin.

The recursion limit at its exact edge, tail calls in constant space, nesting far deeper than
CPython's default limit, falling back when a large stack cannot be mapped, reusing a compiled
program, and the implementation's own printer against the kernel's (a comparison, not sharing:
the two are written separately so that a printing bug shows up as a disagreement).
"""

from __future__ import annotations

import tracemalloc
from fractions import Fraction

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from implementations import registry
from implementations.topaz import tree as topaz_tree
from implementations.topaz.kernel import printer as kernel_printer
from implementations.topaz.kernel.context import RunContext
from implementations.topaz.kernel.meters import Meter
from implementations.topaz.kernel.normalizer import normalize
from implementations.topaz.kernel.reader import read_source
from implementations.topaz.kernel.run import NO_INPUT, evaluate, resolve_limits
from implementations.topaz.kernel.values import (
    NIL,
    Bytevector,
    Char,
    ErrorObject,
    Pair,
    Str,
    Vector,
    list_from,
    sym,
)
from implementations.topaz.tree import printer, stack
from implementations.topaz.tree.objects import Closure, Continuation

BACKEND = registry.load("topaz-tree")

DEPTH = "(define (depth n) (if (= n 0) 0 (+ 1 (depth (- n 1)))))\n"
LOOP = "(define (loop i acc) (if (= i 0) acc (loop (- i 1) (+ acc 1))))\n"


def run(source: str, **kw):
    return evaluate(source.encode(), BACKEND, **kw)


def test_registered_and_identified():
    assert "topaz-tree" in registry.ids()
    obs = run("(+ 1 2)")
    assert obs.implementation == "topaz-tree"
    assert obs.values == ["3"]
    assert len(obs.products["product_id"]) == 64


# -- the recursion limit ---------------------------------------------------------------------

def test_non_tail_depth_10000_runs():
    obs = run(DEPTH + "(depth 10000)")
    assert (obs.status, obs.values) == ("ok", ["10000"])


def test_non_tail_depth_10001_is_the_recursion_limit():
    obs = run(DEPTH + "(display \"x\") (depth 10001)")
    assert obs.status == "resource"
    assert obs.exit_status == 2
    assert obs.stdout == ""
    assert obs.resource_outcome == {"status": "limit-exceeded", "limit": "recursion-limit",
                                    "code": "recursion-limit"}


@pytest.mark.parametrize("call", [
    "(car (map depth (list (- n 1))))",  # a callback is a non-tail call
    "(apply depth (list (- n 1)))",  # apply takes the (non-tail) position of its call
    "(call/cc (lambda (k) (depth (- n 1))))",  # the receiver's call; inside it, a tail call
    "(dynamic-wind (lambda () 0) (lambda () (depth (- n 1))) (lambda () 0))",
    "(with-exception-handler (lambda (e) 0) (lambda () (depth (- n 1))))",
])
def test_guest_calls_count_towards_the_limit(call):
    source = f"(define (depth n) (if (= n 0) 0 (+ 1 {call})))\n"
    assert run(source + "(depth 10000)").values == ["10000"]
    assert run(source + "(depth 10001)").status == "resource"


def test_recursion_limit_is_not_catchable():
    source = DEPTH + "(guard (e (#t 'caught)) (with-exception-handler (lambda (e) 0) " \
                     "(lambda () (depth 20000))))"
    assert run(source).status == "resource"


# -- tail calls and deep nesting -------------------------------------------------------------

def test_million_step_tail_loop_in_flat_memory(monkeypatch):
    # A recursion cap far below a million: if tail calls nested Python frames, this would end
    # with the recursion-limit outcome instead of the answer.
    monkeypatch.setattr(stack, "MAX_RECURSION", 5_000)
    run(LOOP + "(loop 10 0)")  # warm-up: module caches are not growth
    peaks = []
    for n in (10_000, 1_000_000):
        tracemalloc.start()
        base = tracemalloc.get_traced_memory()[0]
        obs = run(LOOP + f"(loop {n} 0)")
        peak = tracemalloc.get_traced_memory()[1] - base
        tracemalloc.stop()
        assert obs.values == [str(n)]
        peaks.append(peak)
    assert peaks[1] < peaks[0] + 64 * 1024, peaks


def test_tail_calls_through_apply_and_call_with_values_are_proper(monkeypatch):
    monkeypatch.setattr(stack, "MAX_RECURSION", 5_000)
    source = ("(define (a n) (if (= n 0) 'a (apply a (list (- n 1)))))\n"
              "(define (c n) (if (= n 0) 'c (call-with-values (lambda () (- n 1)) c)))\n"
              "(list (a 100000) (c 100000))")
    assert run(source).values == ["(a c)"]


def test_deeply_nested_core_ir():
    # `and` of 9,000 operands is a 9,000-deep chain of ifs, compiled and run by recursion (the
    # normalizer may refuse expansions nested past 10,000).
    source = "(define x 1)\n(and " + "x " * 9_000 + ")"
    assert run(source).values == ["1"]


def test_each_node_is_compiled_once(monkeypatch):
    # Specialising a call must not compile its arguments twice: that doubles per level.
    from implementations.topaz.tree.nodes import NodeCompiler
    calls = []
    original = NodeCompiler.comp
    monkeypatch.setattr(NodeCompiler, "comp", lambda self, n, sc: calls.append(n) or
                        original(self, n, sc))
    nest = 12
    source = "(define x 1)\n" + "(+ x (if (< x 0) 0 (car (list " * nest + "0" + "))))" * nest
    assert run(source).values == [str(nest)]
    assert len(calls) == len({id(n) for n in calls})


def test_falls_back_when_no_large_stack_can_be_had(monkeypatch):
    monkeypatch.setattr(stack, "STACK_SIZES", (1 << 62,))  # no thread can get this
    assert run(DEPTH + "(depth 10000)").values == ["10000"]


def test_running_out_of_memory_is_not_the_recursion_limit(monkeypatch):
    # Memory exhaustion is the host failing, not a resource outcome of the program: it leaves
    # the back end as MemoryError, which the worker reports as the `memory-limit` fault, the same
    # on every implementation (it once became `recursion-limit` here).
    def exhausted(fn):
        raise MemoryError

    monkeypatch.setattr(topaz_tree, "on_big_stack", exhausted)
    with pytest.raises(MemoryError):
        run("(+ 1 2)")


# -- compiled once, run many times -----------------------------------------------------------

def _prepare(source: str):
    read = read_source(source.encode(), "p.lspx", None)
    return BACKEND.prepare(normalize(read.datums, "p.lspx", None, read.pragmas))


def test_a_compiled_program_runs_again_from_a_fresh_state():
    prepared = _prepare("(define n 0)\n(set! n (+ n 1))\n(display n)\n(list n input)")
    for value in (1, 2):
        meter = Meter(resolve_limits(None, None)[1])
        ctx = RunContext(meter)
        result = BACKEND.execute(prepared, value, ctx, meter)
        assert ctx.stdout() == "1"
        assert kernel_printer.write_text(result) == f"(1 {value})"
    meter = Meter(resolve_limits(None, None)[1])
    with pytest.raises(Exception) as info:
        BACKEND.execute(prepared, NO_INPUT, RunContext(meter), meter)
    assert info.value.payload.code == "E300"  # `input` is unbound without an input


def test_output_goes_through_the_topaz_printer(monkeypatch):
    monkeypatch.setattr(printer, "render", lambda x, write: "<topaz>")
    assert run("(display 1) (write 2) (println 3)").stdout == "<topaz><topaz><topaz>\n"


# -- the printer against the kernel's --------------------------------------------------------

def _prim(name: str):
    return topaz_tree.primitives()[name]


atoms = st.one_of(
    st.integers(),
    st.integers(min_value=10**4400, max_value=10**4500),  # past str(int)'s digit limit
    st.fractions().map(lambda q: q.numerator if q.denominator == 1 else q),
    st.floats(allow_nan=False, allow_infinity=False),
    st.sampled_from([1e-7, 1e30, -0.0, 5e-324, 1.7976931348623157e308, 123456789.125]),
    st.booleans(),
    st.text(max_size=8).map(Str),
    st.sampled_from(["a", "list->vector", "x1", "+", "..."]).map(sym),
    st.integers(min_value=0, max_value=0x10FFFF).map(Char),
    st.sampled_from([0, 7, 8, 9, 10, 13, 27, 32, 127, 128, 0xA0, 0x3BB]).map(Char),
    st.binary(max_size=4).map(Bytevector),
    st.just(NIL),
    st.sampled_from(["car", "map", "call/cc", "+"]).map(_prim),
    st.sampled_from([None, "f", "loop"]).map(lambda n: Closure(None, None, 0, False, n)),
    st.just(Continuation()),
    st.text(max_size=5).map(lambda m: ErrorObject("E330", Str(m), NIL)),
)


def _containers(inner):
    return st.one_of(
        st.lists(inner, max_size=4).map(list_from),
        st.tuples(inner, inner).map(lambda t: Pair(*t)),
        st.tuples(st.lists(inner, max_size=4), st.booleans()).map(lambda t: Vector(*t)),
        st.tuples(st.lists(inner, min_size=1, max_size=3), inner).map(
            lambda t: list_from(t[0], t[1])),
    )


values = st.recursive(atoms, _containers, max_leaves=12)


@st.composite
def cyclic(draw):
    """Mutable vectors made to contain themselves and each other, inside other structure."""
    vectors = [Vector(draw(st.lists(values, min_size=1, max_size=3)))
               for _ in range(draw(st.integers(1, 3)))]
    for v in vectors:
        for _ in range(draw(st.integers(1, 2))):
            v.items[draw(st.integers(0, len(v.items) - 1))] = draw(st.sampled_from(vectors))
    shapes = [vectors[0], list_from(vectors), Pair(vectors[-1], vectors[0]),
              list_from([draw(values), vectors[0]], vectors[-1])]
    return draw(st.sampled_from(shapes))


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.one_of(values, cyclic()))
def test_printer_matches_the_kernel_printer(x):
    assert printer.write_text(x) == kernel_printer.write_text(x)
    assert printer.display_text(x) == kernel_printer.display_text(x)


def test_printer_examples():
    v = Vector([1, 2])
    v.items[0] = v
    cases = [
        (list_from([1, Str('a"\n\x01'), Char(32), Char(1), Fraction(-1, 3), 2.5]),
         '(1 "a\\"\\n\\x01;" #\\space #\\x01 -1/3 2.5)'),
        (list_from([sym("quote"), sym("a")]), "(quote a)"),
        (Pair(1, 2), "(1 . 2)"),
        (v, "#0=#(#0# 2)"),
        (list_from([v, v]), "(#0=#(#0# 2) #0#)"),
        (1e21, "1000000000000000000000.0"),
        (Bytevector(b"\x01\xff"), "#u8(1 255)"),
        (-(10**5000 + 7), "-1" + "0" * 4999 + "7"),
    ]
    for value, text in cases:
        assert printer.write_text(value) == text


def test_deep_list_prints_without_recursion():
    x = NIL
    for _ in range(100_000):
        x = Pair(x, NIL)
    assert printer.write_text(x) == "(" * 100_001 + ")" * 100_001
