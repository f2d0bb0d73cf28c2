"""Compiler: Core IR -> canonical code objects (see docs/vm.md for the instruction set).

A stack machine: every expression leaves exactly one entry (a value, or a multiple-values
outcome) on the value stack; an expression in tail position ends its code object with
``return`` or ``tail-call`` instead.

Machine-transition weights reproduce the tree interpreter's count exactly: one unit each time
the tree would enter a node (every node except a leaf operand of an application, which it reads
in place) and one per application. A node's unit is carried by the first instruction of its code,
an application's by its ``call``; the machine adds one per application it makes on its own
(``apply``, callbacks, handlers, dynamic-wind thunks, ...).
"""

from __future__ import annotations

import sys

from implementations.lispex import core_ir as ir
from implementations.lispex.scopes import MAX_NESTING

from .code import CodeObject, Compiled

LEAVES = (ir.Local, ir.Const, ir.Global, ir.Intrinsic)
# Nodes whose value is always exactly one value: no require-one needed after them.
SINGLE = (ir.Local, ir.Const, ir.Global, ir.Intrinsic, ir.Lambda)


def _single(node: ir.Node) -> bool:
    return isinstance(node, SINGLE) or (type(node) is ir.ValuesNode and len(node.args) == 1)


class Emitter:
    def __init__(self, code: CodeObject) -> None:
        self.code = code
        self.pending = 0  # weight owed to the next instruction emitted

    def emit(self, ins: tuple, span=None, extra: int = 0) -> int:
        c = self.code
        c.instrs.append(ins)
        c.spans.append(span)
        c.weights.append(self.pending + extra)
        self.pending = 0
        return len(c.instrs) - 1

    def here(self) -> int:
        return len(self.code.instrs)

    def patch(self, at: int, target: int) -> None:
        ins = self.code.instrs[at]
        self.code.instrs[at] = (ins[0], target, *ins[2:])


class Compiler:
    def __init__(self, program: ir.Program) -> None:
        self.program = program
        self.codes: list[CodeObject] = []

    def compile(self) -> Compiled:
        old = sys.getrecursionlimit()
        # Each level of Core IR nesting costs a few Python frames here; nesting is bounded by the
        # normalizer (MAX_NESTING), not by the interpreter's default limit.
        sys.setrecursionlimit(max(old, MAX_NESTING * 8 + 1000))
        try:
            forms = [self.code_for(f, "form", None, 0, False) for f in self.program.forms]
        finally:
            sys.setrecursionlimit(old)
        return Compiled(self.codes, forms, list(self.program.globals))

    def code_for(self, body: ir.Node, kind: str, name: str | None, nparams: int,
                 rest: bool) -> int:
        idx = len(self.codes)
        code = CodeObject(kind, name, nparams, rest, body.span)
        self.codes.append(code)
        self.expr(Emitter(code), body, True, True)
        return idx

    def one(self, em: Emitter, node: ir.Node) -> None:
        """A sub-expression whose value must be a single value (E320 at its span otherwise)."""
        self.expr(em, node, False, True)
        if not _single(node):
            em.emit(("require-one",), node.span)

    # The dispatch is one long method on purpose: one branch per Core IR node.
    def expr(self, em: Emitter, node: ir.Node, tail: bool, counted: bool) -> None:  # noqa: C901
        if counted:
            em.pending += 1
        t = type(node)
        if t is ir.Const:
            em.emit(("constant", node.value), node.span)
        elif t is ir.Local:
            em.emit(("load-lexical", node.depth, node.index, node.checked, node.name), node.span)
        elif t is ir.Global:
            em.emit(("load-global", node.slot, node.name), node.span)
        elif t is ir.Intrinsic:
            em.emit(("load-primitive", node.name), node.span)
        elif t is ir.Lambda:
            idx = self.code_for(node.body, "lambda", node.name, node.nparams, node.rest)
            em.emit(("make-closure", idx), node.span)
        elif t is ir.App:
            for part in node.parts:
                if isinstance(part, LEAVES):
                    self.expr(em, part, False, False)
                else:
                    self.one(em, part)
            n = len(node.args)
            if tail and node.tail:
                em.emit(("tail-call", n), node.span, extra=1)
                return
            em.emit(("call", n), node.span, extra=1)
        elif t is ir.If:
            self.one(em, node.test)
            jif = em.emit(("jump-if-false", None), node.span)
            self.expr(em, node.then, tail, True)
            if tail:
                em.patch(jif, em.here())
                self.expr(em, node.else_, tail, True)
                return
            jmp = em.emit(("jump", None), node.span)
            em.patch(jif, em.here())
            self.expr(em, node.else_, tail, True)
            em.patch(jmp, em.here())
            return
        elif t is ir.Seq:
            for e in node.exprs[:-1]:
                self.expr(em, e, False, True)
                em.emit(("discard",), e.span)
            self.expr(em, node.exprs[-1], tail, True)
            return
        elif t is ir.Let:
            for init in node.inits:
                self.one(em, init)
            em.emit(("enter-let", len(node.inits)), node.span)
            self.expr(em, node.body, tail, True)
            if not tail:
                em.emit(("leave-scope",), node.span)
            return
        elif t is ir.Letrec:
            em.emit(("enter-recursive-scope", len(node.inits)), node.span)
            for i, init in enumerate(node.inits):
                self.one(em, init)
                em.emit(("initialize-lexical", i), init.span)
            self.expr(em, node.body, tail, True)
            if not tail:
                em.emit(("leave-scope",), node.span)
            return
        elif t is ir.ValuesNode:
            for a in node.args:
                self.one(em, a)
            em.emit(("make-values", len(node.args)), node.span)
        elif t is ir.SetLocal:
            self.one(em, node.value)
            em.emit(("set-lexical", node.depth, node.index, node.name), node.span)
        elif t is ir.SetGlobal:
            self.one(em, node.value)
            em.emit(("set-global", node.slot, node.name), node.span)
        elif t is ir.DefineGlobal:
            self.one(em, node.value)
            em.emit(("define-global", node.slot, node.name), node.span)
        elif t is ir.Guard:
            self.guard(em, node, tail)
            return
        else:
            raise TypeError(f"unknown Core IR node {t.__name__}")
        if tail:
            em.emit(("return",), node.span)

    def guard(self, em: Emitter, node: ir.Guard, tail: bool) -> None:
        """Body under an installed handler; on a catch the machine unwinds to the guard and runs
        the clause code at the handler index in a new frame [env, condition]."""
        g = em.emit(("guard", None), node.span)
        self.expr(em, node.body, False, True)
        em.emit(("leave-guard",), node.span)
        end_jumps = []
        if tail:
            em.emit(("return",), node.span)
        else:
            end_jumps.append(em.emit(("jump", None), node.span))
        em.patch(g, em.here())
        out_jumps = []
        for test, body in node.clauses:
            self.one(em, test)
            if body is None:
                nxt = em.emit(("jump-if-false-else-keep", None), test.span)
                if tail:
                    em.emit(("return",), test.span)
                else:
                    out_jumps.append(em.emit(("jump", None), test.span))
            else:
                nxt = em.emit(("jump-if-false", None), test.span)
                self.expr(em, body, tail, True)
                if not tail:
                    out_jumps.append(em.emit(("jump", None), body.span))
            em.patch(nxt, em.here())
        reraise = None
        if node.else_body is not None:
            self.expr(em, node.else_body, tail, True)
        else:
            reraise = em.emit(("reraise", -1), node.span)
        if tail:
            return
        out = em.here()
        for j in out_jumps:
            em.patch(j, out)
        if reraise is not None:
            em.patch(reraise, out)  # a continuable re-raise resumes at `leave-scope`
        em.emit(("leave-scope",), node.span)
        end = em.here()
        for j in end_jumps:
            em.patch(j, end)


def compile_program(program: ir.Program) -> Compiled:
    return Compiler(program).compile()
