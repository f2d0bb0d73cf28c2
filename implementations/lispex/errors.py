"""Diagnostics as values: the catalog (data), the error signals the kernel raises, rendering.

Inside an evaluation a fault travels as a Python exception (:class:`LispexError`,
:class:`Raised`, :class:`ResourceExhausted`); the run turns it into a :class:`Diagnostic` value,
and only the CLI and the MCP adapter turn diagnostics into text and exit codes.
"""

from __future__ import annotations

import os
import tomllib
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from .span import Span


@dataclass(frozen=True)
class CatalogEntry:
    code: str
    severity: str
    phase: str
    family: str
    exit_status: int
    title: str


@cache
def catalog() -> dict[str, CatalogEntry]:
    """Every diagnostic code: the 24 catalog rows and the five meter codes, in catalog order."""
    # A plain file read: importlib.resources costs more import time than the whole reader.
    with open(os.path.join(os.path.dirname(__file__), "data", "diagnostics.toml"), "rb") as f:
        rows = tomllib.load(f)["diagnostic"]
    return {r["code"]: CatalogEntry(**r) for r in rows}


class LispexError(Exception):
    """A reader, normalizer or runtime fault with a catalog code.

    ``irritants`` are Lispex values (rendered with ``write``); ``span`` may be left None by a
    primitive and filled in by the evaluator with the call site. ``phase`` is set only where the
    catalog row allows two phases (E120, E314).
    """

    def __init__(self, code: str, message: str, irritants: tuple = (), span: Span | None = None,
                 phase: str | None = None) -> None:
        super().__init__(code, message)
        self.code = code
        self.message = message
        self.irritants = tuple(irritants)
        self.span = span
        self.phase = phase


class Raised(Exception):
    """A ``raise``d object that no handler took; becomes E331 (or the error object's own code)."""

    def __init__(self, payload: Any, span: Span | None) -> None:
        super().__init__("raised")
        self.payload = payload
        self.span = span


class ResourceExhausted(Exception):
    """A meter ran out, or non-tail depth passed the recursion limit. Never catchable."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(code, message)
        self.code = code
        self.message = message


class BuildFault(Exception):
    """A back end could not make runnable code of a program (generated code that does not
    compile, say). A fault of the implementation, not of the program: the run's status is
    ``infrastructure-error`` with a fault of kind ``build``."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


@dataclass
class Diagnostic:
    code: str
    severity: str
    phase: str
    message: str
    irritants: list[str] = field(default_factory=list)  # each the `write` of one irritant
    span: Span | None = None

    def to_json(self) -> dict:
        return {
            "code": self.code,
            "severity": self.severity,
            "phase": self.phase,
            "message": self.message,
            "irritants": list(self.irritants),
            "span": self.span.to_json() if self.span else None,
        }

    def render(self, file_label: str | None = None) -> str:
        """``CODE file:line:col message irritants`` (one line, no trailing newline)."""
        if self.span is not None:
            where = f"{file_label or self.span.file}:{self.span.line}:{self.span.column}"
        else:
            where = f"{file_label or '-'}:0:0"
        text = f"{self.code} {where} {self.message}"
        if self.irritants:
            text += " " + " ".join(self.irritants)
        return text


def make_diagnostic(code: str, message: str, irritants: list[str], span: Span | None,
                    phase: str | None = None) -> Diagnostic:
    entry = catalog()[code]
    if phase is None:
        phase = {"reader-or-normalizer": "reader", "reader-or-runtime": "runtime"}.get(
            entry.phase, entry.phase)
    return Diagnostic(code, entry.severity, phase, message, irritants, span)
