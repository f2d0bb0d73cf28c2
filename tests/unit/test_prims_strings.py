"""The strings family of the shared kernel, called directly."""

from __future__ import annotations

import inspect

import pytest
from prims_helpers import KERNEL, call, fault

from implementations.lispex.primitives import strings  # noqa: F401  (registers the family)
from implementations.lispex.primitives.table import rows
from implementations.lispex.values import NIL, Char, Str, Vector, list_to_python, sym


def S(text):
    return Str(text)


def chars(text):
    return [Char(ord(c)) for c in text]


def test_every_row_of_the_family_is_registered_with_a_fitting_signature():
    mine = [r for r in rows() if r.family == "strings"]
    assert len(mine) == 24
    for row in mine:
        fn, _ = KERNEL[row.name]
        sig = inspect.signature(fn)
        sig.bind(*range(row.min))
        sig.bind(*range(row.max if row.max >= 0 else row.min + 3))


def test_string_append():
    assert call("string-append").s == ""
    r = call("string-append", S("ab"), S(""), S("c\u00e9"))
    assert type(r) is Str and r.s == "abc\u00e9"
    one = S("x")
    assert call("string-append", one) is not one  # always a new string
    fault("E312", "string-append", S("a"), Char(98))


def test_string_length_counts_scalars():
    assert call("string-length", S("")) == 0
    assert call("string-length", S("h\u00e9\U0001F600")) == 3
    fault("E312", "string-length", sym("abc"))


def test_string_ref():
    assert call("string-ref", S("a\U0001F600c"), 1) == Char(0x1F600)
    fault("E311", "string-ref", S("abc"), 3)
    fault("E311", "string-ref", S("abc"), -1)
    fault("E311", "string-ref", S(""), 0)
    fault("E312", "string-ref", S("abc"), 1.0)
    fault("E312", "string-ref", 5, 0)


def test_substring():
    assert call("substring", S("hello"), 1, 3).s == "el"
    assert call("substring", S("hello"), 0, 5).s == "hello"
    assert call("substring", S("hello"), 5, 5).s == ""


@pytest.mark.parametrize("start,end", [(-1, 2), (3, 2), (0, 6), (6, 6)])
def test_substring_bounds_are_E311(start, end):
    fault("E311", "substring", S("hello"), start, end)


def test_substring_non_integer_bound_is_E312():
    fault("E312", "substring", S("hello"), 0, 2.0)
    fault("E312", "substring", S("hello"), S("0"), 2)


def test_string_copy():
    s = S("hello")
    copy = call("string-copy", s)
    assert copy.s == "hello" and copy is not s
    assert call("string-copy", s, 2).s == "llo"
    assert call("string-copy", s, 1, 4).s == "ell"
    fault("E311", "string-copy", s, 6)
    fault("E311", "string-copy", s, 3, 2)
    fault("E312", "string-copy", s, 1.5)


def test_make_string():
    assert call("make-string", 3).s == "   "
    assert call("make-string", 2, Char(0x3BB)).s == "\u03bb\u03bb"
    assert call("make-string", 0).s == ""
    fault("E312", "make-string", -1)
    fault("E312", "make-string", 2.0)
    fault("E312", "make-string", 2, S("a"))


def test_string_to_list():
    assert list_to_python(call("string->list", S("abc"))) == chars("abc")
    assert list_to_python(call("string->list", S("abc"), 1)) == chars("bc")
    assert list_to_python(call("string->list", S("abc"), 1, 2)) == chars("b")
    assert call("string->list", S("")) is NIL
    fault("E311", "string->list", S("abc"), 4)
    fault("E312", "string->list", Vector([], True))


def test_string_to_vector():
    v = call("string->vector", S("abc"), 0, 2)
    assert type(v) is Vector and v.items == chars("ab") and v.mutable
    fault("E311", "string->vector", S("abc"), 2, 1)


def test_vector_to_string():
    v = Vector(chars("hello"), False)
    assert call("vector->string", v).s == "hello"
    assert call("vector->string", v, 1, 3).s == "el"
    fault("E312", "vector->string", Vector([Char(97), 5], True))
    fault("E312", "vector->string", S("abc"))
    fault("E311", "vector->string", v, 0, 9)
    # only the selected part must be characters
    assert call("vector->string", Vector([Char(97), 5], True), 0, 1).s == "a"


def test_string_symbol_conversions():
    assert call("string->symbol", S("abc")) is sym("abc")
    s = call("symbol->string", sym("abc"))
    assert type(s) is Str and s.s == "abc"
    assert call("symbol->string", sym("abc")) is not s
    fault("E312", "string->symbol", sym("abc"))
    fault("E312", "symbol->string", S("abc"))


def test_case_mapping_is_full_unicode():
    assert call("string-upcase", S("stra\u00dfe")).s == "STRASSE"
    assert call("string-downcase", S("HeLLo \u0394")).s == "hello \u03b4"
    assert call("string-downcase", S("\u039f\u0394\u039f\u03a3")).s == "\u03bf\u03b4\u03bf\u03c2"
    assert call("string-foldcase", S("Stra\u00dfe")).s == "strasse"
    for name in ("string-upcase", "string-downcase", "string-foldcase"):
        fault("E312", name, Char(97))


def test_string_comparisons_chain_in_code_point_order():
    assert call("string=?", S("ab"), S("ab"), S("ab")) is True
    assert call("string=?", S("ab"), S("ab"), S("ac")) is False
    assert call("string<?", S("a"), S("ab"), S("b")) is True
    assert call("string<?", S("Z"), S("a")) is True
    assert call("string<?", S("b"), S("a")) is False
    assert call("string<=?", S("a"), S("a"), S("b")) is True
    assert call("string>?", S("b"), S("a"), S("")) is True
    assert call("string>=?", S("b"), S("b"), S("c")) is False
    assert call("string<?", S("\uffff"), S("\U00010000")) is True


def test_string_ci_comparisons_fold_case():
    assert call("string-ci=?", S("Hello"), S("hELLO"), S("hello")) is True
    assert call("string-ci=?", S("Stra\u00dfe"), S("STRASSE")) is True
    assert call("string-ci<?", S("apple"), S("Banana")) is True
    assert call("string-ci<=?", S("A"), S("a")) is True
    assert call("string-ci>?", S("b"), S("A")) is True
    assert call("string-ci>=?", S("a"), S("B")) is False


@pytest.mark.parametrize("name", [r.name for r in rows()
                                  if r.family == "strings" and r.name.endswith("?")])
def test_comparison_with_a_non_string_is_E312(name):
    fault("E312", name, S("a"), S("b"), Char(99))
