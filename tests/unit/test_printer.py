"""write / display renderings, deep nesting and cyclic vectors."""

from __future__ import annotations

import time
from fractions import Fraction

import pytest

from implementations.lispex.printer import cycle_targets, display_string, write_string
from implementations.lispex.values import (
    NIL,
    NO_VALUES,
    Bytevector,
    Char,
    ErrorObject,
    Pair,
    Primitive,
    Procedure,
    Str,
    Values,
    Vector,
    list_from,
    sym,
)


def lst(*items):
    return list_from(items)


def prim(name):
    return Primitive(name, None, 0, 0, warning=None, guest=False, backend=False, family="x",
                     needs_context=False)


class Closure(Procedure):
    __slots__ = ("name",)

    def __init__(self, name):
        self.name = name


@pytest.mark.parametrize(
    ("value", "written"),
    [
        (True, "#t"),
        (False, "#f"),
        (NIL, "()"),
        (0, "0"),
        (-12, "-12"),
        (Fraction(-1, 3), "-1/3"),
        (3.0, "3.0"),
        (-0.0, "-0.0"),
        (1e-7, "0.0000001"),
        (sym("abc"), "abc"),
        (sym("list->vector"), "list->vector"),
        (lst(1, 2, 3), "(1 2 3)"),
        (Pair(1, 2), "(1 . 2)"),
        (list_from([1, 2], 3), "(1 2 . 3)"),
        (lst(sym("quote"), sym("a")), "(quote a)"),
        (lst(sym("quasiquote"), lst(sym("unquote"), sym("x"))), "(quasiquote (unquote x))"),
        (Vector([1, 2]), "#(1 2)"),
        (Vector([]), "#()"),
        (Vector([1, lst(2, Vector([3]))], mutable=False), "#(1 (2 #(3)))"),
        (Bytevector(bytes([1, 2, 3])), "#u8(1 2 3)"),
        (Bytevector(b""), "#u8()"),
        (lst(NIL, NIL), "(() ())"),
        (lst(lst(1, 2), lst(), lst(3)), "((1 2) () (3))"),
        (Pair(NIL, NIL), "(())"),
        (Pair(lst(1), Vector([2])), "((1) . #(2))"),
        (lst(True, False, 1.5, Fraction(1, 2)), "(#t #f 1.5 1/2)"),
    ],
)
def test_write_and_display_agree_on_non_text(value, written):
    assert write_string(value) == written
    assert display_string(value) == written


@pytest.mark.parametrize(
    ("text", "written"),
    [
        ("hello", '"hello"'),
        ("", '""'),
        ('say "hi"', '"say \\"hi\\""'),
        ("back\\slash", '"back\\\\slash"'),
        ("a\nb", '"a\\nb"'),
        ("a\tb\rc", '"a\\tb\\rc"'),
        ("\x00\x01\x1b\x7f", '"\\x00;\\x01;\\x1b;\\x7f;"'),
        ("\x07\x08\x0c", '"\\x07;\\x08;\\x0c;"'),
        ("αβ 日本 😀", '"αβ 日本 😀"'),
        ("\x80\xa0", '"\x80\xa0"'),
    ],
)
def test_strings(text, written):
    assert write_string(Str(text)) == written
    assert display_string(Str(text)) == text


@pytest.mark.parametrize(
    ("code", "written"),
    [
        (ord("a"), "#\\a"),
        (ord("Z"), "#\\Z"),
        (ord("("), "#\\("),
        (ord("\\"), "#\\\\"),
        (0x20, "#\\space"),
        (0x0A, "#\\newline"),
        (0x09, "#\\tab"),
        (0x0D, "#\\return"),
        (0x00, "#\\null"),
        (0x7F, "#\\delete"),
        (0x1B, "#\\escape"),
        (0x08, "#\\backspace"),
        (0x07, "#\\alarm"),
        (0x01, "#\\x01"),
        (0x0C, "#\\x0c"),
        (0x1F, "#\\x1f"),
        (0x3B1, "#\\α"),
        (0x1F600, "#\\😀"),
    ],
)
def test_chars(code, written):
    assert write_string(Char(code)) == written
    assert display_string(Char(code)) == chr(code)


def test_text_inside_structures():
    v = lst(Str("a b"), Char(ord("c")), Vector([Str('"'), Char(32)]))
    assert write_string(v) == '("a b" #\\c #("\\"" #\\space))'
    assert display_string(v) == '(a b c #("  ))'


def test_procedures():
    assert write_string(prim("car")) == "#<procedure car>"
    assert write_string(Closure("fact")) == "#<procedure fact>"
    assert write_string(Closure(None)) == "#<procedure>"
    assert write_string(Closure("")) == "#<procedure>"
    assert write_string(Closure(sym("loop"))) == "#<procedure loop>"
    assert display_string(lst(prim("+"))) == "(#<procedure +>)"


def test_error_objects():
    e = ErrorObject("E330", Str('boom "x"'), lst(1, 2))
    assert write_string(e) == '#<error-object "boom \\"x\\"">'
    assert display_string(e) == '#<error-object "boom \\"x\\"">'
    assert write_string(lst(e)) == '(#<error-object "boom \\"x\\"">)'


def test_values_are_never_printed():
    for v in (NO_VALUES, Values((1, 2))):
        with pytest.raises(TypeError):
            write_string(v)
        with pytest.raises(TypeError):
            display_string(lst(v))


def test_deep_nesting_is_iterative():
    car_deep = NIL
    for _ in range(100_000):
        car_deep = Pair(car_deep, NIL)
    text = write_string(car_deep)
    assert text == "(" * 100_000 + "()" + ")" * 100_000
    vec_deep = 1
    for _ in range(100_000):
        vec_deep = Vector([vec_deep])
    assert display_string(vec_deep) == "#(" * 100_000 + "1" + ")" * 100_000
    long_list = list_from(range(100_000))
    assert write_string(long_list) == "(" + " ".join(map(str, range(100_000))) + ")"


def test_self_referential_vector():
    v = Vector([1, None])
    v.items[1] = v
    assert write_string(v) == "#0=#(1 #0#)"
    assert display_string(v) == "#0=#(1 #0#)"


def test_cycle_through_pairs_and_vectors():
    v = Vector([None])
    p = lst(Str("x"), v)
    v.items[0] = p
    assert write_string(p) == '#0=("x" #(#0#))'
    assert display_string(v) == "#0=#((x #0#))"
    assert write_string(lst(1, p)) == '(1 #0=("x" #(#0#)))'


def test_cycle_in_cdr_position_uses_dotted_label():
    v = Vector([None])
    tail = Pair(2, Pair(v, NIL))
    whole = Pair(1, tail)
    v.items[0] = tail
    # tail is re-entered while inside it, so it is labelled where it first appears, as a cdr.
    assert write_string(whole) == "(1 . #0=(2 #(#0#)))"


def test_only_cycle_members_are_labelled():
    shared = Vector([1, 2])
    outer = Vector([shared, shared])
    assert write_string(outer) == "#(#(1 2) #(1 2))"
    v = Vector([None, None])
    v.items[0] = v
    v.items[1] = shared
    w = Vector([v, v, shared])
    assert write_string(w) == "#(#0=#(#0# #(1 2)) #0# #(1 2))"
    assert cycle_targets(w) == {id(v)}


def test_two_cycles_get_numbered_in_print_order():
    a = Vector([None])
    b = Vector([None])
    a.items[0] = a
    b.items[0] = b
    assert write_string(lst(a, b, a)) == "(#0=#(#0#) #1=#(#1#) #0#)"


def test_mutual_cycle():
    a = Vector([1, None])
    b = Vector([2, a])
    a.items[1] = b
    assert write_string(a) == "#0=#(1 #(2 #0#))"
    assert write_string(b) == "#0=#(2 #(1 #0#))"


def test_long_cyclic_structure_is_iterative():
    v = Vector([None])
    deep = v
    for _ in range(50_000):
        deep = Pair(deep, NIL)
    v.items[0] = deep
    text = write_string(v)
    assert text.startswith("#0=#(" + "(" * 50_000 + "#0#)")


def test_atoms_are_fast():
    items = [1, Str("abc"), sym("x"), 2.5, True, Char(97)]
    start = time.process_time()  # CPU time: a loaded machine must not fail it
    for _ in range(20_000):
        for x in items:
            write_string(x)
            display_string(x)
    assert time.process_time() - start < 2.0


def test_huge_numbers_print():
    assert write_string(10**5000) == "1" + "0" * 5000
    assert display_string(lst(-(10**5000))) == "(-1" + "0" * 5000 + ")"
    assert write_string(Fraction(1, 10**5000)) == "1/1" + "0" * 5000
