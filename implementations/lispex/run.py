"""One run of one program on one back end: source bytes in, observation out.

reader -> normalizer -> back end -> observation. Every fault becomes a diagnostic value here;
nothing escapes as a Python exception except a malformed *input datum* (:class:`InputError`),
which is the caller's mistake, not the program's.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol

from .context import RunContext
from .core_ir import Program
from .errors import (
    BuildFault,
    Diagnostic,
    LispexError,
    Raised,
    ResourceExhausted,
    catalog,
    make_diagnostic,
)
from .meters import AXIS_IDS, Meter, axes, default_profile, profiles
from .normalizer import normalize
from .observation import Observation
from .printer import write_string
from .reader import read_datum_text, read_source
from .syntax import to_value
from .values import ErrorObject, Values


@dataclass
class Prepared:
    """What a back end made of a program before running it (compiled code, say)."""

    program: Program
    identities: dict[str, str] = field(default_factory=dict)
    artifact: Any = None


class Backend(Protocol):
    id: str

    def product_id(self) -> str: ...

    def prepare(self, program: Program) -> Prepared: ...

    def execute(self, prepared: Prepared, input_value: Any, ctx: RunContext,
                meter: Meter) -> Any: ...


class InputError(Exception):
    """The input datum could not be read; carries the reader's diagnostic."""

    def __init__(self, diagnostic: Diagnostic) -> None:
        super().__init__(diagnostic.render())
        self.diagnostic = diagnostic


NO_INPUT = object()


def parse_input(text: str | None) -> Any:
    """The input datum as a value (or NO_INPUT). Raises InputError when it is malformed."""
    if text is None:
        return NO_INPUT
    try:
        return to_value(read_datum_text(text, "<input>"))
    except LispexError as e:
        raise InputError(diagnostic_of(e, "reader")) from None


def resolve_limits(profile_id: str | None, overrides: dict[str, int] | None) -> tuple[str, dict]:
    """The profile's limits with per-axis overrides. Raises KeyError naming what is unknown."""
    profile = default_profile() if profile_id is None else profiles().get(profile_id)
    if profile is None:
        raise KeyError(f"unknown profile {profile_id}; known: {', '.join(profiles())}")
    limits = profile.limit_map()
    for axis, n in (overrides or {}).items():
        if axis not in limits:
            raise KeyError(f"unknown meter axis {axis}; known: {', '.join(AXIS_IDS)}")
        limits[axis] = n
    return profile.id, limits


def _write_all(items: Any) -> list[str]:
    return [write_string(x) for x in items]


def diagnostic_of(e: LispexError, default_phase: str) -> Diagnostic:
    phase = e.phase
    if phase is None:
        entry = catalog()[e.code]
        phase = entry.phase if entry.phase in ("reader", "normalizer", "runtime") else \
            default_phase
    return make_diagnostic(e.code, e.message, _write_all(e.irritants), e.span, phase)


def _uncaught(r: Raised) -> Diagnostic:
    p = r.payload
    if type(p) is ErrorObject:
        irritants = []
        cell = p.irritants
        while hasattr(cell, "car"):
            irritants.append(write_string(cell.car))
            cell = cell.cdr
        return make_diagnostic(p.code, p.message.s, irritants, p.span)
    return make_diagnostic("E331", "uncaught raised object", [write_string(p)], r.span)


_PRODUCT_IDS: dict[type, str] = {}


def _product_id(backend: Backend) -> str:
    """A back end's product id, computed once per class: it digests the implementation's files,
    which do not change under a running process, and resolving their paths costs more than
    running a small program."""
    pid = _PRODUCT_IDS.get(type(backend))
    if pid is None:
        pid = _PRODUCT_IDS[type(backend)] = backend.product_id()
    return pid


def evaluate(source: bytes, backend: Backend, *, filename: str = "program.lspx",
             input_text: str | None = None, profile_id: str | None = None,
             limits: dict[str, int] | None = None) -> Observation:
    profile, limit_map = resolve_limits(profile_id, limits)
    input_value = parse_input(input_text)
    meter = Meter(limit_map)
    obs = Observation(implementation=backend.id, status="ok", profile=profile,
                      limits=meter.limit_fields())
    obs.products["product_id"] = _product_id(backend)
    ctx = RunContext(meter)
    try:
        try:
            read = read_source(source, filename, meter)
            program = normalize(read.datums, filename, meter, read.pragmas)
        except LispexError as e:
            obs.status, obs.exit_status = "source-error", 1
            obs.diagnostics = [diagnostic_of(e, "reader")]
            return obs
        obs.products["core_ir_id"] = program.core_ir_id()
        try:
            prepared = backend.prepare(program)
        except BuildFault as b:
            # The implementation failed, not the program: nothing ran, nothing is known.
            obs.status, obs.exit_status = "infrastructure-error", None  # type: ignore[assignment]
            obs.resource_outcome = {"status": "unknown"}
            obs.faults = [{"kind": "build", "message": b.message}]
            return obs
        obs.products.update(prepared.identities)
        try:
            result = backend.execute(prepared, input_value, ctx, meter)
            obs.values = _write_all(result.items if type(result) is Values else [result])
        except Raised as r:
            obs.status, obs.exit_status = "runtime-error", 1
            obs.diagnostics = [_uncaught(r)]
        except LispexError as e:  # a fault outside any handler's reach (e.g. at link time)
            obs.status, obs.exit_status = "runtime-error", 1
            obs.diagnostics = [diagnostic_of(e, "runtime")]
        obs.stdout = ctx.stdout()
    except ResourceExhausted as x:
        # METER-EXHAUSTION-PROJECTION-1: no stdout, no values, earlier warnings kept.
        obs.status, obs.exit_status, obs.values, obs.stdout = "resource", 2, [], ""
        obs.diagnostics = [make_diagnostic(x.code, x.message, [], None)]
        axis = next((a.id for a in axes() if a.exhaustion_code == x.code), x.code)
        obs.resource_outcome = {"status": "limit-exceeded", "limit": axis, "code": x.code}
    finally:
        obs.warnings = [make_diagnostic(code, catalog()[code].title, [], span)
                        for code, span in ctx.warnings]
        obs.usage = meter.usage()
        obs.meter_exact = meter.exact
    return obs
