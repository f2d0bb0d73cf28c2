"""Producers of calls at the edges of a primitive's domain, where implementers slip: an index
of -1, 0, the last one or one past it; the optional start and end of the sequence copies
(vector->list, string-copy, ...); integers past 2^53 and 2^64 through the numeric primitives;
strings that are prefixes of each other, equal or empty, in every comparison; empty and
one-element arguments; exact beside inexact in comparisons; the three equalities on pairs that
are equal under one and not another (and memv, assoc, case, which use them); arithmetic and
comparison at one and at three or more arguments; quasiquote nested and spliced.

A call that may fault is guarded so that the program goes on and the condition itself (its
message and irritants) is compared; unsafe programs sometimes leave it unguarded."""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import values as V
from .layout import tokens
from .pieces import caught
from .registry import edge_deck, edge_family, expression, program_part
from .signatures import PRIMITIVES

if TYPE_CHECKING:
    from .context import Context as G
    from .context import Scope

PRIMITIVE_NAMES = frozenset(PRIMITIVES)


# Strings related to each other by prefix, case and emptiness.
RELATED = [('""', '""'), ('""', '"a"'), ('"a"', '""'), ('"ab"', '"abc"'), ('"abc"', '"ab"'),
           ('"abc"', '"abc"'), ('"abc"', '"abd"'), ('"abd"', '"abc"'), ('"ABC"', '"abc"'),
           ('"abc"', '"ABC"'), ('"a"', '"B"'), ('"héllo"', '"hé"'), ('"hé"', '"héllo"'),
           ('"Straße"', '"STRASSE"'), ('"x"', '"xx"'), ('"b"', '"ab"')]
STRING_COMPARE = ["string<?", "string<=?", "string>?", "string>=?", "string=?", "string-ci<?",
                  "string-ci<=?", "string-ci>?", "string-ci>=?", "string-ci=?"]
CHAR_COMPARE = ["char<?", "char<=?", "char>?", "char>=?", "char=?", "char-ci<?", "char-ci=?",
                "char-ci>?"]
NUM_COMPARE = ["=", "<", "<=", ">", ">="]
SIDED_CONSTANTS = ["0", "1", "-1", "10", "2.5", "0.0", "1/2"]
SIDED_VALUES = ["5", "-3", "0", "2.5", "10", "1", "-1", "1/2", "-0.0", "12"]
# Exact and inexact numbers that are equal, or nearly, or equal only after rounding.
MIXED = ["1", "1.0", "1/3", "0.3333333333333333", "9007199254740993", "9007199254740992.0",
         "-0.0", "0", "1e21", "1000000000000000000000", "1/2", "0.5", "(expt 2 70)",
         "1180591620717411303424.0"]

# The one-argument type and sign predicates, and values on the borders between types. The
# numbers come first: the sign and parity predicates are drawn over them only.
PREDICATES = ["number?", "integer?", "rational?", "real?", "complex?", "exact?", "inexact?",
              "exact-integer?", "zero?", "positive?", "negative?", "boolean?", "char?",
              "string?", "symbol?", "procedure?", "list?", "pair?", "null?", "vector?",
              "bytevector?", "empty?", "error-object?"]
NUMBERS_ONLY = {"zero?", "positive?", "negative?", "exact?", "inexact?"}
BORDER_VALUES = ["2.0", "-0.0", "0.0", "1/2", "4/2", "0", "-1", "1e21", "(expt 2 64)",
                 "'()", "'(1 . 2)", "'(1)", "\"a\"", "#\\a", "'a", "#()", "#u8()", "car",
                 "(lambda () 1)", "#f", "\"\""]
# Characters on the borders of the classes: every whitespace, digits and letters of both cases
# in and beyond ASCII, a letter with no case, punctuation.
BORDER_CHARS = ["#\\space", "#\\tab", "#\\newline", "#\\return", "#\\x0", "#\\a", "#\\Z",
                "#\\0", "#\\9", "#\\é", "#\\É", "#\\ß", "#\\x3bb", "#\\x5d0", "#\\x663",
                "#\\_", "#\\x7f", "#\\xa0"]
CHAR_CLASSES = ["char-alphabetic?", "char-numeric?", "char-whitespace?", "char-upper-case?",
                "char-lower-case?", "char-upcase", "char-downcase", "char-foldcase",
                "char->integer"]

# One-argument (or no-argument) calls on empty or single things.
EMPTIES = ["(apply + '())", "(apply * '())", "(string-append)", "(append)", "(append '() 5)",
           "(append '(1) '() '(2))", "(list-copy '())", "(reverse '())", "(vector->list #())",
           "(string->list \"\")", "(max 1)", "(min -0.0)", "(map car '())", "(fold-left + 0 '())",
           "(fold-right cons '() '())", "(reduce + 0 '())", "(reduce + 0 '(5))",
           "(string-upcase \"\")", "(make-string 0)", "(list->string '())", "(substring \"\" 0 0)",
           "(assq 'x '())", "(member 1 '())", "(vector-map + #())", "(filter pair? '())",
           "(any? pair? '())", "(all? pair? '())", "(list-tail '(1) 1)", "(vector-copy #())",
           "(string->vector \"\")", "(apply max '(3))", "(gcd)", "(lcm)", "(+)", "(*)",
           "(string-copy \"\" 0)", "(make-vector 0 'x)", "(length '())", "(list)", "(vector)"]

# Numeric calls whose answers differ from a float shortcut or a fixed-width integer.
NUMERIC = ["exact-integer-sqrt", "square", "abs", "-", "quotient BIG 7", "remainder BIG -7",
           "modulo BIG -7", "floor/ BIG -7", "truncate/ BIG 7", "exact->inexact", "number->string",
           "number->string BIG 16", "gcd BIG 6", "lcm BIG 4", "expt BIG 2", "max BIG 1.0",
           "even?", "odd?", "exact", "floor-quotient BIG -2", "truncate-remainder BIG -3"]
ROUNDING = ["(round 2.5)", "(round -2.5)", "(round 3.5)", "(round 7/2)", "(round -7/2)",
            "(truncate -7/2)", "(truncate -1/3)", "(truncate 7/2)", "(ceiling -7/2)", "(floor -7/2)",
            "(truncate -2.7)", "(floor -2.5)", "(ceiling -0.5)", "(round 0.5)", "(floor 5/2)",
            "(exact (round 2.5))", "(exact 1e18)", "(exact 0.5)", "(inexact 1/3)",
            "(/ 0 5)", "(/ 6 -4)", "(/ 0.0 -5)", "(exact->inexact 9007199254740993)",
            "(string->number \"1e400\")", "(string->number \"-0.0\")", "(string->number \"#xff\")",
            "(string->number \"1/0\")", "(string->number \"\")", "(number->string 1/3 2)",
            "(number->string -255 16)", "(number->string 0.1)", "(* 1.0 0)", "(+ 1/2 0.5)",
            "(expt 0 0)", "(expt 2 -2)", "(expt 2.0 0.5)", "(exact-integer? (exact 2.0))",
            # number text the grammar takes or refuses, with and without a radix
            "(string->number \"1e+3\")", "(string->number \"2.5E-2\")",
            "(string->number \"+ff\" 16)", "(string->number \" 10\" 2)",
            "(string->number \"1_0\" 16)", "(string->number \"0x10\" 16)",
            "(string->number \"-ff\" 16)", "(string->number \"102\" 2)",
            "(string->number \"7fffffffffffffffff\" 16)", "(string->number \"1.5\" 16)",
            # rationals whose parts are past the float range while their value is not
            "(exact->inexact (/ (expt 10 400) (+ (expt 10 399) 1)))",
            "(min 1.5 (/ (expt 10 400) (+ (expt 10 399) 7)))",
            "(+ 0.5 (/ (+ (expt 10 330) 1) (expt 10 330)))", "(inexact (/ (expt 7 500) (expt 7 499)))",
            "(/ 1 0.0)", "(/ 2.5 -0.0)", "(/ 0 0.0)"]
FILL = ["#\\a", "0", "'x"]

# Pairs that are equal under one equality and not another: exactness, the sign of zero, fresh
# containers with the same contents, big integers made twice, the same procedure.
EQUALS = [("2", "2.0"), ("0.0", "-0.0"), ("(expt 10 30)", "(expt 10 30)"), ("1/2", "(/ 2 4)"),
          ("(vector 1 2)", "(vector 1 2)"), ("\"ab\"", "(list->string (list #\\a #\\b))"), ("'a", "'a"),
          ("'()", "'()"), ("(list 1 (vector 2))", "(list 1 (vector 2))"), ("#\\a", "#\\a"),
          ("car", "car"), ("1.5", "3/2"), ("\"\"", "\"\""), ("(cons 1 2)", "'(1 . 2)"),
          ("100000000000000000000", "100000000000000000000"), ("#t", "#t"), ("2.5", "2.5"),
          # one a prefix of the other, or alike but in length
          ("(vector 1 2)", "(vector 1 2 3)"), ("#()", "(vector 1)"), ("\"ab\"", "\"abc\""),
          ("'(1 2)", "'(1 2 3)"), ("#u8(1 2)", "#u8(1 2 0)"), ("'(1 (2))", "'(1 (2 3))"),
          ("(vector (vector 1))", "(vector (vector 1 1))"), ("'(1 . 2)", "'(1 2)")]
EQUALITY = ["eq?", "eqv?", "equal?", "=="]
# equal? walks containers: each kind of leaf, equal or nearly, made twice and put at the same
# place inside lists, pairs and vectors, since a walk may handle a kind at the top level and
# miss it below (or the reverse). member and assoc compare with the same walk.
NESTED_LEAVES = {
    "bytevector": [("(bytevector 1 2)", "(bytevector 1 2)"), ("#u8(1 2)", "(bytevector 1 2)"),
                   ("(bytevector)", "#u8()"), ("#u8(1 2)", "#u8(1 3)"), ("#u8(1)", "(vector 1)")],
    "string": [("(list->string (list #\\a))", "\"a\""), ("\"ab\"", "\"aB\""),
               ("\"\"", "(make-string 0 #\\a)"), ("\"\"", "'()")],
    "vector": [("(vector 1 \"x\")", "(vector 1 \"x\")"), ("#()", "(vector)"), ("#()", "'()")],
    "number": [("(expt 10 30)", "(expt 10 30)"), ("1/2", "(/ 2 4)"), ("2", "2.0"),
               ("0.0", "-0.0")],
    "char": [("#\\a", "(integer->char 97)"), ("#\\a", "#\\A")],
    "pair": [("(list 1 2)", "(cons 1 (cons 2 '()))"), ("'(1 . 2)", "(cons 1 2)")],
    "other": [("'sym", "(string->symbol \"sym\")"), ("car", "car")]}
NESTED_PLACES = ["(list {x})", "(list 0 {x})", "(vector {x})", "(vector 0 {x})", "(cons {x} 'z)",
                 "(cons 'z {x})", "(list (list {x}))", "(vector (list 1 {x}))",
                 "(list (vector {x}) 2)", "`(a ,{x})", "`#(a ,{x})", "(list 1 (cons 2 {x}))"]
# Containers searched with each equality, keyed by values of each kind.
SEARCHES = ["(memv 1.0 '(1 1.0 2))", "(memv 100000000000000000000 (list 1 100000000000000000000))",
            "(member (list 1) '((1) 2))", "(memq 'c '(a b c d))", "(member \"b\" '(\"a\" \"b\"))",
            "(assv 2.0 '((2 . int) (2.0 . float)))", "(assoc (vector 1) (list (cons (vector 1) 'v)))",
            "(assq 'b '((a . 1) (b . 2)))", "(assv (expt 2 70) (list (cons (expt 2 70) 'big)))",
            "(case 2.0 ((2) 'exact) ((2.0) 'inexact) (else 'none))",
            "(case (expt 2 70) ((1180591620717411303424) 'big) (else 'none))",
            "(case #\\a ((#\\A) 'upper) ((#\\a) 'lower) (else 'none))",
            "(case \"s\" ((\"s\") 'string) (else 'none))", "(case '() ((()) 'nil) (else 'none))",
            # the first match of several
            "(assq 'a '((a . 1) (b . 2) (a . 3)))", "(assv 2 '((2 . x) (2.0 . y) (2 . z)))",
            "(assoc \"k\" '((\"k\" . 1) (\"k\" . 2)))", "(memv 2 '(1 2 3 2))",
            "(member (list 1) '(0 (1) (1)))"]
# Arithmetic and comparison at one, three and more arguments, where a two-argument fast path
# does not reach.
ARITY = ["(- 7)", "(- -0.0)", "(/ 4)", "(/ 0.5)", "(/ 1 2 3)", "(/ 60 2 -3)", "(- 10 1 2 3)",
         "(+ 1 1/2 0.5)", "(* 2 3 4 5)", "(* 1/2 4 0.5)", "(< 1 2 2)", "(<= 1 2 2)", "(= 1 1 2)",
         "(= 1 1.0 1)", "(> 3 2 1)", "(>= 3 3 4)", "(< 1 3 2)", "(max 1 2 3.0)", "(min 3 1/2 2)",
         "(max -0.0 0)", "(string-append \"a\" \"b\" \"c\" \"d\")", "(append '(1) '(2) '(3) 4)",
         "(list)", "(vector)", "(gcd 12 -18 8)", "(lcm 2 3 4)", "(gcd 0 5)", "(lcm 0 5)",
         "(string=? \"a\" \"a\" \"b\")", "(char<? #\\a #\\b #\\b)", "(boolean=? #t #t #f)",
         "(apply - 10 '(1 2))", "(apply / '(8 2 2))", "(apply max 1 2 '(3 4))"]
# Quasiquote beyond one level: nesting, splicing at the end, of nothing, into a dotted tail.
QUASI = ["`(1 ,@'() 2)", "`(1 ,@(list 2 3))", "`(,@(list 1 2) . 3)", "`(1 . ,(+ 1 1))",
         "`#(1 ,@(list 2 3) 4)", "`(a `(b ,(c ,(+ 1 2))))", "`(a `(b ,,(+ 1 2)))",
         "`(1 `,(+ 1 ,(+ 2 3)))", "`((,@'()) ,@'())", "`(x ,'y ,@'(z))", "`,(+ 1 2)",
         "`(quote ,(+ 1 2))", "`#()", "`(() . ())", "`(1 ,@(map (lambda (x) (* x x)) '(2 3)))",
         # splices of a variable at the end (a copy, not the list itself), of a non-list, of an
         # improper list, and an unquote in the dotted tail
         "(let ((b '(1 2))) (let ((q `(x ,@b))) (list q (eq? (cdr q) b))))",
         "(let ((b 'oops)) `(begin ,@b))", "`(1 ,@5)", "`(1 ,@'(2 . 3))", "`(,@'(1) ,@2)",
         "`#(1 ,@5)", "(let ((x 5)) `(a . ,x))", "`(1 ,@'() . 2)"]


# A value and what a copier made of it, compared under each equality (and, for a vector, told
# apart by mutating the copy): a copy must be a new object, except where the result is the
# argument itself (list-tail by 0, append's last argument).
FRESH_BASES = {"string": ["(string-append \"ab\" \"c\")", "\"abc\"", "\"\"", "(make-string 2 #\\z)"],
               "list": ["(list 1 2 3)", "'(1 2 3)", "(list (list 1) 2)"],
               "vector": ["(vector 1 2 3)", "(make-vector 2 'v)", "(vector)"]}
FRESH_COPIES = {"string": ["(string-copy {x})", "(string-copy {x} 0)",
                           "(substring {x} 0 (string-length {x}))", "(string-append {x})",
                           "(string-append {x} \"\")", "(list->string (string->list {x}))",
                           "(string-downcase {x})", "{x}"],
                "list": ["(list-copy {x})", "(append {x} '())", "(append '() {x})", "(apply list {x})",
                         "(list-tail {x} 0)", "(reverse (reverse {x}))", "(map (lambda (e) e) {x})",
                         "(cdr (append '(0) {x}))", "(filter (lambda (e) #t) {x})", "{x}",
                         # a rest parameter is a new list, also when apply spreads exactly it
                         "(apply (lambda r r) {x})", "(let ((c (lambda r r))) (apply c {x}))"],
                "vector": ["(vector-copy {x})", "(vector-copy {x} 0)", "(list->vector (vector->list {x}))",
                           "(vector-map (lambda (e) e) {x})", "{x}"]}


# Higher-order primitives given a procedure that answers a true value other than #t (only #f is
# false): what they return or keep must not depend on that value being a boolean.
TRUTHY = ["(any? (lambda (x) (memv x '(2 3))) '(1 2 3))", "(all? (lambda (x) (and (> x 0) x)) '(1 2))",
          "(filter (lambda (x) (memv x '(0 2))) '(0 1 2))", "(filter (lambda (x) 0) '(1 2))",
          "(any? (lambda (x) x) '(#f 0))", "(all? (lambda (x) x) '())",
          "(reduce (lambda (a b) (or (memv a '(1)) b)) 0 '(1 2))",
          "(list (any? string->number '(\"a\" \"7\")) (all? (lambda (c) c) '(1 \"\")))",
          "(cond ((assv 2 '((1 . a) (2 . b)))) (else 'no))", "(cond ((memq 'x '(w x y))) (else #f))",
          "(or (memv 5 '(4 5)) 'none)", "(and 1 '() \"s\")",
          "(guard (e ((memv e '(1 2)))) (raise 2))", "(guard (e ((assq e '((a . 1))))) (raise 'a))",
          "(guard (e ((string? e)) (else 'other)) (raise \"s\"))"]

# The largest list, string, vector or bytevector the shipped primitives make (longer is E311).
MAX_LENGTH = 10_000_000


# -- edge calls ---------------------------------------------------------------------------


@expression("edge", {"any": 2.0}, needs=("edges",))
def p_edge(g: G, d: int, s: Scope, t: str) -> str:
    """Some value (type any) from a call at an edge of its domain; half the time a list of
    two to four of them. An edge call is cheap beside what every program costs the four
    members (reading, compiling, a round trip each), so packing several into one program
    reaches more edges per second."""
    if g.chance(50):
        return "(list " + " ".join(edge_call(g, d, s) for _ in range(g.small(2, 4))) \
            + ")"
    return edge_call(g, d, s)


@program_part("edge_sampler", chance=25)
def edge_sampler(g: G, s: Scope) -> str:
    """Two to five edge calls written as one list, beside whatever else the program does.
    The families hold hundreds of entries and an edge call is one production among many,
    so one entry came up once in several thousand programs (14.6% of programs made any edge
    call). An edge call costs the four members about 1 ms of CPU, a guarded one about 2 ms,
    and an allocation at the length bound 180 ms (left out here), so a sampler in a quarter
    of the programs reaches about three times the entries for about a tenth more CPU per
    program. Its calls are made so that almost none ends the program (faults_now_and_then;
    0.2% of samplers still do, a number past the float range, say)."""
    g.tag("shape:edge-sampler")
    g.sampling = True
    try:
        calls = " ".join(edge_call(g, 1, s, catch=True) for _ in range(g.small(2, 5)))
    finally:
        g.sampling = False
    return f"(write (list {calls}))"


def edge_call(g: G, d: int, s: Scope, catch: bool = False) -> str:
    """A call of an edge family drawn from the deck, now and then made indirectly; guarded when
    it may fault (in the edge sampler, also when it faults now and then, and with its values
    collected when it may give none)."""
    family = g.pick(edge_deck())
    g.use(family)
    call = family.fn(g, d, s)
    if g.chance(15):
        call = indirect(g, call)
    if catch:
        if family.gives_no_value:
            call = f"(call-with-values (lambda () {call}) list)"
        return caught(g, call) if family.may_fault or family.faults_now_and_then else call
    if family.may_fault and (g.safe or g.chance(60)):
        return caught(g, call)
    return call


def indirect(g: G, call: str) -> str:
    """The same primitive call made indirectly: through apply, through a local bound to the
    primitive, or as a procedure handed over. A compiling back end inlines a direct call of
    a primitive it knows, so only an indirect one reaches the primitive's own procedure."""
    toks = [t for t in tokens(call) if t[0] != "ws"]
    if len(toks) < 3 or toks[0][0] != "open" or toks[1][0] != "other":
        return call
    depth, closed_at = 0, -1
    for kind, _, stop in toks:
        depth += kind == "open"
        depth -= kind == "close"
        if depth == 0:
            closed_at = stop
            break
    head = call[toks[1][1]:toks[1][2]]
    if closed_at != len(call) or head not in PRIMITIVE_NAMES:  # not one primitive's call
        return call
    args = call[toks[1][2]:-1].strip()
    g.tag("edge:indirect")
    how = g.pick(["apply", "local", "handed"])
    if how == "apply":
        return f"(apply {head} (list {args}))"
    f = g.fresh("f")
    if how == "local":
        return f"(let (({f} {head})) ({f} {args}))"
    return f"((lambda ({f}) ({f} {args})) {head})"


# -- families -----------------------------------------------------------------------------


@edge_family("index", slots=(0, 1), may_fault=True)
def edge_index(g: G, d: int, s: Scope) -> str:
    if g.chance(12) and not g.sampling:
        return edge_allocation(g)
    n = g.small(0, 4)
    i = g.pick([-1, 0, n - 1, n, n + 1, -n]) if n else g.pick([-1, 0, 1])
    how = g.pick(["vector-ref", "list-ref", "nth", "string-ref", "list-tail", "vector-set!",
                  "bytevector-u8-ref", "make-vector", "make-string", "make-list",
                  "substring", "integer->char"])
    if how != "substring" and g.chance(15):
        # an index or length that is a number but not an exact integer (E312)
        i = g.pick([f"{max(i, 0)}.0", "1/2", "-0.0", f"{max(i, 0)}.5"])  # type: ignore[assignment]
    items = " ".join(g.sub("any", d, s) for _ in range(n))
    text = '"' + "abcdé"[:n] + '"'
    if how == "vector-ref":
        return f"(vector-ref (vector {items}) {i})"
    if how == "list-ref" or how == "nth":
        return f"({how} (list {items}) {i})"
    if how == "string-ref":
        return f"(string-ref {text} {i})"
    if how == "list-tail":
        return f"(list-tail (list {items}) {i})"
    if how == "vector-set!":
        v = g.fresh("vec")
        return f"(let (({v} (make-vector {n} 0))) (vector-set! {v} {i} 'x) {v})"
    if how == "bytevector-u8-ref":
        return f"(bytevector-u8-ref (bytevector {' '.join(['7'] * n)}) {i})"
    if how == "substring":
        j = g.pick([i, n, 0, i + 1])
        return f"(substring {text} {min(i, j) if g.chance(70) else i} {j})"
    if how == "integer->char":
        return f"(integer->char {g.pick([-1, 0, 55295, 55296, 57343, 57344, 1114111, 1114112, 127, 128])})"
    return f"({how} {i} {g.pick(FILL)})"


def edge_allocation(g: G) -> str:
    """A sequence made at the largest length the primitives allow, one less, or one more
    (E311): a bound applied one element early or late. Tens of milliseconds a member at the
    bound, so rare; make-list, whose ten million pairs cost seconds, only past it."""
    g.tag("edge:allocation")
    how = g.pick(["make-vector", "make-string", "make-bytevector", "make-list"])
    n = MAX_LENGTH + 1 if how == "make-list" else MAX_LENGTH + g.pick([-1, 0, 0, 1])
    size = {"make-vector": "vector-length", "make-string": "string-length",
            "make-bytevector": "bytevector-length", "make-list": "length"}[how]
    fill = g.pick(["", " 7"] if how != "make-string" else ["", " #\\a"])
    return f"({size} ({how} {n}{fill}))"


@edge_family("span", slots=(2, 3), may_fault=True)
def edge_span(g: G, d: int, s: Scope) -> str:
    n = g.small(0, 5)
    start = g.small(0, n)
    end = g.small(start, n)
    if g.chance(20):  # one of the bounds out of order or past the end
        start, end = g.pick([(end + 1, end), (start, n + 1), (-1, end), (n, n)])
    how = g.pick(["vector->list", "vector-copy", "string-copy", "string->vector",
                  "string->list", "vector->string", "substring"])
    bounds = f" {start}" if g.chance(30) and how != "substring" else f" {start} {end}"
    text = '"' + "héllo!"[:n] + '"'
    if how in ("vector->list", "vector-copy"):
        items = " ".join(g.sub("any", d, s) for _ in range(n))
        return f"({how} (vector {items}){bounds})"
    if how == "vector->string":
        # Outside the slice anything may stand: only the characters taken are checked.
        chars = " ".join(g.pick(V.CHARS) if start <= j < end or g.chance(50)
                         else g.pick(["'tag", "0", "\"s\""]) for j in range(n))
        return f"(vector->string (vector {chars}){bounds})"
    return f"({how} {text}{bounds})"


@edge_family("big", slots=(4, 5), faults_now_and_then=True)
def edge_big(g: G, d: int, s: Scope) -> str:
    form = g.pick(NUMERIC)
    big = g.pick(V.BIG)
    if " " in form:
        name, _, rest = form.partition(" ")
        args = rest.replace("BIG", big)
        call = f"({name} {args})"
    else:
        call = f"({form} {big})"
    if form in ("exact-integer-sqrt", "floor/ BIG -7", "truncate/ BIG 7"):
        a, b = g.fresh("a"), g.fresh("b")
        return f"(call-with-values (lambda () {call}) (lambda ({a} {b}) (list {a} {b})))"
    return call


@edge_family("fresh", slots=(38, 39), may_fault=True)
def edge_fresh(g: G, d: int, s: Scope) -> str:
    kind = g.pick(list(FRESH_BASES))
    x, y = g.fresh("x"), g.fresh("y")
    copy = g.pick(FRESH_COPIES[kind]).format(x=x)
    compare = f"(list (eq? {x} {y}) (eqv? {x} {y}) (equal? {x} {y})"
    if kind == "vector" and g.chance(60):
        return (f"(let (({x} {g.pick(FRESH_BASES[kind])})) (let (({y} {copy})) "
                f"(when (> (vector-length {y}) 0) (vector-set! {y} 0 'changed)) {compare} {x} {y})))")
    if kind == "list" and g.chance(30):
        compare = f"(list (eq? (cdr {x}) (cdr {y})) (eq? (car {x}) (car {y}))"
    if g.chance(50):
        # two to four copiers of one base in one call: each copier is one entry of a list of
        # a dozen, and a program makes few such calls
        parts = []
        for _ in range(g.small(2, 4)):
            z = g.fresh("y")
            made = g.pick(FRESH_COPIES[kind]).format(x=x)
            parts.append(f"(let (({z} {made})) (list (eq? {x} {z}) (eqv? {x} {z}) "
                         f"(equal? {x} {z})))")
        return f"(let (({x} {g.pick(FRESH_BASES[kind])})) (list {' '.join(parts)}))"
    return f"(let (({x} {g.pick(FRESH_BASES[kind])})) (let (({y} {copy})) {compare})))"


@edge_family("sided", slots=(48, 49), faults_now_and_then=True, gives_no_value=True)
def edge_sided(g: G, d: int, s: Scope) -> str:
    """A comparison of a local with a constant, the constant on either side, as the test of
    an if, a cond or a when, for values on both sides of it: an optimiser that moves the
    constant to one side must mirror the comparison."""
    op = g.pick(NUM_COMPARE)
    c = g.pick(SIDED_CONSTANTS)
    v = g.fresh("n")
    test = f"({op} {c} {v})" if g.chance(60) else f"({op} {v} {c})"
    form = g.pick([f"(if {test} 'yes 'no)", f"(cond ({test} 'yes) (else 'no))",
                   f"(when {test} 'yes)", f"(and {test} 'yes)", f"(not {test})"])
    values = " ".join(g.pick(SIDED_VALUES) for _ in range(g.small(2, 4)))
    if g.chance(50):
        return f"(map (lambda ({v}) {form}) (list {values}))"
    return f"(let (({v} {g.pick(SIDED_VALUES)})) {form})"


@edge_family("compare", slots=(6, 7))
def edge_compare(g: G, d: int, s: Scope) -> str:
    kind = g.pick(["string", "string", "char", "num"])
    if kind == "string":
        a, b = g.pick(RELATED)
        more = f" {g.pick(RELATED)[0]}" if g.chance(25) else ""
        return f"({g.pick(STRING_COMPARE)} {a} {b}{more})"
    if kind == "char":
        a = g.pick(V.CHARS)
        b = g.pick([a, g.pick(V.CHARS), "#\\A", "#\\a"])
        more = f" {g.pick([a, b])}" if g.chance(30) else ""
        return f"({g.pick(CHAR_COMPARE)} {a} {b}{more})"
    args = " ".join(g.pick(MIXED) for _ in range(g.small(2, 3)))
    return f"({g.pick(NUM_COMPARE)} {args})"


@expression("edge_compare", {"bool": 1.0}, needs=("edges",))
def p_edge_compare(g: G, d: int, s: Scope, t: str) -> str:
    return edge_compare(g, d, s)


@edge_family("predicate", slots=(16, 17))
def edge_predicate(g: G, d: int, s: Scope) -> str:
    """Type and sign predicates on the values at the borders between types: an integral
    float is an integer but not an exact one, -0.0 is zero but not negative, '() is a list
    and not a pair, a one-character string is not a character."""
    kind = g.pick(["number", "other", "char"])
    if kind == "number":
        values, preds = BORDER_VALUES[:9], PREDICATES
    elif kind == "other":
        values, preds = BORDER_VALUES[9:], [p for p in PREDICATES if p not in NUMBERS_ONLY]
    else:
        values, preds = BORDER_CHARS, CHAR_CLASSES
    chosen = list(dict.fromkeys(g.pick(preds) for _ in range(g.small(1, 5))))
    if len(chosen) == 1:
        return f"(map {chosen[0]} (list {' '.join(values)}))"
    # several predicates over the same borders, each applied to a local (not a constant)
    v = g.fresh("v")
    tests = " ".join(f"({p} {v})" for p in chosen)
    return f"(map (lambda ({v}) (list {tests})) (list {' '.join(values)}))"


@edge_family("truthy", slots=(18,))
def edge_truthy(g: G, d: int, s: Scope) -> str:
    return g.pick(TRUTHY)


@edge_family("empty", slots=(8,))
def edge_empty(g: G, d: int, s: Scope) -> str:
    return g.pick(EMPTIES)


@edge_family("equality", slots=(11, 12))
def edge_equality(g: G, d: int, s: Scope) -> str:
    if g.chance(35):
        return g.pick(SEARCHES)
    a, b = g.pick(EQUALS)
    if g.chance(50):
        a, b = b, a
    return f"({g.pick(EQUALITY)} {a} {b})"


@edge_family("nested_equal", slots=(51, 52))
def edge_nested_equal(g: G, d: int, s: Scope) -> str:
    """Two leaves of one kind put at the same place in two containers, compared by equal?
    (or found by member or assoc, which use it); now and then one more level deep."""
    a, b = g.pick(NESTED_LEAVES[g.pick(list(NESTED_LEAVES))])
    if g.chance(50):
        a, b = b, a
    for _ in range(g.pick([1, 1, 1, 2])):
        place = g.pick(NESTED_PLACES)
        a, b = place.format(x=a), place.format(x=b)
    how = g.pick(["equal", "equal", "equal", "member", "assoc", "both"])
    if how == "member":
        return f"(member {a} (list 0 {b}))"
    if how == "assoc":
        return f"(assoc {a} (list (cons 0 'no) (cons {b} 'found)))"
    if how == "both":
        return f"(list (equal? {a} {b}) (equal? {b} {a}) (eqv? {a} {b}))"
    return f"(equal? {a} {b})"


@edge_family("arity", slots=(13, 14))
def edge_arity(g: G, d: int, s: Scope) -> str:
    return g.pick(ARITY)


@edge_family("quasi", slots=(15,), may_fault=True)
def edge_quasi(g: G, d: int, s: Scope) -> str:
    return g.pick(QUASI)


@edge_family("rounding", slots=(9, 10), may_fault=True)
def edge_rounding(g: G, d: int, s: Scope) -> str:
    return g.pick(ROUNDING)
