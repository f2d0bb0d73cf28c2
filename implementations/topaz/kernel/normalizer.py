"""The normalizer: datums -> Core IR (docs/core-ir.md), core forms here, derived forms in
:mod:`.derived`.

Every expression passes through :meth:`Normalizer.expr`, which charges one normalization step,
so generated syntax is charged as it is normalized too. Checks come before descent: a form's
own shape is judged before anything inside it.
"""

from __future__ import annotations

from typing import Any

from . import core_ir as ir
from .derived import Derived
from .errors import SourceError
from .meters import NORMALIZE, Meter
from .names import FORBIDDEN, RESERVED, SYNTACTIC_KEYWORDS
from .scopes import Scope
from .span import Span
from .syntax import Atom, Bytes, Seq, Vec, symbol_name, to_value
from .values import Symbol


def malformed(message: str, span: Span) -> SourceError:
    return SourceError("E130", message, span, "normalizer")


class Normalizer(Derived):
    def __init__(self, file: str, meter: Meter | None = None) -> None:
        self.file = file
        self.meter = meter
        self.globals: list[str] = []
        self.slots: dict[str, int] = {}

    # -- helpers ---------------------------------------------------------------------------

    def slot(self, name: str) -> int:
        s = self.slots.get(name)
        if s is None:
            s = self.slots[name] = len(self.globals)
            self.globals.append(name)
        return s

    def step(self) -> None:
        if self.meter is not None:
            self.meter.charge(NORMALIZE, 1)

    def check_forbidden_datum(self, d: Any) -> None:
        work = [d]
        while work:
            x = work.pop()
            t = type(x)
            if t is Atom:
                if type(x.value) is Symbol and x.value.name in FORBIDDEN:
                    raise self.forbidden(x.value.name, x.span)
            elif t is Seq:
                if x.tail is not None:
                    work.append(x.tail)
                work.extend(reversed(x.items))
            elif t is Vec:
                work.extend(reversed(x.items))

    def forbidden(self, name: str, span: Span) -> SourceError:
        return SourceError("E120", f"{name} is not supported in Lispex", span, "normalizer")

    def binder(self, d: Any) -> str:
        """The name a binding position holds, checked: E120, E110, or E130 for a non-name."""
        name = symbol_name(d)
        if name is None:
            raise malformed("expected an identifier to bind", d.span)
        if name in FORBIDDEN:
            raise self.forbidden(name, d.span)
        if name in RESERVED:
            raise SourceError("E110", f"reserved word {name} cannot be bound", d.span,
                              "normalizer")
        return name

    def distinct(self, names: list[tuple[str, Span]]) -> None:
        seen: set[str] = set()
        for name, span in names:
            if name in seen:
                raise malformed(f"duplicate binding of {name}", span)
            seen.add(name)

    # -- program ---------------------------------------------------------------------------

    def program(self, datums: list, pragmas: list[str] | None = None) -> ir.Program:
        forms: list = []
        work = list(reversed(datums))
        module_allowed = True
        while work:
            d = work.pop()
            head = symbol_name(d.items[0]) if type(d) is Seq and d.items else None
            if head == "begin" and type(d) is Seq and d.tail is None:
                if len(d.items) == 1:
                    raise malformed("begin needs at least one expression", d.span)
                for sub in d.items[1:]:
                    if type(sub) is Seq and sub.items and symbol_name(sub.items[0]) == "module":
                        raise malformed("module is only allowed at the top level", sub.span)
                work.extend(reversed(d.items[1:]))
                continue
            if head == "module" and type(d) is Seq:
                work.extend(reversed(self.module_body(d)))
                continue
            module_allowed = False
            forms.append(self.top_form(d))
        del module_allowed
        return ir.Program(forms, self.globals, self.file, list(pragmas or []))

    def module_body(self, d: Seq) -> list:
        if d.tail is not None or len(d.items) < 2:
            raise malformed("module needs a name", d.span)
        name = d.items[1]
        if symbol_name(name) is None:
            raise malformed("a module name is a symbol", d.span)
        body = d.items[2:]
        i = 0
        while i < len(body) and type(body[i]) is Seq and body[i].items and \
                symbol_name(body[i].items[0]) in ("export", "import"):
            clause = body[i]
            if clause.tail is not None or any(symbol_name(x) is None for x in clause.items[1:]):
                raise malformed("export and import list names", clause.span)
            i += 1
        rest = body[i:]
        for sub in rest:
            if type(sub) is Seq and sub.items and \
                    symbol_name(sub.items[0]) in ("module", "export", "import"):
                word = symbol_name(sub.items[0])
                if word == "module":
                    raise malformed("module is only allowed at the top level", sub.span)
                raise malformed(f"{word} is only allowed in a module header", sub.span)
        return rest

    def top_form(self, d: Any) -> Any:
        if type(d) is Seq and d.items and symbol_name(d.items[0]) == "define":
            name, value_d, span = self.define_parts(d)
            value = self.named_value(value_d, name, Scope(), False)
            return ir.DefineGlobal(self.slot(name), name, value, span)
        return self.expr(d, Scope(), True)

    def define_parts(self, d: Seq) -> tuple[str, Any, Span]:
        """(name, value datum, span) of a define; a procedure define becomes its lambda."""
        items = d.items
        if d.tail is not None or len(items) < 2:
            raise malformed("define needs a name and a value", d.span)
        target = items[1]
        if type(target) is Seq:
            if not target.items or symbol_name(target.items[0]) is None:
                raise malformed("define needs a name and a value", d.span)
            name = self.binder(target.items[0])
            if len(items) < 3:
                raise malformed("a procedure definition needs a body", d.span)
            formals = Seq(target.items[1:], target.tail, target.span)
            lam = Seq([Atom(Symbol("lambda"), items[0].span), formals, *items[2:]], None,
                      d.span)
            return name, lam, d.span
        if symbol_name(target) is None:
            raise malformed("define needs a name and a value", d.span)
        name = self.binder(target)
        if len(items) != 3:
            raise malformed("define needs exactly one value", d.span)
        return name, items[2], d.span

    # -- expressions -----------------------------------------------------------------------

    def named_value(self, d: Any, name: str, sc: Scope, tail: bool) -> Any:
        """The value of a binding: a lambda here takes the binding's name."""
        if type(d) is Seq and d.items and symbol_name(d.items[0]) == "lambda" \
                and sc.lookup("lambda") is None:
            self.step()
            return self.lambda_(d, sc, name)
        return self.expr(d, sc, False)

    def expr(self, d: Any, sc: Scope, tail: bool) -> Any:  # noqa: C901
        self.step()
        t = type(d)
        if t is Atom:
            v = d.value
            if type(v) is Symbol:
                return self.variable(v.name, d.span, sc)
            return ir.Const(v, d.span)
        if t is Vec or t is Bytes:
            self.check_forbidden_datum(d)
            return ir.Const(to_value(d), d.span)
        if d.tail is not None:
            raise malformed("a dotted list is not an expression", d.span)
        if not d.items:
            raise malformed("() is not an expression; quote it: '()", d.span)
        head = d.items[0]
        name = symbol_name(head)
        if name is not None and name in RESERVED and sc.lookup(name) is None:
            handler = self.SPECIAL.get(name)
            if handler is not None:
                return handler(self, d, sc, tail)
        if name is not None and name in FORBIDDEN:
            raise self.forbidden(name, head.span)
        op = self.expr(head, sc, False)
        args = [self.expr(a, sc, False) for a in d.items[1:]]
        return ir.App(op, args, tail, d.span)

    def variable(self, name: str, span: Span, sc: Scope) -> Any:
        if name in FORBIDDEN:
            raise self.forbidden(name, span)
        found = sc.lookup(name)
        if found is not None:
            depth, index, checked = found
            return ir.Local(depth, index, name, checked, span)
        if name in SYNTACTIC_KEYWORDS:
            raise SourceError("E110", f"reserved word {name} cannot be used as a value", span,
                              "normalizer")
        return ir.Global(self.slot(name), name, span)

    def body(self, items: list, sc: Scope, tail: bool, span: Span) -> Any:
        """A body: leading internal definitions (one letrec), then at least one expression."""
        i = 0
        while i < len(items) and type(items[i]) is Seq and items[i].items and \
                symbol_name(items[i].items[0]) == "define":
            i += 1
        rest = items[i:]
        if not rest:
            raise malformed("a body needs at least one expression after its definitions", span)
        defs = [self.define_parts(d) for d in items[:i]]
        if not defs:
            return self.sequence(rest, sc, tail, span)
        self.distinct([(n, _name_span(dspan, n, items)) for n, _v, dspan in defs])
        inner = sc.push([n for n, _v, _s in defs], checked=True)
        inits = [self.named_value(v, n, inner, False) for n, v, _s in defs]
        return ir.Letrec(inits, self.sequence(rest, inner, tail, span), span)

    def sequence(self, items: list, sc: Scope, tail: bool, span: Span) -> Any:
        if len(items) == 1:
            return self.expr(items[0], sc, tail)
        exprs = [self.expr(x, sc, False) for x in items[:-1]]
        exprs.append(self.expr(items[-1], sc, tail))
        return ir.Seq(exprs, span)

    # -- core forms ------------------------------------------------------------------------

    def quote(self, d: Seq, sc: Scope, tail: bool) -> Any:
        if len(d.items) != 2:
            raise malformed("quote takes exactly one datum", d.span)
        self.check_forbidden_datum(d.items[1])
        return ir.Const(to_value(d.items[1]), d.span)

    def if_(self, d: Seq, sc: Scope, tail: bool) -> Any:
        if len(d.items) != 4:
            raise malformed("if needs a test, a consequent and an alternative", d.span)
        _, test, then, else_ = d.items
        return ir.If(self.expr(test, sc, False), self.expr(then, sc, tail),
                     self.expr(else_, sc, tail), d.span)

    def formals(self, f: Any) -> tuple[list[str], bool, list[tuple[str, Span]]]:
        if type(f) is Atom:
            name = self.binder(f)
            return [name], True, [(name, f.span)]
        if type(f) is not Seq:
            raise malformed("lambda parameters must be a list of identifiers", f.span)
        names = [(self.binder(x), x.span) for x in f.items]
        rest = False
        if f.tail is not None:
            names.append((self.binder(f.tail), f.tail.span))
            rest = True
        self.distinct(names)
        return [n for n, _s in names], rest, names

    def lambda_(self, d: Seq, sc: Scope, name: str | None = None) -> Any:
        if len(d.items) < 3:
            if len(d.items) < 2:
                raise malformed("lambda needs parameters and a body", d.span)
            raise malformed("lambda needs a body", d.span)
        names, rest, _ = self.formals(d.items[1])
        inner = sc.push(names)
        body = self.body(d.items[2:], inner, True, d.span)
        nparams = len(names) - 1 if rest else len(names)
        return ir.Lambda(name, nparams, rest, body, d.span)

    def lambda_form(self, d: Seq, sc: Scope, tail: bool) -> Any:
        return self.lambda_(d, sc, None)

    def begin(self, d: Seq, sc: Scope, tail: bool) -> Any:
        if len(d.items) < 2:
            raise malformed("begin needs at least one expression", d.span)
        return self.sequence(d.items[1:], sc, tail, d.span)

    def set_(self, d: Seq, sc: Scope, tail: bool) -> Any:
        if len(d.items) != 3 or type(d.items[1]) is not Atom or \
                type(d.items[1].value) is not Symbol:
            raise malformed("set! needs a variable and a value", d.span)
        name = self.binder(d.items[1])
        found = sc.lookup(name)
        value = self.named_value(d.items[2], name, sc, False)
        if found is not None:
            return ir.SetLocal(found[0], found[1], value, d.span, name)
        return ir.SetGlobal(self.slot(name), name, value, d.span)

    def define(self, d: Seq, sc: Scope, tail: bool) -> Any:
        raise malformed("define is only allowed at the top level or at the start of a body",
                        d.span)

    def bindings(self, b: Any, form: Seq) -> list[tuple[str, Any, Span]]:
        if type(b) is not Seq or b.tail is not None:
            raise malformed("bindings must be a list of (name value)", b.span)
        for x in b.items:  # every binding's shape first, then the names
            if type(x) is not Seq or x.tail is not None or len(x.items) != 2:
                raise malformed("a binding is (name value)", x.span)
        return [(self.binder(x.items[0]), x.items[1], x.items[0].span) for x in b.items]

    def let(self, d: Seq, sc: Scope, tail: bool) -> Any:
        items = d.items
        if len(items) >= 2 and symbol_name(items[1]) is not None:
            return self.named_let(d, sc, tail)
        if len(items) < 3:
            raise malformed("let needs bindings and a body", d.span)
        binds = self.bindings(items[1], d)
        self.distinct([(n, s) for n, _v, s in binds])
        inits = [self.named_value(v, n, sc, False) for n, v, _s in binds]
        inner = sc.push([n for n, _v, _s in binds])
        return ir.Let(inits, self.body(items[2:], inner, tail, d.span), d.span)

    def letrec(self, d: Seq, sc: Scope, tail: bool) -> Any:
        items = d.items
        if len(items) < 3:
            raise malformed("letrec needs bindings and a body", d.span)
        binds = self.bindings(items[1], d)
        self.distinct([(n, s) for n, _v, s in binds])
        inner = sc.push([n for n, _v, _s in binds], checked=True)
        inits = [self.named_value(v, n, inner, False) for n, v, _s in binds]
        return ir.Letrec(inits, self.body(items[2:], inner, tail, d.span), d.span)

    def values(self, d: Seq, sc: Scope, tail: bool) -> Any:
        return ir.ValuesNode([self.expr(a, sc, False) for a in d.items[1:]], d.span)

    def procedure_keyword(self, d: Seq, sc: Scope, tail: bool) -> Any:
        op = self.variable(symbol_name(d.items[0]) or "", d.items[0].span, sc)
        self.step()
        return ir.App(op, [self.expr(a, sc, False) for a in d.items[1:]], tail, d.span)

    def misplaced(self, d: Seq, sc: Scope, tail: bool) -> Any:
        word = symbol_name(d.items[0])
        if word in ("unquote", "unquote-splicing"):
            raise malformed(f"{word} is only allowed inside quasiquote", d.span)
        if word == "module":
            raise malformed("module is only allowed at the top level", d.span)
        raise malformed(f"{word} is only allowed in a module header", d.span)

    SPECIAL: dict = {}


def _name_span(dspan: Span, name: str, items: list) -> Span:
    """The span of the name a body definition binds (for the duplicate-definition fault)."""
    for d in items:
        if type(d) is Seq and d.span is dspan and len(d.items) > 1:
            target = d.items[1]
            if type(target) is Seq and target.items:
                return target.items[0].span
            return target.span
    return dspan


Normalizer.SPECIAL = {
    "quote": Normalizer.quote,
    "if": Normalizer.if_,
    "lambda": Normalizer.lambda_form,
    "begin": Normalizer.begin,
    "set!": Normalizer.set_,
    "define": Normalizer.define,
    "let": Normalizer.let,
    "letrec": Normalizer.letrec,
    "values": Normalizer.values,
    "call-with-values": Normalizer.procedure_keyword,
    "call/cc": Normalizer.procedure_keyword,
    "dynamic-wind": Normalizer.procedure_keyword,
    "unquote": Normalizer.misplaced,
    "unquote-splicing": Normalizer.misplaced,
    "module": Normalizer.misplaced,
    "export": Normalizer.misplaced,
    "import": Normalizer.misplaced,
    **Derived.SPECIAL_DERIVED,
}


def normalize(datums: list, file: str, meter: Meter | None = None,
              pragmas: list[str] | None = None) -> ir.Program:
    return Normalizer(file, meter).program(datums, pragmas)
