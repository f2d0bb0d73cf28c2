"""The kernel's part of the control family: ``error`` and the error-object accessors.

``values``, ``call/cc``, ``call-with-values``, ``dynamic-wind``, ``raise``,
``raise-continuable`` and ``with-exception-handler`` transfer control, so each back end
implements them.
"""

from __future__ import annotations

from typing import Any, NoReturn

from ..errors import LispexError
from ..values import ErrorObject, Str
from .errors_util import wrong_type
from .table import define


@define("error")
def error(message: Any, *irritants: Any) -> NoReturn:
    """Signal E330; the evaluator turns it into an error object with this message and
    these irritants (as a Lispex list) for handlers and ``guard``."""
    if type(message) is not Str:
        wrong_type("error", "a string as the message", message)
    raise LispexError("E330", message.s, irritants)


def _error_object(name: str, x: Any) -> ErrorObject:
    if type(x) is not ErrorObject:
        wrong_type(name, "an error object", x)
    return x


@define("error-object-message")
def error_object_message(e: Any) -> Str:
    return _error_object("error-object-message", e).message


@define("error-object-irritants")
def error_object_irritants(e: Any) -> Any:
    return _error_object("error-object-irritants", e).irritants
