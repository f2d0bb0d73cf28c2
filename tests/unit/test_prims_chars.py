"""The chars family of the shared kernel, called directly."""

from __future__ import annotations

import inspect

import pytest
from prims_helpers import KERNEL, call, fault

from implementations.lispex.primitives import chars  # noqa: F401  (registers the family)
from implementations.lispex.primitives.table import rows
from implementations.lispex.values import Char, Str


def C(s):
    return Char(ord(s))


def test_every_row_of_the_family_is_registered_with_a_fitting_signature():
    mine = [r for r in rows() if r.family == "chars"]
    assert len(mine) == 20
    for row in mine:
        fn, _ = KERNEL[row.name]
        sig = inspect.signature(fn)
        sig.bind(*range(row.min))
        sig.bind(*range(row.max if row.max >= 0 else row.min + 3))


def test_char_integer_round_trip():
    assert call("char->integer", C("a")) == 97
    assert call("char->integer", Char(0x10FFFF)) == 0x10FFFF
    assert call("integer->char", 955) == Char(955)
    assert call("integer->char", 0) == Char(0)
    assert call("integer->char", 0x10FFFF) == Char(0x10FFFF)
    assert call("integer->char", 0xD7FF) == Char(0xD7FF)
    assert call("integer->char", 0xE000) == Char(0xE000)


@pytest.mark.parametrize("n", [-1, 0x110000, 0xD800, 0xDFFF, 65.0, True, Str("A")])
def test_integer_to_char_needs_a_unicode_scalar_value(n):
    fault("E312", "integer->char", n)


@pytest.mark.parametrize("name", [r.name for r in rows() if r.family == "chars"
                                  and r.name != "integer->char"])
def test_non_char_argument_is_E312(name):
    row = next(r for r in rows() if r.name == name)
    if row.min == 1:
        fault("E312", name, 97)
    else:
        fault("E312", name, C("a"), Str("a"))
        fault("E312", name, 97, C("a"))


def test_char_alphabetic_is_unicode_alphabetic():
    for ch in "aZ\u00e9\u03bb\u4e2d\u2160\u24b6\u0345":  # incl. Nl, So-with-Other_Alphabetic, Mn
        assert call("char-alphabetic?", C(ch)) is True, ch
    for ch in "1 _!\u0300\u0660":
        assert call("char-alphabetic?", C(ch)) is False, ch


def test_char_numeric_is_ascii_digits_only():
    for ch in "0123456789":
        assert call("char-numeric?", C(ch)) is True
    for ch in "a\u0660\u0967\uff11\u00bd":  # Arabic-Indic, Devanagari, fullwidth digits
        assert call("char-numeric?", C(ch)) is False, ch


def test_char_whitespace_is_the_white_space_property():
    for code in (0x20, 0x09, 0x0A, 0x0D, 0x0C, 0x0B, 0x85, 0xA0, 0x2003, 0x3000, 0x2028):
        assert call("char-whitespace?", Char(code)) is True, hex(code)
    for code in (0x61, 0x1C, 0x1F, 0x200B, 0xFEFF):
        assert call("char-whitespace?", Char(code)) is False, hex(code)


def test_char_case_predicates():
    assert call("char-upper-case?", C("A")) is True
    assert call("char-upper-case?", C("a")) is False
    assert call("char-upper-case?", C("\u0394")) is True
    assert call("char-lower-case?", C("a")) is True
    assert call("char-lower-case?", C("\u00df")) is True
    assert call("char-lower-case?", C("1")) is False
    assert call("char-upper-case?", C("1")) is False


def test_char_upcase_and_downcase_are_simple_mappings():
    assert call("char-upcase", C("a")) == C("A")
    assert call("char-upcase", C("\u03bb")) == C("\u039b")
    assert call("char-downcase", C("A")) == C("a")
    assert call("char-upcase", C("1")) == C("1")
    # The full mapping of ß is "SS" (two characters): the simple mapping leaves it alone.
    assert call("char-upcase", C("\u00df")) == C("\u00df")
    # The full lowercase of İ is two characters, too.
    # U+0130's full lowercase is two characters; its simple lowercase is U+0069.
    assert call("char-downcase", C("\u0130")) == C("i")
    # U+1F80's full uppercase is two characters; its simple uppercase is U+1F88.
    assert call("char-upcase", C("\u1f80")) == C("\u1f88")
    assert call("char-downcase", C("\u01c5")) == C("\u01c6")


def test_char_foldcase():
    assert call("char-foldcase", C("A")) == C("a")
    assert call("char-foldcase", C("\u03c2")) == C("\u03c3")  # final sigma folds to sigma
    assert call("char-foldcase", C("\u00df")) == C("\u00df")
    assert call("char-foldcase", C("\u1e9e")) == C("\u00df")  # capital sharp s
    assert call("char-foldcase", C("\u212a")) == C("k")  # Kelvin sign


def test_char_comparisons_chain_by_code_point():
    assert call("char=?", C("a"), C("a"), C("a")) is True
    assert call("char=?", C("a"), C("a"), C("b")) is False
    assert call("char<?", C("a"), C("b"), C("c")) is True
    assert call("char<?", C("a"), C("c"), C("b")) is False
    assert call("char<?", C("Z"), C("a")) is True
    assert call("char<=?", C("a"), C("a"), C("b")) is True
    assert call("char>?", C("c"), C("b"), C("a")) is True
    assert call("char>?", C("c"), C("c")) is False
    assert call("char>=?", C("c"), C("c"), C("a")) is True
    assert call("char>=?", C("a"), C("b")) is False


def test_all_comparison_arguments_are_type_checked():
    fault("E312", "char<?", C("b"), C("a"), 5)


def test_char_ci_comparisons_fold_case():
    assert call("char-ci=?", C("a"), C("A"), C("a")) is True
    assert call("char-ci=?", C("\u03c2"), C("\u03a3")) is True
    assert call("char-ci<?", C("a"), C("B"), C("c")) is True
    assert call("char-ci<?", C("Z"), C("a")) is False
    assert call("char-ci<=?", C("A"), C("a")) is True
    assert call("char-ci>?", C("b"), C("A")) is True
    assert call("char-ci>=?", C("a"), C("B")) is False
