"""Unit tests for the normalizer (normalizer.py, derived.py, scopes.py) and Core IR (core_ir.py).

Expansions are checked through their canonical text, the span-free rendering that `core_ir_id`
hashes, so a test reads like the Core IR a back end receives. A structural checker that re-derives
tail positions and frame shapes from the IR and runs over the whole corpus is in
tests/test_properties.py (`check_ir`).
"""

from __future__ import annotations

import hashlib
import re

import pytest
from normalizer_helpers import core, fails, program, run, value_of  # noqa: E402

from implementations.lispex.errors import LispexError

# --- core forms ----------------------------------------------------------------------------

CORE_FORMS = [
    ("42", "(const 42)"), ('"s\\n"', '(const "s\\n")'), ("'(a . b)", "(const (a . b))"),
    ("'#(1 x)", "(const #(1 x))"), ("#(1 x)", "(const #(1 x))"), ("''a", "(const (quote a))"),
    ("x", "(global x)"), ("(if 1 2 3)", "(if (const 1) (const 2) (const 3))"),
    ("(lambda (x y . z) z)", "(lambda - 2 #t (local 0 2))"),
    ("(lambda args args)", "(lambda - 0 #t (local 0 0))"),
    ("(lambda () 1 2)", "(lambda - 0 #f (begin (const 1) (const 2)))"), ("(begin 1)", "(const 1)"),
    ("(f (begin 1 2))", "(tail-app (global f) (begin (const 1) (const 2)))"),
    ("(set! x 1)", "(set-global x (const 1))"),
    ("(lambda (x) (set! x 2))", "(lambda - 1 #f (set-local 0 0 (const 2)))"),
    ("(define x 1)", "(define-global x (const 1))"),
    ("(define (f x) x)", "(define-global f (lambda f 1 #f (local 0 0)))"),
    ("(define (f . r) r)", "(define-global f (lambda f 0 #t (local 0 0)))"),
    ("(define f (lambda (x) x))", "(define-global f (lambda f 1 #f (local 0 0)))"),
    ("(set! g (lambda () 1))", "(set-global g (lambda g 0 #f (const 1)))"),
    ("(let ((a 1) (b 2)) b)", "(let ((const 1) (const 2)) (local 0 1))"),
    ("(let () 1)", "(let () (const 1))"),
    ("(let ((f (lambda () 1))) f)", "(let ((lambda f 0 #f (const 1))) (local 0 0))"),
    ("(letrec ((f (lambda () (f)))) f)",
     "(letrec ((lambda f 0 #f (tail-app (local 1 0)))) (local 0 0))"),
    ("(values)", "(values)"), ("(values 1 (f))", "(values (const 1) (app (global f)))"),
    ("(list values)", "(tail-app (global list) (global values))"),
    ("(call/cc f)", "(tail-app (global call/cc) (global f))"),
    ("(call-with-values f g)", "(tail-app (global call-with-values) (global f) (global g))"),
    ("(dynamic-wind a b c)", "(tail-app (global dynamic-wind) (global a) (global b) (global c))"),
    ("((f) 1)", "(tail-app (app (global f)) (const 1))"),
    ("(guard (e ((symbol? e) 1) ((g e)) (else 2)) (raise 'x))",
     "(guard (app (global raise) (const x)) (((app (global symbol?) (local 0 0)) (const 1)) "
     "((app (global g) (local 0 0)) -)) (const 2))"),
    ("(guard (e (#t e)) 1)", "(guard (const 1) (((const #t) (local 0 0))) -)"),
]


@pytest.mark.parametrize("src,want", CORE_FORMS)
def test_core_forms(src: str, want: str) -> None:
    assert core(src) == want


def test_each_top_level_form_is_one_line_and_begin_is_spliced() -> None:
    text = program("(define x 1)\n(begin (define y 2) (begin y))\nx").canonical_text()
    assert text == ("(define-global x (const 1))\n(define-global y (const 2))\n(global y)\n"
                    "(global x)\n")


def test_string_constants_never_break_the_line() -> None:
    assert core('"a\nb"') == '(const "a\\nb")'


def test_globals_get_slots_in_first_met_order() -> None:
    p = program("(define b 1) (f a b)")
    assert p.globals == ["b", "f", "a"]
    assert "slot" not in p.canonical_text()


# --- derived forms -------------------------------------------------------------------------

DERIVED_FORMS = [
    ("(let* ((a 1) (b a)) b)", "(let ((const 1)) (let ((local 0 0)) (local 0 0)))"),
    ("(let* () 1)", "(let () (const 1))"),
    ("(let* ((x 1) (x (+ x 1))) x)",
     "(let ((const 1)) (let ((app (global +) (local 0 0) (const 1))) (local 0 0)))"),
    ("(let loop ((i 0)) (loop i))",
     "(tail-app (letrec ((lambda loop 1 #f (tail-app (local 1 0) (local 0 0)))) (local 0 0)) "
     "(const 0))"),
    ("(and)", "(const #t)"), ("(and 1)", "(const 1)"),
    ("(and 1 2 3)", "(if (const 1) (if (const 2) (const 3) (const #f)) (const #f))"),
    ("(or)", "(const #f)"), ("(or 1)", "(const 1)"),
    ("(or 1 2 3)",
     "(let ((const 1)) (if (local 0 0) (local 0 0) (let ((const 2)) (if (local 0 0) (local 0 0) "
     "(const 3)))))"),
    ("(when 1 2 3)", "(if (const 1) (begin (const 2) (const 3)) (values))"),
    ("(unless 1 2)", "(if (const 1) (values) (const 2))"),
    ("(cond (1 2) ((f)) (else 3))",
     "(if (const 1) (const 2) (let ((app (global f))) (if (local 0 0) (local 0 0) (const 3))))"),
    ("(cond (1 2))", "(if (const 1) (const 2) (values))"),
    ("(cond (1))", "(let ((const 1)) (if (local 0 0) (local 0 0) (values)))"),
    ("(cond (else 1 2))", "(begin (const 1) (const 2))"),
    ("(case k ((1 2) 'low) (else 'high))",
     "(let ((global k)) (if (if (app (intrinsic eqv?) (local 0 0) (const 1)) (const #t) "
     "(app (intrinsic eqv?) (local 0 0) (const 2))) (const low) (const high)))"),
    ("(case 1 ((1) 2))",
     "(let ((const 1)) (if (app (intrinsic eqv?) (local 0 0) (const 1)) (const 2) (values)))"),
    ("(case 1 (() 2) (else 3))", "(let ((const 1)) (if (const #f) (const 2) (const 3)))"),
    ("(case 1)", "(let ((const 1)) (values))"),
    ("(case 'a ((\"s\" #\\c (x)) 1))",
     "(let ((const a)) (if (if (app (intrinsic eqv?) (local 0 0) (const \"s\")) (const #t) "
     "(if (app (intrinsic eqv?) (local 0 0) (const #\\c)) (const #t) "
     "(app (intrinsic eqv?) (local 0 0) (const (x))))) (const 1) (values)))"),
    ("(do ((i 0 (+ i 1)) (j 5)) ((= i 3) j) (display i))",
     "(tail-app (letrec ((lambda - 2 #f (if (app (global =) (local 0 0) (const 3)) (local 0 1) "
     "(begin (app (global display) (local 0 0)) (tail-app (local 1 0) "
     "(app (global +) (local 0 0) (const 1)) (local 0 1)))))) (local 0 0)) (const 0) (const 5))"),
    ("(do ((i 0 (+ i 1))) ((= i 3)))",
     "(tail-app (letrec ((lambda - 1 #f (if (app (global =) (local 0 0) (const 3)) (values) "
     "(tail-app (local 1 0) (app (global +) (local 0 0) (const 1)))))) (local 0 0)) (const 0))"),
    ("(do () (#t 1 2))",
     "(tail-app (letrec ((lambda - 0 #f (if (const #t) (begin (const 1) (const 2)) "
     "(tail-app (local 1 0))))) (local 0 0)))"),
    ("`(1 2)", "(const (1 2))"), ("`x", "(const x)"), ("`,x", "(global x)"),
    ("`(1 ,x ,@y . z)",
     "(app (intrinsic cons) (const 1) (app (intrinsic cons) (global x) "
     "(app (intrinsic append) (global y) (const z))))"),
    ("`(,@y)", "(app (intrinsic append) (global y) (const ()))"),
    ("`#(1 ,x)",
     "(app (intrinsic list->vector) (app (intrinsic cons) (const 1) "
     "(app (intrinsic cons) (global x) (const ()))))"),
    ("`(1 . ,x)", "(app (intrinsic cons) (const 1) (global x))"),
    ("``(a ,,x)",
     "(app (intrinsic cons) (const quasiquote) (app (intrinsic cons) (app (intrinsic cons) "
     "(const a) (app (intrinsic cons) (app (intrinsic cons) (const unquote) "
     "(app (intrinsic cons) (global x) (const ()))) (const ()))) (const ())))"),
    ("(define (f) (define a 1) (define (g) a) (g))",
     "(define-global f (lambda f 0 #f (letrec ((const 1) (lambda g 0 #f (local 1 0))) "
     "(tail-app (local 0 1)))))"),
]


@pytest.mark.parametrize("src,want", DERIVED_FORMS)
def test_derived_forms(src: str, want: str) -> None:
    assert core(src) == want


@pytest.mark.parametrize("src,value", [
    ("(let ((x '(2 3))) `(1 . ,x))", "(1 2 3)"),
    ("(let ((x 5)) `(1 . ,x))", "(1 . 5)"),
    ("`((foo ,(- 10 3)) ,@(cdr '(c)) . ,(car '(cons)))", "((foo 7) . cons)"),
    ("(let ((x 5)) `(a `(b ,(c ,x))))", "(a (quasiquote (b (unquote (c 5)))))"),
    ("(let ((x 5)) ``(a ,x))", "(quasiquote (a (unquote x)))"),
    ("(let ((name 'a)) `(list ,name ',name))", "(list a (quote a))"),
    ("`(1 ,@'() 2)", "(1 2)"),
    ("(let ((v 2)) `#(1 ,v ,@(list 3 4)))", "#(1 2 3 4)"),
    ("(do ((vec (make-vector 5)) (i 0 (+ i 1))) ((= i 5) vec) (vector-set! vec i i))",
     "#(0 1 2 3 4)"),
    ("(let loop ((i 0) (acc '())) (if (= i 3) acc (loop (+ i 1) (cons i acc))))", "(2 1 0)"),
    ("(cond ((assv 2 '((1 a) (2 b)))) (else 'none))", "(2 b)"),
    ("(case (* 2 3) ((2 3 5 7) 'prime) ((1 4 6 8 9) 'composite))", "composite"),
])
def test_derived_forms_evaluate_as_r7rs_says(src: str, value: str) -> None:
    assert value_of(src) == [value]


@pytest.mark.parametrize("src", ["(cond (#f 1))", "(case 1 ((2) 3))", "(when #f 1)",
                                 "(unless #t 1)", "(do ((i 0 (+ i 1))) ((= i 2)))"])
def test_unmatched_conditionals_yield_zero_values(src: str) -> None:
    assert value_of(src) == []


# --- lexical addresses ---------------------------------------------------------------------

ADDRESSES = [
    # Nested lambda, let and letrec frames: depth counts frames outwards.
    ("(lambda (a) (lambda (b) (let ((c 1)) (letrec ((d 2)) (list a b c d)))))",
     "(lambda - 1 #f (lambda - 1 #f (let ((const 1)) (letrec ((const 2)) "
     "(tail-app (global list) (local 3 0) (local 2 0) (local 1 0) (local 0 0))))))"),
    # let inits are evaluated outside the new frame; letrec inits inside it.
    ("(lambda (x) (let ((x x) (y x)) y))",
     "(lambda - 1 #f (let ((local 0 0) (local 0 0)) (local 0 1)))"),
    ("(lambda (x) (letrec ((x 1) (y x)) y))",
     "(lambda - 1 #f (letrec ((const 1) (local 0 0)) (local 0 1)))"),
    # Internal definitions make one letrec frame after the procedure's own frame.
    ("(lambda (p) (define a 1) (define b a) (+ p a b))",
     "(lambda - 1 #f (letrec ((const 1) (local 0 0)) "
     "(tail-app (global +) (local 1 0) (local 0 0) (local 0 1))))"),
    ("(lambda (x) (define x 1) x)", "(lambda - 1 #f (letrec ((const 1)) (local 0 0)))"),
    ("(let ((x 1)) (define y 2) (+ x y))",
     "(let ((const 1)) (letrec ((const 2)) (tail-app (global +) (local 1 0) (local 0 0))))"),
    ("(letrec ((a 1)) (define b 2) (+ a b))",
     "(letrec ((const 1)) (letrec ((const 2)) (tail-app (global +) (local 1 0) (local 0 0))))"),
    ("(let* ((x 1)) (define y x) y)", "(let ((const 1)) (letrec ((local 1 0)) (local 0 0)))"),
    ("(guard (e (#t e)) (define z 1) z)",
     "(guard (letrec ((const 1)) (local 0 0)) (((const #t) (local 0 0))) -)"),
    # Named let: loop frame (letrec), then the parameters; inits outside both.
    ("(lambda (n) (let loop ((i n)) (define j i) (loop j)))",
     "(lambda - 1 #f (tail-app (letrec ((lambda loop 1 #f (letrec ((local 1 0)) "
     "(tail-app (local 2 0) (local 0 0))))) (local 0 0)) (local 0 0)))"),
    # do: a hidden loop frame, then the do variables; the body sees outer locals 2 out.
    ("(let ((x 1)) (do ((i x (+ i x))) ((> i 3) i) (set! x i)))",
     "(let ((const 1)) (tail-app (letrec ((lambda - 1 #f (if (app (global >) (local 0 0) (const 3)) "
     "(local 0 0) (begin (set-local 2 0 (local 0 0)) (tail-app (local 1 0) "
     "(app (global +) (local 0 0) (local 2 0))))))) (local 0 0)) (local 0 0)))"),
    # guard: the body runs in the outer frames; clauses in a one-slot frame for the condition.
    ("(let ((x 1) (y 2)) (guard (e ((f e x) y) (else e)) (g x y)))",
     "(let ((const 1) (const 2)) (guard (app (global g) (local 0 0) (local 0 1)) "
     "(((app (global f) (local 0 0) (local 1 0)) (local 1 1))) (local 0 0)))"),
    # Temporaries of or, cond and case are frames too: user locals move one out.
    ("(lambda (x) (or (f) x))",
     "(lambda - 1 #f (let ((app (global f))) (if (local 0 0) (local 0 0) (local 1 0))))"),
    ("(lambda (x) (case x ((1) x)))",
     "(lambda - 1 #f (let ((local 0 0)) (if (app (intrinsic eqv?) (local 0 0) (const 1)) "
     "(local 1 0) (values))))"),
    ("(lambda (x) (cond ((f)) (else x)))",
     "(lambda - 1 #f (let ((app (global f))) (if (local 0 0) (local 0 0) (local 1 0))))"),
    # A name bound nowhere is a global, even where a local of that name exists elsewhere.
    ("(begin (lambda (y) y) y)", None),
]


@pytest.mark.parametrize("src,want", ADDRESSES)
def test_lexical_addresses(src: str, want: str | None) -> None:
    if want is None:
        assert program(src).canonical_text() == "(lambda - 1 #f (local 0 0))\n(global y)\n"
    else:
        assert core(src) == want


def test_local_nodes_keep_their_names_and_letrec_reads_are_checked() -> None:
    p = program("(lambda (a) (letrec ((b 1)) (list a b)))")
    app = p.forms[0].body.body
    a, b = app.args
    assert (a.name, a.checked, b.name, b.checked) == ("a", False, "b", True)


# --- hygiene -------------------------------------------------------------------------------


@pytest.mark.parametrize("src,value", [
    ("(let ((t 5)) (or #f t))", "5"),
    ("(let ((t1 5)) (or #f t1))", "5"),
    ("(let ((t1 1)) (cond ((+ t1 1)) (else 0)))", "2"),
    ("(let ((x 5)) (case (* x 2) ((10) x) (else 0)))", "5"),
    ("(let ((loop 7)) (do ((i 0 (+ i 1))) ((= i 2) loop)))", "7"),
    ("(let ((loop 10)) (let loop ((i loop)) (if (> i 12) i (loop (+ i 1)))))", "13"),
    ("(define t 'outer) (let ((x #f)) (or x t))", "outer"),
])
def test_temporaries_never_capture_user_variables(src: str, value: str) -> None:
    assert value_of(src) == [value]


def test_a_temporary_cannot_be_spelled() -> None:
    # Temporaries print as #:tN; that is not a symbol the reader accepts.
    with pytest.raises(LispexError) as info:
        program("(let ((#:t1 5)) (or #f #:t1))")
    assert info.value.code == "E100"


SHADOW_GLOBALS = """
(define (cons a b) 'no)
(define (append . x) 'no)
(define (eqv? a b) #f)
(define (list->vector x) 'no)
(define x 2)
(list `(1 ,x ,@(list 3 4)) `#(1 ,x) (case 2 ((2) 'yes) (else 'no)))
"""


def test_redefining_intrinsic_names_does_not_change_quasiquote_or_case() -> None:
    assert value_of(SHADOW_GLOBALS) == ["((1 2 3 4) #(1 2) yes)"]


def test_local_bindings_of_intrinsic_names_do_not_change_quasiquote_or_case() -> None:
    src = ("(let ((cons 1) (append 2) (eqv? 3) (list->vector 4)) "
           "(list `(1 ,cons ,@(list append)) `#(,eqv?) (case list->vector ((4) 'yes) (else 'no))))")
    assert value_of(src) == ["((1 1 2) #(3) yes)"]
    text = core(src)
    assert "(global cons)" not in text and "(intrinsic cons)" in text
    assert "(intrinsic eqv?)" in text and "(intrinsic list->vector)" in text


def test_parameters_named_like_intrinsics() -> None:
    src = "((lambda (cons append) `(,cons ,@append)) 1 '(2 3))"
    assert value_of(src) == ["(1 2 3)"]


# --- tail flags ----------------------------------------------------------------------------

TAIL = [
    ("(f)", "(tail-app (global f))"), ("(f (g))", "(tail-app (global f) (app (global g)))"),
    ("(lambda () (f) (g))", "(lambda - 0 #f (begin (app (global f)) (tail-app (global g))))"),
    ("(if (f) (g) (h))", "(if (app (global f)) (tail-app (global g)) (tail-app (global h)))"),
    ("(define x (f))", "(define-global x (app (global f)))"),
    ("(set! x (f))", "(set-global x (app (global f)))"),
    ("(let ((a (f))) (g a))", "(let ((app (global f))) (tail-app (global g) (local 0 0)))"),
    ("(letrec ((a (f))) (g))", "(letrec ((app (global f))) (tail-app (global g)))"),
    ("(values (f))", "(values (app (global f)))"),
    ("(and (f) (g))", "(if (app (global f)) (tail-app (global g)) (const #f))"),
    ("(or (f) (g))",
     "(let ((app (global f))) (if (local 0 0) (local 0 0) (tail-app (global g))))"),
    ("(when (f) (g) (h))",
     "(if (app (global f)) (begin (app (global g)) (tail-app (global h))) (values))"),
    ("(cond ((f) (g)) ((h)))",
     "(if (app (global f)) (tail-app (global g)) (let ((app (global h))) "
     "(if (local 0 0) (local 0 0) (values))))"),
    ("(case (f) ((1) (g)))",
     "(let ((app (global f))) (if (app (intrinsic eqv?) (local 0 0) (const 1)) "
     "(tail-app (global g)) (values)))"),
    ("(guard (e ((f e) (g e)) (else (h))) (b))",
     "(guard (app (global b)) (((app (global f) (local 0 0)) (tail-app (global g) (local 0 0)))) "
     "(tail-app (global h)))"),
    ("(+ 1 (let loop ((i 0)) (loop i)))",
     "(tail-app (global +) (const 1) (app (letrec ((lambda loop 1 #f "
     "(tail-app (local 1 0) (local 0 0)))) (local 0 0)) (const 0)))"),
]


@pytest.mark.parametrize("src,want", TAIL)
def test_tail_flags(src: str, want: str) -> None:
    assert core(src) == want


def test_a_lone_unquote_in_tail_position_is_a_tail_call() -> None:
    assert core("(lambda () `,(f))") == "(lambda - 0 #f (tail-app (global f)))"
    loop = "(define (loop n) (if (= n 0) 'done `,(loop (- n 1)))) (loop 100000)"
    assert value_of(loop) == ["done"]


def test_tail_flags_across_top_level_begin_and_module() -> None:
    text = program("(begin (f) (g)) (module m (export) (h))").canonical_text()
    assert text == "(tail-app (global f))\n(tail-app (global g))\n(tail-app (global h))\n"


# --- E110 / E120 / E130, with spans --------------------------------------------------------

ERRORS = [
    # E110: binding a reserved word, or using a syntactic keyword as a value.
    ("(let ((if 1)) if)", "E110", 1, 8), ("(lambda (x define) 1)", "E110", 1, 12),
    ("(lambda (x . quote) 1)", "E110", 1, 14), ("(define values 1)", "E110", 1, 9),
    ("(define (call/cc) 1)", "E110", 1, 10), ("(define (f dynamic-wind) 1)", "E110", 1, 12),
    ("(set! quote 1)", "E110", 1, 7), ("(list if)", "E110", 1, 7),
    ("(define x\n  (+ 1 lambda))", "E110", 2, 8), ("(let* ((a 1) (if 1)) 1)", "E110", 1, 15),
    ("(letrec ((module 1)) 1)", "E110", 1, 11), ("(let values ((i 0)) 1)", "E110", 1, 6),
    ("(do ((if 0)) (#t))", "E110", 1, 7), ("(guard (if (#t 1)) 1)", "E110", 1, 9),
    ("(lambda () (define else 1) (define cond 2) 3)", "E110", 1, 36),
    # E120: forbidden extensions anywhere as a symbol.
    ("(define-syntax f 1)", "E120", 1, 2), ("'(a let-values)", "E120", 1, 5),
    ("(let ((syntax-rules 1)) 1)", "E120", 1, 8), ("(f include)", "E120", 1, 4),
    ("`(a ,b define-values)", "E120", 1, 8), ("(case 1 ((define-library) 2))", "E120", 1, 11),
    ("#(1 let*-values)", "E120", 1, 5), ("(module m (export define-values) 1)", "E120", 1, 19),
    # E130: malformed forms.
    ("(if 1 2)", "E130", 1, 1), ("(if 1 2 3 4)", "E130", 1, 1),
    ("(lambda (x x) 1)", "E130", 1, 12), ("(lambda (x . 1) 1)", "E130", 1, 14),
    ("(lambda 5 1)", "E130", 1, 9), ("(lambda (x))", "E130", 1, 1), ("()", "E130", 1, 1),
    ("(f . x)", "E130", 1, 1), ("(quote)", "E130", 1, 1), ("(quote 1 2)", "E130", 1, 1),
    (",x", "E130", 1, 1), (",@x", "E130", 1, 1), ("`,@x", "E130", 1, 2),
    ("(quasiquote 1 2)", "E130", 1, 1), ("(begin)", "E130", 1, 1), ("(f (begin))", "E130", 1, 4),
    ("(define)", "E130", 1, 1), ("(define x)", "E130", 1, 1), ("(define x 1 2)", "E130", 1, 1),
    ("(define (f))", "E130", 1, 1), ("(define (5) 1)", "E130", 1, 1),
    ("(f (define x 1))", "E130", 1, 4), ("(lambda () (define x 1))", "E130", 1, 1),
    ("(lambda () 1 (define x 1) 2)", "E130", 1, 14),
    ("(lambda () (define a 1) (define a 2) a)", "E130", 1, 33), ("(set! x)", "E130", 1, 1),
    ("(set! 5 1)", "E130", 1, 1), ("(let ((a)) a)", "E130", 1, 7),
    ("(let ((a 1 2)) a)", "E130", 1, 7), ("(let (a) a)", "E130", 1, 7),
    ("(let 5 1)", "E130", 1, 6), ("(let ((a 1)))", "E130", 1, 1),
    ("(let ((a 1) (a 2)) a)", "E130", 1, 14), ("(let loop)", "E130", 1, 1),
    ("(let loop ((i 0) (i 1)) 1)", "E130", 1, 19), ("(letrec ((a 1) (a 2)) a)", "E130", 1, 17),
    ("(cond)", "E130", 1, 1), ("(cond (else))", "E130", 1, 7),
    ("(cond (else 1) (2 3))", "E130", 1, 7), ("(cond (1 => f))", "E130", 1, 7),
    ("(cond 1)", "E130", 1, 7), ("(case)", "E130", 1, 1),
    ("(case 1 (else 1) ((2) 3))", "E130", 1, 9), ("(case 1 (2 3))", "E130", 1, 10),
    ("(case 1 ((2)))", "E130", 1, 9), ("(case 1 ((2) => f))", "E130", 1, 9),
    ("(do)", "E130", 1, 1), ("(do ((i 0 1 2)) (#t))", "E130", 1, 6),
    ("(do ((i 0)) ())", "E130", 1, 13), ("(do ((i 0) (i 1)) (#t))", "E130", 1, 13),
    ("(do x (#t))", "E130", 1, 5), ("(guard)", "E130", 1, 1), ("(guard (e))", "E130", 1, 1),
    ("(guard (e (else)) 1)", "E130", 1, 11), ("(guard (e (else 1) (#t 2)) 1)", "E130", 1, 11),
    ("(when 1)", "E130", 1, 1), ("(unless 1)", "E130", 1, 1), ("(and . 1)", "E130", 1, 1),
    ("(export x)", "E130", 1, 1), ("(import x)", "E130", 1, 1), ("(module 5 1)", "E130", 1, 1),
    ("(begin (module m 1))", "E130", 1, 8), ("(lambda () (module m 1) 1)", "E130", 1, 12),
    ("(module m (export 5) 1)", "E130", 1, 11), ("(module m (export . x) 1)", "E130", 1, 11),
    ("(module m (export x) (define x 1) (export y) x)", "E130", 1, 35),
    ("(module m (define x 1) (module n 2))", "E130", 1, 24),
    ("(define x 1)\n\n   (if x)", "E130", 3, 4), ("(λ 1)\n(let ((é 1) (é 2)) é)", "E130", 2, 14),
]


@pytest.mark.parametrize("src,code,line,column", ERRORS)
def test_normalizer_diagnostics(src: str, code: str, line: int, column: int) -> None:
    err = fails(src, code, line, column)
    assert err.phase == "normalizer"


def test_normalizer_diagnostics_through_evaluate() -> None:
    obs = run("(display 1)\n(let ((if 1)) if)")
    assert (obs.status, obs.exit_status, obs.stdout, obs.values) == ("source-error", 1, "", [])
    (d,) = obs.diagnostics
    assert (d.code, d.phase, d.span.line, d.span.column) == ("E110", "normalizer", 2, 8)
    assert "core_ir_id" not in obs.products
    obs = run("(define-syntax f 1)")
    assert [(d.code, d.phase) for d in obs.diagnostics] == [("E120", "normalizer")]


def test_the_first_fault_in_source_order_wins() -> None:
    fails("(if 1)\n(let ((if 1)) 1)", "E130", 1, 1)
    fails("(let ((if 1)) 1)\n(if 1)", "E110", 1, 8)


# --- module headers ------------------------------------------------------------------------


def test_module_headers_are_flattened_into_the_global_namespace() -> None:
    with_module = "(module m (export f) (import g) (define (f) (g)) (f))"
    assert core(with_module) == core("(define (f) (g)) (f)")
    assert program("(module m (export a b))").forms == []


def test_two_modules_share_one_namespace() -> None:
    src = ("(module a (export x) (define x 1))\n"
           "(module b (export y) (import x) (define y (+ x 1)))\ny")
    assert value_of(src) == ["2"]


def test_module_body_may_splice_begin() -> None:
    assert core("(module m (begin (define x 1) x))") == "(define-global x (const 1))\n(global x)"


# --- core_ir_id ----------------------------------------------------------------------------

SQUARE = "(define (square x) (* x x))\n(square 12)\n"


def test_core_ir_id_is_the_documented_hash_of_the_canonical_text() -> None:
    p = program(SQUARE)
    text = ("(define-global square (lambda square 1 #f (tail-app (global *) (local 0 0) "
            "(local 0 0))))\n(tail-app (global square) (const 12))\n")
    assert p.canonical_text() == text
    want = hashlib.sha256(b"lispex/core-hash/v0\x00" + text.encode()).hexdigest()
    assert p.core_ir_id() == want
    assert re.fullmatch(r"[0-9a-f]{64}", want)
    assert run(SQUARE).products["core_ir_id"] == want


SAME_MEANING = [
    SQUARE,
    "(define (square n) (* n n)) (square 12)",
    ";! pragma\n; comment\n(define (square\n   y)\n  #| block #| nested |# |# (* y y))\n"
    "(square 12) ; done",
    "(begin (define (square x) (* x x)) (square 12))",
    "(module geometry (export square) (define square (lambda (z) (* z z)))) (square 12)",
    "(define (square x) (* x x))\n(square (begin 12))",
]


@pytest.mark.parametrize("src", SAME_MEANING)
def test_core_ir_id_ignores_spelling(src: str) -> None:
    assert program(src).core_ir_id() == program(SQUARE).core_ir_id()


def test_core_ir_id_ignores_local_and_temporary_names() -> None:
    a = "(lambda (a b) (let* ((c (or a b)) (d c)) (do ((i 0 (+ i 1))) ((= i d) c))))"
    b = "(lambda (p q) (let* ((r (or p q)) (s r)) (do ((j 0 (+ j 1))) ((= j s) r))))"
    assert program(a).core_ir_id() == program(b).core_ir_id()


DIFFERENT_MEANING = [
    "(define (square x) (* x x))\n(square 13)",
    "(define (square x) (* x x))\n(square 12.0)",
    "(define (square x) (* x x))\n(square \"12\")",
    "(define (square x) (* x x))\n(square 'twelve)",
    "(define (square x) (+ x x))\n(square 12)",
    "(define (sq x) (* x x))\n(sq 12)",
    "(define square (lambda (x y) (* x x)))\n(square 12)",
    "(define square (lambda x (* x x)))\n(square 12)",
    "(define (square x) (* x x))\n(square 12)\n(square 12)",
    "(define (square x) (* x x) )\n(values (square 12))",
]


@pytest.mark.parametrize("src", DIFFERENT_MEANING)
def test_core_ir_id_changes_with_meaning(src: str) -> None:
    assert program(src).core_ir_id() != program(SQUARE).core_ir_id()


@pytest.mark.parametrize("a,b", [
    ("0.0", "-0.0"), ("1", "1.0"), ("'a", "\"a\""), ("#\\a", "\"a\""), ("1/2", "0.5"),
    ("'(1 2)", "'#(1 2)"), ("'()", "#f"), ("(f)", "((lambda () (f)))"),
    ("(let ((f (lambda () 1))) f)", "(let ((g (lambda () 1))) g)"),
])
def test_different_constants_and_procedure_names_give_different_ids(a: str, b: str) -> None:
    # Procedure names are part of the meaning: they show when the procedure is written.
    assert program(a).core_ir_id() != program(b).core_ir_id()
