"""Which kernel runs a product: a back end that brings its own run entry (``evaluate``) is run
by it, the others by the lispex kernel. No code is shared between the kernels; this module only
routes a run to the right one."""

from __future__ import annotations

from typing import Any


def evaluate(source: bytes, backend: Any, **kw: Any) -> Any:
    own = getattr(backend, "evaluate", None)
    if own is not None:
        return own(source, **kw)
    from .lispex.run import evaluate as lispex_evaluate

    return lispex_evaluate(source, backend, **kw)


def input_errors() -> tuple[type, ...]:
    """The exception each kernel raises for an input datum that does not read."""
    from .lispex.run import InputError as LispexInputError
    from .topaz.kernel.run import InputError as TopazInputError

    return (LispexInputError, TopazInputError)
