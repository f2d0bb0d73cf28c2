"""Which kernel runs a product: a back end that brings its own run entry (``evaluate``) is run
by it, the others by the lispex kernel. No code is shared between the kernels; this module only
routes a run to the right one."""

from __future__ import annotations

from collections.abc import Callable
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


class FrontEndFailed(Exception):
    """The kernel did not make Core IR of the program: ``diagnostic`` is its one-line report
    (a source error, or the resource limit its reader or normalizer reached)."""

    def __init__(self, diagnostic: str) -> None:
        super().__init__(diagnostic)
        self.diagnostic = diagnostic


def core_ir(source: bytes, backend: Any, filename: str) -> tuple[Any, Callable[[Any], str]]:
    """The Core IR program the back end's own kernel reads ``source`` into, and that kernel's
    canonical text of one node; raises FrontEndFailed when it reads none."""
    if getattr(backend, "evaluate", None) is not None:
        return _topaz_core_ir(source, filename)
    return _lispex_core_ir(source, filename)


def _lispex_core_ir(source: bytes, filename: str) -> tuple[Any, Callable[[Any], str]]:
    from .lispex.core_ir import node_text
    from .lispex.errors import LispexError, ResourceExhausted
    from .lispex.meters import Meter
    from .lispex.normalizer import normalize
    from .lispex.reader import read_source
    from .lispex.run import diagnostic_of, resolve_limits

    meter = Meter(resolve_limits(None, None)[1])
    try:
        read = read_source(source, filename, meter)
        program = normalize(read.datums, filename, meter, read.pragmas)
    except LispexError as e:
        raise FrontEndFailed(diagnostic_of(e, "reader").render(filename)) from None
    except ResourceExhausted as e:
        raise FrontEndFailed(f"{e.code} {filename}:0:0 {e.message}") from None
    return program, node_text


def _topaz_core_ir(source: bytes, filename: str) -> tuple[Any, Callable[[Any], str]]:
    from .topaz.kernel.core_ir import canonical
    from .topaz.kernel.errors import ResourceExhausted, SourceError
    from .topaz.kernel.meters import Meter
    from .topaz.kernel.run import front_end, resolve_limits, source_diagnostic

    meter = Meter(resolve_limits(None, None)[1])
    try:
        program = front_end(source, filename, meter)
    except SourceError as e:
        raise FrontEndFailed(source_diagnostic(e).render(filename)) from None
    except ResourceExhausted as e:
        raise FrontEndFailed(f"{e.code} {filename}:0:0 {e.message}") from None
    return program, canonical
