"""What the code generator needs to know about a whole program before it writes a line.

* globals: which are constant primitives (never defined or assigned), which are defined exactly
  once and never assigned (their value is fixed once bound), and which of those hold a lambda;
* locals: which slots are ever assigned with ``set!`` (their reads must be taken in order),
  which letrec slots hold a lambda for good (calls through them are direct Python calls);
* procedures: which can run their self tail calls as a ``while`` loop, which may return a
  trampoline marker or several values (a caller of a known procedure skips the checks
  otherwise);
* named-let loops in tail position that can run inline as a ``while`` loop in the enclosing
  function instead of as a procedure.

Frames are identified by the node that makes them (Lambda, Let, Letrec, Guard), a variable by
``(id(frame node), index)``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from implementations.topaz.kernel import core_ir as ir
from implementations.topaz.kernel.primitives.table import row_map

# Kernel primitives known to return exactly one value: a caller needs no multiple-values check
# on their result. Any primitive not listed is checked (a few return zero or two values).
SINGLE_PRIMS = frozenset("""
+ - * / < <= = > >= abs quotient remainder modulo min max square expt gcd lcm exact inexact
exact->inexact floor ceiling round truncate number->string string->number
car cdr cons caar cadr cdar cddr caddr cdddr list length append reverse list-ref list-tail
list-copy memq memv member assq assv assoc list->vector vector->list list->string string->list
null? pair? not eq? eqv? equal? zero? positive? negative? even? odd? number? integer?
exact? inexact? exact-integer? symbol? string? vector? procedure? boolean? char? list?
vector-ref vector-length make-vector vector vector-copy string-length string-ref
string-append substring string-copy string->symbol symbol->string char->integer integer->char
string=? string<? string>? char=? char<? char>? error-object? error-object-message
error-object-irritants make-string make-list first rest nth empty? ==
""".split())

# Primitives done in place with an exact-integer test on each variable operand (see calls.py).
INT_OPS = frozenset({"+", "-", "*", "<", ">", "<=", ">=", "=", "zero?", "modulo"})

# Control primitives (implemented by this back end) by what they may return in tail position.
BACKEND_SINGLE = frozenset({"map", "filter", "fold-left", "fold-right", "reduce", "any?", "all?",
                            "vector-map", "string-map"})
BACKEND_TAILCALL = frozenset({"apply", "call-with-values"})


@dataclass
class GlobalInfo:
    defines: int = 0
    sets: int = 0
    first_form: int = -1  # index of the top-level form of the (first) definition
    lam: ir.Lambda | None = None  # the lambda a single definition binds


@dataclass
class LambdaInfo:
    inner_lambda: bool = False  # holds a lambda that captures variables
    loop: bool = False  # self tail calls run as `continue`
    may_tc: bool = False
    may_mv: bool = False
    self_calls: int = 0
    closed: bool = True  # reads and assigns no local variable of an enclosing frame


@dataclass
class Analysis:
    program: ir.Program
    prim_names: frozenset
    globals: dict[int, GlobalInfo] = field(default_factory=dict)
    mutable: set = field(default_factory=set)
    letrec_lambda: dict = field(default_factory=dict)  # var key -> Lambda
    all_lambda_letrecs: set = field(default_factory=set)  # id(Letrec) whose inits are lambdas
    lambdas: dict = field(default_factory=dict)  # id(Lambda) -> LambdaInfo
    inline_loops: set = field(default_factory=set)  # id(App) run as an inline loop
    int_uses: dict = field(default_factory=dict)  # var key -> uses as an arithmetic operand

    # -- globals --------------------------------------------------------------------------------

    def const_prim(self, node: Any) -> str | None:
        """The primitive a Global or Intrinsic node always denotes, if it always does."""
        if type(node) is ir.Intrinsic:
            return node.name
        if type(node) is ir.Global:
            g = self.globals.get(node.slot)
            name = node.name
            if name in self.prim_names and (g is None or (g.defines == 0 and g.sets == 0)):
                return name
        return None

    def stable_global(self, slot: int) -> GlobalInfo | None:
        """Info of a global bound once for good (not a primitive, not `input`), else None."""
        g = self.globals.get(slot)
        if g is None or g.defines != 1 or g.sets != 0:
            return None
        name = self.program.globals[slot]
        if name in self.prim_names or name == "input":
            return None
        return g


def analyse(program: ir.Program, prim_names: frozenset) -> Analysis:
    """Recurses over the Core IR: run it where deep Python recursion is safe (on_big_stack)."""
    a = Analysis(program, prim_names)
    for i, form in enumerate(program.forms):
        _Walker(a, i).walk(form, [])
    _Tails(a).run()
    return a


class _Walker:
    """First pass: globals, assigned locals, letrec lambdas, inner-lambda flags, self calls."""

    def __init__(self, a: Analysis, form_index: int) -> None:
        self.a = a
        self.form = form_index
        self.lams: list[ir.Lambda] = []  # enclosing lambdas, innermost last

    def free(self, frame: Any, frames: list) -> None:
        """A variable of ``frame`` is used here: every lambda inside that frame is not closed."""
        for lam in reversed(self.lams):
            if _within(frame, lam, frames):
                break
            self.a.lambdas[id(lam)].closed = False

    def walk(self, node: Any, frames: list) -> None:
        a = self.a
        t = type(node)
        if t is ir.DefineGlobal:
            g = a.globals.setdefault(node.slot, GlobalInfo())
            g.defines += 1
            if g.first_form < 0:
                g.first_form = self.form
                g.lam = node.value if type(node.value) is ir.Lambda else None
            self.walk(node.value, frames)
        elif t is ir.SetGlobal:
            a.globals.setdefault(node.slot, GlobalInfo()).sets += 1
            self.walk(node.value, frames)
        elif t is ir.SetLocal:
            fr = frames[-1 - node.depth]
            a.mutable.add((id(fr), node.index))
            self.free(fr, frames)
            self.walk(node.value, frames)
        elif t is ir.Local:
            self.free(frames[-1 - node.depth], frames)
        elif t is ir.Lambda:
            info = a.lambdas.setdefault(id(node), LambdaInfo())
            self.lams.append(node)
            self.walk(node.body, frames + [node])
            self.lams.pop()
            if not info.closed:
                # It captures variables: the enclosing procedures must not reuse their frames
                # from one loop iteration to the next.
                for lam in self.lams:
                    a.lambdas[id(lam)].inner_lambda = True
        elif t is ir.Let:
            for x in node.inits:
                self.walk(x, frames)
            self.walk(node.body, frames + [node])
        elif t is ir.Letrec:
            inner = frames + [node]
            if node.inits and all(type(x) is ir.Lambda for x in node.inits):
                a.all_lambda_letrecs.add(id(node))
            for i, x in enumerate(node.inits):
                if type(x) is ir.Lambda:
                    a.letrec_lambda[(id(node), i)] = x
                self.walk(x, inner)
            self.walk(node.body, inner)
        elif t is ir.Guard:
            self.walk(node.body, frames)
            inner = frames + [node]
            for test, body in node.clauses:
                self.walk(test, inner)
                if body is not None:
                    self.walk(body, inner)
            if node.else_body is not None:
                self.walk(node.else_body, inner)
        elif t is ir.App:
            op = node.op
            if type(op) in (ir.Global, ir.Intrinsic) and op.name in INT_OPS:
                for x in node.args:
                    if type(x) is ir.Local:
                        key = (id(frames[-1 - x.depth]), x.index)
                        a.int_uses[key] = a.int_uses.get(key, 0) + 1
            for p in node.parts:
                self.walk(p, frames)
        elif t is ir.If:
            self.walk(node.test, frames)
            self.walk(node.then, frames)
            self.walk(node.else_, frames)
        elif t is ir.Seq:
            for x in node.exprs:
                self.walk(x, frames)
        elif t is ir.ValuesNode:
            for x in node.args:
                self.walk(x, frames)


def _within(frame: Any, lam: ir.Lambda, frames: list) -> bool:
    """Whether ``frame`` is ``lam``'s own frame or one made inside it."""
    inside = False
    for f in frames:
        if f is lam:
            inside = True
        if f is frame:
            return inside
    return False


def drop_mutable_letrec_lambdas(a: Analysis) -> None:
    for key in list(a.letrec_lambda):
        if key in a.mutable:
            del a.letrec_lambda[key]


class _Tails:
    """Second pass: loops, inline named lets, and what each procedure may return."""

    def __init__(self, a: Analysis) -> None:
        self.a = a

    def run(self) -> None:
        a = self.a
        drop_mutable_letrec_lambdas(a)
        for i, form in enumerate(a.program.forms):
            self.scan(form, [], i)
        # A procedure loops when it has no inner lambda (a loop would share their captured
        # variables between iterations) and calls itself in tail position at least once.
        for info in a.lambdas.values():
            info.loop = not info.inner_lambda and info.self_calls > 0
        for i, form in enumerate(a.program.forms):
            self.results(form, [], i)

    # which callee a tail App's operator denotes (None: unknown at compile time)
    def target(self, op: Any, frames: list, form: int) -> ir.Lambda | None:
        a = self.a
        if type(op) is ir.Global:
            g = a.stable_global(op.slot)
            return g.lam if g is not None else None
        if type(op) is ir.Local:
            fr = frames[-1 - op.depth]
            return a.letrec_lambda.get((id(fr), op.index))
        return None

    def inline_candidate(self, app: ir.App, frames: list) -> ir.Lambda | None:
        """The loop lambda of ``((letrec ((loop (lambda ...))) loop) arg ...)`` in tail
        position, when it can run inline: every use of `loop` is a tail self call."""
        op = app.op
        if not app.tail or type(op) is not ir.Letrec or len(op.inits) != 1:
            return None
        lam = op.inits[0]
        body = op.body
        if type(lam) is not ir.Lambda or lam.rest or len(app.args) != lam.nparams:
            return None
        if type(body) is not ir.Local or body.depth != 0 or body.index != 0:
            return None
        key = (id(op), 0)
        if key in self.a.mutable or self.a.lambdas[id(lam)].inner_lambda:
            return None
        if not _only_self_tail_calls(lam.body, op, lam, 1):
            return None
        return lam

    def scan(self, node: Any, frames: list, form: int, lam: ir.Lambda | None = None) -> None:
        """Count self tail calls per lambda and pick the inline loops."""
        t = type(node)
        if t is ir.App:
            cand = self.inline_candidate(node, frames)
            if cand is not None:
                self.a.inline_loops.add(id(node))
                for p in node.args:
                    self.scan(p, frames, form, lam)
                self.scan(cand.body, frames + [node.op, cand], form, None)
                return
            if node.tail and lam is not None and self.target(node.op, frames, form) is lam \
                    and not lam.rest and len(node.args) == lam.nparams:
                self.a.lambdas[id(lam)].self_calls += 1
            for p in node.parts:
                self.scan(p, frames, form, lam)
            return
        if t is ir.Lambda:
            self.scan(node.body, frames + [node], form, node)
            return
        for child, inner in _children(node, frames):
            self.scan(child, inner, form, lam)

    def results(self, node: Any, frames: list, form: int) -> None:
        """Fill may_tc / may_mv of every lambda."""
        t = type(node)
        if t is ir.Lambda:
            info = self.a.lambdas[id(node)]
            tc, mv = self.tail(node.body, frames + [node], form, node if info.loop else None)
            info.may_tc, info.may_mv = tc, mv
        for child, inner in _children(node, frames, lambdas=True):
            self.results(child, inner, form)

    def tail(self, node: Any, frames: list, form: int, loop: ir.Lambda | None) -> tuple:
        """(may return a TailCall, may return several values) for ``node`` in tail position;
        ``loop`` is the lambda whose self tail calls are `continue`."""
        t = type(node)
        if t is ir.If:
            a = self.tail(node.then, frames, form, loop)
            b = self.tail(node.else_, frames, form, loop)
            return a[0] or b[0], a[1] or b[1]
        if t is ir.Seq:
            return self.tail(node.exprs[-1], frames, form, loop)
        if t is ir.Let or t is ir.Letrec:
            return self.tail(node.body, frames + [node], form, loop)
        if t is ir.Guard:
            tc, mv = False, value_may_mv(self.a, node.body)
            inner = frames + [node]
            for _test, body in node.clauses:
                if body is not None:
                    x = self.tail(body, inner, form, loop)
                    tc, mv = tc or x[0], mv or x[1]
            if node.else_body is not None:
                x = self.tail(node.else_body, inner, form, loop)
                tc, mv = tc or x[0], mv or x[1]
            else:
                mv = True  # a continuable re-raise returns whatever the handler returns
            return tc, mv
        if t is ir.ValuesNode:
            return False, len(node.args) != 1
        if t in (ir.SetLocal, ir.SetGlobal, ir.DefineGlobal):
            return False, True
        if t is not ir.App:
            return False, False
        if id(node) in self.a.inline_loops:
            lam = node.op.inits[0]
            return self.tail(lam.body, frames + [node.op, lam], form, lam)
        if loop is not None and self.target(node.op, frames, form) is loop \
                and len(node.args) == loop.nparams:
            return False, False
        prim = self.a.const_prim(node.op)
        if prim is not None and prim_accepts(prim, len(node.args)):
            return tail_prim_result(prim, len(node.args))
        return True, True


def prim_accepts(name: str, n: int) -> bool:
    row = row_map()[name]
    if row.alias_of:
        row = row_map()[row.alias_of]
    return n >= row.min and (row.max < 0 or n <= row.max)


def backend_row(name: str) -> bool:
    row = row_map()[name]
    if row.alias_of:
        row = row_map()[row.alias_of]
    return row.backend


def canonical(name: str) -> str:
    row = row_map()[name]
    return row.alias_of or name


def tail_prim_result(name: str, n: int) -> tuple:
    """(may be a TailCall, may be several values) for an application of primitive ``name``."""
    name = canonical(name)
    if backend_row(name):
        if name in BACKEND_TAILCALL:
            return True, True
        if name == "values":
            return False, n != 1
        if name == "raise":
            return False, False
        return False, name not in BACKEND_SINGLE
    return False, name not in SINGLE_PRIMS


def value_may_mv(a: Analysis, node: Any) -> bool:
    """Whether ``node`` evaluated in a value (non-tail) position may yield several values."""
    t = type(node)
    if t in (ir.Const, ir.Local, ir.Global, ir.Lambda, ir.Intrinsic):
        return False
    if t is ir.ValuesNode:
        return len(node.args) != 1
    if t is ir.If:
        return value_may_mv(a, node.then) or value_may_mv(a, node.else_)
    if t is ir.Seq:
        return value_may_mv(a, node.exprs[-1])
    if t is ir.Let or t is ir.Letrec:
        return value_may_mv(a, node.body)
    if t is ir.App:
        prim = a.const_prim(node.op)
        if prim is not None and prim_accepts(prim, len(node.args)):
            return tail_prim_result(prim, len(node.args))[1]
        return True
    return True


def _only_self_tail_calls(node: Any, frame: Any, lam: ir.Lambda, depth: int) -> bool:
    """Every reference to slot 0 of ``frame`` (``depth`` frames out at ``node``) is the
    operator of a tail application with ``lam``'s arity, outside any nested inline-loop shape."""
    t = type(node)
    if t is ir.Local:
        return not (node.depth == depth and node.index == 0)
    if t is ir.SetLocal and node.depth == depth and node.index == 0:
        return False
    if t is ir.App:
        op = node.op
        if type(op) is ir.Local and op.depth == depth and op.index == 0:
            if not node.tail or len(node.args) != lam.nparams:
                return False
            return all(_only_self_tail_calls(x, frame, lam, depth) for x in node.args)
        if type(op) is ir.Letrec and node.tail and _mentions(op, depth):
            return False  # a nested named let calling the outer loop: keep it simple
    for child, extra in _children_depth(node):
        if not _only_self_tail_calls(child, frame, lam, depth + extra):
            return False
    return True


def _mentions(node: Any, depth: int) -> bool:
    t = type(node)
    if t is ir.Local:
        return node.depth == depth and node.index == 0
    if t is ir.SetLocal and node.depth == depth and node.index == 0:
        return True
    return any(_mentions(c, depth + extra) for c, extra in _children_depth(node))


def _children_depth(node: Any) -> list[tuple[Any, int]]:
    """Children with how many frames each adds around it."""
    t = type(node)
    if t is ir.App:
        return [(p, 0) for p in node.parts]
    if t is ir.If:
        return [(node.test, 0), (node.then, 0), (node.else_, 0)]
    if t is ir.Seq:
        return [(x, 0) for x in node.exprs]
    if t is ir.Let:
        return [(x, 0) for x in node.inits] + [(node.body, 1)]
    if t is ir.Letrec:
        return [(x, 1) for x in node.inits] + [(node.body, 1)]
    if t is ir.Lambda:
        return [(node.body, 1)]
    if t is ir.Guard:
        out = [(node.body, 0)]
        for test, body in node.clauses:
            out.append((test, 1))
            if body is not None:
                out.append((body, 1))
        if node.else_body is not None:
            out.append((node.else_body, 1))
        return out
    if t in (ir.SetLocal, ir.SetGlobal, ir.DefineGlobal):
        return [(node.value, 0)]
    if t is ir.ValuesNode:
        return [(x, 0) for x in node.args]
    return []


def _children(node: Any, frames: list, lambdas: bool = False) -> list[tuple[Any, list]]:
    """Children with their frame lists (Lambda bodies only when ``lambdas``). The children of
    one node share one inner frame list, which nobody mutates.

    Spelt out per node type rather than built on ``_children_depth``: two passes call this on
    every node."""
    t = type(node)
    if t is ir.App:
        return [(p, frames) for p in node.parts]
    if t is ir.If:
        return [(node.test, frames), (node.then, frames), (node.else_, frames)]
    if t is ir.Seq:
        return [(x, frames) for x in node.exprs]
    if t is ir.Let:
        out = [(x, frames) for x in node.inits]
        out.append((node.body, frames + [node]))
        return out
    if t is ir.Letrec:
        inner = frames + [node]
        out = [(x, inner) for x in node.inits]
        out.append((node.body, inner))
        return out
    if t is ir.Lambda:
        return [(node.body, frames + [node])] if lambdas else []
    if t is ir.Guard:
        inner = frames + [node]
        out = [(node.body, frames)]
        for test, body in node.clauses:
            out.append((test, inner))
            if body is not None:
                out.append((body, inner))
        if node.else_body is not None:
            out.append((node.else_body, inner))
        return out
    if t is ir.SetLocal or t is ir.SetGlobal or t is ir.DefineGlobal:
        return [(node.value, frames)]
    if t is ir.ValuesNode:
        return [(x, frames) for x in node.args]
    return []
