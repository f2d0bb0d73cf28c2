"""The kernel's control primitives (``error`` and the error-object accessors), called directly."""

from __future__ import annotations

import pytest
from prims_helpers import KERNEL, call

from implementations.lispex.errors import LispexError
from implementations.lispex.primitives import control  # noqa: F401  (registers the family)
from implementations.lispex.primitives.table import rows
from implementations.lispex.values import ErrorObject, Str, list_from, sym


def test_the_kernel_defines_exactly_the_non_backend_control_rows():
    kernel_rows = {r.name for r in rows()
                   if r.family == "control" and not r.backend and not r.alias_of}
    assert kernel_rows == {"error", "error-object-message", "error-object-irritants"}
    for name in kernel_rows:
        assert name in KERNEL
    for r in rows():
        if r.family == "control" and r.backend:
            assert r.name not in KERNEL


def test_error_raises_E330_with_message_and_irritants():
    with pytest.raises(LispexError) as info:
        call("error", Str("boom"), 1, sym("x"))
    assert info.value.code == "E330"
    assert info.value.message == "boom"
    assert info.value.irritants == (1, sym("x"))


def test_error_without_irritants():
    with pytest.raises(LispexError) as info:
        call("error", Str("nope"))
    assert info.value.code == "E330" and info.value.irritants == ()


def test_error_message_must_be_a_string():
    with pytest.raises(LispexError) as info:
        call("error", sym("boom"), 1)
    assert info.value.code == "E312"
    assert info.value.message.startswith("error:")


def test_error_object_accessors():
    message = Str("boom")
    irritants = list_from([1, 2])
    e = ErrorObject("E330", message, irritants)
    assert call("error-object-message", e) is message
    assert call("error-object-irritants", e) is irritants


@pytest.mark.parametrize("name", ["error-object-message", "error-object-irritants"])
@pytest.mark.parametrize("value", [Str("boom"), 5, sym("e")])
def test_accessor_on_a_non_error_object_is_E312(name, value):
    with pytest.raises(LispexError) as info:
        call(name, value)
    assert info.value.code == "E312"
    assert info.value.message.startswith(name + ":")
