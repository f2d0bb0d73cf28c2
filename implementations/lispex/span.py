"""Source positions: 1-based line, Unicode-scalar column, half-open UTF-8 byte range."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Span:
    file: str
    line: int
    column: int
    start: int
    end: int

    def to_json(self) -> dict:
        return {
            "file": self.file,
            "line": self.line,
            "column": self.column,
            "start": self.start,
            "end": self.end,
        }


def _fast_init() -> Callable[..., None]:
    # The frozen dataclass's __init__ sets each field through object.__setattr__; the slots' own
    # setters do the same (and likewise bypass the frozen __setattr__) in about half the time.
    # The reader makes one Span per token, so this is a tenth of reading a source.
    set_file, set_line, set_column = Span.file.__set__, Span.line.__set__, Span.column.__set__
    set_start, set_end = Span.start.__set__, Span.end.__set__

    def __init__(self: Span, file: str, line: int, column: int, start: int, end: int) -> None:
        set_file(self, file)
        set_line(self, line)
        set_column(self, column)
        set_start(self, start)
        set_end(self, end)

    __init__.__qualname__ = "Span.__init__"
    return __init__


Span.__init__ = _fast_init()  # type: ignore[method-assign]
