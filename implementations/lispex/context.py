"""The per-run context primitives that produce effects see: program output and warnings."""

from __future__ import annotations

from .meters import OUTPUT, Meter
from .span import Span


class RunContext:
    """Explicit output (charged to the output-byte meter) and warnings of one run.

    ``site`` is the span of the primitive call being made; back ends set it before calling a
    primitive that needs the context, so warnings point at their call site.
    """

    __slots__ = ("out", "meter", "warnings", "site")

    def __init__(self, meter: Meter) -> None:
        self.out: list[str] = []
        self.meter = meter
        self.warnings: list[tuple[str, Span | None]] = []
        self.site: Span | None = None

    def emit(self, text: str) -> None:
        self.meter.charge(OUTPUT, len(text.encode("utf-8")))
        self.out.append(text)

    def warn(self, code: str) -> None:
        self.warnings.append((code, self.site))

    def stdout(self) -> str:
        return "".join(self.out)


