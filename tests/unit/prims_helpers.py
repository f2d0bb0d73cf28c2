"""Helpers shared by the primitive-family unit tests: call a kernel primitive directly."""

from __future__ import annotations

import struct
from fractions import Fraction

import pytest

from implementations.lispex.errors import LispexError
from implementations.lispex.primitives import table
from implementations.lispex.values import Values

KERNEL = table.kernel_implementations()
R = Fraction


def call(name, *args):
    fn, needs_context = KERNEL[name]
    assert not needs_context
    return fn(*args)


def same(a, b):
    """Equal value, same Python type, and same sign for float zeros."""
    if type(a) is not type(b):
        return False
    if type(a) is float:
        return struct.pack(">d", a) == struct.pack(">d", b)
    if type(a) is Values:
        return len(a.items) == len(b.items) and all(map(same, a.items, b.items))
    return a == b


def fails(code, name, *args):
    """Call primitive ``name``, which must fail with ``code``."""
    with pytest.raises(LispexError) as e:
        call(name, *args)
    assert e.value.code == code, (name, args, e.value.code)


def fault(code, name, *args):
    """Call primitive ``name``, which must fail with ``code`` and a message that names it; the
    error, for further checks."""
    with pytest.raises(LispexError) as info:
        call(name, *args)
    assert info.value.code == code, (name, args, info.value.code)
    assert info.value.message.startswith(name + ":"), (name, info.value.message)
    return info.value
