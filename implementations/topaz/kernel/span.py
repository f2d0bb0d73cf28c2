"""Source positions: 1-based line and column (columns count characters) plus the half-open
UTF-8 byte range."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Span:
    file: str
    line: int
    column: int
    start: int
    end: int

    def to_json(self) -> dict:
        return {"file": self.file, "line": self.line, "column": self.column,
                "start": self.start, "end": self.end}

    def where(self) -> str:
        return f"{self.file}:{self.line}:{self.column}"

    def through(self, other: Span) -> Span:
        return Span(self.file, self.line, self.column, self.start, other.end)
