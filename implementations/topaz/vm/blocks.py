"""Code generation for what makes Python blocks: `if`, `guard`, loops and outlined pieces.

A *sink* says what to do with a value once computed: return it (tail position), store it in a
temporary, store it and leave a ``while True`` wrapper (a long chain of nested `if`s is written
flat that way: each branch ends in ``break``), or drop it. With a sink that ends control flow
(return, break) an `if` needs no `else` block, so chains of `cond`/`and`/`or` stay flat.

Python allows at most 20 nested blocks in a function: a `guard` or loop that would pass the
budget is generated in a nested function of its own (outlined); a loop iteration asked for
from inside comes back to the loop as an ``Again`` marker.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import TYPE_CHECKING, Any, NamedTuple

from implementations.topaz.kernel import core_ir as ir

from .emit import MAX_BLOCKS, Fn

if TYPE_CHECKING:
    from .codegen import Gen


class X(NamedTuple):
    """Generated expression text; ``stable`` when evaluating it later gives the same value."""

    text: str
    stable: bool


class Frame:
    __slots__ = ("node", "names", "owner")

    def __init__(self, node: Any, names: list, owner: Fn) -> None:
        self.node = node
        self.names = names
        self.owner = owner


class Loop:
    """A loop a self tail call of ``lam`` can re-enter: directly (`continue`) or, from an
    outlined piece of the body, by returning an :class:`Again` marker."""

    __slots__ = ("lam", "params", "again")

    def __init__(self, lam: ir.Lambda, params: list[str], again: bool = False) -> None:
        self.lam = lam
        self.params = params
        self.again = again


class Sink(ABC):
    """Where the value of a generated expression goes (returned, assigned, discarded...)."""

    terminates = False
    discard = False
    tail = False

    @abstractmethod
    def put(self, g: Gen, text: str) -> None:
        """Emit the code that delivers ``text`` to this sink."""


class Ret(Sink):
    terminates = True
    tail = True

    def put(self, g: Gen, text: str) -> None:
        g.fn.emit(f"return {text}")


class SetBreak(Sink):
    terminates = True

    def __init__(self, name: str) -> None:
        self.name = name

    def put(self, g: Gen, text: str) -> None:
        g.fn.emit(f"{self.name} = {text}")
        g.fn.emit("break")


class SetTemp(Sink):
    def __init__(self, name: str) -> None:
        self.name = name

    def put(self, g: Gen, text: str) -> None:
        g.fn.emit(f"{self.name} = {text}")


class Discard(Sink):
    discard = True

    def put(self, g: Gen, text: str) -> None:
        pass


def chain(node: Any) -> int:
    """How deeply `if`s nest along the value path of ``node``."""
    n = 0
    while True:
        t = type(node)
        if t is ir.Seq:
            node = node.exprs[-1]
        elif t is ir.Let or t is ir.Letrec:
            node = node.body
        elif t is ir.If:
            return n + 1 + max(chain(node.then), chain(node.else_))
        else:
            return n


class _ValueRet(Ret):
    """Return a value from an outlined piece that is not in tail position."""

    tail = False


class Blocks:
    """Mixed into the generator."""

    fn: Fn
    frames: list

    def crowded(self, blocks: int) -> bool:
        """Whether the next construct (opening ``blocks`` loop/try blocks) must be outlined."""
        fn = self.fn
        return (fn.blocks > 0 and fn.blocks + blocks > MAX_BLOCKS) or fn.deep()

    def outline(self, node: Any, sink: Sink) -> None:
        """Generate ``node`` in a function of its own, defined first in the current function:
        it sees the same variables (as closure cells), Python's block limit is per function,
        and its body starts near the left margin again. A loop iteration asked for inside
        comes back as an Again marker."""
        name = self.fresh("O")
        child = Fn(name, ["d"], self.fn, base=self.fn.base + 1)
        outer_loop = self.fn.loop if sink.tail else None
        if outer_loop is not None:
            child.loop = Loop(outer_loop.lam, outer_loop.params, again=True)
        with self.inside(child):
            self.into(node, Ret() if sink.tail else _ValueRet())
        self.fn.splice(child, f"def {name}(d):", at_top=True)
        call = f"{name}(d)"
        if sink.discard:
            self.fn.emit(call)
        elif sink.tail and outer_loop is not None and not outer_loop.again:
            r = self.fresh("t")
            self.fn.emit(f"{r} = {call}")
            self.fn.emit(f"if type({r}) is Again:")
            self.rebind(outer_loop.params, [f"{r}.args[{i}]" for i in
                                            range(len(outer_loop.params))], indent=1)
            self.fn.emit(" continue")
            sink.put(self, r)
        else:
            sink.put(self, call)

    def rebind(self, params: list[str], values: list[str], indent: int = 0) -> None:
        if params:
            pad = " " * indent
            self.fn.emit(f"{pad}{', '.join(params)}, = {', '.join(values)},")

    def wrapped(self, node: Any, tmp: str) -> None:
        """Flatten a deep chain of `if`s: `while True:` ... `tmp = v; break` ... ."""
        if self.crowded(1):
            self.outline(node, SetTemp(tmp))
            return
        self.fn.open("while True:")
        self.fn.blocks += 1
        self.into(node, SetBreak(tmp))
        self.fn.close()
        self.fn.blocks -= 1

    # -- guard ----------------------------------------------------------------------------------

    def guard(self, node: ir.Guard, sink: Sink) -> None:
        if self.crowded(3):
            self.outline(node, sink)
            return
        fn = self.fn
        # Not "g" for the handler: g<slot> names a global, and a fresh g<n> would shadow one.
        h0, g, x, e = self.fresh("h"), self.fresh("gh"), self.fresh("x"), self.fresh("e")
        result = sink.name if isinstance(sink, SetTemp) else self.fresh("t")
        fn.emit(f"{h0} = _rt.h")
        fn.emit(f"{g} = GuardHandler()")
        fn.emit(f"_rt.h = ({g}, {h0})")
        fn.open("try:")
        fn.open("try:")
        fn.blocks += 3
        self.into(node.body, Discard() if sink.discard else SetTemp(result))
        fn.close()
        fn.emit(f"except LispexError as {e}:")
        fn.emit(f" _fault({e})")
        fn.emit(f"_rt.h = {h0}")
        fn.close()
        fn.open(f"except GuardEscape as {x}:")
        fn.emit(f"if {x}.handler is not {g}: raise")
        fn.emit(f"_rt.h = {h0}")
        var = self.fresh("v")
        fn.emit(f"{var} = {x}.payload")
        self.frames.append(Frame(node, [var], fn))
        try:
            self.clauses(node, 0, x, sink)
        finally:
            self.frames.pop()
        fn.close()
        fn.blocks -= 3
        if sink.terminates:
            sink.put(self, result)

    def clauses(self, node: ir.Guard, i: int, x: str, sink: Sink) -> None:
        fn = self.fn
        if i == len(node.clauses):
            if node.else_body is not None:
                self.into(node.else_body, sink)
            elif sink.discard:
                fn.emit(f"_reraise(d, {x})")
            else:
                sink.put(self, f"_reraise(d, {x})")
            return
        test, body = node.clauses[i]
        if body is None:
            tv = self.stash(self.single(test))
            cond = f"{tv.text} is not False"
        else:
            cond = self.test(test)
        fn.open(f"if {cond}:")
        if body is None:
            sink.put(self, tv.text)
        else:
            self.into(body, sink)
        fn.close()
        if sink.terminates:
            self.clauses(node, i + 1, x, sink)
        else:
            fn.open("else:")
            self.clauses(node, i + 1, x, sink)
            fn.close()

    # -- if -------------------------------------------------------------------------------------

    def if_into(self, node: ir.If, sink: Sink) -> None:
        if self.crowded(0):
            self.outline(node, sink)
            return
        fn = self.fn
        cond = self.test(node.test)
        if sink.terminates:
            then, else_ = node.then, node.else_
            if chain(then) > chain(else_):
                cond, then, else_ = f"not ({cond})", else_, then
            fn.open(f"if {cond}:")
            self.into(then, sink)
            fn.close()
            self.into(else_, sink)
            return
        fn.open(f"if {cond}:")
        self.into(node.then, sink)
        fn.close()
        mark = len(fn.lines)
        fn.open("else:")
        self.into(node.else_, sink)
        fn.close()
        if fn.lines[-1] == (fn.level + 1, "pass") and len(fn.lines) == mark + 2:
            del fn.lines[-2:]  # an empty else
