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


def _const_text(value: Any) -> str:
    from .printer import write_string

    return write_string(value)


def node_text(node: Node) -> str:
    """Canonical text of one node (span-free, local names omitted)."""
    out: list[str] = []
    # Explicit stack of strings and nodes, so deep programs do not recurse.
    stack: list[Any] = [node]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            out.append(item)
            continue
        parts = _parts(item)
        for p in reversed(parts):
            stack.append(p)
    return "".join(out)


def _seq(items: list[Any]) -> list[Any]:
    parts: list[Any] = []
    for x in items:
        parts.append(" ")
        parts.append(x)
    return parts


def _parts(n: Node) -> list[Any]:
    t = type(n)
    if t is Const:
        return [f"(const {_const_text(n.value)})"]
    if t is Local:
        return [f"(local {n.depth} {n.index})"]
    if t is Global:
        return [f"(global {n.name})"]
    if t is Intrinsic:
        return [f"(intrinsic {n.name})"]
    if t is If:
        return ["(if", *_seq([n.test, n.then, n.else_]), ")"]
    if t is Lambda:
        head = f"(lambda {n.name or '-'} {n.nparams} {'#t' if n.rest else '#f'} "
        return [head, n.body, ")"]
    if t is Seq:
        return ["(begin", *_seq(n.exprs), ")"]
    if t is SetLocal:
        return [f"(set-local {n.depth} {n.index} ", n.value, ")"]
    if t is SetGlobal:
        return [f"(set-global {n.name} ", n.value, ")"]
    if t is DefineGlobal:
        return [f"(define-global {n.name} ", n.value, ")"]
    if t is Let:
        return ["(let (", *_seq(n.inits)[1:], ") ", n.body, ")"]
    if t is Letrec:
        return ["(letrec (", *_seq(n.inits)[1:], ") ", n.body, ")"]
    if t is ValuesNode:
        return ["(values", *_seq(n.args), ")"]
    if t is App:
        return ["(app " if not n.tail else "(tail-app ", n.op, *_seq(n.args), ")"]
    if t is Guard:
        parts: list[Any] = ["(guard ", n.body, " ("]
        for i, (test, body) in enumerate(n.clauses):
            parts += [" " if i else "", "(", test, " ", body if body is not None else "-", ")"]
        parts += [") ", n.else_body if n.else_body is not None else "-", ")"]
        return parts
    raise TypeError(f"not a Core IR node: {n!r}")


def canonical_text(program: Program) -> str:
    return "".join(node_text(f) + "\n" for f in program.forms)
