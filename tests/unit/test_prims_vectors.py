"""The vectors family of the shared kernel, called directly."""

from __future__ import annotations

import inspect

from prims_helpers import KERNEL, call, fault

from implementations.lispex.primitives import vectors  # noqa: F401  (registers the family)
from implementations.lispex.primitives.table import rows
from implementations.lispex.values import (
    NIL,
    NO_VALUES,
    Bytevector,
    Str,
    Vector,
    list_to_python,
    sym,
)


def test_every_row_of_the_family_is_registered_with_a_fitting_signature():
    mine = [r for r in rows() if r.family == "vectors"]
    assert len(mine) == 11
    for row in mine:
        fn, _ = KERNEL[row.name]
        sig = inspect.signature(fn)
        sig.bind(*range(row.min))
        sig.bind(*range(row.max if row.max >= 0 else row.min + 3))


def test_vector_is_new_and_mutable():
    v = call("vector", 1, sym("a"))
    assert type(v) is Vector and v.items == [1, sym("a")] and v.mutable
    assert call("vector").items == []


def test_make_vector():
    assert call("make-vector", 3).items == [0, 0, 0]
    assert call("make-vector", 2, Str("x")).items[1].s == "x"
    assert call("make-vector", 0).items == []
    assert call("make-vector", 1).mutable
    for k in (-1, 2.0, Str("2")):
        fault("E312", "make-vector", k)


def test_vector_ref():
    v = Vector([10, 20, 30], False)
    assert call("vector-ref", v, 0) == 10
    assert call("vector-ref", v, 2) == 30
    fault("E311", "vector-ref", v, 3)
    fault("E311", "vector-ref", v, -1)
    fault("E312", "vector-ref", v, 1.0)
    fault("E312", "vector-ref", NIL, 0)


def test_vector_set():
    v = call("vector", 1, 2)
    assert call("vector-set!", v, 1, sym("z")) is NO_VALUES
    assert v.items == [1, sym("z")]
    fault("E311", "vector-set!", v, 2, 0)
    fault("E312", "vector-set!", v, True, 0)
    fault("E312", "vector-set!", Str("ab"), 0, 0)


def test_vector_set_on_a_literal_vector_is_E312():
    literal = Vector([1, 2], False)
    fault("E312", "vector-set!", literal, 0, 9)
    assert literal.items == [1, 2]


def test_vector_length():
    assert call("vector-length", Vector([1, 2, 3], True)) == 3
    fault("E312", "vector-length", Bytevector(b"ab"))


def test_vector_to_list():
    v = Vector([1, 2, 3], True)
    assert list_to_python(call("vector->list", v)) == [1, 2, 3]
    assert list_to_python(call("vector->list", v, 1)) == [2, 3]
    assert call("vector->list", v, 1, 1) is NIL
    fault("E311", "vector->list", v, 2, 4)
    fault("E311", "vector->list", v, -1)
    fault("E312", "vector->list", v, 0.0)
    fault("E312", "vector->list", NIL)


def test_vector_copy_is_a_new_mutable_vector():
    literal = Vector([1, 2, 3], False)
    copy = call("vector-copy", literal)
    assert copy.items == [1, 2, 3] and copy.mutable and copy.items is not literal.items
    assert call("vector-copy", literal, 1).items == [2, 3]
    assert call("vector-copy", literal, 0, 2).items == [1, 2]
    fault("E311", "vector-copy", literal, 2, 1)
    fault("E312", "vector-copy", Str("abc"))


def test_bytevector():
    bv = call("bytevector", 1, 255, 0)
    assert type(bv) is Bytevector and bv.data == bytes([1, 255, 0])
    assert call("bytevector").data == b""
    for bad in (256, -1, 1.0, True, Str("a")):
        fault("E312", "bytevector", 1, bad)


def test_make_bytevector():
    assert call("make-bytevector", 3).data == bytes(3)
    assert call("make-bytevector", 2, 7).data == bytes([7, 7])
    fault("E312", "make-bytevector", -1)
    fault("E312", "make-bytevector", 2, 256)
    fault("E312", "make-bytevector", 2, 1.5)


def test_bytevector_length_and_ref():
    bv = Bytevector(bytes([5, 6, 7]))
    assert call("bytevector-length", bv) == 3
    assert call("bytevector-u8-ref", bv, 2) == 7
    fault("E311", "bytevector-u8-ref", bv, 3)
    fault("E312", "bytevector-u8-ref", bv, 1.0)
    fault("E312", "bytevector-u8-ref", Vector([1], True), 0)
    fault("E312", "bytevector-length", Vector([1], True))
