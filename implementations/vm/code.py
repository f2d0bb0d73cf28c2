"""Code objects: the canonical bytecode of a compiled program, its serialisation and bytecode_id.

A program compiles to a list of code objects: one per top-level form and one per ``lambda``.
Each code object holds instructions as tuples ``(opname, operand...)`` with, in parallel, the
source span and the machine-transition weight of every instruction. The canonical text leaves
spans and local names out (as the Core IR text does), so ``bytecode_id`` names what the program
does, not how it was spelled; weights are in, because they decide when a meter runs out.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from typing import Any

from implementations.lispex.printer import write_string
from implementations.lispex.span import Span

BYTECODE_HASH_DOMAIN = b"lispex/bytecode-hash/v0\x00"
CANONICAL_FORMAT = "lispex.bytecode.canonical/v0"

# opname -> how many leading operands the canonical text shows (the rest are debug data:
# names for messages). Constants are written with `write`; jump targets are instruction indexes.
OPERANDS: dict[str, int] = {
    "constant": 1,
    "load-lexical": 3,  # depth index checked
    "load-global": 1,  # slot (shown by name)
    "load-primitive": 1,  # name
    "make-closure": 1,  # code index
    "require-one": 0,
    "discard": 0,
    "make-values": 1,
    "set-lexical": 2,
    "set-global": 1,
    "define-global": 1,
    "enter-let": 1,
    "enter-recursive-scope": 1,
    "initialize-lexical": 1,
    "leave-scope": 0,
    "jump": 1,
    "jump-if-false": 1,
    "call": 1,
    "tail-call": 1,
    "guard": 1,  # handler (clause code) index
    "return": 0,
    # Added to the 22: guard bookkeeping and the test-only cond/guard clause.
    "leave-guard": 0,
    "reraise": 1,  # continuation index, or -1 in tail position
    "jump-if-false-else-keep": 1,
}

GLOBAL_OPS = ("load-global", "set-global", "define-global")


@dataclass
class CodeObject:
    kind: str  # "form" or "lambda"
    name: str | None
    nparams: int
    rest: bool
    span: Span | None = None  # of the form or lambda body (the first error site of a form)
    instrs: list[tuple] = field(default_factory=list)
    spans: list[Span | None] = field(default_factory=list)
    weights: list[int] = field(default_factory=list)


@dataclass
class Compiled:
    codes: list[CodeObject]
    forms: list[int]  # the code index of each top-level form, in order
    globals: list[str]  # slot -> name

    def canonical_text(self) -> str:
        return canonical_text(self)

    def bytecode_id(self) -> str:
        return hashlib.sha256(BYTECODE_HASH_DOMAIN + canonical_text(self).encode("utf-8")) \
            .hexdigest()


def operand_text(op: str, operands: tuple, globals_: list[str]) -> list[str]:
    shown = operands[:OPERANDS[op]]
    if op == "constant":
        return [write_string(shown[0])]
    if op in GLOBAL_OPS:
        return [globals_[shown[0]]]
    if op == "load-lexical":
        return [str(shown[0]), str(shown[1]), "#t" if shown[2] else "#f"]
    return [str(x) for x in shown]


def instruction_text(ins: tuple, globals_: list[str]) -> str:
    return " ".join([ins[0], *operand_text(ins[0], ins[1:], globals_)])


def canonical_text(c: Compiled) -> str:
    lines: list[Any] = [CANONICAL_FORMAT, f"forms {' '.join(map(str, c.forms))}"]
    for i, code in enumerate(c.codes):
        lines.append(f"code {i} {code.kind} {code.name or '-'} {code.nparams} "
                     f"{'#t' if code.rest else '#f'}")
        for j, ins in enumerate(code.instrs):
            lines.append(f"{j} {code.weights[j]} {instruction_text(ins, c.globals)}")
    return "\n".join(lines) + "\n"
