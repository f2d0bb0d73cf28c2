"""Seeded bugs in vm, family "vectors"."""

from __future__ import annotations

from typing import Any

from bench.seeded_bugs.seeding import bug, patch_primitive


@bug("vector-list-end", "vm", "kernel primitives", "vectors",
     "vector->list ignores its end index", "(vector->list (vector 1 2 3 4) 1 3)")
def _vector_list_end() -> None:
    def make(real):
        return lambda v, *args: real(v, *args[:1])
    patch_primitive("vm", "vector->list", make)


@bug("vector-string-checks-whole", "vm", "kernel primitives", "vectors",
     "vector->string checks that every element of the vector is a character, not only those "
     "between start and end, so converting a character slice of a mixed vector is an E312",
     "(define v (vector 'tag #\\h #\\i 0))\n"
     "(list (vector->string v 1 3) (vector->string (vector #\\o #\\k)) (string->vector \"ab\" 1))")
def _vector_string_checks_whole() -> None:
    from implementations.lispex.primitives.errors_util import wrong_type
    from implementations.lispex.values import Char, Vector

    # Realistic: the element check was written as a loop over v.items before the slice was
    # taken (the whole vector is what the argument check looks at); with no start and end, the
    # case tests use, both loops are the same.
    def make(real: Any) -> Any:
        def vector_to_string(v: Any, *opt: Any) -> Any:
            if type(v) is Vector:
                for c in v.items:
                    if type(c) is not Char:
                        wrong_type("vector->string", "a vector of characters", c)
            return real(v, *opt)
        return vector_to_string
    patch_primitive("vm", "vector->string", make)
