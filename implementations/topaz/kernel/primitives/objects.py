"""Vectors, bytevectors, equality and type predicates, booleans, error objects."""

from __future__ import annotations

from itertools import pairwise
from typing import Any

from ..equality import equal, eqv
from ..errors import LispexError
from ..values import (
    Bytevector,
    ErrorObject,
    Procedure,
    Str,
    Symbol,
    Vector,
    list_from,
    list_to_python,
)

MAX_LENGTH = 10_000_000


def vector_arg(name: str, v: Any) -> Vector:
    if type(v) is not Vector:
        raise LispexError("E312", f"{name}: expected a vector", (v,))
    return v


def _index(name: str, k: Any, n: int, container: Any) -> int:
    if type(k) is not int:
        raise LispexError("E312", f"{name}: expected an exact integer", (k,))
    if not 0 <= k < n:
        raise LispexError("E311", f"{name}: index out of range", (k, container))
    return k


def _range(name: str, n: int, args: tuple, container: Any) -> tuple[int, int]:
    start = args[0] if len(args) > 0 else 0
    end = args[1] if len(args) > 1 else n
    for k in (start, end):
        if type(k) is not int:
            raise LispexError("E312", f"{name}: expected an exact integer", (k,))
    if not 0 <= start <= n:
        raise LispexError("E311", f"{name}: index out of range", (start, container))
    if not start <= end <= n:
        raise LispexError("E311", f"{name}: index out of range", (end, container))
    return start, end


def _length(name: str, k: Any) -> int:
    if type(k) is not int or k < 0:
        raise LispexError("E312", f"{name}: expected an exact non-negative integer", (k,))
    if k > MAX_LENGTH:
        raise LispexError("E311", f"{name}: length {k} is larger than the largest supported "
                          f"length, {MAX_LENGTH}", (k,))
    return k


def p_vector_ref(v: Any, k: Any) -> Any:
    vec = vector_arg("vector-ref", v)
    return vec.items[_index("vector-ref", k, len(vec.items), v)]


def p_vector_set(v: Any, k: Any, x: Any) -> Any:
    from ..values import NO_VALUES

    vec = vector_arg("vector-set!", v)
    if not vec.mutable:
        raise LispexError("E312", "vector-set!: expected a mutable vector (a quoted vector is "
                          "immutable)", (v,))
    vec.items[_index("vector-set!", k, len(vec.items), v)] = x
    return NO_VALUES


def p_make_vector(k: Any, fill: Any = 0) -> Any:
    return Vector([fill] * _length("make-vector", k))


def p_vector_to_list(v: Any, *args: Any) -> Any:
    vec = vector_arg("vector->list", v)
    a, b = _range("vector->list", len(vec.items), args, v)
    return list_from(vec.items[a:b])


def p_vector_copy(v: Any, *args: Any) -> Any:
    vec = vector_arg("vector-copy", v)
    a, b = _range("vector-copy", len(vec.items), args, v)
    return Vector(vec.items[a:b])


def _byte(name: str, x: Any) -> int:
    if type(x) is not int or not 0 <= x <= 255:
        raise LispexError("E312", f"{name}: expected a byte (an exact integer from 0 to 255)",
                          (x,))
    return x


def p_bytevector(*args: Any) -> Any:
    return Bytevector(bytes(_byte("bytevector", x) for x in args))


def p_make_bytevector(k: Any, fill: Any = 0) -> Any:
    n = _length("make-bytevector", k)
    return Bytevector(bytes([_byte("make-bytevector", fill)]) * n)


def p_bytevector_length(b: Any) -> int:
    if type(b) is not Bytevector:
        raise LispexError("E312", "bytevector-length: expected a bytevector", (b,))
    return len(b.data)


def p_bytevector_u8_ref(b: Any, k: Any) -> int:
    if type(b) is not Bytevector:
        raise LispexError("E312", "bytevector-u8-ref: expected a bytevector", (b,))
    return b.data[_index("bytevector-u8-ref", k, len(b.data), b)]


def _all_same(name: str, kind: type, what: str) -> Any:
    def fn(*args: Any) -> bool:
        for x in args:
            if type(x) is not kind:
                raise LispexError("E312", f"{name}: expected {what}", (x,))
        return all(a is b for a, b in pairwise(args))
    return fn


def p_error(message: Any, *irritants: Any) -> Any:
    if type(message) is not Str:
        raise LispexError("E312", "error: expected a string as the message", (message,))
    # the back ends' condition code turns the fault into the error object handlers see
    raise LispexError("E330", message.s, irritants)


def p_error_message(e: Any) -> Any:
    if type(e) is not ErrorObject:
        raise LispexError("E312", "error-object-message: expected an error object", (e,))
    return e.message


def p_error_irritants(e: Any) -> Any:
    if type(e) is not ErrorObject:
        raise LispexError("E312", "error-object-irritants: expected an error object", (e,))
    return e.irritants


IMPLS = {
    "vector": lambda *xs: Vector(list(xs)), "make-vector": p_make_vector,
    "vector-ref": p_vector_ref, "vector-set!": p_vector_set,
    "vector-length": lambda v: len(vector_arg("vector-length", v).items),
    "vector->list": p_vector_to_list, "vector-copy": p_vector_copy,
    "bytevector": p_bytevector, "make-bytevector": p_make_bytevector,
    "bytevector-length": p_bytevector_length, "bytevector-u8-ref": p_bytevector_u8_ref,
    "vector?": lambda x: type(x) is Vector, "bytevector?": lambda x: type(x) is Bytevector,
    "procedure?": lambda x: isinstance(x, Procedure),
    "boolean?": lambda x: type(x) is bool, "not": lambda x: x is False,
    "eq?": eqv, "eqv?": eqv, "equal?": equal, "!=": lambda a, b: not equal(a, b),
    "boolean=?": _all_same("boolean=?", bool, "a boolean"),
    "symbol=?": _all_same("symbol=?", Symbol, "a symbol"),
    "error-object?": lambda x: type(x) is ErrorObject,
    "error-object-message": p_error_message, "error-object-irritants": p_error_irritants,
    "error": p_error,
}
_ = list_to_python
