"""Buffers for the Python source the code generator writes, and the final assembly.

The generated program is one function ``_program(_rt, _fuel, _input)`` whose locals hold the
run's state (the fuel counter, the current site, the global variables), so that every Lispex
procedure, a function nested in it, reaches them as fast closure cells. Each nested function
is generated into its own :class:`Fn` and spliced into its parent where its ``def`` belongs.

A call to a kernel primitive that may fail is preceded in the text by a marker naming its site;
:func:`render` removes the markers and records the (line, column) of each such call, which is
how a fault raised inside the primitive finds its site again from the traceback.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from implementations.topaz.kernel.values import NIL

MARK_OPEN = "\x00"
MARK_CLOSE = "\x01"
_MARK = re.compile("\x00([0-9]+)\x01")

# Python refuses more than 20 statically nested blocks (loops, try) in one function and more
# than 100 levels of indentation in a file. Deeper Lispex nesting is moved into a function
# defined at the top of the current one (see Blocks.outline), which starts again near the left
# margin; only what still cannot fit (lambdas nested ~90 deep) is a build fault.
MAX_BLOCKS = 16
DEEP = 80


def mark(site: int) -> str:
    return f"{MARK_OPEN}{site}{MARK_CLOSE}"


class Fn:
    """One Python function being written: its lines (level, text) relative to its body."""

    def __init__(self, name: str, params: list[str], parent: Fn | None, base: int = 1) -> None:
        self.name = name
        self.params = params
        self.parent = parent
        self.base = base  # indentation level of the body in the final source
        self.top: list[tuple[int, str]] = []  # nested defs placed first in the body
        self.lines: list[tuple[int, str]] = []
        self.level = 0
        self.blocks = 0
        self.owned: set[str] = set(params)
        self.outer_assigned: set[str] = set()
        self.loop: Any = None  # the loop a self tail call may `continue`, if any
        self._opened: list[int] = []

    def emit(self, text: str) -> None:
        self.lines.append((self.level, text))

    def open(self, header: str) -> None:
        """Start an indented block under ``header``."""
        self.emit(header)
        self.level += 1
        self._opened.append(len(self.lines))

    def close(self) -> None:
        """End the innermost block (with a `pass` if nothing went into it)."""
        if len(self.lines) == self._opened.pop():
            self.emit("pass")
        self.level -= 1

    def assign(self, name: str, owner: Fn) -> None:
        """Note an assignment to ``name``, which lives in ``owner``'s frame."""
        if owner is not self:
            self.outer_assigned.add(name)

    def deep(self) -> bool:
        """Whether opening one more block here comes close to Python's indentation limit."""
        return self.level > 0 and self.base + self.level >= DEEP

    def body(self) -> list[tuple[int, str]]:
        return self.top + self.lines

    def splice(self, child: Fn, header: str, at_top: bool = False) -> None:
        """Insert ``child`` as a nested def at the current position (or first in the body)."""
        out = self.top if at_top else self.lines
        level = 0 if at_top else self.level
        out.append((level, header))
        base = level + 1
        if child.outer_assigned:
            out.append((base, "nonlocal " + ", ".join(sorted(child.outer_assigned))))
        body = child.body()
        if not body:
            out.append((base, "pass"))
        for lv, text in body:
            out.append((base + lv, text))


@dataclass
class Pools:
    """Objects the generated code names: constants, primitives, sites (spans)."""

    consts: list[Any] = field(default_factory=list)
    const_ids: dict[int, str] = field(default_factory=dict)
    prims: dict[str, tuple[str, str]] = field(default_factory=dict)  # name -> (fn, object) names
    namespace: dict[str, Any] = field(default_factory=dict)
    sites: list[Any] = field(default_factory=lambda: [None])
    site_ids: dict[int, int] = field(default_factory=dict)

    def const(self, value: Any) -> str:
        """Python text for a constant (literal when it is one, a pool name otherwise)."""
        t = type(value)
        if t is bool:
            return "True" if value else "False"
        if t is int and -(1 << 62) < value < (1 << 62):
            return repr(value) if value >= 0 else f"({value!r})"
        if value is NIL:
            return "NIL"
        key = id(value)
        name = self.const_ids.get(key)
        if name is None:
            name = self.const_ids[key] = f"K{len(self.consts)}"
            self.consts.append(value)  # keeps the object (and so its id) alive
            self.namespace[name] = value
        return name

    def prim(self, name: str, prim: Any) -> tuple[str, str]:
        """(function name, object name) under which the generated code reaches a primitive."""
        names = self.prims.get(name)
        if names is None:
            n = len(self.prims)
            names = self.prims[name] = (f"P{n}", f"Q{n}")
            self.namespace[names[0]] = prim.fn
            self.namespace[names[1]] = prim
        return names

    def site(self, node: Any) -> int:
        """The site index of a node's span (0 when it has none)."""
        span = getattr(node, "span", None)
        if span is None:
            return 0
        key = id(node)
        n = self.site_ids.get(key)
        if n is None:
            n = self.site_ids[key] = len(self.sites)
            self.sites.append(span)
        return n


def render(root: Fn) -> tuple[str, dict[tuple[int, int], int]]:
    """The final source text and the (line, column) -> site table of marked calls."""
    out: list[str] = []
    positions: dict[tuple[int, int], int] = {}
    header = "def _program(" + ", ".join(root.params) + "):"
    out.append(header)
    for level, text in root.body():
        indent = " " * (level + 1)
        if MARK_OPEN in text:
            line_no = len(out) + 1
            clean: list[str] = []
            pos = 0
            width = len(indent)
            for m in _MARK.finditer(text):
                clean.append(text[pos:m.start()])
                width += m.start() - pos
                positions[(line_no, width)] = int(m.group(1))
                pos = m.end()
            clean.append(text[pos:])
            text = "".join(clean)
        out.append(indent + text)
    return "\n".join(out) + "\n", positions
