"""The run entry of the topaz back ends: source bytes -> observation.

read (reader) -> normalize (Core IR) -> the back end's ``prepare`` -> its ``execute``; each
fault becomes the observation's status and diagnostic, and the usage of every meter axis is
reported, including work done before a later fault.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from . import core_ir as ir
from .core_ir import Program
from .data import table
from .errors import BuildFault, Diagnostic, LispexError, Raised, ResourceExhausted, SourceError
from .meters import RECURSION_LIMIT, Meter, axes, default_profile, profiles
from .normalizer import normalize
from .observation import Observation
from .printer import write_text
from .reader import read_source
from .stack import deep
from .syntax import to_value
from .values import ErrorObject, Str, Values, list_to_python


class NoInput:
    __slots__ = ()


NO_INPUT = NoInput()


class InputError(Exception):
    """The input datum does not read as exactly one datum: not a fault of the program."""

    def __init__(self, diagnostic: Diagnostic) -> None:
        super().__init__(diagnostic.render())
        self.diagnostic = diagnostic


@dataclass
class Prepared:
    program: Program
    identities: dict = field(default_factory=dict)
    artifact: Any = None


def _severity(code: str) -> str:
    for row in table("diagnostics")["diagnostic"]:
        if row["code"] == code:
            return row["severity"]
    return "error"


def source_diagnostic(e: SourceError) -> Diagnostic:
    """The diagnostic of a reader or normalizer fault."""
    return Diagnostic(e.code, _severity(e.code), e.phase, e.message, list(e.irritants), e.span)


def resolve_limits(profile_id: str | None, limits: dict | None) -> tuple[str, dict[str, int]]:
    pid = profile_id or default_profile()
    known = profiles()
    if pid not in known:
        raise KeyError(f"unknown resource profile {pid!r}")
    ids = [a.id for a in axes()]
    out = dict(zip(ids, known[pid]["limits"], strict=True))
    for axis, n in (limits or {}).items():
        if axis not in out:
            raise KeyError(f"unknown meter axis {axis!r}")
        if type(n) is not int or n < 0:
            raise KeyError(f"a limit is a non-negative integer: {axis}={n!r}")
        out[axis] = n
    return pid, out


def read_input(text: str) -> Any:
    try:
        read = read_source(text.encode("utf-8"), "<input>")
    except SourceError as e:
        raise InputError(Diagnostic(e.code, "error", "reader", e.message,
                                    list(e.irritants), e.span)) from None
    if len(read.datums) != 1:
        raise InputError(Diagnostic("E100", "error", "reader",
                                    f"the input must be exactly one datum, not "
                                    f"{len(read.datums)}", [], None))
    return to_value(read.datums[0])


def _depth(program: Program) -> int:
    """How deep the Core IR nests (each node one level)."""
    deepest = 0
    work = [(f, 1) for f in program.forms]
    while work:
        n, d = work.pop()
        if d > deepest:
            deepest = d
        for c in ir.children(n):
            work.append((c, d + 1))
    return deepest


def front_end(source: bytes, filename: str, meter: Meter) -> Program:
    used = dict(meter.used)

    def reset() -> None:
        meter.used.update(used)

    def work() -> Program:
        read = read_source(source, filename, meter)
        return normalize(read.datums, filename, meter, read.pragmas)
    return deep(work, reset)


def _runtime_diagnostic(err: Any, ctx_site: Any) -> Diagnostic:
    if type(err) is Raised:
        p = err.payload
        if type(p) is ErrorObject:
            irritants = list_to_python(p.irritants) or []
            message = p.message.s if type(p.message) is Str else str(p.message)
            return Diagnostic(p.code, "error", "runtime", message,
                              [write_text(x) for x in irritants],
                              p.span if p.span is not None else err.span)
        return Diagnostic("E331", "error", "runtime", "uncaught raised object",
                          [write_text(p)], err.span)
    span = err.span if err.span is not None else ctx_site
    return Diagnostic(err.code, "error", "runtime", err.message,
                      [write_text(x) for x in err.irritants], span)


_PRODUCT_IDS: dict[type, str] = {}


def _product_id(backend: Any) -> str:
    """A product's identity is over its files, which do not change while it runs."""
    pid = _PRODUCT_IDS.get(type(backend))
    if pid is None:
        pid = _PRODUCT_IDS[type(backend)] = backend.product_id()
    return pid


def _resource(obs: Observation, e: ResourceExhausted) -> None:
    axis = next((a.id for a in axes() if a.code == e.code), "recursion-limit")
    obs.status = "resource"
    obs.values, obs.stdout = [], ""
    obs.diagnostics = [Diagnostic(e.code, "error", "resource", e.message, [], None)]
    obs.resource_outcome = {"status": "limit-exceeded", "limit": axis, "code": e.code}


def evaluate(source: bytes, backend: Any, filename: str = "program.lspx",
             input_text: str | None = None, profile_id: str | None = None,
             limits: dict | None = None) -> Observation:
    from .context import RunContext

    pid, lim = resolve_limits(profile_id, limits or {})
    input_value = NO_INPUT if input_text is None else read_input(input_text)
    meter = Meter(lim)
    obs = Observation(backend.id, "ok", profile=pid)
    obs.products["product_id"] = _product_id(backend)
    ctx = RunContext(meter)
    try:
        program = front_end(source, filename, meter)
        obs.products["core_ir_id"] = program.core_ir_id()
        if _depth(program) > RECURSION_LIMIT:
            raise ResourceExhausted("recursion-limit",
                                    f"Core IR nests deeper than {RECURSION_LIMIT}")
        prepared = backend.prepare(program)
        obs.products.update(prepared.identities)
        result = backend.execute(prepared, input_value, ctx, meter)
        items = result.items if type(result) is Values else (result,)
        obs.values = [write_text(v) for v in items]
        obs.stdout = ctx.stdout()
    except BuildFault as e:
        # the back end could not make its artifact: a fact about the product, not the program
        obs.status = "infrastructure-error"
        obs.values, obs.stdout, obs.diagnostics = [], "", []
        obs.resource_outcome = {"status": "unknown"}
        obs.faults = [{"kind": "build", "message": str(e)}]
    except SourceError as e:
        obs.status = "source-error"
        obs.diagnostics = [source_diagnostic(e)]
    except ResourceExhausted as e:
        _resource(obs, e)
    except (Raised, LispexError) as e:
        obs.status = "runtime-error"
        obs.stdout = ctx.stdout()
        obs.diagnostics = [_runtime_diagnostic(e, ctx.site)]
    obs.warnings = list(ctx.warnings)
    obs.usage = {a.usage_field: meter.used[a.id] for a in axes()}
    obs.limits = {a.limit_field: meter.limits[a.id] for a in axes()}
    return obs
