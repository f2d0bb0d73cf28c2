"""Applications: the part of code generation that decides how each call runs.

* a primitive that the program never rebinds is called directly (a few of them inline, with a
  type test falling back to the kernel function); a control primitive through the runtime;
* a procedure whose definition is known (a global defined once, a letrec slot) is a direct
  Python call, skipping the checks its analysis rules out; its own tail calls loop;
* anything else goes through a closure fast path or the runtime's general application; in
  tail position it becomes a trampoline marker.

Before each application starts, its site is stored in the ``_site`` cell (see runtime).
"""

from __future__ import annotations

from typing import Any

from implementations.topaz.kernel import core_ir as ir

from .analysis import canonical, tail_prim_result
from .blocks import Frame, Loop, Ret, X
from .emit import mark

# Not `*`: a product of big integers is bounded in size, which the kernel's `*` checks.
ARITH = {"+": "+", "-": "-"}
COMPARE = {"<": "<", ">": ">", "<=": "<=", ">=": ">=", "=": "=="}
BOOLEAN_INLINE = frozenset(COMPARE) | {"null?", "pair?", "not", "zero?"}


def _int_const(node: Any) -> bool:
    return type(node) is ir.Const and type(node.value) is int


class Calls:
    """Mixed into the generator (which provides fn, a, prims, pools, operands, ...)."""

    a: Any
    fn: Any
    prims: dict
    pools: Any
    frames: list
    lams: list
    fn_names: dict
    int_flags: dict

    # -- what is being called -------------------------------------------------------------------

    def known_lambda(self, op: Any, extra: tuple = ()) -> ir.Lambda | None:
        """The lambda an operator always denotes, if known; ``extra``: frame nodes made
        inside the current scope (see ``may_mv``)."""
        if type(op) is ir.Global:
            g = self.a.stable_global(op.slot)
            return g.lam if g is not None else None
        if type(op) is ir.Local:
            if op.depth < len(extra):
                node = extra[-1 - op.depth]
            else:
                node = self.frame_of(op.depth - len(extra)).node
            return self.a.letrec_lambda.get((id(node), op.index))
        return None

    def prim_of(self, app: ir.App) -> tuple[str, Any] | None:
        """(canonical name, Primitive) when the operator always denotes a primitive that
        accepts this many arguments."""
        name = self.a.const_prim(app.op)
        if name is None:
            return None
        p = self.prims[name]
        if not p.accepts(len(app.args)):
            return None
        return canonical(name), p

    def fits(self, lam: ir.Lambda, n: int) -> bool:
        return n == lam.nparams or (lam.rest and n >= lam.nparams)

    def app_may_mv(self, app: ir.App, extra: tuple = ()) -> bool:
        pp = self.prim_of(app)
        if pp is not None:
            return tail_prim_result(pp[0], len(app.args))[1]
        lam = self.known_lambda(app.op, extra)
        if lam is not None and self.fits(lam, len(app.args)):
            info = self.a.lambdas[id(lam)]
            return info.may_mv or info.may_tc
        return True

    # -- site records that can be left out ------------------------------------------------------
    # The site is looked at only by the runtime: when it applies a procedure for a control
    # primitive, when a handler is applied, and when a primitive fault is located. A record may
    # be left out when no such look can happen between the application's start and the next
    # record; a kernel primitive's own fault locates its site from the traceback.

    def quiet_prim(self, app: ir.App) -> bool:
        """A kernel primitive called directly, with one value: it cannot look at the site."""
        pp = self.prim_of(app)
        return pp is not None and not pp[1].backend and not pp[1].needs_context \
            and not self.app_may_mv(app)

    def quiet_call(self, app: ir.App) -> bool:
        """A quiet primitive, or a direct call of a known procedure with one plain value whose
        body records a site before it can do anything else."""
        if self.quiet_prim(app):
            return True
        lam = self.known_lambda(app.op)
        if lam is None or not self.fits(lam, len(app.args)) or id(lam) not in self.fn_names:
            return False
        info = self.a.lambdas[id(lam)]
        return not info.may_tc and not info.may_mv and self.opens_with_record(lam.body)

    def safe_after(self, nodes: list) -> bool:
        """Evaluating ``nodes`` in order (then the caller's recorded application) cannot look
        at the site before a record."""
        for node in nodes:
            if type(node) is ir.Lambda or self.simple(node):
                continue
            if type(node) is not ir.App or not self.simple(node.op):
                return False
            if not all(self.quiet_anywhere(x) for x in node.args):
                return False
            return True  # it records (or is quiet itself) before anything else
        return True

    def opens_with_record(self, node: Any) -> bool:
        """A procedure body whose first act is a recorded (or quiet) application."""
        t = type(node)
        if t is ir.If:
            return type(node.test) is ir.App and self.opens_with_record(node.test)
        if t is ir.App:
            return self.a.const_prim(node.op) is not None and \
                all(self.quiet_anywhere(x) for x in node.args)
        return False

    def quiet_anywhere(self, node: Any) -> bool:
        """Evaluates without a check or a record that depends on where it is."""
        t = type(node)
        if t is ir.Const or t is ir.Intrinsic or t is ir.Lambda:
            return True
        if t is ir.Local:
            return not node.checked
        if t is ir.Global:
            return self.a.const_prim(node) is not None
        if t is ir.App:
            pp = self.prim_of(node)
            return pp is not None and not pp[1].backend and not pp[1].needs_context \
                and not tail_prim_result(pp[0], len(node.args))[1] \
                and all(self.quiet_anywhere(x) for x in node.args)
        return False

    # -- entry points ---------------------------------------------------------------------------

    def app(self, app: ir.App, mode: str, record: bool = True) -> X:
        """A non-tail application; ``mode`` "value" (its value in a temporary) or "effect";
        ``record`` False only for a quiet call (see ``quiet_call``)."""
        pp = self.prim_of(app)
        if pp is not None:
            name, p = pp
            if p.backend:
                return self.backend_call(app, name, mode, False)
            args = self.operands(app.args, sited=True)
            site = self.set_site(app) if record else self.pools.site(app)
            text = self.inline(name, app.args, args, site) or self.prim_call(name, args, site)
            if mode == "effect":
                self.fn.emit(text)
                return X("None", True)
            return self.stash(X(text, False))
        lam = self.known_lambda(app.op)
        if lam is not None and self.fits(lam, len(app.args)) and id(lam) in self.fn_names:
            self.callee_check(app.op)
            args = self.operands(app.args, sited=True)
            if record:
                self.set_site(app)
            text = f"{self.fn_names[id(lam)]}({', '.join(['d + 1', *self.pack(lam, args)])})"
            info = self.a.lambdas[id(lam)]
            if not info.may_tc:
                if mode == "effect":
                    self.fn.emit(text)
                    return X("None", True)
                return self.stash(X(text, False))
            t = self.fresh("t")
            self.fn.emit(f"{t} = {text}")
            self.fn.emit(f"if type({t}) is TailCall: {t} = _tramp(d + 1, {t})")
            return X(t, True)
        return self.generic(app, mode)

    def app_tail(self, app: ir.App) -> None:
        """An application in tail position: return its value, loop, or return a marker."""
        if id(app) in self.a.inline_loops:
            self.inline_loop(app)
            return
        pp = self.prim_of(app)
        if pp is not None:
            name, p = pp
            if p.backend:
                self.fn.emit(f"return {self.backend_call(app, name, 'tail', True).text}")
                return
            args = self.operands(app.args, sited=True)
            site = self.set_site(app)
            text = self.inline(name, app.args, args, site) or self.prim_call(name, args, site)
            self.fn.emit(f"return {text}")
            return
        lam = self.known_lambda(app.op)
        loop = self.fn.loop
        if lam is not None and loop is not None and loop.lam is lam \
                and len(app.args) == lam.nparams and not lam.rest:
            args = self.operands(app.args, sited=True)
            self.set_site(app)
            if loop.again:
                self.fn.emit(f"return Again(({''.join(a + ', ' for a in args)}))")
            else:
                self.rebind(loop.params, args)
                self.fn.emit("continue")
            return
        f = self.stash(self.single(app.op))
        args = self.operands(app.args, sited=True)
        self.set_site(app)
        self.fn.emit(f"return TailCall({f.text}, ({''.join(a + ', ' for a in args)}))")

    def app_test(self, app: ir.App) -> str | None:
        """A Python condition for a test that is a boolean primitive inlined; else None."""
        pp = self.prim_of(app)
        if pp is None or pp[0] not in BOOLEAN_INLINE or pp[1].needs_context:
            return None
        args = self.operands(app.args, sited=True)
        site = self.set_site(app)
        return self.inline(pp[0], app.args, args, site) or self.prim_call(pp[0], args, site)

    # -- kinds of call --------------------------------------------------------------------------

    def callee_check(self, op: Any) -> None:
        """Evaluate a known procedure's operator for its fault only (E300 / E321)."""
        if type(op) is ir.Global and self.global_needs_check(op):
            self.global_read(op)
        elif type(op) is ir.Local and self.local_needs_check(op):
            self.local_read(op)

    def pack(self, lam: ir.Lambda, args: list[str]) -> list[str]:
        if not lam.rest:
            return args
        k = lam.nparams
        rest = args[k:]
        return [*args[:k], f"_list(({''.join(a + ', ' for a in rest)}))" if rest else "NIL"]

    def prim_call(self, name: str, args: list[str], site: int) -> str:
        fname, obj = self.pools.prim(name, self.prims[name])
        if self.prims[name].needs_context:
            # Output and deprecated primitives want the run context with the site set: the
            # runtime's general application does that (and locates their faults itself).
            return f"_call(d, {obj}, ({''.join(a + ', ' for a in args)}))"
        return f"{mark(site)}{fname}({', '.join(args)})"

    def backend_call(self, app: ir.App, name: str, mode: str, tail: bool) -> X:
        args = self.operands(app.args, sited=True)
        self.set_site(app)
        if name == "values":
            if len(args) == 1:
                return X(args[0], True)
            if not args:
                return X("NO_VALUES", True)
            text = f"Values(({''.join(a + ', ' for a in args)}))"
        else:
            text = f"{self.helper(name)}({', '.join(['d', str(tail), *args])})"
        if mode == "tail":
            return X(text, False)
        if mode == "effect":
            self.fn.emit(text)
            return X("None", True)
        return self.stash(X(text, False))

    def generic(self, app: ir.App, mode: str) -> X:
        f = self.stash(self.single(app.op)).text
        if not f.isidentifier():  # a literal operator: it needs a name for `.fn`
            self.fn.emit(f"{(name := self.fresh('t'))} = {f}")
            f = name
        args = self.operands(app.args, sited=True)
        self.set_site(app)
        n = len(args)
        t = self.fresh("t")
        fn = self.fn
        fn.emit(f"if type({f}) is Closure and {f}.ar == {n}:")
        fn.emit(f" {t} = {f}.fn({', '.join(['d + 1', *args])})")
        fn.emit(f" if type({t}) is TailCall: {t} = _tramp(d + 1, {t})")
        fn.emit("else:")
        fn.emit(f" {t} = _call(d, {f}, ({''.join(a + ', ' for a in args)}))")
        return X(t, True) if mode == "value" else X("None", True)

    def inline_loop(self, app: ir.App) -> None:
        """``((letrec ((loop (lambda ...))) loop) arg ...)`` in tail position, run in place."""
        if self.crowded(1):
            self.outline(app, Ret())
            return
        op = app.op
        lam = op.inits[0]
        fn = self.fn
        args = self.operands(app.args, sited=True)
        self.set_site(app)
        params = [self.fresh("v") for _ in range(lam.nparams)]
        self.rebind(params, args)
        fn.open("while True:")
        fn.blocks += 1
        saved_loop, saved_frames, saved_lams = fn.loop, self.frames, self.lams
        fn.loop = Loop(lam, params)
        self.frames = self.frames + [Frame(op, [None], fn), Frame(lam, params, fn)]
        self.lams = self.lams + [lam]
        try:
            self.charge()
            self.bind_flags(lam, params)
            self.into(lam.body, Ret())
        finally:
            fn.loop, self.frames, self.lams = saved_loop, saved_frames, saved_lams
            fn.close()
            fn.blocks -= 1

    # -- inline primitives ----------------------------------------------------------------------

    def int_test(self, x: str) -> str:
        return self.int_flags.get(x) or f"type({x}) is int"

    def inline(self, name: str, nodes: list, args: list[str], site: int) -> str | None:
        """Python text for a primitive call done in place for the common case, with the kernel
        primitive as the fallback; None when ``name`` is not done in place."""
        n = len(args)
        fallback = None
        if name in ARITH or name in COMPARE:
            if n != 2:
                if name == "-" and n == 1:
                    a = args[0]
                    fallback = self.prim_call(name, args, site)
                    return f"(-{a} if {self.int_test(a)} else {fallback})"
                return None
            checks = [self.int_test(x) for x, node in zip(args, nodes, strict=True)
                      if not _int_const(node)]
            if not checks:
                return None
            op = ARITH.get(name) or COMPARE[name]
            fallback = self.prim_call(name, args, site)
            return f"({args[0]} {op} {args[1]} if {' and '.join(checks)} else {fallback})"
        if (name == "string-ref" or name == "vector-ref") and n == 2:
            v, k = args
            if not v.isidentifier():
                return None
            cls, field, make = ("Str", "s", "Char(ord({}))") if name == "string-ref" else \
                ("Vector", "items", "{}")
            kt = "True" if _int_const(nodes[1]) else self.int_test(k)
            fallback = self.prim_call(name, args, site)
            item = make.format(f"{v}.{field}[{k}]")
            return (f"({item} if type({v}) is {cls} and {kt} and 0 <= {k} < len({v}.{field})"
                    f" else {fallback})")
        if name == "modulo" and n == 2:
            a, b = args
            checks = [self.int_test(x) for x, node in zip(args, nodes, strict=True)
                      if not _int_const(node)]
            if _int_const(nodes[1]):
                if nodes[1].value == 0:
                    return None
            else:
                checks.append(b)  # a zero divisor is the kernel's E313
            fallback = self.prim_call(name, args, site)
            return f"({a} % {b} if {' and '.join(checks)} else {fallback})" if checks else None
        if name == "cons" and n == 2:
            return f"Pair({args[0]}, {args[1]})"
        if n != 1:
            return None
        a = args[0]
        if not a.isidentifier():
            return None  # a literal operand: the plain call is as good
        if name == "car" or name == "cdr":
            fallback = self.prim_call(name, args, site)
            return f"({a}.{name} if type({a}) is Pair else {fallback})"
        if name == "null?":
            return f"({a} is NIL)"
        if name == "pair?":
            return f"(type({a}) is Pair)"
        if name == "not":
            return f"({a} is False)"
        if name == "string-length":
            fallback = self.prim_call(name, args, site)
            return f"(len({a}.s) if type({a}) is Str else {fallback})"
        if name == "char->integer":
            fallback = self.prim_call(name, args, site)
            return f"({a}.code if type({a}) is Char else {fallback})"
        if name == "zero?":
            fallback = self.prim_call(name, args, site)
            return f"({a} == 0 if {self.int_test(a)} else {fallback})"
        return None
