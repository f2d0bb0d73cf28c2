"""The bytecode VM: Core IR compiled to code objects, run on a machine with its own stacks.

``prepare`` compiles (the canonical bytecode and its ``bytecode_id`` are fixed there);
``execute`` links the code for the run (a fresh global table, evaluators bound to it) and runs
each top-level form. See docs/vm.md.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any

from implementations.lispex.context import RunContext
from implementations.lispex.core_ir import Program
from implementations.lispex.identity import KERNEL_DIR, product_id
from implementations.lispex.meters import Meter
from implementations.lispex.primitives import table
from implementations.lispex.run import NO_INPUT, Prepared
from implementations.lispex.values import Primitive

from .compiler import compile_program
from .machine import UNBOUND, Machine

VERSION = "0.1.0"


def _marker(name: str):
    def machine_only(*args: Any) -> Any:
        raise AssertionError(f"{name} is dispatched by the VM")
    return machine_only


@cache
def primitives() -> dict[str, Primitive]:
    impls = {row.name: (_marker(row.name), False)
             for row in table.rows() if row.backend and not row.alias_of}
    return table.build(impls)


class VmBackend:
    id = "vm"

    def product_id(self) -> str:
        return product_id(VERSION, KERNEL_DIR, Path(__file__).resolve().parent)

    def prepare(self, program: Program) -> Prepared:
        compiled = compile_program(program)
        return Prepared(program, identities={"bytecode_id": compiled.bytecode_id()},
                        artifact=compiled)

    def disassemble(self, prepared: Prepared) -> str:
        from .disasm import disassemble

        return disassemble(prepared.artifact)

    def execute(self, prepared: Prepared, input_value: Any, ctx: RunContext, meter: Meter) -> Any:
        machine = Machine(prepared.artifact, primitives(), ctx, meter,
                          UNBOUND if input_value is NO_INPUT else input_value)
        return machine.run_all()
