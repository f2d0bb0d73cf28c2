"""Faults as values: the kernel's exceptions and the diagnostic record they turn into."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .span import Span


class LispexError(Exception):
    """A catchable runtime fault (E3xx) or a source error (E1xx); ``span`` None means "at the
    current call site", which the back end fills in."""

    def __init__(self, code: str, message: str, irritants: tuple = (), span: Any = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.irritants = tuple(irritants)
        self.span = span


class SourceError(LispexError):
    """A reader or normalizer fault; ``phase`` says which found it."""

    def __init__(self, code: str, message: str, span: Span | None, phase: str,
                 irritants: tuple = ()) -> None:
        super().__init__(code, message, irritants, span)
        self.phase = phase


class Raised(Exception):
    """A raised object nobody caught: ends the run with E330 (error objects) or E331."""

    def __init__(self, payload: Any, span: Any) -> None:
        super().__init__("raised")
        self.payload = payload
        self.span = span


class ResourceExhausted(Exception):
    """A meter ran out or the recursion limit was passed: not catchable."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


class BuildFault(Exception):
    """A back end could not build its artifact for a program: an infrastructure fault."""


@dataclass
class Diagnostic:
    code: str
    severity: str
    phase: str
    message: str
    irritants: list[str] = field(default_factory=list)
    span: Span | None = None

    def to_json(self) -> dict:
        return {"code": self.code, "severity": self.severity, "phase": self.phase,
                "message": self.message, "irritants": list(self.irritants),
                "span": self.span.to_json() if self.span is not None else None}

    def render(self, label: str | None = None) -> str:
        if self.span is not None:
            where = f"{label or self.span.file}:{self.span.line}:{self.span.column}"
        else:
            where = f"{label or '?'}:0:0"
        tail = "".join(" " + i for i in self.irritants)
        return f"{self.code} {where} {self.message}{tail}"
