"""topaz-tree: a closure compiler for Lispex.

Core IR is compiled once into nested Python closures (:mod:`.compiler`) and running the program
is calling them. It shares the kernel's reader, normalizer, values and the primitives that never
call guest code; its evaluator, its guest-calling and control primitives and its printer are its
own, so a fault in any of them shows up as a disagreement with the other implementations.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any

from implementations.topaz.kernel.context import RunContext
from implementations.topaz.kernel.core_ir import Program
from implementations.topaz.kernel.errors import ResourceExhausted
from implementations.topaz.kernel.identity import KERNEL_DIR, product_id
from implementations.topaz.kernel.meters import Meter
from implementations.topaz.kernel.primitives import table
from implementations.topaz.kernel.run import NO_INPUT, Prepared, evaluate
from implementations.topaz.kernel.values import Primitive

from ..common import COMMON_DIR
from ..common.caller_stack import DEEPER, on_caller_stack
from .compiler import compile_program
from .objects import UNBOUND
from .output import OUTPUT
from .stack import STACK_SIZES, on_big_stack

VERSION = "0.1.0"


def _dispatched(name: str):
    def marker(*args: Any) -> Any:
        raise AssertionError(f"{name} is dispatched by the topaz-tree evaluator")
    return marker


@cache
def primitives() -> dict[str, Primitive]:
    impls: dict[str, tuple[Any, bool]] = {
        row.name: (_dispatched(row.name), False)
        for row in table.rows() if row.backend and not row.alias_of}
    impls.update(OUTPUT)
    return table.build(impls)


class _TooDeep:
    """What ``prepare`` keeps when the Core IR is nested too deep for Python to compile."""


def _host_exhausted() -> ResourceExhausted:
    return ResourceExhausted("recursion-limit", "nesting too deep for the host (Python's own "
                             "recursion limit)")


class TopazTreeBackend:
    id = "topaz-tree"
    stack_bytes = STACK_SIZES[0]  # what a worker's request thread should have (bigstack.py)

    def evaluate(self, source: bytes, **kw: Any) -> Any:
        """A whole run on the topaz kernel: read, normalize, prepare, execute."""
        return evaluate(source, self, **kw)

    def product_id(self) -> str:
        return product_id(VERSION, KERNEL_DIR, Path(__file__).resolve().parent, COMMON_DIR)

    def prepare(self, program: Program) -> Prepared:
        prims = primitives()
        runner: Any = on_caller_stack(lambda: compile_program(program, prims))
        if runner is DEEPER:
            try:
                runner = on_big_stack(lambda: compile_program(program, prims))
            except RecursionError:
                runner = _TooDeep()
        return Prepared(program, artifact=runner)

    def execute(self, prepared: Prepared, input_value: Any, ctx: RunContext, meter: Meter) -> Any:
        runner = prepared.artifact
        value = UNBOUND if input_value is NO_INPUT else input_value
        out_of_memory = False
        if type(runner) is not _TooDeep:
            try:
                return on_big_stack(lambda: runner(value, ctx, meter))
            except RecursionError:
                # Python's own recursion limit, met only far past what the Lispex recursion
                # limit allows to nest: the run ends as deeper nesting would. The exception is
                # dropped here, outside the handler, so its frames can be freed.
                pass
            except MemoryError:
                # Running out of memory is not a resource outcome of the language (no meter or
                # depth limit was reached): it is the host failing, and the worker reports it as
                # such (`memory-limit`). Raised afresh outside the handler for the same reason.
                out_of_memory = True
        if out_of_memory:
            raise MemoryError("topaz-tree ran out of memory")
        raise _host_exhausted()
