"""Importing this module imports every family module, which registers its primitives."""

from . import (  # noqa: F401
    chars,
    control,
    equality,
    numeric,
    output,
    pairs,
    predicates,
    strings,
    vectors,
)
