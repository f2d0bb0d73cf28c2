"""Typed signatures of primitives for generated calls: (name, argument types, result type).

Argument type "nz" is a non-zero integer literal and "idx:N" an index literal below N, so that
safe-mode calls stay in their domains. The table reaches every family of primitives.
"""

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
]
