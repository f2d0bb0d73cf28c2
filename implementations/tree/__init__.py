"""The tree-walking interpreter: walks Core IR with an explicit control stack."""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any

from implementations.lispex.context import RunContext
from implementations.lispex.core_ir import Program
from implementations.lispex.guest_library import GENERATORS
from implementations.lispex.identity import KERNEL_DIR, product_id
from implementations.lispex.meters import Meter
from implementations.lispex.primitives import table
from implementations.lispex.run import NO_INPUT, Prepared
from implementations.lispex.values import NO_VALUES, Primitive

from .machine import UNBOUND, Machine

VERSION = "0.1.0"


def _marker(name: str):
    def backend_only(*args: Any) -> Any:
        raise AssertionError(f"{name} is dispatched by the machine")
    return backend_only


@cache
def primitives() -> dict[str, Primitive]:
    impls = {row.name: (GENERATORS.get(row.name) or _marker(row.name), False)
             for row in table.rows() if row.backend and not row.alias_of}
    return table.build(impls)


class TreeBackend:
    id = "tree"

    def product_id(self) -> str:
        return product_id(VERSION, KERNEL_DIR, Path(__file__).resolve().parent)

    def prepare(self, program: Program) -> Prepared:
        return Prepared(program)

    def execute(self, prepared: Prepared, input_value: Any, ctx: RunContext, meter: Meter) -> Any:
        program = prepared.program
        machine = Machine(program, primitives(), ctx, meter,
                          UNBOUND if input_value is NO_INPUT else input_value)
        result: Any = NO_VALUES
        for form in program.forms:
            result = machine.run(form)
        return result
