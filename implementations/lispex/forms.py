"""Word lists the normalizer enforces (§3 of the language reference)."""

RESERVED = frozenset("""
quote quasiquote unquote unquote-splicing lambda if begin set! define let let* letrec cond case
guard and or when unless do values call-with-values call/cc dynamic-wind module export import
""".split())

# Reserved words that name procedures: usable as values, never bindable.
PROCEDURE_KEYWORDS = frozenset(["values", "call-with-values", "call/cc", "dynamic-wind"])

SYNTACTIC_KEYWORDS = RESERVED - PROCEDURE_KEYWORDS

FORBIDDEN = frozenset("""
define-syntax syntax-rules syntax-case let-syntax letrec-syntax define-library include include-ci
include-library-declarations define-values let-values let*-values
""".split())

CORE_FORMS = ("literal", "variable", "quote", "if", "lambda", "begin", "set!", "define", "let",
              "letrec", "values", "application", "guard")
DERIVED_FORMS = ("quasiquote", "let*", "named-let", "cond", "case", "and", "or", "when", "unless",
                 "do", "function-define", "internal-define")

# Kernel primitives the normalizer's expansions call directly (never through a global).
INTRINSICS = ("cons", "append", "list->vector", "eqv?")
