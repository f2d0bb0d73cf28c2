"""topaz-vm: Core IR translated to Python source, compiled with ``compile()`` and run on
CPython's own virtual machine.

Each Lispex procedure becomes a Python ``def``; tail calls return a trampoline marker (a
procedure's calls to itself become a ``while`` loop), escapes are Python exceptions,
``dynamic-wind`` is ``try``, and the machine-transition meter is a counter in the generated
code. ``prepare`` reports ``bytecode_id``, the digest of the generated source. Code that fails
to generate or compile is a build fault (:class:`BuildFault`), never a crash.
"""

from __future__ import annotations

import builtins
import hashlib
import sys
import threading
import warnings
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from implementations import bigstack
from implementations.topaz.kernel.context import RunContext
from implementations.topaz.kernel.core_ir import Program
from implementations.topaz.kernel.errors import BuildFault, LispexError
from implementations.topaz.kernel.identity import KERNEL_DIR, product_id
from implementations.topaz.kernel.meters import MACHINE, Meter
from implementations.topaz.kernel.primitives import table
from implementations.topaz.kernel.run import NO_INPUT, Prepared, evaluate
from implementations.topaz.kernel.values import (
    NIL,
    NO_VALUES,
    Char,
    Pair,
    Primitive,
    Str,
    Values,
    Vector,
    list_from,
)

from ..common import COMMON_DIR
from ..common.caller_stack import DEEPER, on_caller_stack
from .analysis import analyse
from .codegen import Gen
from .emit import Pools, render
from .objects import UNBOUND, UNINIT, Again, Closure, GuardEscape, GuardHandler, TailCall
from .printer import display_text, write_text
from .runtime import Runtime

VERSION = "0.1.0"
CODE_DOMAIN = b"lispex/topaz-vm-code/v0\x00"

# A non-tail Lispex call nests a few Python frames, and some of CPython's call paths recurse in
# C (10,000 levels through map or a handler take about 4 MiB of C stack), so programs run on a
# thread with a large stack and a raised recursion limit. Under a tight address-space limit
# the thread may not get the full stack: smaller ones are tried before giving up.
STACK_BYTES = 256 * 1024 * 1024
FALLBACK_STACKS = (64 * 1024 * 1024, 16 * 1024 * 1024)
RECURSION = 200_000

# Names every generated program refers to.
STATIC = {
    "Closure": Closure, "TailCall": TailCall, "Again": Again, "Values": Values,
    "NO_VALUES": NO_VALUES, "Pair": Pair, "NIL": NIL, "UNBOUND": UNBOUND, "UNINIT": UNINIT,
    "GuardHandler": GuardHandler, "GuardEscape": GuardEscape, "LispexError": LispexError,
    "Str": Str, "Char": Char, "Vector": Vector, "_list": list_from, "__builtins__": builtins,
}


def _backend_only(name: str) -> Callable:
    def marker(*args: Any) -> Any:
        raise AssertionError(f"{name} is applied by the topaz-vm runtime")
    return marker


def _display(ctx: Any, x: Any) -> Values:
    ctx.emit(display_text(x))
    return NO_VALUES


def _write(ctx: Any, x: Any) -> Values:
    ctx.emit(write_text(x))
    return NO_VALUES


def _println(ctx: Any, x: Any) -> Values:
    ctx.emit(display_text(x) + "\n")
    return NO_VALUES


def _newline(ctx: Any) -> Values:
    ctx.emit("\n")
    return NO_VALUES


@cache
def primitives() -> dict[str, Primitive]:
    impls: dict[str, tuple[Callable, bool]] = {
        row.name: (_backend_only(row.name), False)
        for row in table.rows() if row.backend and not row.alias_of}
    impls.update({"display": (_display, True), "write": (_write, True),
                  "println": (_println, True), "newline": (_newline, True)})
    return table.build(impls)


@dataclass
class Compiled:
    source: str
    digest: str
    filename: str
    positions: dict  # (line, column) of a kernel primitive call -> site index
    sites: list  # site index -> span
    code: Any  # the code object compile() made of the source
    program_fn: Any  # _program(_rt, _fuel, _input): makes one run's state and forms


def build(program: Program, retry: bool = False) -> Compiled:
    """Generate, compile and load the program's code; BuildFault when that fails.

    ``retry``: let RecursionError and MemoryError through instead, for a caller that will build
    again on the big stack (see :func:`build_here`).
    """
    prims = primitives()
    pools = Pools()
    try:
        analysis = analyse(program, frozenset(prims))
        root = Gen(program, analysis, prims, pools).program_source()
        source, positions = render(root)
    except RecursionError:
        if retry:
            raise
        raise BuildFault("code generation failed: the program nests too deeply") from None
    except Exception as e:  # noqa: BLE001 - a generator bug must not take the worker down
        if retry and type(e) is MemoryError:
            raise
        raise BuildFault(f"code generation failed: {type(e).__name__}: {e}") from None
    digest = hashlib.sha256(CODE_DOMAIN + source.encode("utf-8")).hexdigest()
    filename = f"<topaz-vm {digest[:16]}>"
    try:
        with warnings.catch_warnings():
            # `x is 5` where a literal reached an identity test is intended: no SyntaxWarning.
            warnings.simplefilter("ignore")
            code = compile(source, filename, "exec")
    except (SyntaxError, RecursionError, MemoryError, ValueError, OverflowError) as e:
        if retry and isinstance(e, (RecursionError, MemoryError)):
            raise
        raise BuildFault(f"generated code does not compile: {type(e).__name__}: {e}") from None
    namespace = dict(STATIC)
    namespace.update(pools.namespace)
    try:
        exec(code, namespace)  # defines _program; nothing of the Lispex program runs yet
    except MemoryError as e:
        if retry:
            raise
        raise BuildFault(f"generated code does not load: {type(e).__name__}: {e}") from None
    return Compiled(source, digest, filename, positions, pools.sites, code,
                    namespace["_program"])


def run(compiled: Compiled, input_value: Any, ctx: RunContext, meter: Meter) -> Any:
    fuel = meter.remaining(MACHINE)
    rt = Runtime(ctx, compiled.sites, compiled.positions, compiled.filename,
                 meter.limits[MACHINE])
    forms, rt.site_get, rt.site_set, fuel_get = compiled.program_fn(
        rt, fuel, UNBOUND if input_value is NO_INPUT else input_value)
    result: Any = NO_VALUES
    try:
        for form in forms:
            rt.h = None
            try:
                value = form(0)
                if type(value) is TailCall:
                    value = rt.tramp(0, value)
            except LispexError as e:
                rt.fault(e)  # at top level: no handler, so this raises Raised
            result = value
    finally:
        meter.used[MACHINE] += min(fuel - fuel_get(), fuel)
    return result


def build_here(program: Program) -> Compiled | None:
    """:func:`build` on the calling thread, or None when that runs out of recursion (or memory)
    and the build must be done again on the big stack."""
    compiled = on_caller_stack(lambda: build(program, retry=True))
    return None if compiled is DEEPER else compiled


_lock = threading.Lock()


def on_big_stack(work: Callable[[], Any]) -> Any:
    """``work()`` on a thread with a large stack; its result, or its exception re-raised. A
    worker serving this back end is already on one (implementations/bigstack.py): then here."""
    if bigstack.stack_bytes() >= STACK_BYTES:
        with _lock:
            old_limit = sys.getrecursionlimit()
            sys.setrecursionlimit(max(old_limit, RECURSION))
            try:
                return work()
            finally:
                sys.setrecursionlimit(old_limit)
    box: dict[str, Any] = {}

    def target() -> None:
        try:
            box["value"] = work()
        except BaseException as e:  # noqa: BLE001 - handed back to the calling thread
            box["error"] = e

    with _lock:  # the recursion limit is process-wide
        old_limit = sys.getrecursionlimit()
        sys.setrecursionlimit(max(old_limit, RECURSION))
        try:
            _start(target).join()
        finally:
            sys.setrecursionlimit(old_limit)
    if "error" in box:
        raise box.pop("error")
    return box.get("value")


def _start(target: Callable[[], None]) -> threading.Thread:
    sizes = (STACK_BYTES, *FALLBACK_STACKS)
    for i, size in enumerate(sizes):
        old_size = threading.stack_size(size)
        try:
            thread = threading.Thread(target=target, name="topaz-vm", daemon=True)
            thread.start()
            return thread
        except RuntimeError:  # "can't start new thread": the address space is too tight
            if i == len(sizes) - 1:
                raise
        finally:
            threading.stack_size(old_size)
    raise AssertionError("unreachable")


class TopazVmBackend:
    id = "topaz-vm"
    stack_bytes = STACK_BYTES  # what a worker's request thread should have (bigstack.py)

    def evaluate(self, source: bytes, **kw: Any) -> Any:
        """A whole run on the topaz kernel: read, normalize, prepare, execute."""
        return evaluate(source, self, **kw)

    def product_id(self) -> str:
        return product_id(VERSION, KERNEL_DIR, Path(__file__).resolve().parent, COMMON_DIR)

    def prepare(self, program: Program) -> Prepared:
        compiled = build_here(program) or on_big_stack(lambda: build(program))
        return Prepared(program, identities={"bytecode_id": compiled.digest}, artifact=compiled)

    def execute(self, prepared: Prepared, input_value: Any, ctx: RunContext, meter: Meter) -> Any:
        return on_big_stack(lambda: run(prepared.artifact, input_value, ctx, meter))
