"""Inline fast paths for the commonest primitives, used only where the primitive is fixed.

When both arguments are exact integers, Python's own operator gives exactly the primitive's
result (no overflow, no type question), so the call skips the kernel's general code. Anything
else goes to the kernel primitive, which does the checks and raises the catalog errors.
"""

from __future__ import annotations

import operator

from implementations.topaz.kernel.values import Pair

# name -> operator applied when both arguments are exact integers. Not `*`: a product of big
# integers is bounded in size, which the kernel's `*` checks.
BINARY = {
    "+": operator.add,
    "-": operator.sub,
    "<": operator.lt,
    "<=": operator.le,
    ">": operator.gt,
    ">=": operator.ge,
    "=": operator.eq,
}

# name -> (argument type for which the fast path holds, fast path)
UNARY = {
    "car": (Pair, operator.attrgetter("car")),
    "cdr": (Pair, operator.attrgetter("cdr")),
}
