"""Core IR -> Python source: the program, procedures, values, variables and bindings.

Every Core IR node is generated *into a sink* (see :mod:`.blocks`), which says what to do with
its value. Sub-expressions are evaluated in order into temporaries, so the operands of an
application are always names or literals and expressions never nest in the generated code.
Lexical frames become Python local variables of the function that makes them (closures are
nested ``def``s and share them as cells); a procedure that captures nothing is defined at the
top of the program instead, which keeps the source shallow.

Applications are generated in :mod:`.calls`, blocks (`if`, `guard`, loops) in :mod:`.blocks`.
"""

from __future__ import annotations

import re
from typing import Any

from implementations.topaz.kernel import core_ir as ir
from implementations.topaz.kernel.meters import RECURSION_LIMIT

from .analysis import Analysis, value_may_mv
from .blocks import Blocks, Discard, Frame, Loop, Ret, SetTemp, Sink, X, chain
from .calls import Calls
from .emit import Fn, Pools

_IDENT = re.compile(r"[^A-Za-z0-9]+")


class Gen(Calls, Blocks):
    def __init__(self, program: ir.Program, analysis: Analysis, prims: dict, pools: Pools) -> None:
        self.program = program
        self.a = analysis
        self.prims = prims
        self.pools = pools
        self.counter = 0
        self.root = Fn("_program", ["_rt", "_fuel", "_input"], None)
        self.fn = self.root
        self.frames: list[Frame] = []
        self.lams: list[ir.Lambda] = []
        self.form = 0
        self.helpers: dict[str, str] = {}  # control primitive -> helper name
        self.hoisted: dict[int, tuple[str, str]] = {}  # id(Lambda) -> (function, closure)
        self.fn_names: dict[int, str] = {}  # id(Lambda) -> its Python function name
        self.int_flags: dict[str, str] = {}  # variable -> local holding `type(v) is int`

    # -- names ----------------------------------------------------------------------------------

    def fresh(self, prefix: str, hint: Any = None) -> str:
        self.counter += 1
        name = f"{prefix}{self.counter}"
        if hint:
            name += "_" + _IDENT.sub("_", str(hint))[:24].strip("_")
        return name

    def helper(self, name: str) -> str:
        h = self.helpers.get(name)
        if h is None:
            h = self.helpers[name] = f"_b{len(self.helpers)}"
        return h

    def stash(self, x: X) -> X:
        if x.stable:
            return x
        t = self.fresh("t")
        self.fn.emit(f"{t} = {x.text}")
        return X(t, True)

    def set_site(self, node: Any) -> int:
        site = self.pools.site(node)
        fn = self.fn
        lines = fn.lines
        # A record straight after another one in the same block (same level, no header
        # between) leaves the other dead: nothing can look at the site between two stores.
        if lines and lines[-1][0] == fn.level and lines[-1][1].startswith("_site = "):
            lines[-1] = (fn.level, f"_site = {site}")
        else:
            fn.emit(f"_site = {site}")
        fn.assign("_site", self.root)
        return site

    # -- the whole program ----------------------------------------------------------------------

    def program_source(self) -> Fn:
        """The whole program. Generation recurses over the Core IR, whose nesting the
        normalizer bounds (10,000): run it where deep Python recursion is safe (on_big_stack)."""
        root = self.root
        body_start = len(root.lines)
        for form in self.program.forms:  # name every procedure definition before any call
            if self.hoistable(form):
                self.lambda_name(form.value)
        forms = []
        for i, form in enumerate(self.program.forms):
            self.form = i
            forms.append(self.form_fn(i, form))
        root.emit(f"return [{', '.join(forms)}], _site_get, _site_set, _fuel_get")
        # The prologue goes first, now that the helpers and globals used are known.
        pro = Fn("_prologue", [], None)
        pro.emit("_site = 0")
        # Only the runtime entry points and globals the body names (compile time grows with
        # the source). A substring test can only keep an unused one, never drop a used one.
        text = "\n".join([line for _, line in root.top] + [line for _, line in root.lines])
        for name in ("call", "tramp", "fault", "e300", "e303", "e320", "e321", "fuel_out",
                     "too_deep", "reraise"):
            if f"_{name}" in text:
                pro.emit(f"_{name} = _rt.{name}")
        for prim, h in self.helpers.items():
            pro.emit(f"{h} = _rt.control[{prim!r}]")
        for slot in range(len(self.program.globals)):
            if self.is_cell(slot) and f"g{slot}" in text:
                pro.emit(f"g{slot} = {self.global_init(slot)}")
        pro.emit("def _site_get():")
        pro.emit(" return _site")
        pro.emit("def _site_set(i):")
        pro.emit(" nonlocal _site")
        pro.emit(" _site = i")
        pro.emit("def _fuel_get():")
        pro.emit(" return _fuel")
        root.lines[body_start:body_start] = pro.lines
        return root

    def is_cell(self, slot: int) -> bool:
        return self.a.const_prim(ir.Global(slot, self.program.globals[slot], None)) is None

    def global_init(self, slot: int) -> str:
        name = self.program.globals[slot]
        if name in self.prims:
            return self.pools.prim(name, self.prims[name])[1]
        if name == "input":
            return "_input"
        return "UNBOUND"

    def hoistable(self, form: Any) -> bool:
        return type(form) is ir.DefineGlobal and type(form.value) is ir.Lambda \
            and self.a.stable_global(form.slot) is not None

    def form_fn(self, i: int, form: Any) -> str:
        name = f"T{i}"
        if self.hoistable(form):
            # A procedure definition: its def and closure are made once, up front.
            lam = form.value
            fname = self.lambda_def(lam)
            cname = self.fresh("C", lam.name)
            self.root.emit(f"{cname} = {self.closure_text(lam, fname)}")
            self.hoisted[id(lam)] = (fname, cname)
        child = Fn(name, ["d"], self.root, base=2)
        with self.inside(child):
            self.set_site(form)
            if id(getattr(form, "value", None)) in self.hoisted:
                self.assign_global(form.slot, self.hoisted[id(form.value)][1])
                child.emit("return NO_VALUES")
            else:
                self.into(form, Ret())
        self.root.splice(child, f"def {name}(d):")
        return name

    # -- functions ------------------------------------------------------------------------------

    class _Inside:
        def __init__(self, g: Gen, fn: Fn) -> None:
            self.g, self.fn = g, fn

        def __enter__(self) -> None:
            self.saved = self.g.fn
            self.g.fn = self.fn

        def __exit__(self, *exc: Any) -> None:
            self.g.fn = self.saved

    def inside(self, fn: Fn) -> Gen._Inside:
        return Gen._Inside(self, fn)

    def closure_text(self, lam: ir.Lambda, fname: str) -> str:
        name = ascii(lam.name) if lam.name is not None else "None"
        return f"Closure({fname}, {name}, {lam.nparams}, {lam.rest})"

    def charge(self) -> None:
        fn = self.fn
        fn.emit("if (_fuel := _fuel - 1) < 0: _fuel_out()")  # one statement: less to compile
        fn.assign("_fuel", self.root)

    def lambda_name(self, lam: ir.Lambda) -> str:
        """The Python name of a procedure's def (fixed early, so calls can precede it)."""
        fname = self.fn_names.get(id(lam))
        if fname is None:
            fname = self.fn_names[id(lam)] = self.fresh("L", lam.name)
        return fname

    def lambda_def(self, lam: ir.Lambda) -> str:
        """Write the nested def of a procedure at the current position; its Python name."""
        fname = self.lambda_name(lam)
        params = [self.fresh("v") for _ in range(lam.nparams + (1 if lam.rest else 0))]
        info = self.a.lambdas[id(lam)]
        # A procedure that uses no enclosing local variable is defined at the top of the
        # program rather than where it is made, and one deep inside blocks at the top of its
        # function (the same variables: no loop runs a capturing lambda's def twice), so
        # that nesting in the source stays shallow.
        home = self.root if info.closed else self.fn
        at_top = info.closed or home.deep()
        base = home.base + 1 if at_top else home.base + home.level + 1
        child = Fn(fname, ["d", *params], home, base=base)
        saved_frames, saved_lams = self.frames, self.lams
        self.frames = ([] if info.closed else self.frames) + [Frame(lam, params, child)]
        self.lams = self.lams + [lam]
        try:
            with self.inside(child):
                child.emit(f"if d > {RECURSION_LIMIT}: _too_deep()")
                if info.loop:
                    child.emit("while True:")
                    child.level += 1
                    child.blocks += 1
                    child.loop = Loop(lam, params)
                self.charge()
                self.bind_flags(lam, params)
                self.into(lam.body, Ret())
        finally:
            self.frames, self.lams = saved_frames, saved_lams
        home.splice(child, f"def {fname}({', '.join(['d', *params])}):", at_top=at_top)
        return fname

    # -- dispatch -------------------------------------------------------------------------------

    def into(self, node: Any, sink: Sink) -> None:
        t = type(node)
        if t is ir.If:
            self.if_into(node, sink)
        elif t is ir.Seq:
            for x in node.exprs[:-1]:
                self.effect(x)
            self.into(node.exprs[-1], sink)
        elif t is ir.Let:
            self.let_frame(node)
            try:
                self.into(node.body, sink)
            finally:
                self.frames.pop()
        elif t is ir.Letrec:
            self.letrec_frame(node)
            try:
                self.into(node.body, sink)
            finally:
                self.frames.pop()
        elif t is ir.Guard:
            self.guard(node, sink)
        elif t is ir.App:
            if node.tail and sink.tail:
                self.app_tail(node)
            elif sink.discard:
                self.app(node, "effect")
            else:
                sink.put(self, self.app(node, "value").text)
        elif sink.discard:
            if t is not ir.Lambda:
                self.value(node)  # for its effects and faults
        else:
            sink.put(self, self.value(node).text)

    def value(self, node: Any) -> X:
        """Evaluate ``node`` (statements as needed); its value, possibly several values."""
        t = type(node)
        if t is ir.Const:
            return X(self.pools.const(node.value), True)
        if t is ir.Local:
            return self.local_read(node)
        if t is ir.Global:
            return self.global_read(node)
        if t is ir.Intrinsic:
            return X(self.pools.prim(node.name, self.prims[node.name])[1], True)
        if t is ir.Lambda:
            return X(self.closure_text(node, self.lambda_def(node)), False)
        if t is ir.App:
            return self.app(node, "value")
        if t is ir.ValuesNode:
            if not node.args:
                return X("NO_VALUES", True)
            parts = self.operands(node.args)
            if len(parts) == 1:
                return X(parts[0], True)
            return X(f"Values(({', '.join(parts)},))", False)
        if t in (ir.SetLocal, ir.SetGlobal, ir.DefineGlobal):
            self.assignment(node)
            return X("NO_VALUES", True)
        if t is ir.If and self.simple(node.then) and self.simple(node.else_):
            test = self.test(node.test)
            then, else_ = self.value(node.then), self.value(node.else_)
            return X(f"({then.text} if {test} else {else_.text})", False)
        if t is ir.Seq:
            for x in node.exprs[:-1]:
                self.effect(x)
            return self.value(node.exprs[-1])
        tmp = self.fresh("t")
        if chain(node) >= 3:
            self.wrapped(node, tmp)
        else:
            self.into(node, SetTemp(tmp))
        return X(tmp, True)

    def single(self, node: Any) -> X:
        """Evaluate ``node`` where exactly one value is needed (E320 at its span otherwise)."""
        x = self.value(node)
        if self.may_mv(node):
            x = self.stash(x)
            site = self.pools.site(node)
            self.fn.emit(f"if type({x.text}) is Values: _e320(d, {site}, {x.text})")
        return x

    def may_mv(self, node: Any, extra: tuple = ()) -> bool:
        """Whether ``node`` may yield several values; ``extra`` are the frames made inside
        the expression being asked about, innermost last (it has been generated already)."""
        t = type(node)
        if t is ir.App:
            return self.app_may_mv(node, extra)
        if t is ir.If:
            return self.may_mv(node.then, extra) or self.may_mv(node.else_, extra)
        if t is ir.Seq:
            return self.may_mv(node.exprs[-1], extra)
        if t is ir.Let or t is ir.Letrec:
            return self.may_mv(node.body, (*extra, node))
        return value_may_mv(self.a, node)

    def simple(self, node: Any) -> bool:
        """Evaluating ``node`` emits no statement."""
        t = type(node)
        if t is ir.Const or t is ir.Intrinsic:
            return True
        if t is ir.Local:
            return not self.local_needs_check(node)
        if t is ir.Global:
            return not self.global_needs_check(node)
        return False

    def operands(self, nodes: list, sited: bool = False) -> list[str]:
        """Evaluate ``nodes`` left to right, one value each; their texts, safe to use together
        after the last one (an earlier value is kept in a temporary when a later operand does
        more than read a variable).

        ``sited``: the caller's application records its site right after the operands. An
        operand application then needs no site record of its own when nothing can look at the
        site between its start and the next record (see ``quiet_call`` and ``safe_after``).
        """
        out = []
        quiet_after = [True] * (len(nodes) + 1)
        for i in range(len(nodes) - 1, -1, -1):
            quiet_after[i] = quiet_after[i + 1] and (type(nodes[i]) is ir.Lambda
                                                     or self.simple(nodes[i]))
        for i, node in enumerate(nodes):
            if sited and type(node) is ir.App and self.quiet_call(node) \
                    and self.safe_after(nodes[i + 1:]):
                x = self.app(node, "value", record=False)
            else:
                x = self.single(node)
            if not x.stable and not quiet_after[i + 1]:
                x = self.stash(x)
            out.append(x.text)
        return out

    def bind_flags(self, frame: Any, names: list[str]) -> None:
        """``vNi = type(vN) is int`` for variables used as arithmetic operands more than once:
        the inline arithmetic then tests a local instead of calling ``type`` again."""
        for i, v in enumerate(names):
            key = (id(frame), i)
            if v is not None and self.a.int_uses.get(key, 0) >= 2 and key not in self.a.mutable:
                self.fn.emit(f"{v}i = type({v}) is int")
                self.int_flags[v] = f"{v}i"

    def effect(self, node: Any) -> None:
        """Evaluate ``node`` for its effects (and faults) only."""
        t = type(node)
        if t is ir.Const or t is ir.Intrinsic or t is ir.Lambda:
            return
        self.into(node, Discard())

    def test(self, node: Any) -> str:
        """A Python condition true exactly when ``node``'s value is not #f."""
        if type(node) is ir.Const:
            return "False" if node.value is False else "True"
        if type(node) is ir.App:
            cond = self.app_test(node)
            if cond is not None:
                return cond
        x = self.single(node)
        return f"({x.text}) is not False"

    # -- variables ------------------------------------------------------------------------------

    def frame_of(self, depth: int) -> Frame:
        return self.frames[-1 - depth]

    def local_needs_check(self, node: ir.Local) -> bool:
        if not node.checked:
            return False
        fr = self.frame_of(node.depth)
        if type(fr.node) is not ir.Letrec or id(fr.node) in self.a.all_lambda_letrecs:
            return False
        lam = self.a.letrec_lambda.get((id(fr.node), node.index))
        return lam is None or lam not in self.lams

    def local_read(self, node: ir.Local) -> X:
        fr = self.frame_of(node.depth)
        name = fr.names[node.index]
        if name is None:
            raise AssertionError("read of an inline loop's own slot")
        if self.local_needs_check(node):
            site = self.pools.site(node)
            self.fn.emit(f"if {name} is UNINIT: _e321(d, {site}, {ascii(node.name)})")
        return X(name, (id(fr.node), node.index) not in self.a.mutable)

    def global_known_bound(self, slot: int) -> bool:
        name = self.program.globals[slot]
        if name in self.prims:
            return True  # starts as the primitive; nothing can unbind it
        g = self.a.stable_global(slot)
        if g is None:
            return False
        return self.form > g.first_form or (g.lam is not None and g.lam in self.lams)

    def global_needs_check(self, node: ir.Global) -> bool:
        if self.a.const_prim(node) is not None:
            return False
        return not self.global_known_bound(node.slot)

    def global_read(self, node: ir.Global) -> X:
        prim = self.a.const_prim(node)
        if prim is not None:
            return X(self.pools.prim(prim, self.prims[prim])[1], True)
        name = f"g{node.slot}"
        if not self.global_known_bound(node.slot):
            site = self.pools.site(node)
            self.fn.emit(f"if {name} is UNBOUND: _e300(d, {site}, {ascii(node.name)})")
        stable = self.a.stable_global(node.slot) is not None and \
            self.global_known_bound(node.slot)
        return X(name, stable)

    def assign_global(self, slot: int, text: str) -> None:
        self.fn.emit(f"g{slot} = {text}")
        self.fn.assign(f"g{slot}", self.root)

    def assignment(self, node: Any) -> None:
        t = type(node)
        x = self.single(node.value)
        if t is ir.SetLocal:
            fr = self.frame_of(node.depth)
            name = fr.names[node.index]
            self.fn.emit(f"{name} = {x.text}")
            self.fn.assign(name, fr.owner)
        elif t is ir.SetGlobal:
            if not self.global_known_bound(node.slot):
                site = self.pools.site(node)
                self.fn.emit(f"if g{node.slot} is UNBOUND: _e303(d, {site}, {ascii(node.name)})")
            self.assign_global(node.slot, x.text)
        else:
            self.assign_global(node.slot, x.text)

    def let_frame(self, node: ir.Let) -> None:
        values = [self.single(x) for x in node.inits] if len(node.inits) < 2 else \
            [X(t, True) for t in self.operands(node.inits)]
        names = []
        for x in values:
            v = self.fresh("v")
            self.fn.emit(f"{v} = {x.text}")
            names.append(v)
        self.bind_flags(node, names)
        self.frames.append(Frame(node, names, self.fn))

    def letrec_frame(self, node: ir.Letrec) -> None:
        names = [self.fresh("v") for _ in node.inits]
        self.frames.append(Frame(node, names, self.fn))
        for init in node.inits:
            if type(init) is ir.Lambda:
                self.lambda_name(init)
        if id(node) not in self.a.all_lambda_letrecs:
            for v in names:
                self.fn.emit(f"{v} = UNINIT")
        for v, init in zip(names, node.inits, strict=True):
            x = self.single(init)
            self.fn.emit(f"{v} = {x.text}")
