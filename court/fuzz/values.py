"""Edge-biased literal values and fixed snippets for generated programs, as Lispex source text.

Catalogs only: which snippets a program gets is drawn by the generator."""

from __future__ import annotations

import re

INTS = ["0", "-1", "1", "2", "7", "-7", "10", "255", "1000", "-3", "18446744073709551616",
        "-1000000000000000000000000000000", "9007199254740993", "4294967296",
        "9223372036854775807", "-9223372036854775808", "2147483648"]
RATIONALS = ["1/3", "-7/2", "2/4", "22/7", "-1/1000000", "100000000000000000001/3", "1/2"]
FLOATS = ["0.0", "-0.0", "1.5", "-2.25", "0.1", "123.456", "1e21", "1e-7", "1e300", "-1e300",
          "5e-324", "2.5", "3.0", "1e22", "1.7976931348623157e308", "0.000001", "1e16",
          "0.30000000000000004", "123456789012345680000.0", "1e-5", "0.5", "-1.0", "1e15",
          "9007199254740993.0", "2.2250738585072014e-308", "1e+3", "2.5E-3", "-1.5e+2",
          # integral floats of 16 to 21 digits, where the printer stops writing digits out
          "16000000000000002.0", "(+ 1e16 2.0)", "12345678901234568.0", "123456789012345680.0",
          "99999999999999990000.0", "(* 3.0 (expt 10 16))"]
STRINGS = ['""', '"a"', '"hello"', '"héllo wörld"', '"日本語"', '"a\\"b"', '"tab\\there"',
           '"line\\nbreak"', '"x\\x3bb;y"', '"   "', '"ABC def"', '"straße"', '"back\\\\slash"',
           '"cr\\rlf"', '"\\x7f;del"', '"42"', '"-1.5"', '"1/3"', '"1e3"',
           '"ΟΔΟΣ ΣΑΣ"', '"Ǆemal İ ﬁ"',
           '"two\nlines"', '"a\n\n  b"']  # the last two hold raw line breaks
CHARS = ["#\\a", "#\\Z", "#\\space", "#\\newline", "#\\x3bb", "#\\0", "#\\tab", "#\\é",
         "#\\delete", "#\\alarm", "#\\nul", "#\\return", "#\\escape", "#\\x7f", "#\\ß",
         "#\\(", "#\\;", "#\\\"", "#\\\\"]
SYMBOLS = ["'a", "'b", "'deny", "'allow", "'x->y", "'...", "'+", "'λ", "'A", "'<=?", "'-"]
NAMES = ["a", "b", "c", "n", "k", "x", "y", "acc", "lst", "s", "v", "total", "item", "rate",
         "age", "score"]

# Quoted data that take the printer through its rarer paths.
QUOTED = ["''a", "'(quote x)", "'(quasiquote (a (unquote b) (unquote-splicing c)))",
          "'(1 . 2)", "'(1 2 . 3)", "'((a . b) . c)", "'(() #() \"\")", "'(#\\a \"b\" c 1.5)",
          "'(quote)", "'(quote a b)", "'(unquote x)", "'#(1 (2 . 3) #(4))",
          "'(-0.0 1e21 1/3 #t #f)", "'(a . (b . (c)))", "'(#u8(1 2) #u8())", "'(1 (2 (3 (4))))"]

# Statements that take the printer through every path: display and write of each kind of value.
PRINTER = [
    # integers long enough that a printer may split them (zeros at the split must stay)
    "(display (expt 10 1200))", "(write (list (+ (expt 10 1500) 7) (- (expt 10 1001))))",
    "(display (* (expt 2 4000) (expt 10 600)))", "(write (number->string (+ (expt 10 3000) 1) 16))",
    "(write ''a)", "(write '(quote x))", "(write '(quasiquote (a (unquote b))))",
    "(write '(unquote-splicing x))", "(write '(quote a b))", "(display ''(1 . 2))",
    "(write \"a\\\"b\\\\c\\nd\\te\")", "(display \"a\\\"b\\\\c\\nd\\te\")",
    "(write \"\\x7f;\\x1;\\x3bb;\\r\")", "(write (list->string (list #\\x0 #\\x1f)))",
    "(write #\\x0)", "(write #\\delete)", "(write #\\alarm)", "(write #\\escape)",
    "(write #\\backspace)", "(write #\\page)", "(write #\\x3bb)", "(write #\\space)",
    "(write (integer->char 127))", "(write (integer->char 160))", "(display #\\x3bb)",
    "(write 1e21)", "(write 1e22)", "(write 123456789.123)", "(write (/ 1.0 3))",
    "(write (+ 0.1 0.2))", "(write -0.0)", "(write 5e-324)", "(write 1.7976931348623157e308)",
    "(write (* 1.0 (expt 2 70)))", "(write (exact->inexact 1/3))", "(write 1e-7)",
    "(write 100.0)", "(write 0.000123)", "(write (exact 0.1))", "(write (/ 6 4))",
    "(write (list 16000000000000002.0 (+ 1e16 2.0) 12345678901234568.0 1e20 "
    "99999999999999990000.0))",
    "(write (- (expt 2 64)))", "(write (exact->inexact 12345678901234567890))",
    "(write #())", "(write (vector))", "(write (make-vector 0))", "(write (vector (vector) '()))",
    "(write '(1 . 2))", "(write (cons 1 (cons 2 3)))", "(write (cons '() '()))",
    "(write '((a . b) . c))", "(write #u8())", "(write (bytevector))", "(write #u8(0 255))",
    "(write (string->symbol \"hello world\"))", "(write (string->symbol \"\"))",
    "(write (string->symbol \"A\"))", "(write (string->symbol \"1\"))", "(write 'λ)",
    "(display (list \"s\" #\\c 'sym 1.5 \"t\\nu\"))", "(write (list \"s\" #\\c 'sym 1.5))",
    "(write (list #t #f '()))", "(display (vector \"a\" #\\b))", "(write (vector \"a\" #\\b))",
    "(write \"\")", "(display \"\")", "(println '(1 \"x\"))",
    "(write (list (quote quote) 'x))", "(write '(quote . x))", "(write '(quote x . y))",
    "(write `(1 ,@'() . 2))", "(write (make-string 3 #\\\"))",
    # procedures take the name of what binds them, through every binding form
    "(let* ((a 1) (f (lambda (x) x))) (write (list f a)))", "(let ((f (lambda () 1))) (display f))",
    "(letrec ((f (lambda () 1))) (write f))", "(letrec ((f (lambda () g)) (g 1)) (display f))",
    "((lambda () (define (inner x) x) (write inner)))", "(let loop ((i 0)) (write loop))",
    "(let ((f #f)) (set! f (lambda () 1)) (write f))", "(write (list (lambda (x) x) car))",
    "(do ((f (lambda () 1) f) (i 0 (+ i 1))) ((= i 1) (write f)))",
    "(let* ((g car) (h (let ((sq (lambda (n) (* n n)))) sq))) (display (list g h)))",
]

# A compatible replacement for a primitive: same argument and result types, different meaning,
# so generated calls of the name stay well-typed after the program rebinds it.
REBINDS = [
    ("abs", "(lambda (x) (+ x 1000))"), ("square", "(lambda (x) (* x 3))"),
    ("+", "*"), ("max", "min"), ("reverse", "(lambda (l) l)"), ("length", "(lambda (l) 99)"),
    ("string-upcase", "(lambda (s) (string-append s \"!\"))"), ("not", "(lambda (x) x)"),
    ("list", "(lambda xs (reverse xs))"), ("append", "(lambda xs '(mine))"),
    ("cons", "(lambda (a b) (list 'c a b))"), ("eqv?", "(lambda (a b) #t)"),
    ("list->vector", "(lambda (l) (vector 'mine))"), ("vector", "(lambda xs (list->vector xs))"),
    ("number->string", "(lambda (n . r) \"num\")"), ("car", "(lambda (l) 'first)"),
    ("display", "(lambda (x) (write (list 'shown x)))"), ("remainder", "modulo"),
]

# Runtime faults by diagnostic code, each a single expression.
RUNTIME_FAULTS = {
    "E300": ["(undefined-name)", "no-such-variable", "(+ 1 later-defined)",
             # a read whose value is thrown away must still be made (and fail)
             "(begin no-such-variable 1)", "(let () never-defined 'after)",
             "((lambda () unbound-here (display \"after\") 2))", "(if never-bound-x 1 2)",
             "(list (begin unknown-g 1))", "(when #t not-defined-yet 3)",
             # an unbound operator is found before any operand runs, at every argument count
             "(never-defined (begin (display 1) 1))",
             "(never-defined (begin (display 1) 1) 2 (begin (display 3) 3) 4)",
             "(never-defined (car '()) 1 2 3 4)", "(never-defined 1 2 3 4 5 (begin (display 'x) 6))",
             # set!'s value comes before the check that the global exists
             "(set! never-bound (undefined-too))",
             # a global is bound once its own definition's value is made, not before
             "(define self-read (if (number? self-read) self-read 100))",
             "(define self-count (+ 1 self-count))",
             # a procedure called by a top-level form before the form that defines it (placed
             # after it, LATER_DEFINITIONS): its closure exists only once that form has run
             "(later-proc 4)"],
    "E301": ["(5 3)", "(\"f\" 1)", "(map 5 '(1 2))", "((car (list 1)) 2)", "('sym)",
             # procedures the control primitives call on the program's behalf
             "(dynamic-wind 1 (lambda () 2) (lambda () 3))", "(dynamic-wind (lambda () 1) 2 (lambda () 3))",
             "(call-with-values 5 list)", "(call-with-values (lambda () 1) 5)", "(call/cc 5)",
             # an after thunk applied by an escape from inside a procedure: the fault is the
             # dynamic-wind's, not the escape's last call's
             "(call/cc (lambda (k) (dynamic-wind (lambda () 1) (lambda () ((lambda (j) (j 2)) k)) 3)))",
             "(guard (e ((symbol? e) e)) (dynamic-wind (lambda () 1) "
             "(lambda () ((lambda (x) (raise x)) 'up)) 'after))"],
    "E302": ["((lambda (x) x))", "(car '(1) '(2))", "(< 5)", "((lambda (a b . c) a) 1)",
             "(-)", "(vector-ref (vector 1))",
             # a primitive of the wrong count as an operand, a test or an init, where back ends
             # evaluate a primitive's call in place
             "(list (< 5))", "(let ((x 1)) (list (< x)))", "(if (car) 1 2)", "(let ((v (abs))) v)",
             "(+ 1 (-))", "(let ((x 2)) (+ 1 (abs x x)))", "(let ((x 1)) (if (= x) 'a 'b))",
             "(let ((x 1) (y 2)) (list (cons x) y))", "((lambda (n) (when (zero? n n) 'z)) 0)",
             # a consumer of the wrong arity, reached from a tail call-with-values
             "((lambda () (call-with-values (lambda () (values 1 2)) (lambda (a) a))))",
             "(call-with-values (lambda () (floor/ 7 2)) (lambda (q) q))",
             "(call/cc (lambda (k) (dynamic-wind (lambda () 1) (lambda () ((lambda (j) (j 2)) k)) "
             "(lambda (why) why))))",
             "(guard (e ((symbol? e) e)) (dynamic-wind (lambda () 1) "
             "(lambda () ((lambda (x) (raise x)) 'up)) (lambda (a b) a)))",
             # a primitive's argument count is checked once its operands have run (their
             # output comes first)
             "(cons (begin (display 1) 1) (begin (display 2) 2) 3)",
             "(let ((x 1)) (vector-ref (begin (display x) (vector x))))"],
    "E303": ["(set! never-bound 1)", "(set! never-bound (begin (display \"v\") 1))"],
    "E310": ["(car '())", "(cdr 5)", "(length 5)", "(length '(1 . 2))", "(cadr '(1))",
             # searches that reach an improper tail without a match, a spread list that is not one
             "(memq 'z '(x y . w))", "(member \"q\" '(\"a\" . \"b\"))", "(assv 9 '((1 . 2) . 3))",
             "(assoc \"k\" '((\"a\" . 1) 5))", "(memv 1.5 '(1 2 3 . 4))", "(apply + 1 2)",
             "(set! never-bound (car '()))",
             # an operand's own fault comes before the call's wrong argument count; a condition
             # caught, kept and raised again is reported where it happened, not at the re-raise
             "(car (begin (display 'a) '(1)) (car '()))",
             "(let ((kept (guard (e (#t e)) (cdr 5)))) (display 'kept) (raise kept))"],
    "E311": ["(vector-ref (vector 1 2) 5)", "(list-ref '(1) 3)", "(string-ref \"\" 0)",
             # an exact product past the size bound (a million bits), through locals and
             # procedures, where a two-integer fast path may skip the kernel's check
             "(let ((x (expt 2 500000))) (even? (* x x)))",
             "((lambda (a b) (even? (* a b))) (expt 2 500000) (expt 2 500001))",
             "(let ((sq (lambda (x) (* x x)))) (even? (sq (expt 3 700000))))",
             "(let ((x (expt 2 600000))) (list (< 0 (* 1 x x))))",
             "(list-tail '(1 2) 3)", "(substring \"abc\" 2 1)", "(vector-ref (vector) -1)",
             "(raise (guard (e (#t e)) (vector-ref (vector 1 2) 5)))"],
    "E312": ["(+ 1 \"a\")", "(vector-set! #(1 2) 0 9)", "(even? 1/2)", "(integer->char -1)",
             "(string-length 'a)", "(error 'sym 1)",
             # R6RS's (error who message irritant...): the message must come first
             "(error 'who \"msg\" 1)", "(error 'check-input \"bad value\")",
             "(with-exception-handler 'h (lambda () 1))",
             # a predicate inlined by a compiler must still refuse what is not a number
             "((lambda (x) (zero? x)) #f)", "(let ((y 'a)) (zero? y))",
             # a radix is for exact integers only, and only 2, 8, 10 or 16
             "(number->string 1/3 10)", "(number->string 2.5 10)", "(number->string 10 3)",
             "(number->string 2.0 16)", "(string->number \"10\" 3)", "(- \"5\")", "(reverse 5)", "(exact->inexact 'x)",
             # a boolean where a number goes (Python's True is 1), and a library primitive
             # refusing what its callback returned (the fault is the primitive's, not the
             # callback's last call)
             "(+ #t 1)", "(< 0 #f)", "(vector-ref (vector 1 2) #f)",
             "(string-map (lambda (c) (char->integer c)) \"ab\")",
             "(list->string (map (lambda (c) (char-upcase c)) '(#\\a 1)))"],
    "E313": ["(/ 1 0)", "(modulo 5 0)", "(/ 1.0 0)", "(quotient 1 0)", "(floor/ 3 0)",
             "(/ 1 0.0)", "(/ 2.5 -0.0)"],
    "E314": ["(* 1e300 1e300)", "(exact->inexact (expt 10 400))", "(/ 1e308 1e-10)",
             # float overflow through locals and parameters, where fast paths for numbers sit
             "(let ((x 1e308)) (+ x x))", "((lambda (a b) (* a b)) 1e200 1e200)",
             "(let ((x -1e308)) (- x 1e308))", "(list (* 2.0 1e308))",
             "(let ((f (lambda (a) (+ a a)))) (f 1.5e308))", "(let ((x 1e308)) (list (< 1 (* x 10))))"],
    "E320": ["(+ (values 1 2) 1)", "(+ 1 (values))", "(list (when #f 1))",
             "(car (cond (#f 1)))", "(let ((x (values 1 2))) x)", "(+ 1 (floor/ 7 2))",
             "(not (truncate/ -7 2))", "(list (exact-integer-sqrt 17))",
             "(vector (floor/ 7 -2) 1)", "(map (lambda (x) (values x x)) '(1 2))",
             "(vector-map (lambda (x) (values)) (vector 1))",
             "(fold-left (lambda (a x) (values a x)) 0 '(1))",
             "(let ((pick (lambda (a b) b))) (list (pick 'first (values 2 3))))",
             "(let ((pick (lambda (a b c) a))) (list (pick 1 (values) 3)))",
             # a test of several values from a callee a compiler cannot see
             "(let ((g (lambda () (values 1 2)))) (if (g) 'yes 'no))",
             "((lambda (g) (cond ((g) 'yes) (else 'no))) (lambda () (values #f #t)))",
             "((lambda (g) (when (g 1) 'yes)) (lambda (x) (values x x)))",
             # a handler's values come back from raise-continuable as its own (the E320 goes
             # to the same handler, which raises it on)
             "(with-exception-handler (lambda (c) (if (symbol? c) (values 0 c) (raise c)))\n"
             "  (lambda () (+ 1 (raise-continuable 'c))))",
             "(with-exception-handler (lambda (c) (if (symbol? c) (values 1 2) (raise c)))\n"
             "  (lambda () (let ((q (raise-continuable 'c))) q)))"],
    "E321": ["(letrec ((a b) (b 1)) a)", "(letrec ((f (lambda () g)) (x (f)) (g 1)) x)",
             "((lambda () (define a (g)) (define (g) 1) a))",
             "(letrec ((x (f 1)) (f (lambda (n) n))) x)",
             "(letrec ((a (begin b 1)) (b 2)) a)", "((lambda () (define a (begin c 0)) (define c 1) a))",
             "(letrec ((f (lambda () g 'f)) (x (f)) (g 1)) x)"],
    "E330": ["(error \"boom\" 1 'x \"s\")", "(error \"no irritants\")"],
    "E331": ["(raise 'x)", "(raise (list 1 2))", "(raise 42)", "(raise \"s\")"],
    "E332": ["(with-exception-handler (lambda (e) 0) (lambda () (raise 'x)))",
             "(with-exception-handler (lambda (e) e) (lambda () (car '())))",
             # the E332 goes to the handlers outside the one that returned
             "(with-exception-handler (lambda (o) (display (list 'outer (error-object? o))) 1) "
             "(lambda () (with-exception-handler (lambda (e) 'inner) (lambda () (raise 'x)))))",
             "(with-exception-handler (lambda (e) 1) 'thunk)"],
    "E340": ["(let ((k (call/cc (lambda (k) k)))) (k 1))",
             "((call/cc (lambda (k) k)) (lambda (x) x))"],
    "W330": ["(% 7 2)", "(% -7 2)"],
    "W331": ["(list-first '(1 2))", "(list-rest '(1 2))"],
}

# What the entries reading a global before its definition are placed with, after them: a
# back end that binds a global before its definition runs (hoisting a procedure's closure,
# say) gives a value where the others report E300.
LATER_DEFINITIONS = {"later-defined": "(define later-defined 5)",
                     "later-proc": "(define (later-proc x) (* x 10))"}


def later_definitions(faults: list[str]) -> list[str]:
    """The definitions to place after ``faults``, once each, in a stable order."""
    return [form for name, form in LATER_DEFINITIONS.items()
            if any(re.search(rf"[ (]{name}[ )]", f) for f in faults)]


# Entries that are top-level forms: only diagnostic() places them, where a form may stand.
TOP_LEVEL_FAULTS = frozenset(e for pool in RUNTIME_FAULTS.values() for e in pool
                             if e.startswith("(define "))
# Entries too dear for the fault sampler, which places several in three programs in ten: an
# exact product past the size bound costs the four members 14 to 230 ms of CPU, against about 5
# for the median entry (bench/fault_entry_cost.py). fault() and diagnostic() still place them.
DEAR_FAULTS = frozenset(e for e in RUNTIME_FAULTS["E311"] if "(expt " in e)

# Names the front end refuses wherever they stand as a symbol (E120), and the reserved words,
# which may not be bound and (but for the four procedures among them) not used as values (E110).
FORBIDDEN_NAMES = ["define-syntax", "syntax-rules", "syntax-case", "let-syntax", "letrec-syntax",
                   "define-library", "include", "include-ci", "include-library-declarations",
                   "define-values", "let-values", "let*-values"]
RESERVED_NAMES = ["quote", "quasiquote", "unquote", "unquote-splicing", "lambda", "if", "begin",
                  "set!", "define", "let", "let*", "letrec", "cond", "case", "guard", "and", "or",
                  "when", "unless", "do", "values", "call-with-values", "call/cc",
                  "dynamic-wind", "module", "export", "import"]

# String escapes and character names other Schemes read and Lispex refuses (E150).
FOREIGN_ESCAPES = ["\\a", "\\b", "\\0", "\\e", "\\v", "\\f", "\\u0041", "\\N", "\\x41", "\\'"]
FOREIGN_CHARS = ["#\\Space", "#\\NEWLINE", "#\\Tab", "#\\Nul", "#\\Alarm", "#\\U+41", "#\\vtab",
                 "#\\linefeed1", "#\\SPACE", "#\\X41", "#\\X3bb"]

# Source faults by diagnostic code: a top-level form that makes the whole program a source error.
SOURCE_FAULTS = {
    "E100": ["(+ 1 2))", "[1 2]", "(list 007)", "#x10", "(display \"open",
             "#t1", "{x}"],
    "E110": ["(let ((if 1)) if)", "(define lambda 1)", "(lambda (x define) x)",
             "(define (f quote) 1)", "(set! cond 1)", "(display if)"],
    "E120": ["(define-syntax foo 1)", "#;(x)", "(let-values () 1)", "#lang racket"],
    "E130": ["(if 1 2)", "(cond)", "(lambda (x x) x)", "(cond (1 => car))", "()",
             "(let ((x)) x)", "(quote)", "(begin)", "(define)", "(lambda ())", ",@x",
             "(let loop)", "(case)", "(do ((i 0)) )", "((lambda () (display 1) (define x 2) x))",
             "(let () 1 (define y 2) y)", "(let ((a 1) (a 2)) a)",
             # a definition after an expression of a body, in every kind of body
             "(define (after-expr) (display \"a\") (define y 2) y)",
             "(let* ((a 1)) (set! a 2) (define b a) b)", "(letrec ((f 1)) f (define g 2) g)",
             "(lambda (x) x (define y x) y)", "(let loop ((i 0)) (display i) (define j i) j)",
             # definitions where a body seems to be but is not
             "(when #t (define w 1) w)", "(unless #f (define u 1) u)",
             "(cond (#t (define c 1) c))", "(case 1 ((1) (define k 1) k))",
             "(do ((i 0 1)) (#t (define r 1) r))", "(guard (e (#t (define g 1) g)) (raise 1))"],
    "E140": ["(a . b . c)", "'( . a)", "'(a .)", "'(a . b c)"],
    "E150": ["#\\X41", "#\\bogus", "\"\\q\"", "\"\\x;\"", "(list #\\12)", "#\\x110000",
             # escapes and names of other Schemes, and names in another case
             "\"\\a\"", "\"\\b\"", "\"\\0\"", "\"\\e\"", "(list \"ok\" \"\\v\")", "#\\Space",
             "#\\NEWLINE", "(list #\\Tab)", "#\\Nul", "(list #\\Alarm)"],
    "E314": ["1e9999", "(+ 1 -1e400)"],
}

# Integers around the places where a float or a machine word stops being exact.
BIG = ["9007199254740992", "9007199254740993", "(expt 2 53)", "(+ (expt 2 53) 1)",
       "(- (expt 10 40) 1)", "(expt 10 40)", "(* 99999999999 99999999999)",
       "(- (* 99999999999 99999999999) 1)", "18446744073709551615", "18446744073709551616",
       "(expt 2 106)", "(+ (expt 2 106) 1)", "4611686018427387904", "-9223372036854775808",
       "(- (expt 2 64))", "1000000000000000000000"]
