"""The run context: the program's output, its warnings and the call site primitives report
faults and warnings at. Output is metered per append (output-byte axis)."""

from __future__ import annotations

from typing import Any

from .errors import Diagnostic
from .meters import OUTPUT, Meter


class RunContext:
    __slots__ = ("meter", "out", "warnings", "site")

    def __init__(self, meter: Meter) -> None:
        self.meter = meter
        self.out: list[str] = []
        self.warnings: list[Diagnostic] = []
        self.site: Any = None

    def emit(self, text: str) -> None:
        if text:
            self.meter.charge(OUTPUT, len(text.encode("utf-8", "surrogatepass")))
            self.out.append(text)

    def warn(self, code: str, message: str) -> None:
        self.warnings.append(Diagnostic(code, "warning", "runtime", message, [], self.site))

    def stdout(self) -> str:
        return "".join(self.out)
