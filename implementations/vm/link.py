"""Linker: canonical code objects -> the executable form the machine runs, once per run.

The canonical bytecode is a plain stack machine. The linker walks each code object with a
symbolic stack whose entries are either *real* (on the machine's value stack) or *trees*
(pure instructions not yet executed). Pure instructions only grow trees; the first instruction
that transfers control, calls a procedure or changes the environment consumes the trees it
needs as operands (each becomes one generated evaluator, see :mod:`treegen`) and first pushes
any earlier tree whose evaluation could be observed out of order. Constants, known primitives
and closure creation are unobservable, so they may stay symbolic across a call; that is what
lets ``(+ (f x) (g y))`` call ``+`` inline after both calls return.

Global slots bound to a primitive that no ``define``/``set!`` in the program ever touches are
constants (nothing else can rebind a global), so calls to them are inlined.

Weights travel with the trees and are paid by whichever executable instruction evaluates them,
so the machine-transition total matches the canonical weights exactly.
"""

from __future__ import annotations

from typing import Any

from implementations.lispex.values import NO_VALUES, Primitive

from .code import Compiled
from .treegen import TreeGen, is_kernel_call, tree_depth

(JF, JFS, RETE, RET, PUSHE, PUSHC, CALLG, CALLE, CALLX, PRIMF, REQ1, DISCARD, DISCARDE, MKVALS,
 SETL, SETG, DEFG, ENTERLET, ENTERREC, INITL, LEAVE, JUMP, GUARD, LEAVEGUARD, RERAISE, JFKEEP,
 NOP, HALT, K_CWV, K_CC, K_DW_BEFORE, K_DW, K_DW_DONE, K_HANDLERS, K_RAISE, K_GEN,
 K_UNWIND, PUSHL, CALLS) = range(39)


MAX_TREE_DEPTH = 24
TRANSFERS = ("jump", "return", "tail-call", "reraise")


class Item:
    __slots__ = ("node", "real", "check", "w")

    def __init__(self, node: tuple | None, w: int, real: bool = False) -> None:
        self.node = node
        self.real = real
        self.check = None  # a real item's pending E320 check (its span)
        self.w = w

    def copy(self) -> Item:
        it = Item(self.node, self.w, self.real)
        it.check = self.check
        return it

    @property
    def deferrable(self) -> bool:
        return not self.real and self.node[0] in ("const", "closure")


def constant_globals(compiled: Compiled, prims: dict[str, Primitive]) -> set[int]:
    assigned = {ins[1] for code in compiled.codes for ins in code.instrs
                if ins[0] in ("set-global", "define-global")}
    return {slot for slot, name in enumerate(compiled.globals)
            if name in prims and slot not in assigned}


class Linker:
    def __init__(self, compiled: Compiled, prims: dict[str, Primitive], gv: list, st: Any,
                 ctx: Any) -> None:
        self.compiled = compiled
        self.prims = prims
        self.consts = constant_globals(compiled, prims)
        self.ins: list[list] = [[] for _ in compiled.codes]
        self.lams = [(self.ins[i], -1 - c.nparams if c.rest else c.nparams, c.name)
                     for i, c in enumerate(compiled.codes)]
        self.gen = TreeGen(gv, st, ctx, self.lams)

    def link(self) -> list[list]:
        for i in range(len(self.compiled.codes)):
            CodeLinker(self, i).run()
        return [self.ins[i] for i in self.compiled.forms]


class CodeLinker:
    def __init__(self, linker: Linker, index: int) -> None:
        self.lk = linker
        self.code = linker.compiled.codes[index]
        self.out = linker.ins[index]
        self.state: list[Item] = []
        self.carry = 0  # weight of dropped items, paid by the next instruction
        self.req: tuple | None = None  # a pending E320 check (span, weight) of the stack top

    # -- emission ---------------------------------------------------------------------------

    def emit(self, op: int, w: int, *operands: Any) -> list:
        if self.req is not None:
            span, rw = self.req
            self.req = None
            if op == CALLG or op == CALLE:
                operands = (*operands[:-1], span)
                w += rw
            else:
                self.out.append([REQ1, rw, span])
        ins = [op, w + self.carry, *operands]
        self.carry = 0
        self.out.append(ins)
        return ins

    def ev(self, node: tuple) -> Any:
        return self.lk.gen.function(node)

    def push_tree(self, it: Item) -> None:
        node = it.node
        if node[0] == "const":
            self.emit(PUSHC, it.w, node[1])
        elif node[0] == "local":
            _, d, i, checked, name, span = node
            self.emit(PUSHL, it.w, d, i + 1, checked, name, span)
        else:
            self.emit(PUSHE, it.w, self.ev(node))
        it.real, it.node, it.w = True, None, 0

    def normalize(self, keep: int = 0) -> None:
        """Make everything below the top ``keep`` items safe to leave behind: pending checks
        made, trees whose evaluation is observable pushed (in order)."""
        for it in self.state[:len(self.state) - keep]:
            if it.real:
                if it.check is not None:
                    self.need_check(it)
            elif not it.deferrable:
                self.push_tree(it)

    def need_check(self, it: Item) -> None:
        """The check is made by the next instruction emitted (a call makes it itself)."""
        self.flush_check()
        self.req = (it.check, it.w)
        it.check, it.w = None, 0

    def flush_check(self) -> None:
        if self.req is not None:
            span, w = self.req
            self.req = None
            self.out.append([REQ1, w, span])

    def force_top(self) -> None:
        self.normalize(1)
        it = self.state[-1]
        if it.real:
            if it.check is not None:
                self.need_check(it)
        else:
            self.push_tree(it)

    def take(self, k: int) -> tuple[list[Item], int]:
        """Pop the top ``k`` items as operands (after making the rest safe); returns them and
        their total weight."""
        self.normalize(k)
        items = self.state[len(self.state) - k:]
        del self.state[len(self.state) - k:]
        return items, sum(it.w for it in items)

    def spec(self, items: list[Item]) -> tuple[tuple, int]:
        parts = tuple((0, it.check) if it.real else (1, self.ev(it.node)) for it in items)
        return parts, sum(1 for it in items if it.real)

    # -- the walk ---------------------------------------------------------------------------

    def run(self) -> None:
        code = self.code
        labels: dict[int, list[Item] | None] = {}
        for ins in code.instrs:
            if ins[0] in ("jump", "jump-if-false", "jump-if-false-else-keep", "guard") or \
                    (ins[0] == "reraise" and ins[1] >= 0):
                labels[ins[1]] = None
        self.patches: list[tuple[list, int, int]] = []
        pos_map: dict[int, int] = {}
        fall = True
        for j, ins in enumerate(code.instrs):
            if j in labels:
                if fall:
                    if self.state:
                        self.force_top()
                    self.flush_check()  # it belongs to the path falling in, not the label
                    if self.carry:
                        self.emit(NOP, 0)
                recorded = labels[j]
                if recorded is not None:
                    if fall and [it.real for it in recorded] != [it.real for it in self.state]:
                        raise AssertionError(f"linker: stack shapes differ at label {j}")
                    self.state = [it.copy() for it in recorded]
                pos_map[j] = len(self.out)
            op = ins[0]
            fall = op not in TRANSFERS
            getattr(self, "op_" + op.replace("-", "_"))(ins, code.weights[j], code.spans[j],
                                                         labels)
        for ins, pos, label in self.patches:
            ins[pos] = pos_map[label]

    def jump_to(self, ins: list, pos: int, label: int, labels: dict,
                state: list[Item]) -> None:
        """Operand ``pos`` of ``ins`` becomes the executable index of canonical ``label``, where
        the symbolic stack will be ``state``."""
        self.patches.append((ins, pos, label))
        if labels.get(label) is None:
            labels[label] = [it.copy() for it in state]

    # -- pure instructions -------------------------------------------------------------------

    def op_constant(self, ins, w, span, labels) -> None:
        self.state.append(Item(("const", ins[1]), w))

    def op_load_lexical(self, ins, w, span, labels) -> None:
        _, d, i, checked, name = ins
        self.state.append(Item(("local", d, i, checked, name, span), w))

    def op_load_global(self, ins, w, span, labels) -> None:
        slot, name = ins[1], ins[2]
        if slot in self.lk.consts:
            self.state.append(Item(("const", self.lk.prims[name]), w))
        else:
            self.state.append(Item(("global", slot, name, span), w))

    def op_load_primitive(self, ins, w, span, labels) -> None:
        self.state.append(Item(("const", self.lk.prims[ins[1]]), w))

    def op_make_closure(self, ins, w, span, labels) -> None:
        self.state.append(Item(("closure", ins[1]), w))

    def op_require_one(self, ins, w, span, labels) -> None:
        it = self.state[-1]
        it.w += w
        if it.real:
            it.check = span
        else:
            it.node = ("req1", it.node, span)

    # -- everything else ---------------------------------------------------------------------

    def op_discard(self, ins, w, span, labels) -> None:
        (it,), wt = self.take(1)
        if it.real:
            self.emit(DISCARD, w + wt)
        elif it.deferrable:
            self.carry += w + wt
        else:
            self.emit(DISCARDE, w + wt, self.ev(it.node))

    def consumer(self, op: int, n: int, w: int, *operands: Any) -> None:
        items, wt = self.take(n)
        parts, nstack = self.spec(items)
        self.emit(op, w + wt, *operands, parts, nstack)

    def op_make_values(self, ins, w, span, labels) -> None:
        self.consumer(MKVALS, ins[1], w)
        self.state.append(Item(None, 0, real=True))

    def op_set_lexical(self, ins, w, span, labels) -> None:
        self.consumer(SETL, 1, w, ins[1], ins[2])
        self.state.append(Item(("const", NO_VALUES), 0))

    def op_set_global(self, ins, w, span, labels) -> None:
        self.consumer(SETG, 1, w, ins[1], ins[2], span)
        self.state.append(Item(("const", NO_VALUES), 0))

    def op_define_global(self, ins, w, span, labels) -> None:
        self.consumer(DEFG, 1, w, ins[1])
        self.state.append(Item(("const", NO_VALUES), 0))

    def op_enter_let(self, ins, w, span, labels) -> None:
        self.consumer(ENTERLET, ins[1], w)

    def op_enter_recursive_scope(self, ins, w, span, labels) -> None:
        self.normalize()
        self.emit(ENTERREC, w, ins[1])

    def op_initialize_lexical(self, ins, w, span, labels) -> None:
        self.consumer(INITL, 1, w, ins[1])

    def op_leave_scope(self, ins, w, span, labels) -> None:
        top = self.state[-1]
        if top.real or top.node[0] != "const":
            self.force_top()  # its value may read the scope being left
        else:
            self.normalize(1)
        self.emit(LEAVE, w)

    def op_jump(self, ins, w, span, labels) -> None:
        self.force_top()
        self.jump_to(self.emit(JUMP, w, None), 2, ins[1], labels, self.state)

    def op_jump_if_false(self, ins, w, span, labels) -> None:
        (it,), wt = self.take(1)
        if it.real:
            e = self.emit(JFS, w + wt, it.check, None)
        else:
            e = self.emit(JF, w + wt, self.ev(it.node), None)
        self.jump_to(e, 3, ins[1], labels, self.state)

    def op_jump_if_false_else_keep(self, ins, w, span, labels) -> None:
        self.force_top()
        self.jump_to(self.emit(JFKEEP, w, None), 2, ins[1], labels, self.state[:-1])

    def op_guard(self, ins, w, span, labels) -> None:
        self.normalize()
        self.jump_to(self.emit(GUARD, w, None), 2, ins[1], labels, self.state)

    def op_leave_guard(self, ins, w, span, labels) -> None:
        self.force_top()
        self.emit(LEAVEGUARD, w)

    def op_reraise(self, ins, w, span, labels) -> None:
        self.normalize()
        if ins[1] < 0:
            self.emit(RERAISE, w, -1)
            return
        self.jump_to(self.emit(RERAISE, w, None), 2, ins[1], labels,
                     self.state + [Item(None, 0, real=True)])

    def op_return(self, ins, w, span, labels) -> None:
        (it,), wt = self.take(1)
        if it.real:
            self.emit(RET, w + wt)
        else:
            self.emit(RETE, w + wt, self.ev(it.node))
        self.state = []

    def op_call(self, ins, w, span, labels) -> None:
        self.call(ins[1], w, span, False)

    def op_tail_call(self, ins, w, span, labels) -> None:
        self.call(ins[1], w, span, True)
        self.state = []

    def call(self, n: int, w: int, span: Any, tail: bool) -> None:
        items = self.state[len(self.state) - n - 1:]
        op = items[0]
        fn = op.node[1] if not op.real and op.node[0] == "const" else None
        if is_kernel_call(fn, n):
            if all(not it.real for it in items[1:]) and \
                    max((tree_depth(it.node) for it in items[1:]), default=0) < MAX_TREE_DEPTH:
                # Building a tree evaluates nothing yet: what lies below stays as it is.
                del self.state[len(self.state) - n - 1:]
                wt = sum(it.w for it in items)
                tree = Item(("call", fn, tuple(it.node for it in items[1:]), span), w + wt)
                if tail:
                    self.emit(RETE, tree.w, self.ev(tree.node))
                else:
                    self.state.append(tree)
                return
            items, wt = self.take(n + 1)
            nodes = []
            nstack = 0
            for it in items[1:]:
                if it.real:
                    nodes.append(("stack", nstack, it.check))
                    nstack += 1
                else:
                    nodes.append(it.node)
            f = self.lk.gen.function(("call", fn, tuple(nodes), span), nstack)
            self.emit(PRIMF, w + wt, f, nstack, tail)
            if not tail:
                self.state.append(Item(None, 0, real=True))
            return
        items, wt = self.take(n + 1)
        if not any(it.real for it in items):
            evs = tuple(self.ev(it.node) for it in items[1:])
            if op.node[0] == "global":
                _, slot, name, gspan = op.node
                self.emit(CALLG, w + wt, slot, name, gspan, evs, n, span, tail, None)
            else:
                self.emit(CALLE, w + wt, self.ev(op.node), evs, n, span, tail, None)
        elif all(it.real for it in items):
            checks = tuple((k, it.check) for k, it in enumerate(items) if it.check is not None)
            self.emit(CALLS, w + wt, n, checks, span, tail)
        else:
            parts, nstack = self.spec(items)
            self.emit(CALLX, w + wt, parts, nstack, n, span, tail)
        if not tail:
            self.state.append(Item(None, 0, real=True))
