"""Typed signatures of primitives for generated calls: (name, argument types, result type).

Argument type "nz" is a non-zero integer literal and "idx:N" an index literal below N, so that
safe-mode calls stay in their domains; "deep" is a pair tree on which every c[ad]{2,4}r is
defined. The table reaches every family of primitives; a result type "any" is drawn wherever
any value will do.
"""

CXR = [a + "".join(p) + "r" for a in "c" for n in (2, 3, 4)
       for p in __import__("itertools").product("ad", repeat=n)]

SIGNATURES: list[tuple[str, tuple[str, ...], str]] = [
    # numeric
    ("+", ("num", "num", "num"), "num"), ("-", ("num",), "num"), ("*", ("int", "int"), "int"),
    ("/", ("num", "nz"), "num"), ("quotient", ("int", "nz"), "int"),
    ("remainder", ("int", "nz"), "int"), ("modulo", ("int", "nz"), "int"),
    ("floor-quotient", ("int", "nz"), "int"), ("floor-remainder", ("int", "nz"), "int"),
    ("truncate-quotient", ("int", "nz"), "int"), ("truncate-remainder", ("int", "nz"), "int"),
    ("abs", ("num",), "num"), ("min", ("num", "num"), "num"), ("max", ("num", "num"), "num"),
    ("gcd", ("int", "int"), "int"), ("lcm", ("int", "int"), "int"), ("square", ("num",), "num"),
    ("floor", ("num",), "num"), ("ceiling", ("num",), "num"), ("round", ("num",), "num"),
    ("truncate", ("num",), "num"), ("exact->inexact", ("num",), "num"),
    ("inexact", ("num",), "num"), ("expt", ("int", "idx:6"), "int"),
    ("number->string", ("num",), "str"), ("string->number", ("str",), "any"),
    ("exact-integer?", ("any",), "bool"), ("zero?", ("num",), "bool"),
    ("positive?", ("num",), "bool"), ("negative?", ("num",), "bool"),
    ("odd?", ("int",), "bool"), ("even?", ("int",), "bool"), ("integer?", ("any",), "bool"),
    ("rational?", ("any",), "bool"), ("inexact?", ("num",), "bool"),
    ("=", ("num", "num"), "bool"), ("<", ("num", "num", "num"), "bool"),
    (">=", ("num", "num"), "bool"),
    # lists
    ("cons", ("any", "list"), "list"), ("car", ("nelist",), "any"), ("cdr", ("nelist",), "list"),
    ("first", ("nelist",), "any"), ("rest", ("nelist",), "list"), ("cadr", ("nelist2",), "any"),
    ("cddr", ("nelist2",), "list"), ("list", ("any", "any"), "list"),
    ("length", ("list",), "int"), ("append", ("list", "list", "list"), "list"),
    ("reverse", ("list",), "list"), ("list-tail", ("nelist3", "idx:3"), "list"),
    ("list-ref", ("nelist3", "idx:3"), "any"), ("nth", ("nelist3", "idx:3"), "any"),
    ("list-copy", ("list",), "list"), ("make-list", ("idx:4", "any"), "list"),
    ("memq", ("any", "list"), "any"), ("memv", ("any", "list"), "any"),
    ("member", ("any", "list"), "any"), ("assq", ("sym", "alist"), "any"),
    ("assv", ("int", "alist"), "any"), ("assoc", ("any", "alist"), "any"),
    ("list->vector", ("list",), "vec"), ("null?", ("any",), "bool"), ("pair?", ("any",), "bool"),
    ("list?", ("any",), "bool"), ("empty?", ("any",), "bool"),
    # equality
    ("eq?", ("any", "any"), "bool"), ("eqv?", ("any", "any"), "bool"),
    ("equal?", ("any", "any"), "bool"), ("==", ("any", "any"), "bool"),
    ("!=", ("any", "any"), "bool"), ("not", ("any",), "bool"),
    ("boolean=?", ("bool", "bool"), "bool"), ("symbol=?", ("sym", "sym"), "bool"),
    # strings and chars
    ("string-append", ("str", "str"), "str"), ("string-length", ("str",), "int"),
    ("string-ref", ("hello", "idx:5"), "char"), ("substring", ("hello", "idx:2", "idx:5"), "any"),
    ("string-copy", ("str",), "str"), ("make-string", ("idx:4", "char"), "str"),
    ("string->list", ("str",), "list"), ("string->symbol", ("str",), "any"),
    ("symbol->string", ("sym",), "str"), ("string->vector", ("str",), "vec"),
    ("string-upcase", ("str",), "str"), ("string-downcase", ("str",), "str"),
    ("string-foldcase", ("str",), "str"), ("string=?", ("str", "str"), "bool"),
    ("string<?", ("str", "str"), "bool"), ("string-ci=?", ("str", "str"), "bool"),
    ("string>=?", ("str", "str"), "bool"), ("list->string", ("chars",), "str"),
    ("char->integer", ("char",), "int"), ("char-upcase", ("char",), "char"),
    ("char-downcase", ("char",), "char"), ("char-foldcase", ("char",), "char"),
    ("char-alphabetic?", ("char",), "bool"), ("char-numeric?", ("char",), "bool"),
    ("char-whitespace?", ("char",), "bool"), ("char-upper-case?", ("char",), "bool"),
    ("char<?", ("char", "char"), "bool"), ("char-ci=?", ("char", "char"), "bool"),
    # vectors and bytevectors
    ("vector", ("any", "any"), "vec"), ("make-vector", ("idx:4", "any"), "vec"),
    ("vector-ref", ("vec3", "idx:3"), "any"), ("vector-length", ("vec",), "int"),
    ("vector->list", ("vec",), "list"), ("vector-copy", ("vec",), "vec"),
    ("vector->string", ("charvec",), "str"), ("bytevector", ("idx:256", "idx:256"), "any"),
    ("bytevector-length", ("bytes",), "int"), ("bytevector-u8-ref", ("bytes", "idx:2"), "int"),
    ("make-bytevector", ("idx:3", "idx:256"), "any"),
    # predicates
    ("procedure?", ("any",), "bool"), ("symbol?", ("any",), "bool"),
    ("string?", ("any",), "bool"), ("vector?", ("any",), "bool"), ("char?", ("any",), "bool"),
    ("boolean?", ("any",), "bool"), ("number?", ("any",), "bool"),
    ("bytevector?", ("any",), "bool"), ("error-object?", ("any",), "bool"),
    # more of each family
    ("list-first", ("nelist",), "any"), ("list-rest", ("nelist",), "list"),
    ("string->number", ("str", "radix"), "any"), ("number->string", ("int", "radix"), "str"),
    ("exact-integer-sqrt", ("idx:50",), "int"), ("truncate-quotient", ("int", "nz"), "int"),
    ("real?", ("any",), "bool"), ("complex?", ("any",), "bool"), ("exact?", ("num",), "bool"),
    ("inexact->exact", ("int",), "int"), ("exact", ("num",), "num"),
    ("char-lower-case?", ("char",), "bool"), ("char>?", ("char", "char"), "bool"),
    ("char<=?", ("char", "char"), "bool"), ("char>=?", ("char", "char"), "bool"),
    ("char=?", ("char", "char"), "bool"), ("char-ci<?", ("char", "char"), "bool"),
    ("char-ci>?", ("char", "char"), "bool"), ("char-ci<=?", ("char", "char"), "bool"),
    ("char-ci>=?", ("char", "char"), "bool"), ("integer->char", ("idx:128",), "char"),
    ("string<=?", ("str", "str"), "bool"), ("string>?", ("str", "str"), "bool"),
    ("string-ci<?", ("str", "str"), "bool"), ("string-ci>?", ("str", "str"), "bool"),
    ("string-ci<=?", ("str", "str"), "bool"), ("string-ci>=?", ("str", "str"), "bool"),
    ("string-copy", ("hello", "idx:3"), "str"), ("string->vector", ("hello", "idx:2", "idx:5"), "vec"),
    ("vector->string", ("charvec",), "str"), ("vector-copy", ("vec3", "idx:2"), "vec"),
    ("vector->list", ("vec3", "idx:3"), "list"), ("make-vector", ("idx:3",), "vec"),
    ("make-list", ("idx:3",), "list"), ("make-string", ("idx:3",), "str"),
    ("make-bytevector", ("idx:3",), "any"), ("string-map", ("charproc", "str"), "str"),
    ("vector-map", ("proc1", "vec"), "vec"), ("map", ("proc1", "list"), "list"),
    ("filter", ("pred1", "list"), "list"), ("any?", ("pred1", "list"), "bool"),
    ("all?", ("pred1", "list"), "bool"), ("fold-right", ("proc2", "any", "list"), "any"),
    ("fold-left", ("proc2", "any", "list"), "any"), ("reduce", ("proc2", "any", "list"), "any"),
    ("apply", ("proc1", "list1"), "any"), ("<=", ("num", "num"), "bool"),
    (">", ("num", "num", "num"), "bool"), ("boolean=?", ("bool", "bool", "bool"), "bool"),
    ("symbol=?", ("sym", "sym", "sym"), "bool"), ("values", ("any",), "any"),
    ("error-object-message", ("errobj",), "str"), ("error-object-irritants", ("errobj",), "list"),
    ("call/cc", ("escaper",), "any"), ("call-with-current-continuation", ("escaper",), "any"),
    ("dynamic-wind", ("thunk", "thunk", "thunk"), "any"),
    ("call-with-values", ("thunk", "proc1"), "any"),
    ("with-exception-handler", ("proc1", "thunk"), "any"),
] + [(name, ("deep",), "any") for name in CXR]

# Every primitive of the language (profile 1.5), for the coverage table's denominator.
PRIMITIVES = """
!= % * + - / < <= = == > >= abs all? any? append apply assoc assq assv boolean=? boolean?
bytevector bytevector-length bytevector-u8-ref bytevector? caaaar caaadr caaar caadar caaddr
caadr caar cadaar cadadr cadar caddar cadddr caddr cadr call-with-current-continuation
call-with-values call/cc car cdaaar cdaadr cdaar cdadar cdaddr cdadr cdar cddaar cddadr cddar
cdddar cddddr cdddr cddr cdr ceiling char->integer char-alphabetic? char-ci<=? char-ci<?
char-ci=? char-ci>=? char-ci>? char-downcase char-foldcase char-lower-case? char-numeric?
char-upcase char-upper-case? char-whitespace? char<=? char<? char=? char>=? char>? char?
complex? cons display dynamic-wind empty? eq? equal? eqv? error error-object-irritants
error-object-message error-object? even? exact exact->inexact exact-integer-sqrt
exact-integer? exact? expt filter first floor floor-quotient floor-remainder floor/ fold-left
fold-right for-each gcd inexact inexact->exact inexact? integer->char integer? lcm length list
list->string list->vector list-copy list-first list-ref list-rest list-tail list? make-bytevector
make-list make-string make-vector map max member memq memv min modulo negative? newline not nth
null? number->string number? odd? pair? positive? println procedure? quotient raise
raise-continuable rational? real? reduce remainder rest reverse round square string->list
string->number string->symbol string->vector string-append string-ci<=? string-ci<? string-ci=?
string-ci>=? string-ci>? string-copy string-downcase string-foldcase string-for-each
string-length string-map string-ref string-upcase string<=? string<? string=? string>=? string>?
string? substring symbol->string symbol=? symbol? truncate truncate-quotient truncate-remainder
truncate/ values vector vector->list vector->string vector-copy vector-for-each vector-length
vector-map vector-ref vector-set! vector? with-exception-handler write zero?
""".split()
