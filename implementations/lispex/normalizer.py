"""Normalizer: datums with spans -> Core IR with every name resolved.

Derived forms (quasiquote, let*, named let, cond, case, and, or, when, unless, do, function
define, internal define) are expanded here into the 13 core forms, using hygienic temporaries that
no user name can capture and hidden intrinsics that no user definition can shadow.
"""

from __future__ import annotations

import gc
import sys
import threading
from collections.abc import Callable
from typing import Any

from . import core_ir as ir
from .derived import DerivedForms
from .errors import LispexError, ResourceExhausted
from .forms import FORBIDDEN, RESERVED, SYNTACTIC_KEYWORDS
from .meters import NORMALIZATION, Meter
from .scopes import MAX_NESTING, Scope, Temp, head_name, is_symbol, normalizer_error
from .span import Span
from .syntax import SAtom, SList, SVector, to_value
from .values import Symbol

# Levels of nesting normalized on one stack before the rest continues on a fresh one.
SEGMENT = 2_000
# 2,000 levels need under 1 MiB of C stack (measured: 256 KiB overflows); four times that.
SEGMENT_STACK_BYTES = 4 << 20
_stack_size_lock = threading.Lock()


def _on_fresh_stack(fn: Callable[..., Any], args: tuple) -> Any:
    """``fn(*args)`` on a new thread's stack (its own C stack and Python recursion count), joined
    at once: a stack grown in segments, as the reference grows its own on the heap."""
    outcome: list = [None, None]

    def target() -> None:
        try:
            outcome[0] = fn(*args)
        except BaseException as e:  # noqa: BLE001 - re-raised in the caller's thread
            outcome[1] = e

    with _stack_size_lock:
        old = threading.stack_size()
        try:
            threading.stack_size(SEGMENT_STACK_BYTES)
            t = threading.Thread(target=target, name="normalizer-segment", daemon=True)
            t.start()
        except RuntimeError:  # no thread (or no stack for it) can be had: memory ran out
            raise MemoryError("no stack segment for deeper nesting") from None
        finally:
            threading.stack_size(old)
    t.join()
    if outcome[1] is not None:
        error, outcome[1] = outcome[1], None
        raise error
    return outcome[0]


class Normalizer(DerivedForms):
    def __init__(self, file: str, meter: Meter | None) -> None:
        self.file = file
        self.meter = meter
        self.slots: dict[str, int] = {}
        self.global_names: list[str] = []
        self.temps = 0
        self.nesting = 0
        self.deepest = 0  # the deepest nesting met, derived-form expansions included
        self.unquoted: dict[int, bool] = {}  # id(template node) -> holds an unquote

    # -- entry points -------------------------------------------------------------------------

    def program(self, datums: list, pragmas: list[str] | None = None) -> ir.Program:
        old_limit = sys.getrecursionlimit()
        # Each level of source nesting costs a few Python frames here, on one stack segment of
        # SEGMENT levels at most (see nested()).
        sys.setrecursionlimit(max(old_limit, SEGMENT * 8 + 1000))
        try:
            forms: list[ir.Node] = []
            for d in datums:
                self.toplevel(d, forms, allow_module=True)
        finally:
            sys.setrecursionlimit(old_limit)
        # Source of any depth is read and normalized, so that its source errors are found
        # wherever they are (the innermost `()` of 100,000 nested parentheses is E130). The back
        # ends compile Core IR by recursion, though: a program that normalizes to Core IR nested
        # deeper than the recursion limit ends, before anything runs, as evaluating it this deep
        # would.
        if self.deepest > MAX_NESTING:
            raise ResourceExhausted("recursion-limit", "expression nesting (with what derived "
                                    f"forms expand into) deeper than {MAX_NESTING}")
        return ir.Program(forms, list(self.global_names), self.file, list(pragmas or []))

    def toplevel(self, d: Any, out: list, allow_module: bool) -> None:
        # Iterative: a top-level `begin` (or module body) splices its forms in place, and a
        # program of 100,000 nested begins must not recurse in Python.
        stack = [(d, allow_module)]
        while stack:
            d, allow = stack.pop()
            head = head_name(d)
            if head == "begin" and d.tail is None:
                self.step()
                if len(d.items) == 1:
                    raise normalizer_error("E130", "begin needs at least one form", d.span)
                stack.extend((sub, False) for sub in reversed(d.items[1:]))
            elif head == "define" and d.tail is None:
                self.step()
                name_atom, value = self.parse_define(d, None)
                slot = self.global_slot(name_atom.value.name)
                out.append(ir.DefineGlobal(slot, value, name_atom.value.name, d.span))
            elif head == "module" and d.tail is None:
                if not allow:
                    raise normalizer_error("E130", "module is only allowed at the top level of a file",
                               d.span)
                self.step()
                stack.extend((sub, False) for sub in reversed(self.module_body(d)))
            else:
                out.append(self.expr(d, None, True))

    def module_body(self, d: SList) -> list:
        items = d.items
        if len(items) < 2 or not is_symbol(items[1]):
            raise normalizer_error("E130", "module needs a name: (module name (export id ...) body ...)",
                       d.span)
        i = 2
        while i < len(items) and head_name(items[i]) in ("export", "import"):
            clause = items[i]
            if clause.tail is not None or not all(is_symbol(x) for x in clause.items[1:]):
                raise normalizer_error("E130", f"malformed {head_name(clause)} clause", clause.span)
            for x in clause.items[1:]:
                self.check_forbidden_symbol(x)
            i += 1
        return items[i:]

    # -- helpers ------------------------------------------------------------------------------

    def step(self) -> None:
        if self.meter is not None:
            self.meter.charge(NORMALIZATION)

    def temp(self) -> Temp:
        self.temps += 1
        return Temp(self.temps)

    def global_slot(self, name: str) -> int:
        slot = self.slots.get(name)
        if slot is None:
            slot = self.slots[name] = len(self.global_names)
            self.global_names.append(name)
        return slot

    def check_forbidden_symbol(self, d: SAtom) -> None:
        if d.value.name in FORBIDDEN:
            raise LispexError("E120", f"{d.value.name} is not supported in Lispex",
                              (), d.span, phase="normalizer")

    def binder(self, d: Any) -> str:
        if not is_symbol(d):
            raise normalizer_error("E130", "expected an identifier to bind", d.span)
        name = d.value.name
        if name in RESERVED:
            raise normalizer_error("E110", f"reserved word {name} cannot be bound", d.span)
        self.check_forbidden_symbol(d)
        return name

    def binders(self, atoms: list, what: str) -> list[str]:
        names = [self.binder(a) for a in atoms]
        seen: set[str] = set()
        for a, n in zip(atoms, names, strict=True):
            if n in seen:
                raise normalizer_error("E130", f"duplicate {what} {n}", a.span)
            seen.add(n)
        return names

    def check_quoted(self, d: Any) -> None:
        stack = [d]
        while stack:
            n = stack.pop()
            t = type(n)
            if t is SAtom:
                if type(n.value) is Symbol and n.value.name in FORBIDDEN:
                    self.check_forbidden_symbol(n)
            elif t is SList:
                stack.extend(n.items)
                if n.tail is not None:
                    stack.append(n.tail)
            elif t is SVector:
                stack.extend(n.items)

    def lookup(self, key: Any, scope: Scope | None) -> tuple[int, int, bool] | None:
        depth = 0
        while scope is not None:
            idx = scope.names.get(key)
            if idx is not None:
                return depth, idx, scope.letrec
            scope = scope.parent
            depth += 1
        return None

    def ref(self, key: Any, scope: Scope | None, span: Span) -> ir.Node:
        found = self.lookup(key, scope)
        name = str(key)
        if found is None:
            return ir.Global(self.global_slot(name), name, span)
        depth, idx, checked = found
        return ir.Local(depth, idx, name, checked, span)

    # -- expressions --------------------------------------------------------------------------

    def expr(self, d: Any, scope: Scope | None, tail: bool) -> ir.Node:
        # step() and nested(self._expr, ...) written out: this runs once per expression.
        meter = self.meter
        if meter is not None:
            meter.charge(NORMALIZATION)
        nesting = self.nesting = self.nesting + 1
        if nesting > self.deepest:
            self.deepest = nesting
        try:
            if nesting % SEGMENT == 0:
                return _on_fresh_stack(self._expr, (d, scope, tail))
            return self._expr(d, scope, tail)
        finally:
            self.nesting -= 1

    def _expr(self, d: Any, scope: Scope | None, tail: bool) -> ir.Node:
        t = type(d)
        if t is SAtom:
            v = d.value
            if type(v) is Symbol:
                name = v.name
                if name in FORBIDDEN or name in SYNTACTIC_KEYWORDS:
                    return self.variable(d, scope)  # its diagnostic
                # variable() and ref() written out for the most common expression of all.
                depth = 0
                while scope is not None:
                    idx = scope.names.get(name)
                    if idx is not None:
                        return ir.Local(depth, idx, name, scope.letrec, d.span)
                    scope = scope.parent
                    depth += 1
                return ir.Global(self.global_slot(name), name, d.span)
            return ir.Const(v, d.span)
        if t is SVector:
            self.check_quoted(d)
            return ir.Const(to_value(d, fresh_strings=False), d.span)
        if d.tail is not None:
            raise normalizer_error("E130", "a dotted list cannot be evaluated", d.span)
        if not d.items:
            raise normalizer_error("E130", "empty application ()", d.span)
        head = d.items[0]
        if is_symbol(head):
            name = head.value.name
            if name in FORBIDDEN:
                self.check_forbidden_symbol(head)
            if name in SYNTACTIC_KEYWORDS:
                return self.special(name, d, scope, tail)
            if name == "values":
                return ir.ValuesNode([self.expr(a, scope, False) for a in d.items[1:]], d.span)
        op = self.expr(head, scope, False)
        args = [self.expr(a, scope, False) for a in d.items[1:]]
        return ir.App(op, args, d.span, tail)

    def variable(self, d: SAtom, scope: Scope | None) -> ir.Node:
        name = d.value.name
        if name in FORBIDDEN:
            self.check_forbidden_symbol(d)
        if name in SYNTACTIC_KEYWORDS:
            raise normalizer_error("E110", f"reserved word {name} cannot be used as a value", d.span)
        return self.ref(name, scope, d.span)

    def seq(self, forms: list, scope: Scope | None, tail: bool, span: Span) -> ir.Node:
        nodes = [self.expr(f, scope, tail and i == len(forms) - 1) for i, f in enumerate(forms)]
        return nodes[0] if len(nodes) == 1 else ir.Seq(nodes, span)

    def body(self, forms: list, scope: Scope | None, tail: bool, span: Span) -> ir.Node:
        """A body: leading internal definitions (as letrec*), then at least one expression."""
        defs = []
        i = 0
        while i < len(forms) and head_name(forms[i]) == "define":
            defs.append(forms[i])
            i += 1
        rest = forms[i:]
        if not rest:
            raise normalizer_error("E130", "a body needs at least one expression after its definitions",
                       span)
        if not defs:
            return self.seq(rest, scope, tail, span)
        names = []
        for dd in defs:
            self.step()
            names.append(self.define_target(dd))
        atoms = [a for a, _ in names]
        keys = self.binders(atoms, "definition of")
        inner = Scope(keys, scope, letrec=True)
        inits = [self.define_value(dd, inner) for dd in defs]
        return ir.Letrec(inits, self.seq(rest, inner, tail, span), span)

    def define_target(self, d: SList) -> tuple[SAtom, Any]:
        items = d.items
        if len(items) >= 2 and type(items[1]) is SList:
            sig = items[1]
            if not sig.items or not is_symbol(sig.items[0]):
                raise normalizer_error("E130", "malformed define: expected (define (name param ...) body ...)",
                           d.span)
            if len(items) < 3:
                raise normalizer_error("E130", "a procedure definition needs a body", d.span)
            return sig.items[0], None
        if len(items) != 3 or not is_symbol(items[1]):
            raise normalizer_error("E130", "malformed define: expected (define name expression)", d.span)
        return items[1], None

    def define_value(self, d: SList, scope: Scope | None) -> ir.Node:
        items = d.items
        if type(items[1]) is SList:
            sig = items[1]
            name = sig.items[0].value.name
            formals = SList(sig.items[1:], sig.tail, sig.span)
            return self.lambda_(formals, items[2:], scope, name, d.span)
        return self.named_expr(items[2], scope, items[1].value.name)

    def parse_define(self, d: SList, scope: Scope | None) -> tuple[SAtom, ir.Node]:
        atom, _ = self.define_target(d)
        self.binder(atom)
        return atom, self.define_value(d, scope)

    def named_expr(self, d: Any, scope: Scope | None, name: str) -> ir.Node:
        """An expression whose value is bound to ``name``: a lambda there takes the name."""
        if head_name(d) == "lambda" and d.tail is None:
            self.step()
            if len(d.items) < 3:
                raise normalizer_error("E130", "lambda needs parameters and a body", d.span)
            return self.lambda_(d.items[1], d.items[2:], scope, name, d.span)
        return self.expr(d, scope, False)

    def nested(self, fn: Callable[..., Any], *args: Any) -> Any:
        """``fn(*args)`` one level of nesting deeper. Every SEGMENT levels the rest continues on
        a fresh stack, so that nesting is bounded by memory, never by Python's own stack."""
        self.nesting += 1
        if self.nesting > self.deepest:
            self.deepest = self.nesting
        try:
            if self.nesting % SEGMENT == 0:
                return _on_fresh_stack(fn, args)
            return fn(*args)
        finally:
            self.nesting -= 1

    def check_expansion(self, n: int, span: Span) -> None:
        """A derived form that expands into ``n`` nested core forms counts them as nesting."""
        if self.nesting + n > self.deepest:
            self.deepest = self.nesting + n

    def lambda_(self, formals: Any, body: list, scope: Scope | None, name: str | None,
                span: Span) -> ir.Lambda:
        # Internal definitions nest procedures without passing through expr().
        return self.nested(self._lambda, formals, body, scope, name, span)

    def _lambda(self, formals: Any, body: list, scope: Scope | None, name: str | None,
                span: Span) -> ir.Lambda:
        if is_symbol(formals):
            params, rest = [], formals
        elif type(formals) is SList:
            params, rest = formals.items, formals.tail
            if rest is not None and not is_symbol(rest):
                raise normalizer_error("E130", "the rest parameter must be an identifier", rest.span)
        else:
            raise normalizer_error("E130", "lambda parameters must be a list of identifiers", formals.span)
        atoms = params + ([rest] if rest is not None else [])
        names = self.binders(atoms, "parameter")
        inner = Scope(names, scope)
        return ir.Lambda(len(params), rest is not None, self.body(body, inner, True, span), name,
                         span)

    def bindings(self, d: Any, form: str) -> list[tuple[SAtom, Any]]:
        if type(d) is not SList or d.tail is not None:
            raise normalizer_error("E130", f"{form} bindings must be a list of (name value)", d.span)
        out = []
        for b in d.items:
            if type(b) is not SList or b.tail is not None or len(b.items) != 2:
                raise normalizer_error("E130", f"malformed {form} binding: expected (name value)", b.span)
            out.append((b.items[0], b.items[1]))
        return out

    # -- special forms ------------------------------------------------------------------------

    def special(self, name: str, d: SList, scope: Scope | None, tail: bool) -> ir.Node:
        method = getattr(self, "form_" + name.replace("!", "_bang").replace("*", "_star"), None)
        if method is None:
            # define, export, import, module, unquote, unquote-splicing out of place.
            where = {
                "define": "at the top level or at the start of a body",
                "module": "at the top level of a file",
                "export": "in a module header",
                "import": "in a module header",
                "unquote": "inside quasiquote",
                "unquote-splicing": "inside a list in quasiquote",
            }.get(name, "here")
            raise normalizer_error("E130", f"{name} is only allowed {where}", d.span)
        return method(d, scope, tail)

    def form_quote(self, d: SList, scope: Scope | None, tail: bool) -> ir.Node:
        if len(d.items) != 2:
            raise normalizer_error("E130", "quote takes exactly one datum", d.span)
        self.check_quoted(d.items[1])
        return ir.Const(to_value(d.items[1], fresh_strings=False), d.span)

    def form_if(self, d: SList, scope: Scope | None, tail: bool) -> ir.Node:
        if len(d.items) != 4:
            raise normalizer_error("E130", "if needs a test, a consequent and an alternative", d.span)
        return ir.If(self.expr(d.items[1], scope, False), self.expr(d.items[2], scope, tail),
                     self.expr(d.items[3], scope, tail), d.span)

    def form_lambda(self, d: SList, scope: Scope | None, tail: bool) -> ir.Node:
        if len(d.items) < 3:
            raise normalizer_error("E130", "lambda needs parameters and a body", d.span)
        return self.lambda_(d.items[1], d.items[2:], scope, None, d.span)

    def form_begin(self, d: SList, scope: Scope | None, tail: bool) -> ir.Node:
        if len(d.items) < 2:
            raise normalizer_error("E130", "begin needs at least one expression", d.span)
        return self.seq(d.items[1:], scope, tail, d.span)

    def form_set_bang(self, d: SList, scope: Scope | None, tail: bool) -> ir.Node:
        if len(d.items) != 3 or not is_symbol(d.items[1]):
            raise normalizer_error("E130", "malformed set!: expected (set! name expression)", d.span)
        target = d.items[1]
        name = target.value.name
        if name in RESERVED:
            raise normalizer_error("E110", f"reserved word {name} cannot be assigned", target.span)
        self.check_forbidden_symbol(target)
        value = self.named_expr(d.items[2], scope, name)
        found = self.lookup(name, scope)
        if found is None:
            return ir.SetGlobal(self.global_slot(name), value, name, d.span)
        return ir.SetLocal(found[0], found[1], value, name, d.span)

    def form_let(self, d: SList, scope: Scope | None, tail: bool) -> ir.Node:
        items = d.items
        if len(items) >= 2 and is_symbol(items[1]):
            return self.named_let(d, scope, tail)
        if len(items) < 3:
            raise normalizer_error("E130", "let needs bindings and a body", d.span)
        pairs = self.bindings(items[1], "let")
        names = self.binders([a for a, _ in pairs], "binding of")
        inits = [self.named_expr(v, scope, n) for (_, v), n in zip(pairs, names, strict=True)]
        inner = Scope(names, scope)
        return ir.Let(inits, self.body(items[2:], inner, tail, d.span), d.span)

    def form_letrec(self, d: SList, scope: Scope | None, tail: bool) -> ir.Node:
        if len(d.items) < 3:
            raise normalizer_error("E130", "letrec needs bindings and a body", d.span)
        pairs = self.bindings(d.items[1], "letrec")
        names = self.binders([a for a, _ in pairs], "binding of")
        inner = Scope(names, scope, letrec=True)
        inits = [self.named_expr(v, inner, n) for (_, v), n in zip(pairs, names, strict=True)]
        return ir.Letrec(inits, self.body(d.items[2:], inner, tail, d.span), d.span)

    def form_guard(self, d: SList, scope: Scope | None, tail: bool) -> ir.Node:
        items = d.items
        if len(items) < 3 or type(items[1]) is not SList or items[1].tail is not None \
                or not items[1].items:
            raise normalizer_error("E130", "malformed guard: expected (guard (var clause ...) body ...)",
                       d.span)
        spec = items[1]
        if len(spec.items) < 2:
            raise normalizer_error("E130", "guard needs at least one clause: (guard (var clause ...) body ...)",
                       d.span)
        var = self.binder(spec.items[0])
        inner = Scope([var], scope)
        clauses: list[tuple[ir.Node, ir.Node | None]] = []
        else_body = None
        cl = spec.items[1:]
        for i, c in enumerate(cl):
            parts = self.clause_parts(c, "guard")
            if is_symbol(parts[0]) and parts[0].value.name == "else":
                if i != len(cl) - 1:
                    raise normalizer_error("E130", "else must be the last guard clause", c.span)
                if len(parts) < 2:
                    raise normalizer_error("E130", "an else clause needs a body", c.span)
                else_body = self.seq(parts[1:], inner, tail, c.span)
                continue
            test = self.expr(parts[0], inner, False)
            clauses.append((test, self.seq(parts[1:], inner, tail, c.span)
                            if len(parts) > 1 else None))
        body = self.body(items[2:], scope, False, d.span)  # after the clauses, as in the source
        return ir.Guard(body, clauses, else_body, d.span)

def normalize(datums: list, file: str, meter: Meter | None = None,
              pragmas: list[str] | None = None) -> ir.Program:
    # As in the reader: many small objects and no reference cycles, so the cyclic collector
    # would only cost time (a fifth of normalizing a typical program). The state is restored.
    gc_was_enabled = gc.isenabled()
    gc.disable()
    try:
        return Normalizer(file, meter).program(datums, pragmas)
    finally:
        if gc_was_enabled:
            gc.enable()
