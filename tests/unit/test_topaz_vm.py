"""topaz-vm: what the conformance corpus does not pin.

Depth limits, flat tail loops, build faults, the bytecode id, its own printer against the
kernel's, and a set of control-flow corner cases whose every detail (spans, messages,
irritants, output) must be the tree interpreter's.
"""

from __future__ import annotations

import hashlib
import tracemalloc
from fractions import Fraction

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from implementations import registry
from implementations.kernels import evaluate
from implementations.topaz import vm as topaz_vm
from implementations.topaz.kernel.printer import display_text as display_string
from implementations.topaz.kernel.printer import write_text as write_string
from implementations.topaz.kernel.reader import read_source
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
from implementations.topaz.vm.objects import Closure, Continuation
from implementations.topaz.vm.printer import display_text, write_text

TZ = registry.load("topaz-vm")
TREE = registry.load("tree")

DEPTH = "(define (depth n) (if (= n 0) 0 (+ 1 (depth (- n 1)))))\n"


def run(source: str, **kw):
    return evaluate(source.encode(), TZ, **kw)


# -- depth --------------------------------------------------------------------------------------

def test_ten_thousand_nested_non_tail_calls_work():
    obs = run(DEPTH + "(depth 10000)")
    assert (obs.status, obs.values) == ("ok", ["10000"])


def test_one_more_is_the_recursion_limit():
    obs = run(DEPTH + '(display "x")\n(depth 10001)')
    assert obs.status == "resource" and obs.exit_status == 2
    assert obs.resource_outcome == {"status": "limit-exceeded", "limit": "recursion-limit",
                                    "code": "recursion-limit"}
    assert obs.stdout == "" and obs.values == []


def test_recursion_limit_is_not_catchable():
    obs = run(DEPTH + "(guard (e (#t 'caught)) (with-exception-handler (lambda (e) 0) "
                      "(lambda () (depth 20000))))")
    assert obs.resource_outcome["limit"] == "recursion-limit"


@pytest.mark.parametrize("n", [4999, 5000, 5001])
def test_callbacks_count_toward_the_depth_like_tree(n):
    src = ("(define (d n) (if (= n 0) 0 (+ 1 (car (map d (list (- n 1)))))))\n"
           f"(d {n})").encode()
    assert evaluate(src, TZ).to_json()["semantic"] == evaluate(src, TREE).to_json()["semantic"]


# -- tail calls in flat memory ------------------------------------------------------------------

SELF_LOOP = "(define (loop i acc) (if (= i 0) acc (loop (- i 1) (+ acc 1))))\n(loop {n} 0)\n"
MUTUAL = ("(define (ev? n) (if (= n 0) #t (od? (- n 1))))\n"
          "(define (od? n) (if (= n 0) #f (ev? (- n 1))))\n(ev? {n})\n")


def _peak(source: str) -> tuple[list[str], int]:
    run(source)  # warm caches (primitive table, imports) outside the measurement
    tracemalloc.start()
    try:
        base = tracemalloc.get_traced_memory()[0]
        obs = run(source)
        return obs.values, tracemalloc.get_traced_memory()[1] - base
    finally:
        tracemalloc.stop()


@pytest.mark.parametrize(("program", "result"), [(SELF_LOOP, "1000000"), (MUTUAL, "#t")])
def test_a_million_step_tail_loop_runs_in_flat_memory(program, result):
    small_values, small = _peak(program.format(n=10_000))
    values, big = _peak(program.format(n=1_000_000))
    assert values == [result]
    assert big < small + 256 * 1024, (small, big)


def test_tail_calls_through_apply_and_call_with_values_are_proper():
    obs = run("(define (a n) (if (= n 0) 'done (apply b (list (- n 1)))))\n"
              "(define (b n) (call-with-values (lambda () (values n)) a))\n(a 300000)")
    assert obs.values == ["done"]


# -- build faults -------------------------------------------------------------------------------

def test_code_that_does_not_compile_is_a_build_fault():
    # 150 nested lambdas that each capture the outermost parameter: Python allows at most
    # 100 levels of indentation, so this program cannot become Python source.
    n = 150
    body = "(list " + " ".join(f"x{i}" for i in (0, n - 1)) + ")"
    src = "(define (f x0) " + "".join(f"(lambda (x{i}) " for i in range(1, n)) + body + \
        ")" * (n - 1) + ")\n(f 1)\n"
    obs = run(src)
    assert obs.status == "infrastructure-error"
    assert obs.exit_status is None and obs.values == [] and obs.diagnostics == []
    assert obs.resource_outcome == {"status": "unknown"}
    assert [f["kind"] for f in obs.faults] == ["build"]
    assert "compile" in obs.faults[0]["message"]


def test_a_compile_failure_of_any_kind_is_a_build_fault(monkeypatch):
    def refuse(*args, **kwargs):
        raise SyntaxError("refused for the test")

    monkeypatch.setattr(topaz_vm, "compile", refuse, raising=False)
    obs = run("(+ 1 2)")
    assert obs.status == "infrastructure-error"
    assert obs.faults == [{"kind": "build", "message": "generated code does not compile: "
                                                       "SyntaxError: refused for the test"}]


# -- identities ---------------------------------------------------------------------------------

def test_bytecode_id_is_the_digest_of_the_generated_code():
    src = b"(define (sq x) (* x x))\n(sq 12)\n"
    obs = evaluate(src, TZ)
    program = __import__("implementations.topaz.kernel.normalizer", fromlist=["normalize"]).normalize(
        read_source(src, "program.lspx").datums, "program.lspx")
    compiled = topaz_vm.on_big_stack(lambda: topaz_vm.build(program))
    expected = hashlib.sha256(b"lispex/topaz-vm-code/v0\x00" + compiled.source.encode())
    assert obs.products["bytecode_id"] == expected.hexdigest()
    assert evaluate(src, TZ).products["bytecode_id"] == obs.products["bytecode_id"]
    other = evaluate(b"(define (sq x) (* x x x))\n(sq 12)\n", TZ)
    assert other.products["bytecode_id"] != obs.products["bytecode_id"]
    assert obs.products["product_id"] == TZ.product_id()


# -- the printer --------------------------------------------------------------------------------

def _char_codes():
    return st.one_of(st.integers(0, 0x7F), st.integers(0x80, 0xD7FF),
                     st.integers(0xE000, 0x10FFFF))


def _atoms():
    return st.one_of(
        st.integers(-(10 ** 30), 10 ** 30),
        st.integers(0, 3).map(lambda k: 7 ** (3000 * k) - 1),
        st.fractions().filter(lambda q: q.denominator != 1),
        st.floats(allow_nan=False, allow_infinity=False),
        st.booleans(),
        st.just(NIL),
        st.text(st.characters(codec="utf-8"), max_size=8).map(Str),
        st.sampled_from(["a", "list->vector", "λ", "+", "x1"]).map(sym),
        _char_codes().map(Char),
        st.binary(max_size=4).map(Bytevector),
        st.sampled_from(["car", "map", "display"]).map(lambda n: topaz_vm.primitives()[n]),
        st.sampled_from([None, "named", sym("f")]).map(lambda n: Closure(None, n, 0, False)),
        st.just(Continuation()),
        st.text(max_size=5).map(lambda m: ErrorObject("E330", Str(m), NIL)),
    )


def _values():
    return st.recursive(
        _atoms(),
        lambda inner: st.one_of(
            st.lists(inner, max_size=4).map(list_from),
            st.tuples(st.lists(inner, min_size=1, max_size=3), inner).map(
                lambda p: list_from(p[0], p[1])),
            st.tuples(st.lists(inner, max_size=4), st.booleans()).map(
                lambda p: Vector(list(p[0]), mutable=p[1])),
        ),
        max_leaves=20,
    )


def _containers(x, out):
    work = [x]
    seen = set()
    while work:
        y = work.pop()
        if id(y) in seen or type(y) not in (Pair, Vector):
            continue
        seen.add(id(y))
        out.append(y)
        work.extend((y.car, y.cdr) if type(y) is Pair else y.items)
    return out


@st.composite
def printable(draw):
    """A value, sometimes with shared structure or cycles made through mutable vectors."""
    x = draw(_values())
    nodes = _containers(x, [])
    vectors = [v for v in nodes if type(v) is Vector and v.mutable and v.items]
    for _ in range(draw(st.integers(0, 2)) if vectors else 0):
        v = draw(st.sampled_from(vectors))
        v.items[draw(st.integers(0, len(v.items) - 1))] = draw(st.sampled_from(nodes))
    return x


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(printable())
def test_printer_agrees_with_the_kernel_printer(x):
    assert write_text(x) == write_string(x)
    assert display_text(x) == display_string(x)


@pytest.mark.parametrize(("value", "text"), [
    (1e21, "1000000000000000000000.0"), (1e-7, "0.0000001"), (-0.0, "-0.0"), (123.456, "123.456"),
    (Fraction(-1, 3), "-1/3"), (Str('a"b\\c\n\x07'), '"a\\"b\\\\c\\n\\x07;"'),
    (Char(0x20), "#\\space"), (Char(0x1F), "#\\x1f"), (Char(0x3BB), "#\\λ"),
])
def test_printer_cases_from_the_reference(value, text):
    assert write_text(value) == text


def test_output_primitives_use_topaz_printer():
    assert topaz_vm.primitives()["write"].fn is topaz_vm._write
    obs = run('(write (list "a\\nb" #\\a 1.5)) (display (list "a" #\\b))')
    assert obs.stdout == '("a\\nb" #\\a 1.5)(a b)'


# -- corner cases that must be exactly the tree interpreter's -----------------------------------

CORNERS = [
    # applications the runtime makes report the most recently started application's span
    "(define (f) (values 1 2))\n(call-with-values (lambda () (f)) (lambda (a) a))",
    "(dynamic-wind (lambda () (display 1)) 5 (lambda () 2))",
    "(define (noisy) (display \"n\") 1)\n"
    "(with-exception-handler (lambda () 0) (lambda () (noisy) undefined-variable))",
    "(with-exception-handler car (lambda () (raise 'x)))",
    "(map car '((1) 5))",
    # handlers: in place, E332 to the outer handler, continuable re-raise from a guard
    "(with-exception-handler (lambda (e) (display \"outer\") 0)\n"
    "  (lambda () (with-exception-handler (lambda (e) (display \"inner\") 1)"
    " (lambda () (raise 'x)))))",
    "(with-exception-handler (lambda (e) 99)\n"
    "  (lambda () (guard (e2 ((number? e2) 'num)) (+ 1 (raise-continuable 'sym)))))",
    "(with-exception-handler (lambda (e) 'handled)\n"
    "  (lambda () (list (guard (e ((string? e) 'str)) (raise 'sym)))))",
    "(call/cc (lambda (k) (with-exception-handler (lambda (e) (k (list 'escaped e)))"
    " (lambda () (vector-ref (vector 1 2) 5)))))",
    # dynamic-wind: after thunks on escapes and caught unwinds, not on an uncaught error
    "(define (log x) (display x) (display \" \"))\n"
    "(guard (e (#t (list 'caught e)))\n (dynamic-wind (lambda () (log 'b)) (lambda () (raise 'x))"
    " (lambda () (log 'a) (raise 'from-after))))",
    "(define (log x) (display x) (display \" \"))\n"
    "(dynamic-wind (lambda () (log 'b1)) (lambda () (dynamic-wind (lambda () (log 'b2))"
    " (lambda () (car '())) (lambda () (log 'a2)))) (lambda () (log 'a1)))",
    # a handler runs one level deeper than the raise, and counts toward the depth
    "(define (depth n) (if (= n 0) (raise-continuable 'bottom) (+ 1 (depth (- n 1)))))\n"
    "(with-exception-handler (lambda (e) (define (d2 m) (if (= m 0) 0 (+ 1 (d2 (- m 1)))))"
    " (d2 1)) (lambda () (depth 9998)))",
    "(define (f n) (if (= n 0) (car '()) (+ 1 (f (- n 1)))))\n"
    "(with-exception-handler (lambda (e) (define (d2 m) (if (= m 0) 0 (+ 1 (d2 (- m 1)))))"
    " (d2 1)) (lambda () (f 9998)))",
    # one-shot continuations, values, letrec, closures made in loops
    "(define saved #f)\n(define n (call/cc (lambda (k) (set! saved k) 1)))\n(saved 2)",
    "(call/cc (lambda (k) (k 1 2)))",
    "(letrec ((a (lambda () b)) (b (a))) b)",
    "(define fs (let loop ((i 0) (acc '())) (if (= i 3) acc (loop (+ i 1)"
    " (cons (lambda () i) acc)))))\n(map (lambda (f) (f)) fs)",
    "(define (f x) (list x (begin (set! x 5) x) x))\n(f 1)",
    "(define (car x) 'mine)\n(list (car '(1 2)) (map car '((1) (2))))",
    "(define (f x) (% x 3))\n(list (f 10) (list-first '(1 2)) (% 7 2))",
]


@pytest.mark.parametrize("source", CORNERS)
def test_corner_cases_match_tree_exactly(source):
    tz = evaluate(source.encode(), TZ).to_json()["semantic"]
    tree = evaluate(source.encode(), TREE).to_json()["semantic"]
    assert tz == tree
