"""Disassembler: the canonical bytecode of a compiled program, one instruction a line.

Each line is ``index weight opname operands ; line:column`` (the span of the expression the
instruction belongs to); jump targets are instruction indexes within the same code object.
"""

from __future__ import annotations

from .code import Compiled, instruction_text


def disassemble(compiled: Compiled) -> str:
    forms = {idx: n for n, idx in enumerate(compiled.forms)}
    out: list[str] = []
    for i, code in enumerate(compiled.codes):
        if i in forms:
            head = f"code {i}: top-level form {forms[i] + 1}"
        else:
            rest = " + rest" if code.rest else ""
            head = f"code {i}: lambda {code.name or '-'} ({code.nparams} parameter(s){rest})"
        out.append(head)
        for j, ins in enumerate(code.instrs):
            span = code.spans[j]
            where = f"{span.line}:{span.column}" if span is not None else "-"
            text = instruction_text(ins, compiled.globals)
            if ins[0] == "load-lexical" or ins[0] == "set-lexical":
                text += f"  ({ins[-1]})"  # the variable's name, for the reader
            out.append(f"  {j:4d} {code.weights[j]:2d}  {text:<40} ; {where}")
        out.append("")
    return "\n".join(out)
