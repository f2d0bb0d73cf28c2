"""eqv? / eq? / equal? semantics (reference §7)."""

from __future__ import annotations

from fractions import Fraction

from hypothesis import given
from hypothesis import strategies as st

from implementations.lispex.equality import eq, equal, eqv
from implementations.lispex.values import (
    NIL,
    Bytevector,
    Char,
    ErrorObject,
    Pair,
    Str,
    Vector,
    list_from,
    sym,
)


def lst(*items):
    return list_from(items)


def test_eqv_numbers_are_exactness_sensitive():
    assert not eqv(2, 2.0)
    assert not eqv(2.0, 2)
    assert eqv(Fraction(1, 2), Fraction(2, 4))
    assert not eqv(0.0, -0.0)
    assert eqv(-0.0, -0.0)
    assert eqv(1.5, 1.5)
    assert eqv(10**40, 10**40)
    assert not eqv(Fraction(1, 2), 0.5)


def test_eqv_booleans_are_not_numbers():
    assert not eqv(True, 1)
    assert not eqv(1, True)
    assert not eqv(False, 0)
    assert eqv(True, True) and eqv(False, False)
    assert not eqv(True, False)


def test_eqv_chars_symbols_nil():
    assert eqv(Char(97), Char(97))
    assert not eqv(Char(97), Char(98))
    assert not eqv(Char(97), 97)
    assert eqv(sym("a"), sym("a"))
    assert not eqv(sym("a"), sym("b"))
    assert eqv(NIL, NIL)
    assert not eqv(NIL, False)


def test_eqv_identity_for_containers_and_strings():
    s = Str("x")
    assert eqv(s, s) and not eqv(s, Str("x"))
    p = Pair(1, NIL)
    assert eqv(p, p) and not eqv(p, Pair(1, NIL))
    v = Vector([1])
    assert eqv(v, v) and not eqv(v, Vector([1]))
    b = Bytevector(b"\x01")
    assert eqv(b, b) and not eqv(b, Bytevector(b"\x01"))
    e = ErrorObject("E330", Str("m"), NIL)
    assert eqv(e, e) and not eqv(e, ErrorObject("E330", Str("m"), NIL))


def test_eq_is_eqv():
    assert eq(Fraction(1, 2), Fraction(2, 4))
    assert not eq(2, 2.0)
    assert eq(10**40, 10**40)


def test_equal_structural():
    assert equal(lst(1, 2, lst(3, Str("x"))), lst(1, 2, lst(3, Str("x"))))
    assert not equal(lst(1, 2), lst(1, 2, 3))
    assert not equal(lst(1, 2, 3), lst(1, 2))
    assert equal(Pair(1, 2), Pair(1, 2))
    assert not equal(Pair(1, 2), Pair(1, 3))
    assert equal(Str("abc"), Str("abc"))
    assert not equal(Str("abc"), Str("abd"))
    assert equal(Vector([1, Vector([2])]), Vector([1, Vector([2])], mutable=False))
    assert not equal(Vector([1, 2]), Vector([1]))
    assert equal(Bytevector(b"\x01\x02"), Bytevector(b"\x01\x02"))
    assert not equal(Bytevector(b"\x01"), Bytevector(b"\x02"))
    assert not equal(2, 2.0)
    assert equal(Fraction(1, 2), Fraction(1, 2))
    assert not equal(lst(1), Vector([1]))
    assert not equal(Str("a"), sym("a"))
    assert not equal(Str("a"), Char(97))
    assert not equal(NIL, Vector([]))
    assert equal(lst(Bytevector(b"a"), Str("b")), lst(Bytevector(b"a"), Str("b")))
    assert not equal(lst(0.0), lst(-0.0))


def test_equal_long_and_deep_lists_are_iterative():
    a = list_from(range(200_000))
    b = list_from(range(200_000))
    assert equal(a, b)
    da, db = NIL, NIL
    for _ in range(100_000):
        da, db = Pair(da, NIL), Pair(db, NIL)
    assert equal(da, db)
    assert not equal(da, Pair(da, NIL))


def test_equal_cyclic_vectors_terminate():
    a = Vector([1, None])
    a.items[1] = a
    b = Vector([1, None])
    b.items[1] = b
    assert equal(a, b)
    assert equal(a, a)
    c = Vector([2, None])
    c.items[1] = c
    assert not equal(a, c)
    # Unrolled once: #(1 #(1 <back to outer>)) is bisimilar to a.
    d = Vector([1, None])
    d.items[1] = Vector([1, d])
    assert equal(a, d)
    # A cycle through pairs and vectors.
    v1, v2 = Vector([None]), Vector([None])
    p1, p2 = lst(1, v1), lst(1, v2)
    v1.items[0], v2.items[0] = p1, p2
    assert equal(p1, p2)


atoms = st.one_of(
    st.integers(),
    st.fractions().map(lambda q: q.numerator if q.denominator == 1 else q),
    st.floats(allow_nan=False, allow_infinity=False),
    st.booleans(),
    st.text(max_size=5).map(Str),
    st.sampled_from(["a", "b", "list"]).map(sym),
    st.integers(min_value=0, max_value=0x10FFFF).map(Char),
    st.binary(max_size=4).map(Bytevector),
    st.just(NIL),
)
values = st.recursive(
    atoms,
    lambda inner: st.one_of(
        st.lists(inner, max_size=4).map(list_from),
        st.tuples(inner, inner).map(lambda t: Pair(*t)),
        st.lists(inner, max_size=4).map(Vector),
    ),
    max_leaves=20,
)


@given(values)
def test_equal_is_reflexive(v):
    assert equal(v, v)


def _copy(v):
    t = type(v)
    if t is Pair:
        return Pair(_copy(v.car), _copy(v.cdr))
    if t is Vector:
        return Vector([_copy(x) for x in v.items])
    if t is Str:
        return Str(v.s)
    if t is Bytevector:
        return Bytevector(bytes(v.data))
    return v


@given(values)
def test_equal_holds_for_structural_copies(v):
    assert equal(v, _copy(v))
    assert equal(_copy(v), v)


@given(values, values)
def test_equal_is_symmetric(a, b):
    assert equal(a, b) == equal(b, a)


@given(st.one_of(st.integers(), st.fractions()), st.floats(allow_nan=False, allow_infinity=False))
def test_eqv_never_mixes_exactness(exact, inexact):
    assert not eqv(exact, inexact)
    assert not eqv(inexact, exact)
    assert not equal(exact, inexact)


@given(st.floats(allow_nan=False, allow_infinity=False))
def test_eqv_floats_by_value_and_sign(x):
    assert eqv(x, float(repr(x)))
    assert not eqv(x, -x)  # distinct values, or 0.0 vs -0.0
