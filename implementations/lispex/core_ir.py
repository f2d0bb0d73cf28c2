"""Core IR: the contract every back end consumes.

The normalizer turns datums into these nodes with every name resolved: a local variable is a
lexical address ``(depth, index)`` (frames counted outwards from the innermost), a global is a
slot in the program's global table, and a hidden intrinsic names a kernel primitive directly so
user definitions cannot capture it. Nodes carry their source span for diagnostics; the canonical
text leaves spans (and local names) out, so ``core_ir_id`` names the meaning of a program, not its
spelling. See docs/core-ir.md.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from typing import Any

from .span import Span

CORE_HASH_DOMAIN = b"lispex/core-hash/v0\x00"
CANONICAL_FORMAT = "lispex.core.canonical/v0"


class Node:
    __slots__ = ("span",)


class Const(Node):
    __slots__ = ("value",)

    def __init__(self, value: Any, span: Span | None) -> None:
        self.value = value
        self.span = span


class Local(Node):
    """Read of a local: ``depth`` frames out, slot ``index``. ``checked`` when the slot lives in a
    letrec frame and may still be uninitialised (reading it then is E321)."""

    __slots__ = ("depth", "index", "name", "checked")

    def __init__(self, depth: int, index: int, name: str, checked: bool, span: Span | None) -> None:
        self.depth = depth
        self.index = index
        self.name = name
        self.checked = checked
        self.span = span


class Global(Node):
    __slots__ = ("slot", "name")

    def __init__(self, slot: int, name: str, span: Span | None) -> None:
        self.slot = slot
        self.name = name
        self.span = span


class Intrinsic(Node):
    """A hidden reference to a kernel primitive (cons, append, list->vector, eqv?)."""

    __slots__ = ("name",)

    def __init__(self, name: str, span: Span | None) -> None:
        self.name = name
        self.span = span


class If(Node):
    __slots__ = ("test", "then", "else_")

    def __init__(self, test: Node, then: Node, else_: Node, span: Span | None) -> None:
        self.test = test
        self.then = then
        self.else_ = else_
        self.span = span


class Lambda(Node):
    """A procedure: a new frame of ``nparams`` slots, plus one for the rest list if ``rest``."""

    __slots__ = ("nparams", "rest", "body", "name")

    def __init__(self, nparams: int, rest: bool, body: Node, name: str | None,
                 span: Span | None) -> None:
        self.nparams = nparams
        self.rest = rest
        self.body = body
        self.name = name
        self.span = span


class Seq(Node):
    __slots__ = ("exprs",)

    def __init__(self, exprs: list[Node], span: Span | None) -> None:
        self.exprs = exprs
        self.span = span


class SetLocal(Node):
    __slots__ = ("depth", "index", "value", "name")

    def __init__(self, depth: int, index: int, value: Node, name: str, span: Span | None) -> None:
        self.depth = depth
        self.index = index
        self.value = value
        self.name = name
        self.span = span


class SetGlobal(Node):
    __slots__ = ("slot", "value", "name")

    def __init__(self, slot: int, value: Node, name: str, span: Span | None) -> None:
        self.slot = slot
        self.value = value
        self.name = name
        self.span = span


class DefineGlobal(Node):
    __slots__ = ("slot", "value", "name")

    def __init__(self, slot: int, value: Node, name: str, span: Span | None) -> None:
        self.slot = slot
        self.value = value
        self.name = name
        self.span = span


class Let(Node):
    """Evaluate ``inits`` left to right in the current frame, then run ``body`` in a new frame
    holding their values."""

    __slots__ = ("inits", "body")

    def __init__(self, inits: list[Node], body: Node, span: Span | None) -> None:
        self.inits = inits
        self.body = body
        self.span = span


class Letrec(Node):
    """A new frame of uninitialised slots; ``inits`` run in order inside it, each assigned as it
    completes (letrec* semantics), then ``body``."""

    __slots__ = ("inits", "body")

    def __init__(self, inits: list[Node], body: Node, span: Span | None) -> None:
        self.inits = inits
        self.body = body
        self.span = span


class ValuesNode(Node):
    __slots__ = ("args",)

    def __init__(self, args: list[Node], span: Span | None) -> None:
        self.args = args
        self.span = span


class App(Node):
    """Application: operator then operands, left to right. ``tail`` when the call is in tail
    position of its procedure body (or of a top-level form)."""

    __slots__ = ("op", "args", "tail", "parts")

    def __init__(self, op: Node, args: list[Node], span: Span | None, tail: bool = False) -> None:
        self.op = op
        self.args = args
        self.span = span
        self.tail = tail
        self.parts = [op, *args]  # derived, for back ends: everything evaluated, in order


class Guard(Node):
    """``(guard (var clause...) body...)``: ``clauses`` and ``else_body`` run in a new one-slot
    frame holding the condition. A clause is ``(test, body)``; ``body`` None means the clause
    yields the test's value. With no match and no else, the condition is raised again."""

    __slots__ = ("body", "clauses", "else_body")

    def __init__(self, body: Node, clauses: list[tuple[Node, Node | None]],
                 else_body: Node | None, span: Span | None) -> None:
        self.body = body
        self.clauses = clauses
        self.else_body = else_body
        self.span = span


@dataclass
class Program:
    forms: list[Node]
    globals: list[str]  # slot -> name
    file: str
    pragmas: list[str] = field(default_factory=list)

    def canonical_text(self) -> str:
        return canonical_text(self)

    def core_ir_id(self) -> str:
        return hashlib.sha256(CORE_HASH_DOMAIN + canonical_text(self).encode("utf-8")).hexdigest()


def node_text(node: Node) -> str:
    """Canonical text of one node (span-free, local names omitted)."""
    out: list[str] = []
    _write(node, out)
    return "".join(out)


def canonical_text(program: Program) -> str:
    out: list[str] = []
    for f in program.forms:
        _write(f, out)
        out.append("\n")
    return "".join(out)


def _write(node: Node, out: list[str]) -> None:
    """Append the canonical text of ``node`` to ``out``.

    An explicit stack of strings and nodes, so deep programs do not recurse. It is popped from
    the end: a node's pieces are pushed last piece first. Every program's id is computed by
    every implementation, so leaves are written at once and no per-node lists are built.
    """
    from .printer import write_string

    emit = out.append
    stack: list[Any] = [node]
    push = stack.append
    pop = stack.pop
    while stack:
        n = pop()
        t = type(n)
        if t is str:
            emit(n)
        elif t is Local:
            emit(f"(local {n.depth} {n.index})")
        elif t is Const:
            emit(f"(const {write_string(n.value)})")
        elif t is Global:
            emit(f"(global {n.name})")
        elif t is App:
            emit("(app " if not n.tail else "(tail-app ")
            push(")")
            for a in reversed(n.args):
                push(a)
                push(" ")
            push(n.op)
        elif t is If:
            emit("(if ")
            push(")")
            push(n.else_)
            push(" ")
            push(n.then)
            push(" ")
            push(n.test)
        elif t is Lambda:
            emit(f"(lambda {n.name or '-'} {n.nparams} {'#t' if n.rest else '#f'} ")
            push(")")
            push(n.body)
        elif t is Intrinsic:
            emit(f"(intrinsic {n.name})")
        elif t is Seq or t is ValuesNode:
            emit("(begin" if t is Seq else "(values")
            push(")")
            for x in reversed(n.exprs if t is Seq else n.args):
                push(x)
                push(" ")
        elif t is SetLocal:
            emit(f"(set-local {n.depth} {n.index} ")
            push(")")
            push(n.value)
        elif t is SetGlobal or t is DefineGlobal:
            emit(f"(set-global {n.name} " if t is SetGlobal else f"(define-global {n.name} ")
            push(")")
            push(n.value)
        elif t is Let or t is Letrec:
            emit("(let (" if t is Let else "(letrec (")
            push(")")
            push(n.body)
            push(") ")
            inits = n.inits
            for i in range(len(inits) - 1, -1, -1):
                push(inits[i])
                if i:
                    push(" ")
        elif t is Guard:
            emit("(guard ")
            push(")")
            push(n.else_body if n.else_body is not None else "-")
            push(") ")
            clauses = n.clauses
            for i in range(len(clauses) - 1, -1, -1):
                test, body = clauses[i]
                push(")")
                push(body if body is not None else "-")
                push(" ")
                push(test)
                push(" (" if i else "(")
            push(" (")
            push(n.body)
        else:
            raise TypeError(f"not a Core IR node: {n!r}")
