"""Core IR nodes (docs/core-ir.md) and their canonical text, ``lispex.core.canonical/v0``.

The canonical text and ``core_ir_id`` are the contract between lineages: two front ends that
read a program the same way produce the same bytes here.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from typing import Any

from .printer import write_text

CORE_HASH_DOMAIN = b"lispex/core-hash/v0\x00"


@dataclass(slots=True, eq=False)
class Const:
    value: Any
    span: Any = None


@dataclass(slots=True, eq=False)
class Local:
    depth: int
    index: int
    name: str
    checked: bool
    span: Any = None


@dataclass(slots=True, eq=False)
class Global:
    slot: int
    name: str
    span: Any = None


@dataclass(slots=True, eq=False)
class Intrinsic:
    name: str
    span: Any = None


@dataclass(slots=True, eq=False)
class If:
    test: Any
    then: Any
    else_: Any
    span: Any = None


@dataclass(slots=True, eq=False)
class Lambda:
    name: str | None
    nparams: int
    rest: bool
    body: Any
    span: Any = None


@dataclass(slots=True, eq=False)
class Seq:
    exprs: list
    span: Any = None


@dataclass(slots=True, eq=False)
class SetLocal:
    depth: int
    index: int
    value: Any
    span: Any = None
    name: str = ""


@dataclass(slots=True, eq=False)
class SetGlobal:
    slot: int
    name: str
    value: Any
    span: Any = None


@dataclass(slots=True, eq=False)
class DefineGlobal:
    slot: int
    name: str
    value: Any
    span: Any = None


@dataclass(slots=True, eq=False)
class Let:
    inits: list
    body: Any
    span: Any = None


@dataclass(slots=True, eq=False)
class Letrec:
    inits: list
    body: Any
    span: Any = None


@dataclass(slots=True, eq=False)
class ValuesNode:
    args: list
    span: Any = None


@dataclass(slots=True, eq=False)
class App:
    op: Any
    args: list
    tail: bool = False
    span: Any = None
    parts: list = field(default_factory=list)

    def __post_init__(self) -> None:
        self.parts = [self.op, *self.args]


@dataclass(slots=True, eq=False)
class Guard:
    body: Any
    clauses: list  # (test, body or None)
    else_body: Any
    span: Any = None


@dataclass
class Program:
    forms: list
    globals: list[str]
    file: str
    pragmas: list[str] = field(default_factory=list)

    def canonical_text(self) -> str:
        return "".join(canonical(f) + "\n" for f in self.forms)

    def core_ir_id(self) -> str:
        return hashlib.sha256(CORE_HASH_DOMAIN + self.canonical_text().encode("utf-8")).hexdigest()


def _b(flag: bool) -> str:
    return "#t" if flag else "#f"


def canonical(node: Any) -> str:  # noqa: C901
    """The canonical text of one node, built with an explicit stack (Core IR may nest deeper
    than Python's recursion allows)."""
    out: list[str] = []
    work: list = [node]
    while work:
        n = work.pop()
        if type(n) is str:
            out.append(n)
            continue
        t = type(n)
        if t is Const:
            out.append("(const " + write_text(n.value) + ")")
        elif t is Local:
            out.append(f"(local {n.depth} {n.index})")
        elif t is Global:
            out.append(f"(global {n.name})")
        elif t is Intrinsic:
            out.append(f"(intrinsic {n.name})")
        else:
            parts: list
            if t is If:
                parts = ["(if ", n.test, " ", n.then, " ", n.else_, ")"]
            elif t is Lambda:
                parts = [f"(lambda {n.name or '-'} {n.nparams} {_b(n.rest)} ", n.body, ")"]
            elif t is Seq:
                parts = ["(begin", *_spaced(n.exprs), ")"]
            elif t is SetLocal:
                parts = [f"(set-local {n.depth} {n.index} ", n.value, ")"]
            elif t is SetGlobal:
                parts = [f"(set-global {n.name} ", n.value, ")"]
            elif t is DefineGlobal:
                parts = [f"(define-global {n.name} ", n.value, ")"]
            elif t is Let or t is Letrec:
                word = "let" if t is Let else "letrec"
                inits = _spaced(n.inits)
                parts = [f"({word} (", *(inits[1:] if inits else []), ") ", n.body, ")"]
            elif t is ValuesNode:
                parts = ["(values", *_spaced(n.args), ")"]
            elif t is App:
                parts = ["(tail-app" if n.tail else "(app", *_spaced(n.parts), ")"]
            elif t is Guard:
                parts = ["(guard ", n.body, " ("]
                for i, (test, body) in enumerate(n.clauses):
                    if i:
                        parts.append(" ")
                    parts += ["(", test, " ", body if body is not None else "-", ")"]
                parts += [") ", n.else_body if n.else_body is not None else "-", ")"]
            else:
                raise TypeError(f"not a Core IR node: {n!r}")
            work.extend(reversed(parts))
    return "".join(out)


def _spaced(items: list) -> list:
    out: list = []
    for x in items:
        out.append(" ")
        out.append(x)
    return out


def children(n: Any) -> list:
    """The nodes directly under ``n``, in evaluation order (the walks of the kernel and the
    back ends share it)."""
    t = type(n)
    if t is App:
        return n.parts
    if t is If:
        return [n.test, n.then, n.else_]
    if t is Lambda:
        return [n.body]
    if t is Seq:
        return n.exprs
    if t is Let or t is Letrec:
        return [*n.inits, n.body]
    if t is ValuesNode:
        return n.args
    if t is SetLocal or t is SetGlobal or t is DefineGlobal:
        return [n.value]
    if t is Guard:
        out = [n.body]
        for test, body in n.clauses:
            out.append(test)
            if body is not None:
                out.append(body)
        if n.else_body is not None:
            out.append(n.else_body)
        return out
    return []
