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
so the machine-transition total matches the canonical weights exactly. A constant or closure
that stays symbolic across an instruction leaves its weight with that instruction: the count
never lags behind the canonical one, where a fault, an escape or a limit would strand it.

Each executable instruction keeps its *ledger* (``Linker.ledgers``, by the instruction's id): the
canonical instructions it stands for, in canonical order, each as ``(weight, point, action)``:
the span of the point where it can fault (a variable read, a one-value check, an inline primitive
call; spans are copied per point so each is its own object) and what it does (``push``,
``local``, ``global``, ``closure``, ``real`` for a value the machine stack holds, ``check`` of
the value below, ``check-top`` of the machine stack, ``call`` of an inline primitive, ``pop``,
``own`` for the instruction's own step). The machine pays an instruction's weight before running
it; when the instruction faults part way, the ledger says what the canonical code had paid by
then (:meth:`Machine.unreached`), and when its weight passes the transition limit the ledger is
run one canonical step at a time up to the unit that passes it (:mod:`.stepwise`), so the count
and the point where a run stops are the tree interpreter's.
"""

from __future__ import annotations

from typing import Any

from implementations.lispex.span import Span
from implementations.lispex.values import NO_VALUES, Primitive

from .code import Compiled
from .treegen import TreeGen, is_kernel_call, tree_depth

(JF, JFS, RETE, RET, PUSHE, PUSHC, CALLG, CALLE, CALLX, PRIMF, REQ1, DISCARD, DISCARDE, MKVALS,
 SETL, SETG, DEFG, ENTERLET, ENTERREC, INITL, LEAVE, JUMP, GUARD, LEAVEGUARD, RERAISE, JFKEEP,
 NOP, HALT, K_CWV, K_CC, K_DW_BEFORE, K_DW, K_DW_DONE, K_HANDLERS, K_RAISE, K_GEN,
 K_UNWIND, PUSHL, CALLS) = range(39)


MAX_TREE_DEPTH = 24
TRANSFERS = ("jump", "return", "tail-call", "reraise")


def point(span: Any) -> Any:
    """A span of its own: the identity of one point where the code can fault."""
    return None if span is None else tuple.__new__(Span, span)


class Item:
    __slots__ = ("node", "real", "check", "w", "led")

    def __init__(self, node: tuple | None, w: int, real: bool = False,
                 led: list | None = None) -> None:
        self.node = node
        self.real = real
        self.check = None  # a real item's pending E320 check (its span)
        self.w = w
        # (weight, fault point, action) in canonical order; the weights sum to w
        self.led = led if led is not None else [(w, None, ("real",) if real else
                                                 ("push", node[1]))]

    def copy(self) -> Item:
        it = Item(self.node, self.w, self.real, list(self.led))
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
        self.ledgers: dict[int, list] = {}  # id(instruction) -> its ledger
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
        self.carry: list = []  # ledger of weights paid by the next instruction
        # a pending E320 check of the stack top: (span, weight, ledger)
        self.req: tuple | None = None

    # -- emission ---------------------------------------------------------------------------

    def append(self, ins: list, led: list) -> None:
        self.out.append(ins)
        self.lk.ledgers[id(ins)] = led

    def emit(self, op: int, w: int, *operands: Any, led: list | tuple = (),
             key: Any = None, act: tuple | None = None) -> list:
        """Emit ``op`` paying its own weight ``w`` (its fault point ``key``) after the operand
        ledger ``led``, and whatever earlier instructions left to pay before both."""
        pre: list = []
        if self.req is not None:
            span, rw, rled = self.req
            self.req = None
            if op == CALLG or op == CALLE:
                operands = (*operands[:-1], span)
                pre = rled
            else:
                self.append([REQ1, rw, span], rled)
        ledger = pre + self.carry + list(led)
        if w or key is not None or act is not None:
            ledger.append((w, key, act or ("own",)))
        ins = [op, sum(e[0] for e in ledger), *operands]
        self.carry = []
        self.append(ins, ledger)
        return ins

    def ev(self, node: tuple) -> Any:
        return self.lk.gen.function(node)

    def push_tree(self, it: Item) -> None:
        node = it.node
        if node[0] == "const":
            self.emit(PUSHC, 0, node[1], led=it.led)
        elif node[0] == "local":
            _, d, i, checked, name, span = node
            self.emit(PUSHL, 0, d, i + 1, checked, name, span, led=it.led)
        else:
            self.emit(PUSHE, 0, self.ev(node), led=it.led)
        it.real, it.node, it.w, it.led = True, None, 0, [(0, None, ("real",))]

    def normalize(self, keep: int = 0) -> None:
        """Make everything below the top ``keep`` items safe to leave behind: pending checks
        made, trees whose evaluation is observable pushed (in order)."""
        for it in self.state[:len(self.state) - keep]:
            if it.real:
                if it.check is not None:
                    self.need_check(it)
            elif not it.deferrable:
                self.push_tree(it)
            elif it.led:
                # It stays symbolic, but its weight is paid now, in canonical order.
                self.carry += it.led
                it.w, it.led = 0, []

    def need_check(self, it: Item) -> None:
        """The check is made by the next instruction emitted (a call makes it itself)."""
        self.flush_check()
        # The check is of the machine stack's top now; the value stays where it is.
        checks = [(w, at, ("check-top", act[1]) if act[0] == "check" else act)
                  for w, at, act in it.led if act[0] != "real"]
        self.req = (it.check, it.w, self.carry + checks)
        self.carry = []
        it.check, it.w, it.led = None, 0, [e for e in it.led if e[2][0] == "real"]

    def flush_check(self) -> None:
        if self.req is not None:
            span, w, led = self.req
            self.req = None
            self.append([REQ1, w, span], led)

    def force_top(self) -> None:
        self.normalize(1)
        it = self.state[-1]
        if it.real:
            if it.check is not None:
                self.need_check(it)
        else:
            self.push_tree(it)

    def take(self, k: int) -> tuple[list[Item], list]:
        """Pop the top ``k`` items as operands (after making the rest safe); returns them and
        their ledger."""
        self.normalize(k)
        items = self.state[len(self.state) - k:]
        del self.state[len(self.state) - k:]
        return items, [e for it in items for e in it.led]

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
        span = point(span)
        node = ("local", d, i, checked, name, span)
        self.state.append(Item(node, w, led=[(w, span if checked else None, node)]))

    def op_load_global(self, ins, w, span, labels) -> None:
        slot, name = ins[1], ins[2]
        if slot in self.lk.consts:
            self.state.append(Item(("const", self.lk.prims[name]), w))
        else:
            span = point(span)
            node = ("global", slot, name, span)
            self.state.append(Item(node, w, led=[(w, span, node)]))

    def op_load_primitive(self, ins, w, span, labels) -> None:
        self.state.append(Item(("const", self.lk.prims[ins[1]]), w))

    def op_make_closure(self, ins, w, span, labels) -> None:
        node = ("closure", ins[1])
        self.state.append(Item(node, w, led=[(w, None, node)]))

    def op_require_one(self, ins, w, span, labels) -> None:
        it = self.state[-1]
        span = point(span)
        it.w += w
        it.led = it.led + [(w, span, ("check", span))]
        if it.real:
            it.check = span
        else:
            it.node = ("req1", it.node, span)

    # -- everything else ---------------------------------------------------------------------

    def op_discard(self, ins, w, span, labels) -> None:
        (it,), led = self.take(1)
        if it.real:
            self.emit(DISCARD, w, led=led)
        elif it.deferrable:
            self.carry += led + [(w, None, ("pop",))]
        else:
            self.emit(DISCARDE, w, self.ev(it.node), led=led)

    def consumer(self, op: int, n: int, w: int, *operands: Any, key: Any = None) -> None:
        items, led = self.take(n)
        parts, nstack = self.spec(items)
        self.emit(op, w, *operands, parts, nstack, led=led, key=key)

    def op_make_values(self, ins, w, span, labels) -> None:
        self.consumer(MKVALS, ins[1], w)
        self.state.append(Item(None, 0, real=True))

    def op_set_lexical(self, ins, w, span, labels) -> None:
        self.consumer(SETL, 1, w, ins[1], ins[2])
        self.state.append(Item(("const", NO_VALUES), 0))

    def op_set_global(self, ins, w, span, labels) -> None:
        span = point(span)
        self.consumer(SETG, 1, w, ins[1], ins[2], span, key=span)
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
        (it,), led = self.take(1)
        if it.real:
            e = self.emit(JFS, w, it.check, None, led=led)
        else:
            e = self.emit(JF, w, self.ev(it.node), None, led=led)
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
        (it,), led = self.take(1)
        if it.real:
            self.emit(RET, w, led=led)
        else:
            self.emit(RETE, w, self.ev(it.node), led=led)
        self.state = []

    def op_call(self, ins, w, span, labels) -> None:
        self.call(ins[1], w, span, False)

    def op_tail_call(self, ins, w, span, labels) -> None:
        self.call(ins[1], w, span, True)
        self.state = []

    def call(self, n: int, w: int, span: Any, tail: bool) -> None:
        span = point(span)  # where st.site points while this call's primitive runs
        items = self.state[len(self.state) - n - 1:]
        op = items[0]
        fn = op.node[1] if not op.real and op.node[0] == "const" else None
        if is_kernel_call(fn, n):
            if all(not it.real for it in items[1:]) and \
                    max((tree_depth(it.node) for it in items[1:]), default=0) < MAX_TREE_DEPTH:
                # Building a tree evaluates nothing yet: what lies below stays as it is.
                del self.state[len(self.state) - n - 1:]
                led = [e for it in items for e in it.led] + [(w, span, ("call", fn, n, span))]
                tree = Item(("call", fn, tuple(it.node for it in items[1:]), span),
                            sum(e[0] for e in led), led=led)
                if tail:
                    self.emit(RETE, 0, self.ev(tree.node), led=tree.led)
                else:
                    self.state.append(tree)
                return
            items, led = self.take(n + 1)
            nodes = []
            nstack = 0
            for it in items[1:]:
                if it.real:
                    nodes.append(("stack", nstack, it.check))
                    nstack += 1
                else:
                    nodes.append(it.node)
            f = self.lk.gen.function(("call", fn, tuple(nodes), span), nstack)
            self.emit(PRIMF, w, f, nstack, tail, led=led, key=span, act=("call", fn, n, span))
            if not tail:
                self.state.append(Item(None, 0, real=True))
            return
        items, led = self.take(n + 1)
        if not any(it.real for it in items):
            evs = tuple(self.ev(it.node) for it in items[1:])
            if op.node[0] == "global":
                _, slot, name, gspan = op.node
                self.emit(CALLG, w, slot, name, gspan, evs, n, span, tail, None, led=led,
                          key=span)
            else:
                self.emit(CALLE, w, self.ev(op.node), evs, n, span, tail, None, led=led,
                          key=span)
        elif all(it.real for it in items):
            checks = tuple((k, it.check) for k, it in enumerate(items) if it.check is not None)
            self.emit(CALLS, w, n, checks, span, tail, led=led, key=span)
        else:
            parts, nstack = self.spec(items)
            self.emit(CALLX, w, parts, nstack, n, span, tail, led=led, key=span)
        if not tail:
            self.state.append(Item(None, 0, real=True))
