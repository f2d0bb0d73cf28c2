"""Two-integer fast paths of the tree machine: which primitives it may answer itself."""

from __future__ import annotations

import operator
from typing import Any

from implementations.lispex.primitives import numeric
from implementations.lispex.values import Primitive

# A primitive applied to two exact integers (bools excluded: type() is int, not isinstance) is
# answered by Python's own operator, which gives what the kernel's function gives for them,
# without that function's *args packing and type dispatch: about a third of a tail loop's time.
# Only for the kernel's own function: a table whose primitive was replaced (a foreign kernel, a
# seeded bug) keeps calling what it holds.
_INT2 = {"+": (numeric.plus, operator.add), "-": (numeric.minus, operator.sub),
         "=": (numeric.num_eq, operator.eq), "<": (numeric.num_lt, operator.lt),
         ">": (numeric.num_gt, operator.gt), "<=": (numeric.num_le, operator.le),
         ">=": (numeric.num_ge, operator.ge)}


def int_operators(prims: dict[str, Primitive]) -> dict[Primitive, Any]:
    out = {}
    for name, (kernel_fn, op) in _INT2.items():
        p = prims.get(name)
        if p is not None and p.fn is kernel_fn and getattr(numeric, kernel_fn.__name__) is kernel_fn:
            out[p] = op
    return out
