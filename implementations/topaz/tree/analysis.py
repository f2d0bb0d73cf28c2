"""What the compiler learns about a program before it builds closures.

* which global slots the program can ever assign (a slot no ``define``/``set!`` touches keeps the
  value it starts with, so a primitive there is a compile-time constant);
* which expressions can only ever yield exactly one value (their results need no E320 check).

Both walks are iterative: derived forms can nest Core IR far deeper than the source looks.
"""

from __future__ import annotations

from typing import Any

from implementations.topaz.kernel import core_ir as ir
from implementations.topaz.kernel.core_ir import children

# Kernel primitives that always return exactly one value (a call with the wrong argument count
# fails before returning anything). Not exhaustive on purpose: an absent name only costs a check.
SINGLE_VALUED = frozenset("""
    + - * / < <= = > >= abs min max quotient remainder modulo square expt gcd lcm
    floor ceiling round truncate exact inexact exact->inexact inexact->exact number->string
    string->number zero? positive? negative? even? odd? number? integer? rational? real?
    exact? inexact? exact-integer? not eq? eqv? equal? == != boolean? char? string? symbol?
    vector? pair? null? empty? list? procedure? bytevector? error-object?
    cons car cdr first rest cadr cddr caar cdar list length append reverse list-tail list-ref
    nth list-copy memq memv member assq assv assoc list->vector vector->list list->string
    string->list string-append string-length string-ref substring string-copy string=?
    string<? string>? string->symbol symbol->string char->integer integer->char char=?
    vector make-vector vector-ref vector-length make-list make-string error-object-message
    error-object-irritants
""".split())


def assigned_slots(program: ir.Program) -> set[int]:
    slots: set[int] = set()
    todo = list(program.forms)
    while todo:
        n = todo.pop()
        t = type(n)
        if t is ir.SetGlobal or t is ir.DefineGlobal:
            slots.add(n.slot)
        todo.extend(children(n))
    return slots


class SingleValued:
    """``single(node)``: the node can only yield one value. ``constant(node)`` is the
    compile-time primitive a node names, or None."""

    def __init__(self, constant: Any) -> None:
        self.constant = constant
        self.memo: dict[int, bool] = {}

    def __call__(self, node: Any) -> bool:
        # Follow the spine of tail positions; only its end decides.
        spine = []
        n = node
        while True:
            known = self.memo.get(id(n))
            if known is not None:
                result = known
                break
            t = type(n)
            if t is ir.If:
                if not self(n.then):
                    result = False
                    break
                spine.append(n)
                n = n.else_
                continue
            if t is ir.Seq:
                spine.append(n)
                n = n.exprs[-1]
                continue
            if t is ir.Let or t is ir.Letrec:
                spine.append(n)
                n = n.body
                continue
            spine.append(n)
            result = self._leaf(n)
            break
        for s in spine:
            self.memo[id(s)] = result
        return result

    def _leaf(self, n: Any) -> bool:
        t = type(n)
        if t in (ir.Const, ir.Local, ir.Global, ir.Intrinsic, ir.Lambda):
            return True
        if t is ir.App:
            p = self.constant(n.op)
            return p is not None and not p.backend and p.name in SINGLE_VALUED
        return False


class Scope:
    """Where a Core IR frame's slots live at run time.

    Core IR gives every ``let``, ``letrec`` and guard clause its own frame. Here they are flat:
    their slots are appended to the frame of the enclosing procedure activation (or top-level
    form). That is sound because Core IR has no loops: within one activation each binding form
    runs at most once (a second run needs a new call, hence a new frame; continuations only
    escape), so every slot is written by exactly one binding. Lookups get shallower and a
    ``let`` allocates nothing.

    One Scope per Core IR frame, linked to the enclosing one (a chain, not a copied tuple: a
    ``let*`` of twenty thousand bindings nests that deep). ``level`` is the activation it lives
    in (0 for the top-level form, +1 per enclosing lambda), ``base`` the run-time index of its
    first slot, ``size`` the slots that activation needs so far (shared by its scopes).
    """

    __slots__ = ("parent", "level", "base", "size")

    def __init__(self, parent: Scope | None, level: int, base: int, size: list[int]) -> None:
        self.parent = parent
        self.level = level
        self.base = base
        self.size = size

    @classmethod
    def top(cls) -> Scope:
        # The top level has no Core IR frame of its own; slot 0 of every run-time frame is the
        # link to the enclosing frame, so slots start at 1.
        return cls(None, 0, 1, [1])

    def address(self, depth: int, index: int) -> tuple[int, int]:
        """(frames to go out, index in that frame) of Core IR slot ``(depth, index)``."""
        s = self
        for _ in range(depth):
            s = s.parent
        return self.level - s.level, s.base + index

    def bind(self, count: int) -> Scope:
        """The scope of a new Core IR frame of ``count`` slots in the current activation."""
        base = self.size[0]
        self.size[0] += count
        return Scope(self, self.level, base, self.size)

    def procedure(self, count: int) -> Scope:
        """The scope of a lambda body whose parameters take ``count`` slots."""
        return Scope(self, self.level + 1, 1, [1 + count])


def here(n: Any, sc: Scope) -> int:
    """The slot of ``n`` when it reads a plain local of the current frame, else 0."""
    if type(n) is not ir.Local or n.checked:
        return 0
    hops, i = sc.address(n.depth, n.index)
    return i if hops == 0 else 0
