"""The topaz kernel's front end against the documented contract: every example of
docs/core-ir.md normalizes to the canonical text the document gives, so the topaz kernel and
the lispex kernel give a program the same core_ir_id; and a few reader and tower corners."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from implementations.topaz.kernel.errors import SourceError
from implementations.topaz.kernel.normalizer import normalize
from implementations.topaz.kernel.printer import write_text
from implementations.topaz.kernel.reader import read_source
from implementations.topaz.kernel.syntax import to_value

DOC = Path(__file__).resolve().parents[2] / "docs" / "core-ir.md"
BLOCKS = re.findall(r"```(lispex|lispex-core)\n(.*?)```", DOC.read_text(encoding="utf-8"), re.S)
PAIRS = [(BLOCKS[i][1], BLOCKS[i + 1][1]) for i in range(len(BLOCKS) - 1)
         if BLOCKS[i][0] == "lispex" and BLOCKS[i + 1][0] == "lispex-core"]


def canonical(source: str) -> str:
    read = read_source(source.encode("utf-8"), "doc.lspx")
    return normalize(read.datums, "doc.lspx", None, read.pragmas).canonical_text()


def test_the_document_has_examples() -> None:
    assert len(PAIRS) >= 10


@pytest.mark.parametrize(("source", "core"), PAIRS)
def test_documented_canonical_text(source: str, core: str) -> None:
    assert canonical(source) == core


def read_one(text: str) -> str:
    read = read_source(text.encode("utf-8"), "t.lspx")
    assert len(read.datums) == 1
    return write_text(to_value(read.datums[0]))


@pytest.mark.parametrize(("text", "written"), [
    ("(1 . (2 3))", "(1 2 3)"), ("-3/6", "-1/2"), ("4/2", "2"), ("1e3", "1000.0"),
    ("#\\x3bb", "#\\λ"), ('"\\x41;\\X42;"', '"AB"'), ("'x", "(quote x)"), ("-0.0", "-0.0"),
])
def test_reader_corners(text: str, written: str) -> None:
    assert read_one(text) == written


@pytest.mark.parametrize(("text", "code", "column"), [
    ("007", "E100", 1), ("1/0", "E100", 1), ("#\\X41", "E150", 1), ("#u8(4/2)", "E100", 5),
    ("(a . b c)", "E140", 8), ("#langx", "E100", 1), ("#lang", "E120", 1), ("1e9999", "E314", 1),
    ('(f "a\\q', "E100", 4), ("(1 (2", "E100", 4),
])
def test_reader_faults(text: str, code: str, column: int) -> None:
    with pytest.raises(SourceError) as e:
        read_source(text.encode("utf-8"), "t.lspx")
    assert (e.value.code, e.value.span.column) == (code, column)
