"""Vectors and bytevectors.

Vectors built at run time are mutable; quoted literal vectors are not (``vector-set!`` on one is
E312). Bytevectors are always immutable: there is no ``bytevector-u8-set!``.
"""

from __future__ import annotations

from typing import Any

from ..values import NO_VALUES, Bytevector, Values, Vector, list_from
from .errors_util import (
    allocation_length,
    exact_integer,
    out_of_range,
    start_end,
    wrong_type,
)
from .table import define


def _vector(name: str, x: Any) -> Vector:
    if type(x) is not Vector:
        wrong_type(name, "a vector", x)
    return x


def _bytevector(name: str, x: Any) -> Bytevector:
    if type(x) is not Bytevector:
        wrong_type(name, "a bytevector", x)
    return x


def _index(name: str, k: Any, obj: Any, length: int) -> int:
    exact_integer(name, k)
    if not 0 <= k < length:
        out_of_range(name, k, obj)
    return k


def _byte(name: str, x: Any) -> int:
    if type(x) is not int or not 0 <= x <= 255:
        wrong_type(name, "a byte (an exact integer from 0 to 255)", x)
    return x


# --- vectors ---------------------------------------------------------------------------------


@define("vector")
def vector(*items: Any) -> Vector:
    return Vector(list(items), True)


@define("make-vector")
def make_vector(k: Any, fill: Any = 0) -> Vector:
    allocation_length("make-vector", k)
    return Vector([fill] * k, True)


@define("vector-ref")
def vector_ref(v: Any, k: Any) -> Any:
    items = _vector("vector-ref", v).items
    return items[_index("vector-ref", k, v, len(items))]


@define("vector-set!")
def vector_set(v: Any, k: Any, x: Any) -> Values:
    _vector("vector-set!", v)
    if not v.mutable:
        wrong_type("vector-set!", "a mutable vector (a quoted vector is immutable)", v)
    v.items[_index("vector-set!", k, v, len(v.items))] = x
    return NO_VALUES


@define("vector-length")
def vector_length(v: Any) -> int:
    return len(_vector("vector-length", v).items)


@define("vector->list")
def vector_to_list(v: Any, *opt: Any) -> Any:
    items = _vector("vector->list", v).items
    start, end = start_end("vector->list", v, len(items), opt)
    return list_from(items[start:end])


@define("vector-copy")
def vector_copy(v: Any, *opt: Any) -> Vector:
    items = _vector("vector-copy", v).items
    start, end = start_end("vector-copy", v, len(items), opt)
    return Vector(items[start:end], True)


# --- bytevectors -----------------------------------------------------------------------------


@define("bytevector")
def bytevector(*items: Any) -> Bytevector:
    return Bytevector(bytes([_byte("bytevector", b) for b in items]))


@define("make-bytevector")
def make_bytevector(k: Any, fill: Any = 0) -> Bytevector:
    allocation_length("make-bytevector", k)
    return Bytevector(bytes([_byte("make-bytevector", fill)]) * k)


@define("bytevector-length")
def bytevector_length(bv: Any) -> int:
    return len(_bytevector("bytevector-length", bv).data)


@define("bytevector-u8-ref")
def bytevector_u8_ref(bv: Any, k: Any) -> int:
    data = _bytevector("bytevector-u8-ref", bv).data
    return data[_index("bytevector-u8-ref", k, bv, len(data))]
