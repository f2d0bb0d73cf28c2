"""Producers of the mistakes a host language invites: exactness contagion through every numeric
primitive (an inexact divisor makes an inexact quotient), exact numbers compared with their
nearest float, number text at the edges of the grammar (through string->number and, in unsafe
programs, as tokens in the source), code points that Python classifies oddly (no-break space,
soft hyphen, unassigned, combining, C1 controls) through the printer and the string and char
primitives, and values a host confuses (#t is the integer 1 in Python, a one-character string is
a character), passed as literals, as let-bound locals and as parameters, since fast paths for
locals are where a host type test slips; callbacks returning what a library primitive refuses;
forms that yield no value; list primitives on improper lists; any primitive of the signature
table given one argument of a kind it must refuse (the argument checks of the control
primitives, the optional arguments, the last argument).
Loop counters step by (- i -1): a program may have rebound +."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .pieces import arg
from .registry import edge_family, program_part
from .signatures import SIGNATURES

if TYPE_CHECKING:
    from .context import Context as G
    from .context import Scope

# Values of every kind, one of which replaces a well-typed argument.
MISFED = ["'sym", "\"s\"", "#\\c", "1.5", "1/2", "-1", "0", "'()", "'(1 . 2)", "(vector 1)",
          "#f", "#t", "car", "(lambda (x) x)", "(lambda () 1)", "#u8(1)", "(expt 2 70)", "-0.0",
          # integral floats where an exact integer goes: a host's int(x) or x == int(x) takes them
          "1.0", "0.0", "2.0"]
# The primitives that call the program's procedures, which each back end implements itself (so
# their argument checks are written four times), with well-typed arguments to spoil one of.
GUEST_CALLING = [
    ("with-exception-handler", ["(lambda (e) 'handled)", "(lambda () 'body)"]),
    ("dynamic-wind", ["(lambda () 'before)", "(lambda () 'during)", "(lambda () 'after)"]),
    ("call-with-values", ["(lambda () (values 1 2))", "list"]),
    ("call/cc", ["(lambda (k) 'received)"]), ("call-with-current-continuation", ["(lambda (k) 1)"]),
    ("apply", ["list", "1", "'(2 3)"]), ("map", ["(lambda (x) x)", "'(1 2)"]),
    ("for-each", ["(lambda (x) x)", "'(1 2)"]), ("filter", ["number?", "'(1 a)"]),
    ("any?", ["number?", "'(a 1)"]), ("all?", ["number?", "'(1 2)"]),
    ("fold-left", ["cons", "'()", "'(1 2)"]), ("fold-right", ["cons", "'()", "'(1 2)"]),
    ("reduce", ["+", "0", "'(1 2)"]), ("vector-map", ["(lambda (x) x)", "#(1 2)"]),
    ("vector-for-each", ["(lambda (x) x)", "#(1 2)"]),
    ("string-map", ["char-upcase", "\"ab\""]), ("string-for-each", ["(lambda (c) c)", "\"ab\""]),
    ("raise-continuable", ["'r"]), ("values", ["1", "2"])]

# Integral operands in both exactnesses, signed zeros, and a few beyond them.
INTEGRAL = ["7", "-7", "7.0", "-7.0", "2", "-2", "2.0", "-2.0", "6", "-6.0", "0", "0.0", "-0.0",
            "1e21", "(expt 2 60)", "(exact->inexact (expt 2 60))", "1/2", "-5/2", "0.5"]
DIVISION = ["quotient", "remainder", "modulo", "floor-quotient", "floor-remainder",
            "truncate-quotient", "truncate-remainder", "floor/", "truncate/"]
BINARY = ["+", "-", "*", "/", "max", "min", "gcd", "lcm", "expt", "=", "<"]
UNARY = ["abs", "square", "exact-integer-sqrt", "round", "floor", "ceiling", "truncate", "exact",
         "inexact", "even?", "odd?", "zero?", "negative?", "positive?", "number->string",
         "integer?", "exact-integer?", "exact?", "-", "/"]

# An exact number beside the float nearest it (equal only in floating point), or beside its
# exact float value.
NEAR = [("1/3", "0.3333333333333333"), ("2/3", "0.6666666666666666"), ("1/10", "0.1"),
        ("9007199254740993", "9007199254740992.0"), ("(+ (expt 2 70) 1)", "1180591620717411303424.0"),
        ("(expt 10 23)", "1e23"), ("1/2", "0.5"), ("-1/3", "-0.3333333333333333"),
        ("(- (expt 2 53) 1)", "9007199254740991.0"), ("(expt 2 1024)", "1.7976931348623157e308"),
        ("0", "-0.0"), ("(/ 1 (expt 10 21))", "1e-21"), ("(+ (expt 2 53) 2)", "9007199254740994.0"),
        ("3602879701896397/36028797018963968", "0.1")]
NEAR_OPS = ["=", "<", "<=", ">", ">=", "max", "min", "eqv?", "equal?", "-"]

# Number text the grammar may or may not take: signs on zero, bare points, exponents, radix
# prefixes, rationals with odd parts, junk after digits.
NUMBER_TEXT = ["-0", "+0", "-0.0", "+5", "-5", ".5", "5.", "-.5", "+.5", "1/2", "-1/2", "+1/2",
               "1/-2", "0/5", "-0/5", "2/4", "00", "007", "-007", "1e3", "1E3", "1e", "e1", "--1",
               "+-1", "1.5e-3", "-", "+", ".", "1/0", "0/0", "1.0/2", "12abc", "1e308", "1e309",
               "-1e309", "4.9e-324", "5e-325", "1.", "0.", "-0.5e0", "1e+0", "123456789012345678901",
               "#e1.5", "#x1F", "ff", "FF", "101", "777", "-ff", "1_000", "١٢", "٣",
               # the exponent marker in both cases, with and without a point
               "2.5E2", "1E-2", "-3E+1", "1.5E0", "7E", "1e3", "-2e2"]
RADIXES = ["2", "8", "10", "16"]
# Digits of each radix in either case, with signs, and digits the radix does not have.
RADIX_TEXT = [("FF", "16"), ("ff", "16"), ("-1A", "16"), ("aBc", "16"), ("DEAD", "16"),
              ("+7f", "16"), ("-Ff", "16"), ("10", "16"), ("1g", "16"), ("777", "8"), ("8", "8"),
              ("-17", "8"), ("101", "2"), ("-11", "2"), ("12", "2"), ("Z", "16"), ("E", "16"),
              ("1E2", "16"), ("1e2", "10"), ("1E2", "10"), ("0", "2"), ("", "16")]
# Tokens in the source: each either reads (as a number or a symbol) or is E100 at its span.
TOKENS = ["-0", "+5", "-5", ".5", "5.", "-.5", "1/2", "-1/2", "+1/2", "1/-2", "0/5", "00", "007",
          "1e3", "1.5e-3", "-0.0", "+.5", "1/0", "1.", "12abc", "-", "+", "...", "->x", "-a",
          "+a", "1+", "--1", "1e", "0x10", "+inf.0", "-nan.0", "1/2/3", ".5e1", "-.", "+i",
          "1E3", "2.5E-1", "-4E2"]

# Operations whose answer on a float zero depends on its sign (or should not): a host's
# `x if x >= 0 else -x` and friends keep a -0.0 that must go, or lose one that must stay.
SIGNED_ZERO = ["abs", "-", "square", "round", "truncate", "floor", "ceiling", "exact",
               "number->string", "zero?", "negative?", "positive?", "(lambda (z) (* -1 z))",
               "(lambda (z) (+ z 0))", "(lambda (z) (- z 0.0))", "(lambda (z) (max z 0))",
               "(lambda (z) (min z -0.0))", "(lambda (z) (/ z 2))", "(lambda (z) (expt z 3))",
               "(lambda (z) (eqv? z 0.0))", "(lambda (z) (remainder z 3))",
               "(lambda (z) (modulo z -3))", "(lambda (z) (quotient z 2))"]

# Code points where Unicode's classes and Python's are easy to mix up.
CODE_POINTS = [0xA0, 0xAD, 0x85, 0x9F, 0x7F, 0x0, 0x1F, 0x7, 0x200B, 0x200D, 0x200E, 0x2028,
               0x2029, 0xFEFF, 0x378, 0xE000, 0x301, 0x1F600, 0x10FFFF, 0xFFFD, 0x3000, 0x1680,
               0xDF, 0x130, 0x1C5, 0x3A3, 0x3C2, 0xFB00, 0x2160, 0x660, 0xB2, 0xBD, 0x1E9E,
               # information separators (Python's isspace), other alphabetics (not isalpha)
               0x1C, 0x1D, 0x1E, 0xB, 0xC, 0x345, 0x24B6, 0x216B, 0x2170, 0x1F130]
UNICODE_FORMS = [
    "(write (list->string (list (integer->char {n}) #\\a)))", "(write (integer->char {n}))",
    "(display (list->string (list #\\[ (integer->char {n}) #\\])))", '(write "\\x{h};")',
    '(string-length "\\x{h};b")', '(write (string-upcase "a\\x{h};"))',
    '(write (string-downcase "\\x{h};Z"))', '(write (string-foldcase "\\x{h};"))',
    "(write (char-upcase (integer->char {n})))", "(write (char-downcase (integer->char {n})))",
    "(map (lambda (p) (p (integer->char {n}))) (list char-alphabetic? char-numeric? "
    "char-whitespace? char-upper-case? char-lower-case?))",
    '(write (string->list "x\\x{h};"))', '(list (string<? "\\x{h};" "\\x{m};") '
    '(string-ci=? "\\x{h};" "\\x{m};") (char<? (integer->char {n}) #\\a))',
    '(write (string->symbol "a\\x{h};"))', '(write (list "\\x{h};" (integer->char {n})))',
    "(char->integer (string-ref (list->string (list (integer->char {n}))) 0))",
    '(write (string-copy "\\x{h};\\x{m};" 1))',
    # a code point at the end of a word and between letters: case mappings that depend on
    # context (a final capital sigma lowers to a final sigma)
    '(write (string-downcase "A\\x{h};"))', '(write (string-downcase "OA\\x{h}; \\x{h};A"))',
    '(write (list (string-foldcase "B\\x{h};") (string-upcase "b\\x{h};")))',
    '(write (list (string-downcase "ΟΔΟΣ ΣΑΣ.") (string-foldcase "ΜΆΣ") (string-upcase "straße ﬁ")))',
    '(list (map char-numeric? (string->list "٣²①７9x")) (map char-alphabetic? (string->list "ªⅫ١")) '
    '(map char-whitespace? (string->list "\\xa0;\\x2028;\\x85; ")))',
    '(list (string-ci=? "ΣΑΣ" "σας") (string-ci=? "STRASSE" "straße") (string-downcase "ΑΣ\\x{h};"))',
]

# Every code point above under every character class at once: one form covers the table.
ALL_POINTS = "".join(f"\\x{n:x};" for n in CODE_POINTS)
CLASS_SWEEP = ("(map (lambda (c) (list (char->integer c) (char-alphabetic? c) (char-numeric? c) "
               "(char-whitespace? c) (char-upper-case? c) (char-lower-case? c))) "
               f'(string->list "{ALL_POINTS}"))')
UNICODE_FORMS += [CLASS_SWEEP, CLASS_SWEEP]

# Values a host language confuses with each other, and calls that must tell them apart.
CONFUSED = ["#t", "#f", "1", "0", "1.0", "#\\a", "\"a\"", "'()", "'a", "#\\0", "\"\"", "-0.0"]
TELLING = [("+", 2), ("-", 2), ("*", 2), ("<", 2), ("=", 2), (">=", 2), ("max", 2), ("abs", 1),
           ("quotient", 2), ("expt", 2), ("exact->inexact", 1), ("number->string", 1),
           ("even?", 1), ("zero?", 1), ("integer?", 1), ("number?", 1), ("exact?", 1),
           ("boolean?", 1), ("char?", 1), ("string?", 1), ("eqv?", 2), ("equal?", 2), ("eq?", 2),
           ("make-vector", 1), ("integer->char", 1), ("char->integer", 1), ("char-upcase", 1),
           ("string-length", 1), ("length", 1), ("not", 1), ("symbol?", 1), ("null?", 1),
           ("boolean=?", 2), ("char=?", 2), ("string=?", 2), ("list-tail", 2), ("vector-ref", 2),
           ("string-ref", 2), ("list", 2), ("cons", 2)]
# Arithmetic and comparison, where a fast path for numbers tests the host's type.
ARITHMETIC = [("+", 2), ("-", 2), ("*", 2), ("<", 2), ("=", 2), (">", 2), ("<=", 2), ("quotient", 2)]
# Library primitives whose callback returns what they refuse (a non-character to string-map,
# several values or none where one is wanted), or faults inside the callback: the condition
# and its span belong to the primitive's call in the first case, to the callback's in the second.
CALLBACK_FAULTS = [
    '(string-map (lambda (c) (char->integer c)) "ab")', '(string-map (lambda (c) (list c)) "ab")',
    '(string-map (lambda (c) (values c c)) "ab")', "(map (lambda (x) (values x x)) '(1 2))",
    "(vector-map (lambda (x) (values)) (vector 1))", "(fold-left (lambda (a x) (values a x)) 0 '(1))",
    "(filter (lambda (x) (values #t #t)) '(1))", "(reduce (lambda (a b) (values)) 0 '(1 2))",
    "(fold-right (lambda (x a) (values x a)) 0 '(1))", "(vector-for-each (lambda (x) (car x)) (vector 1))",
    '(string-for-each (lambda (c) (+ c 1)) "a")', "(map (lambda (x) (vector-ref x 0)) (list (vector) 1))",
    "(any? (lambda (x) (values x x)) '(1))", "(all? (lambda (x) (car x)) '(1))",
    "(apply (lambda (x) (car x)) '(5))", "(list->string (map char-upcase '(#\\a 1)))",
    "(vector-map (lambda (x) (+ x (string-length x))) (vector \"s\"))"]
# Forms that yield no value at all (not #f, not an unspecified object), seen through
# call-with-values: a `when` whose test is false, a `cond` or `case` with no clause taken, the
# effects.
NO_VALUE = ["(when #f 1)", "(unless #t 1)", "(cond (#f 1))", "(case 3 ((1) 'a))",
            "(for-each car '())", "(do ((i 0 (- i -1))) ((= i 2)))", "(let ((x 1)) (set! x 2))",
            "(vector-set! (vector 1) 0 2)", '(display "")', "(values)",
            "(let loop ((i 0)) (when (< i 2) (loop (- i -1))))", "(when (= 1 2) 'no)",
            "(cond ((assv 9 '((1 . a)))))", "(case 'z ((a b) 1) ((c) 2))"]
# Forms of zero, one or several values, in each context that takes exactly one value (E320) or
# passes any number on: an operand, a let init, an if test, a set! value, a lambda's argument,
# `values` of one operand, a wind's thunk, a sequence that discards them, apply of values.
MV_FORMS = ["(values)", "(values 1 2)", "(floor/ 7 2)", "(values (values 1 2))", "(values 7)",
            "(apply values '(5))", "(apply values '())", "(apply values '(1 2))",
            "(for-each car '())", "(let ((q 1)) (set! q 2))", "(when #f 1)",
            "(vector-for-each car (vector))", "(call-with-values (lambda () (values 1 2)) values)",
            # several values from a callee a compiler cannot see: a parameter, a local, a list
            "((lambda (g) (g)) (lambda () (values 1 2)))", "(let ((g (lambda () (values)))) (g))",
            "((car (list (lambda () (values #f #t)))))",
            # a guard with no matching clause re-raises; the outer handler's values resume it
            "((lambda () (define (rr) (guard (g (#f 0)) (+ 1 (raise-continuable 'x)) "
            "(raise-continuable 'y))) (with-exception-handler (lambda (h) (values 1 2)) "
            "(lambda () (rr)))))",
            # the values of the guard as a whole, used where one value is wanted by the caller
            "((lambda () (define (rg) (guard (g ((string? g) 'str)) (raise-continuable 'sym) "
            "'done)) (with-exception-handler (lambda (h) (values 1 2)) "
            "(lambda () (let ((v (rg))) (list v))))))",
            "((lambda () (define (rg) (guard (g ((string? g) 'str)) (raise-continuable 'sym) "
            "'done)) (with-exception-handler (lambda (h) (values)) (lambda () (+ 1 (rg))))))"]
MV_CONTEXTS = ["(+ 1 {f})", "(let ((x {f})) 'bound)", "(if {f} 'then 'else)",
               "(begin {f} 'discarded)", "(list {f})", "(let ((y 0)) (set! y {f}) 'set)",
               "((lambda (a) 'arg) {f})", "(values {f})", "{f}",
               "(dynamic-wind (lambda () #f) (lambda () {f}) (lambda () #f))",
               "(guard (e (#t 'caught)) {f})", "(let () (define z {f}) 'defined)",
               "(not {f})", "(cond ({f} 'yes) (else 'no))", "(apply list (list {f}))",
               # an operand after the first of a procedure's non-tail call, at two to four
               # arguments: the fault's span is that operand's
               "(list ((lambda (a b) b) 'first {f}))",
               "(let ((pick (lambda (a b c) c))) (list (pick 1 2 {f})))",
               "(letrec ((pick (lambda (a b) a))) (list (pick {f} 'second)))",
               "(let ((pick (lambda (a b c d) d))) (list (pick 1 {f} 3 4)))"]

# List primitives on improper lists and non-lists: which keep the final tail, which refuse.
IMPROPER = ["(list-copy '(1 2 . 3))", "(list-copy 5)", "(list-copy '(1 . 2))", "(append '(1) 2)",
            "(append '(1) '(2 . 3))", "(list? '(1 . 2))", "(length '(1 2 . 3))",
            "(list->vector '(1 . 2))", "(map car '((1) . 5))", "(apply + 1 '(2 . 3))",
            "(reverse '(1 . 2))", "(list-tail '(1 2 . 3) 2)", "(list-ref '(1 2 . 3) 1)",
            "(memv 3 '(1 2 . 3))", "(assq 'b '((a . 1) . 2))", "(cdr (list-copy '(1 . 2)))",
            "(equal? (list-copy '(1 2 . 3)) '(1 2 . 3))"]
# Values Python takes for false (every one of them true in Lispex, where only #f is false),
# beside #f and a few true ones, and the forms that test a value: a back end that tests with
# the host's truthiness, in a fast path for variables or an inlined `not`, takes a wrong branch.
FALSY = ["0", "0.0", "-0.0", "\"\"", "'()", "#()", "#\\nul", "#u8()", "(list)", "(vector)",
         "(string-copy \"\")", "(- 1 1)", "#f", "#f", "#t", "1", "'a"]
TESTS = ["(not {v})", "(if {v} 'then 'else)", "(and {v} 'and)", "(or {v} 'or)",
         "(cond ({v} 'cond) (else 'else))", "(cond ({v}) (else 'else))",
         "(call-with-values (lambda () (when {v} 'when)) list)",
         "(call-with-values (lambda () (unless {v} 'unless)) list)", "(boolean? {v})", "(eq? {v} #f)",
         "(if (not {v}) 'not 'else)", "(and 1 {v})", "(or #f {v})", "(not (not {v}))",
         "(filter (lambda (x) {v}) '(1 2))", "(any? (lambda (x) {v}) '(1))",
         "(do ((i 0 (- i -1))) ((or {v} (= i 2)) i))", "(guard (e ({v} 'g)) (raise 1))",
         "(let loop ((n 2)) (if (and {v} (> n 0)) (loop (- n 1)) n))"]

# Closures made in an inner scope (a let, let*, letrec or named-let body, a lambda's) in a
# non-tail position and called after the scope is left, with the outer scope binding the same
# name: each must see the frame it was made in.
ESCAPING = ["((car (list (let ((x (* x 10))) (lambda () x)))))",
            "(let ((f (let ((x 40)) (lambda () x)))) (list (f) x))",
            "(map (lambda (g) (g)) (list (let ((x 1)) (lambda () x)) (let* ((y 2) (x y)) (lambda () x)) (lambda () x)))",
            "(list ((let ((x 40)) (lambda () x))) x)",
            "(let ((g (letrec ((x 7) (h (lambda () x))) h))) (+ (g) x))",
            "((vector-ref (vector (let ((x 'inner)) (lambda () x))) 0))",
            "((cdr (cons 0 (let loop ((x 3)) (if (> x 1) (loop (- x 1)) (lambda () x))))))",
            "(let ((fs (map (lambda (x) (let ((x (* x 2))) (lambda () x))) (list 1 2)))) (map (lambda (f) (f)) fs))",
            "(apply (let ((x 5)) (lambda (y) (list x y))) (list x))"]

# A local that starts as a small integer and is set! to a value of another kind, then given to
# operations with integer fast paths: a back end that decided the variable's type from its
# first value keeps the fast path.
RETYPED = ["1.5", "3/2", "2.0", "(expt 2 70)", "-0.0", "\"7\"", "#t", "#\\a", "'(1)", "7"]
RETYPED_USES = ["(+ {v} 1)", "(- {v} 1)", "(* {v} 2)", "(< {v} 3)", "(= {v} 7)", "(modulo {v} 2)",
                "(quotient {v} 2)", "(remainder {v} 2)", "(even? {v})", "(exact? {v})",
                "(abs {v})", "(number->string {v})", "(integer? {v})", "(max {v} 1)"]

# Containers for the index-taking calls, so the index is the confused value.
CONTAINER = {"list-tail": "(list 1 2)", "vector-ref": "(vector 1 2)", "string-ref": "\"ab\""}


# Names of R7RS and other Schemes that Lispex leaves out (E300 where called): an implementation
# that "helpfully" provides one answers instead.
ABSENT = ["(set-car! (list 1 2) 9)", "(set-cdr! (list 1) 2)", "(vector-fill! (vector 1 2) 0)",
          "(string #\\a #\\b)", "(string-set! (make-string 2) 0 #\\a)", "(eval '(+ 1 2))",
          "(assert #t)", "(list-set! (list 1 2) 0 3)", "(vector-append (vector 1) (vector 2))",
          "(string-join (list \"a\" \"b\") \",\")", "(write-string \"x\")", "(write-char #\\x)",
          "(string-fill! (make-string 2) #\\a)", "(bytevector-u8-set! (bytevector 1) 0 2)",
          "(last-pair '(1 2))", "(iota 3)", "(exact-rational? 1/2)", "(void)",
          "(string-contains \"abc\" \"b\")", "(char-digit? #\\1)", "(read)", "(hash-table)"]
# error called the ways other Schemes take it: the message must be a string and come first.
ERROR_CALLS = ["(error 'who \"msg\" 1)", "(error \"msg\" 'who 1 \"s\" #\\c)", "(error 'sym)",
               "(error (string-append \"a\" \"b\"))", "(error 1 2)", "(error \"\" '())",
               "(error \"m\" (list 1 2) (vector 3))", "(error (symbol->string 'who) \"msg\")"]


@edge_family("contagion", slots=(19, 20), may_fault=True)
def edge_contagion(g: G, d: int, s: Scope) -> str:
    """A numeric primitive on integral operands of mixed exactness: the result is inexact
    when any operand is (R7RS), whatever the operator's role."""
    if g.chance(35):
        op = g.pick(UNARY)
        return f"({op} {g.pick(INTEGRAL)})"
    op = g.pick(DIVISION + BINARY)
    a, b = g.pick(INTEGRAL), g.pick(INTEGRAL)
    call = f"({op} {a} {b})"
    if op.endswith("/"):
        q, r = g.fresh("q"), g.fresh("r")
        return f"(call-with-values (lambda () {call}) (lambda ({q} {r}) (list {q} {r})))"
    return call


@edge_family("near", slots=(21,))
def edge_near(g: G, d: int, s: Scope) -> str:
    exact, inexact = g.pick(NEAR)
    a, b = (exact, inexact) if g.chance(50) else (inexact, exact)
    op = g.pick(NEAR_OPS)
    if g.chance(35):
        x, y = g.fresh("a"), g.fresh("b")
        return f"(let (({x} {a}) ({y} {b})) ({op} {x} {y}))"
    if op in ("=", "<", "<=") and g.chance(30):
        return f"({op} {a} {b} {g.pick([a, b])})"
    return f"({op} {a} {b})"


@edge_family("signedzero", slots=(42,), may_fault=True)
def edge_signedzero(g: G, d: int, s: Scope) -> str:
    op = g.pick(SIGNED_ZERO)
    return f"(map {op} (list -0.0 0.0 {g.pick(['-6.0', '6.0', '-0.5', '0', '-1'])}))"


@edge_family("numtext", slots=(22, 43, 44), faults_now_and_then=True)
def edge_numtext(g: G, d: int, s: Scope) -> str:
    if g.chance(30):
        text, radix = g.pick(RADIX_TEXT)
        call = f'(string->number "{text}" {radix})'
        if g.chance(60):
            return call
        v = g.fresh("n")
        return f"(let (({v} {call})) (if {v} (list {v} (number->string {v} {radix})) {v}))"
    if g.chance(35):
        # several texts in one call: each entry of the grammar's edge list (63 of them, in
        # a family about one program in a hundred draws) is compared several times as
        # often for the same cost of a program
        texts = " ".join(f'"{g.pick(NUMBER_TEXT)}"' for _ in range(g.small(4, 7)))
        return f"(map string->number '({texts}))"
    text = g.pick(NUMBER_TEXT)
    if g.chance(30):
        return f'(string->number "{text}" {g.pick(RADIXES)})'
    if g.chance(25):
        v = g.fresh("n")
        return f'(let (({v} (string->number "{text}"))) (if {v} (number->string {v}) {v}))'
    return f'(string->number "{text}")'


@edge_family("unicode", slots=(23, 24), may_fault=True, gives_no_value=True)
def edge_unicode(g: G, d: int, s: Scope) -> str:
    n, m = g.pick(CODE_POINTS), g.pick(CODE_POINTS)
    return g.pick(UNICODE_FORMS).format(n=n, h=f"{n:x}", m=f"{m:x}")


@edge_family("confused", slots=(25, 26), may_fault=True)
def edge_confused(g: G, d: int, s: Scope) -> str:
    """A call that must tell apart values a host language takes for one another, given them
    as literals, as let-bound locals or as a procedure's parameters."""
    op, arity = g.pick(ARITHMETIC if g.chance(40) else TELLING)
    args = [g.pick(CONFUSED) for _ in range(arity)]
    if op in CONTAINER:
        args = [CONTAINER[op], args[0]]
    how = g.pick(["literal", "let", "lambda"])
    if how == "literal":
        return f"({op} {' '.join(args)})"
    names = [g.fresh("c") for _ in args]
    call = f"({op} {' '.join(names)})"
    if how == "let":
        binds = " ".join(f"({n} {a})" for n, a in zip(names, args, strict=True))
        return f"(let ({binds}) {call})"
    return f"((lambda ({' '.join(names)}) {call}) {' '.join(args)})"


@edge_family("misfed", slots=(40, 41), may_fault=True, gives_no_value=True)
def edge_misfed(g: G, d: int, s: Scope) -> str:
    """A primitive's call with one argument (often the first or the last) of another kind:
    every primitive checks each argument, and the check, its code and its irritants are
    compared. Now and then a further argument past the signature's."""
    if g.chance(50):
        name, args = g.pick(GUEST_CALLING)
        args = list(args)
    else:
        name, types, _ = g.pick(SIGNATURES)
        args = [arg(g, a, d, s) for a in types]
    if args:
        i = g.pick([0, len(args) - 1, g.small(0, len(args) - 1)])
        args[i] = g.pick(MISFED)
    if g.chance(15):
        args.append(g.pick(MISFED))
    g.tag("prim:" + name)
    return f"({name}{''.join(' ' + a for a in args)})"


@edge_family("falsy", slots=(30, 31), faults_now_and_then=True)
def edge_falsy(g: G, d: int, s: Scope) -> str:
    """A value Python takes for false, bound to a local or a parameter (where back ends
    keep fast paths) or given as a literal, then tested by two to four test forms."""
    value = g.pick(FALSY)
    tests = [g.pick(TESTS) for _ in range(g.small(2, 4))]
    how = g.pick(["let", "let", "lambda", "literal"])
    if how == "literal":
        return "(list " + " ".join(t.format(v=value) for t in tests) + ")"
    v = g.fresh("c")
    body = "(list " + " ".join(t.format(v=v) for t in tests) + ")"
    if how == "let":
        return f"(let (({v} {value})) {body})"
    return f"((lambda ({v}) {body}) {value})"


@edge_family("escaping", slots=(32, 33))
def edge_escaping(g: G, d: int, s: Scope) -> str:
    """A closure made in an inner scope and called after it is left, inside a procedure
    whose parameter has the same name."""
    body = g.pick(ESCAPING)
    return f"((lambda (x) {body}) {g.pick(['4', '1/2', '-3'])})"


@edge_family("retyped", slots=(34, 35), may_fault=True)
def edge_retyped(g: G, d: int, s: Scope) -> str:
    """A parameter or let variable bound to an integer, used once as one, then set! to a
    value of another kind and used again."""
    v = g.fresh("n")
    uses = " ".join(g.pick(RETYPED_USES).format(v=v) for _ in range(g.small(1, 3)))
    body = (f"(let ((before (+ {v} 1))) (set! {v} {g.pick(RETYPED)}) "
            f"(list before {uses}))")
    if g.chance(50):
        return f"((lambda ({v}) {body}) {g.small(1, 9)})"
    return f"(let (({v} {g.small(1, 9)})) {body})"


@program_part("number_tokens", chance=8, unsafe_only=True, anywhere=True)
def token_form(g: G, s: Scope) -> str:
    """A top-level form quoting tokens at the edges of the number grammar: the program reads
    them (as numbers or symbols) or is E100 at the first bad one."""
    tokens = " ".join(g.pick(TOKENS) for _ in range(g.small(1, 3)))
    g.tag("shape:number-tokens")
    return f"(write '({tokens}))"


@edge_family("absent", slots=(50,), may_fault=True)
def edge_absent(g: G, d: int, s: Scope) -> str:
    """A name Lispex leaves out, called, or error called another Scheme's way (a fault
    family: edge_call catches it like the others)."""
    return g.pick(ABSENT if g.chance(50) else ERROR_CALLS)


@edge_family("callback", slots=(27,), may_fault=True)
def edge_callback(g: G, d: int, s: Scope) -> str:
    return g.pick(CALLBACK_FAULTS)


@edge_family("novalue", slots=(28,))
def edge_novalue(g: G, d: int, s: Scope) -> str:
    return f"(call-with-values (lambda () {g.pick(NO_VALUE)}) list)"


@edge_family("valuecount", slots=(36, 37), may_fault=True)
def edge_valuecount(g: G, d: int, s: Scope) -> str:
    """A form of zero, one or several values in a context that wants one or passes any
    number on, every value collected by call-with-values."""
    form = g.pick(MV_FORMS).replace("{", "{{").replace("}", "}}")
    return f"(call-with-values (lambda () {g.pick(MV_CONTEXTS).format(f=form)}) list)"


@edge_family("improper", slots=(29,), may_fault=True)
def edge_improper(g: G, d: int, s: Scope) -> str:
    return g.pick(IMPROPER)
