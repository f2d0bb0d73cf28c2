"""Reserved and forbidden names (LISPEX.md section 3)."""

RESERVED = frozenset("""
quote quasiquote unquote unquote-splicing lambda if begin set! define let let* letrec cond case
guard and or when unless do values call-with-values call/cc dynamic-wind module export import
""".split())

PROCEDURE_KEYWORDS = frozenset({"values", "call-with-values", "call/cc", "dynamic-wind"})
SYNTACTIC_KEYWORDS = RESERVED - PROCEDURE_KEYWORDS

FORBIDDEN = frozenset("""
define-syntax syntax-rules syntax-case let-syntax letrec-syntax define-library include
include-ci include-library-declarations define-values let-values let*-values
""".split())

INTRINSICS = ("cons", "append", "list->vector", "eqv?")
