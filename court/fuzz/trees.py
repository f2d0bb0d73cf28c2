"""Programs as trees of S-expressions, read by the Lispex reader and written back as text: what
the reducer, the mutator and the generator take programs apart with."""

from __future__ import annotations

from typing import Any

from implementations.lispex.printer import write_string
from implementations.lispex.reader import read_source
from implementations.lispex.syntax import SAtom, SVector

# A tree is ["atom", text] | ["list", [children], tail_or_None] | ["vec", [children]].
Tree = list

def parse(source: str) -> list[Tree]:
    def conv(node: Any) -> Tree:
        if type(node) is SAtom:
            return ["atom", write_string(node.value)]
        if type(node) is SVector:
            return ["vec", [conv(x) for x in node.items]]
        return ["list", [conv(x) for x in node.items],
                conv(node.tail) if node.tail is not None else None]
    return [conv(d) for d in read_source(source.encode("utf-8"), "reduce").datums]


def render_node(t: Tree) -> str:
    if t[0] == "atom":
        return t[1]
    if t[0] == "vec":
        return "#(" + " ".join(render_node(x) for x in t[1]) + ")"
    inner = " ".join(render_node(x) for x in t[1])
    if t[2] is not None:
        inner += " . " + render_node(t[2])
    return "(" + inner + ")"


def render(forms: list[Tree]) -> str:
    return "\n".join(render_node(f) for f in forms) + "\n"
