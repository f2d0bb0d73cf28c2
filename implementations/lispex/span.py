"""Source positions: 1-based line, Unicode-scalar column, half-open UTF-8 byte range."""

from __future__ import annotations

from operator import itemgetter
from typing import Any


class Span(tuple):
    """An immutable (file, line, column, start, end).

    A tuple underneath, because the reader makes one per datum and one per list: it builds
    them with ``tuple.__new__(Span, fields)``, a single C call, about a third of what a frozen
    dataclass's ``__init__`` costs; reading a field is a C-level item getter.
    """

    __slots__ = ()

    def __new__(cls, file: str, line: int, column: int, start: int, end: int) -> Span:
        return tuple.__new__(cls, (file, line, column, start, end))

    file: str = property(itemgetter(0))  # type: ignore[assignment]
    line: int = property(itemgetter(1))  # type: ignore[assignment]
    column: int = property(itemgetter(2))  # type: ignore[assignment]
    start: int = property(itemgetter(3))  # type: ignore[assignment]
    end: int = property(itemgetter(4))  # type: ignore[assignment]

    def __repr__(self) -> str:
        return (f"Span(file={self[0]!r}, line={self[1]!r}, column={self[2]!r}, "
                f"start={self[3]!r}, end={self[4]!r})")

    def __eq__(self, other: Any) -> bool:
        # Equal only to another Span: a plain tuple with the same items is not a position.
        return type(other) is Span and tuple.__eq__(self, other)

    def __ne__(self, other: Any) -> bool:
        return not self.__eq__(other)

    __hash__ = tuple.__hash__

    def __getnewargs__(self) -> tuple:
        return tuple(self)

    def to_json(self) -> dict:
        return {
            "file": self[0],
            "line": self[1],
            "column": self[2],
            "start": self[3],
            "end": self[4],
        }

