"""Helpers shared by the normalizer tests."""

from __future__ import annotations

from typing import Any

import pytest

from implementations import registry
from implementations.lispex import core_ir as ir
from implementations.lispex.errors import LispexError
from implementations.lispex.meters import Meter
from implementations.lispex.normalizer import normalize
from implementations.lispex.reader import read_source
from implementations.lispex.run import evaluate
from implementations.lispex.span import Span


def program(src: str, meter: Meter | None = None) -> ir.Program:
    read = read_source(src.encode("utf-8"), "t.lspx")
    return normalize(read.datums, "t.lspx", meter, read.pragmas)


def core(src: str) -> str:
    """The canonical text of a program, without the final line feed."""
    return program(src).canonical_text().rstrip("\n")


def fails(src: str, code: str, line: int, column: int) -> LispexError:
    with pytest.raises(LispexError) as info:
        program(src)
    err = info.value
    assert (err.code, err.span.line, err.span.column) == (code, line, column), err.message
    assert isinstance(err.span, Span) and err.span.file == "t.lspx"
    assert err.message and not err.message[0].isupper()
    return err


def run(src: str, **kwargs: Any):
    escaped = None
    try:
        return evaluate(src.encode("utf-8"), registry.load("tree"), filename="t.lspx", **kwargs)
    except (RecursionError, MemoryError) as e:
        escaped = type(e).__name__
    # Failing outside the handler drops the huge traceback, which pytest would take minutes to
    # format.
    pytest.fail(f"{escaped} escaped evaluate()", pytrace=False)


def value_of(src: str) -> list[str]:
    obs = run(src)
    assert obs.status == "ok", [d.render() for d in obs.diagnostics]
    return obs.values
