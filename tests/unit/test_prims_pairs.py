"""The pairs/lists family of the shared kernel, called directly."""

from __future__ import annotations

import inspect
from fractions import Fraction

import pytest
from prims_helpers import KERNEL, call, fault

from implementations.lispex.primitives import pairs
from implementations.lispex.primitives.table import rows
from implementations.lispex.values import (
    NIL,
    Char,
    Pair,
    Str,
    Vector,
    list_from,
    list_to_python,
    sym,
)


def L(*items):
    return list_from(items)


def py(lst):
    return list_to_python(lst)


def cyclic(*items):
    lst = list_from(items)
    last = lst
    while last.cdr is not NIL:
        last = last.cdr
    last.cdr = lst
    return lst


# --- registration ----------------------------------------------------------------------------


def test_every_kernel_row_of_the_family_is_registered_with_a_fitting_signature():
    mine = [r for r in rows() if r.family == "pairs" and not r.alias_of and not r.backend]
    assert len(mine) == 49
    for row in mine:
        assert row.name in KERNEL, row.name
        fn, _ = KERNEL[row.name]
        sig = inspect.signature(fn)
        sig.bind(*range(row.min))
        sig.bind(*range(row.max if row.max >= 0 else row.min + 5))
        if row.max >= 0:
            with pytest.raises(TypeError):
                sig.bind(*range(row.max + 1))


def test_cxr_names_are_the_28_combinations():
    assert len(pairs.CXR_NAMES) == 28
    assert {"caar", "cadr", "cddddr", "cadadr"} <= set(pairs.CXR_NAMES)


# --- pairs -----------------------------------------------------------------------------------


def test_cons_car_cdr():
    p = call("cons", 1, 2)
    assert type(p) is Pair and p.car == 1 and p.cdr == 2
    assert call("car", p) == 1
    assert call("cdr", p) == 2


@pytest.mark.parametrize("name", ["car", "cdr", "list-first", "list-rest"])
@pytest.mark.parametrize("value", [NIL, 5, Str("ab")])
def test_car_cdr_of_a_non_pair_is_E310(name, value):
    err = fault("E310", name, value)
    assert err.irritants == (value,)


def test_list_first_and_list_rest_are_car_and_cdr():
    assert call("list-first", L(1, 2)) == 1
    assert py(call("list-rest", L(1, 2))) == [2]


def test_cxr_apply_right_to_left():
    lst = L(1, L(2, 3), 4, 5)
    assert call("cadr", lst).car == 2
    assert call("caadr", lst) == 2
    assert py(call("cdadr", lst)) == [3]
    assert call("caddr", lst) == 4
    assert call("cadddr", lst) == 5
    assert py(call("cddddr", lst)) == []
    assert call("caar", L(L(7))) == 7


def test_cxr_intermediate_non_pair_is_E310_naming_the_primitive():
    arg = L(1)
    err = fault("E310", "cadr", arg)
    assert err.irritants == (arg,)  # the irritant is the argument as given
    fault("E310", "caar", L(1, 2))
    fault("E310", "cddddr", L(1, 2, 3))
    fault("E310", "cadr", 5)


# --- building --------------------------------------------------------------------------------


def test_list():
    assert call("list") is NIL
    assert py(call("list", 1, 2, 3)) == [1, 2, 3]


def test_length():
    assert call("length", NIL) == 0
    assert call("length", L(1, 2, 3)) == 3
    assert call("length", list_from(range(1_000_000))) == 1_000_000


@pytest.mark.parametrize("value", [5, Str("ab"), Pair(1, 2), Pair(1, Pair(2, 3))])
def test_length_of_a_non_list_or_improper_list_is_E310(value):
    fault("E310", "length", value)


def test_length_of_a_cyclic_list_is_E310():
    fault("E310", "length", cyclic(1))
    fault("E310", "length", cyclic(1, 2, 3))


def test_append():
    assert call("append") is NIL
    assert py(call("append", L(1), L(2, 3), NIL, L(4))) == [1, 2, 3, 4]
    assert call("append", 5) == 5
    tail = L(3)
    result = call("append", L(1, 2), tail)
    assert result.cdr.cdr is tail  # the last argument is shared, not copied
    improper = call("append", L(1), 2)
    assert improper.car == 1 and improper.cdr == 2


def test_append_copies_the_earlier_lists():
    first = L(1, 2)
    result = call("append", first, NIL)
    assert py(result) == [1, 2] and result is not first


@pytest.mark.parametrize("bad", [5, Pair(1, 2)])
def test_append_earlier_argument_not_a_proper_list_is_E310(bad):
    fault("E310", "append", bad, L(1))
    fault("E310", "append", L(1), bad, L(2))


def test_reverse():
    assert call("reverse", NIL) is NIL
    assert py(call("reverse", L(1, 2, 3))) == [3, 2, 1]


def test_reverse_of_a_non_list_is_E312_and_of_an_improper_list_E310():
    fault("E312", "reverse", 5)
    fault("E310", "reverse", Pair(1, 2))
    fault("E310", "reverse", cyclic(1, 2))


def test_list_tail():
    lst = L(1, 2, 3)
    assert call("list-tail", lst, 0) is lst
    assert py(call("list-tail", lst, 2)) == [3]
    assert call("list-tail", lst, 3) is NIL


def test_list_tail_past_the_end_is_E311():
    err = fault("E311", "list-tail", L(1, 2), 3)
    assert err.irritants[0] == 3


@pytest.mark.parametrize("name", ["list-tail", "list-ref"])
@pytest.mark.parametrize("k", [-1, 1.0, True, Str("1")])
def test_list_index_must_be_an_exact_non_negative_integer(name, k):
    fault("E312", name, L(1, 2), k)


def test_list_ref():
    assert call("list-ref", L(1, 2, 3), 0) == 1
    assert call("list-ref", L(1, 2, 3), 2) == 3


def test_list_ref_past_the_end_is_E311():
    fault("E311", "list-ref", L(1, 2, 3), 3)
    fault("E311", "list-ref", NIL, 0)
    fault("E311", "list-ref", Pair(1, 2), 1)


def test_list_copy():
    lst = L(1, 2, 3)
    copy = call("list-copy", lst)
    assert py(copy) == [1, 2, 3] and copy is not lst and copy.cdr is not lst.cdr
    improper = call("list-copy", Pair(1, Pair(2, 3)))
    assert improper.car == 1 and improper.cdr.car == 2 and improper.cdr.cdr == 3
    assert call("list-copy", NIL) is NIL
    assert call("list-copy", 5) == 5


def test_list_copy_of_a_cyclic_list_is_E310():
    fault("E310", "list-copy", cyclic(1, 2))


def test_make_list():
    assert py(call("make-list", 3)) == [0, 0, 0]
    assert py(call("make-list", 2, sym("x"))) == [sym("x"), sym("x")]
    assert call("make-list", 0) is NIL


@pytest.mark.parametrize("k", [-1, 2.0, Fraction(1, 2), Str("3")])
def test_make_list_size_must_be_an_exact_non_negative_integer(k):
    fault("E312", "make-list", k)


# --- searching -------------------------------------------------------------------------------


def test_memq_memv_return_the_sublist_or_false():
    a = sym("a")
    lst = L(sym("x"), a, sym("b"))
    assert call("memq", a, lst) is lst.cdr
    assert call("memv", 2, L(1, 2, 3)).car == 2
    assert call("memv", 2.0, L(1, 2, 3)) is False  # eqv is exactness-sensitive
    assert call("memq", sym("zz"), lst) is False
    assert call("memv", 1, NIL) is False


def test_memv_compares_chars_by_code():
    assert call("memv", Char(97), L(Char(98), Char(97))) is not False


def test_member_uses_equal():
    lst = L(L(1), Str("ab"), 3)
    assert call("member", Str("ab"), lst) is lst.cdr
    assert call("member", L(1), lst) is lst
    assert call("memv", Str("ab"), lst) is False


@pytest.mark.parametrize("name", ["memq", "memv", "member"])
def test_member_on_an_improper_list_before_a_match_is_E310(name):
    fault("E310", name, 9, Pair(1, 2))
    fault("E310", name, 9, 5)
    fault("E310", name, 9, cyclic(1, 2, 3))
    assert call(name, 1, Pair(1, 2)) is not False  # matched before the tail


def test_assq_assv_assoc():
    entry = L(sym("b"), 2)
    alist = L(L(sym("a"), 1), entry)
    assert call("assq", sym("b"), alist) is entry
    assert call("assv", 2, L(Pair(1, 10), Pair(2, 20))).cdr == 20
    assert call("assv", 2.0, L(Pair(2, 20))) is False
    assert call("assq", sym("c"), alist) is False
    assert call("assoc", L(1), L(Pair(L(1), sym("one")))).cdr is sym("one")
    assert call("assv", L(1), L(Pair(L(1), sym("one")))) is False


@pytest.mark.parametrize("name", ["assq", "assv", "assoc"])
def test_assoc_element_not_a_pair_is_E310(name):
    err = fault("E310", name, 9, L(Pair(1, 2), 5))
    assert err.irritants == (5,)
    fault("E310", name, 9, Pair(Pair(1, 2), 3))
    fault("E310", name, 9, cyclic(Pair(1, 2), Pair(3, 4)))


# --- conversions -----------------------------------------------------------------------------


def test_list_to_string():
    s = call("list->string", L(Char(104), Char(0x1F600)))
    assert type(s) is Str and s.s == "h\U0001F600"
    assert call("list->string", NIL).s == ""


def test_list_to_string_errors():
    fault("E312", "list->string", L(Char(104), 5))
    fault("E310", "list->string", Pair(Char(104), Char(105)))
    fault("E310", "list->string", 5)


def test_list_to_vector():
    v = call("list->vector", L(1, 2))
    assert type(v) is Vector and v.items == [1, 2] and v.mutable
    fault("E310", "list->vector", Pair(1, 2))
