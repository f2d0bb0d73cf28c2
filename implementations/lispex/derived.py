"""The derived forms of Lispex, expanded into core forms (a mixin of the normalizer).

let*, named let, and, or, when, unless, cond, case, do and quasiquote. Expansions that need a
temporary use :class:`Temp` keys, which no source symbol can equal, and call kernel primitives
through hidden intrinsics, which no user definition can shadow.
"""

from __future__ import annotations

from typing import Any

from . import core_ir as ir
from .scopes import Scope, head_name, is_symbol, normalizer_error
from .span import Span
from .syntax import SAtom, SList, SVector, to_value
from .values import NIL, Symbol, sym


class DerivedForms:
    """Methods here rely on the core methods of :class:`normalizer.Normalizer`."""

    def named_let(self, d: SList, scope: Scope | None, tail: bool) -> ir.Node:
        items = d.items
        if len(items) < 4:
            raise normalizer_error("E130", "named let needs a name, bindings and a body", d.span)
        loop_name = self.binder(items[1])
        pairs = self.bindings(items[2], "let")
        names = self.binders([a for a, _ in pairs], "binding of")
        inits = [self.expr(v, scope, False) for _, v in pairs]  # source order: before the body
        loop_scope = Scope([loop_name], scope, letrec=True)
        params = Scope(names, loop_scope)
        lam = ir.Lambda(len(names), False, self.body(items[3:], params, True, d.span), loop_name,
                        d.span)
        op = ir.Letrec([lam], ir.Local(0, 0, loop_name, True, d.span), d.span)
        return ir.App(op, inits, d.span, tail)

    def form_let_star(self, d: SList, scope: Scope | None, tail: bool) -> ir.Node:
        if len(d.items) < 3:
            raise normalizer_error("E130", "let* needs bindings and a body", d.span)
        pairs = self.bindings(d.items[1], "let*")
        self.check_expansion(len(pairs), d.span)
        if not pairs:
            return ir.Let([], self.body(d.items[2:], Scope([], scope), tail, d.span), d.span)
        inits = []
        cur = scope
        for atom, v in pairs:
            name = self.binder(atom)
            inits.append(self.named_expr(v, cur, name))
            cur = Scope([name], cur)
        node = self.body(d.items[2:], cur, tail, d.span)
        for init in reversed(inits):
            node = ir.Let([init], node, d.span)
        return node

    def form_and(self, d: SList, scope: Scope | None, tail: bool) -> ir.Node:
        args = d.items[1:]
        if not args:
            return ir.Const(True, d.span)
        self.check_expansion(len(args), d.span)
        # Normalised in source order, so the first malformed operand is the one reported.
        nodes = [self.expr(a, scope, tail and i == len(args) - 1) for i, a in enumerate(args)]
        node = nodes[-1]
        for test in reversed(nodes[:-1]):
            node = ir.If(test, node, ir.Const(False, d.span), d.span)
        return node

    def form_or(self, d: SList, scope: Scope | None, tail: bool) -> ir.Node:
        return self.or_chain(d.items[1:], scope, tail, d.span)

    def or_chain(self, args: list, scope: Scope | None, tail: bool, span: Span) -> ir.Node:
        if not args:
            return ir.Const(False, span)
        self.check_expansion(len(args), span)
        steps = []
        cur = scope
        for a in args[:-1]:  # iterative: 100,000 operands must not recurse or copy
            self.step()
            first = self.expr(a, cur, False)
            t = self.temp()
            cur = Scope([t], cur)
            steps.append((first, t))
        node = self.expr(args[-1], cur, tail)
        for first, t in reversed(steps):
            tref = ir.Local(0, 0, str(t), False, span)
            node = ir.Let([first], ir.If(tref, tref, node, span), span)
        return node

    def form_when(self, d: SList, scope: Scope | None, tail: bool) -> ir.Node:
        if len(d.items) < 3:
            raise normalizer_error("E130", "when needs a test and a body", d.span)
        return ir.If(self.expr(d.items[1], scope, False), self.seq(d.items[2:], scope, tail, d.span),
                     ir.ValuesNode([], d.span), d.span)

    def form_unless(self, d: SList, scope: Scope | None, tail: bool) -> ir.Node:
        if len(d.items) < 3:
            raise normalizer_error("E130", "unless needs a test and a body", d.span)
        return ir.If(self.expr(d.items[1], scope, False), ir.ValuesNode([], d.span),
                     self.seq(d.items[2:], scope, tail, d.span), d.span)

    def clause_parts(self, c: Any, form: str) -> list:
        if type(c) is not SList or c.tail is not None or not c.items:
            raise normalizer_error("E130", f"malformed {form} clause", c.span)
        if len(c.items) >= 2 and is_symbol(c.items[1]) and c.items[1].value.name == "=>":
            raise normalizer_error("E130", f"{form} => clauses are not supported in Lispex", c.span)
        return c.items

    def form_cond(self, d: SList, scope: Scope | None, tail: bool) -> ir.Node:
        clauses = d.items[1:]
        if not clauses:
            raise normalizer_error("E130", "cond needs at least one clause", d.span)
        return self.cond_chain(clauses, scope, tail, d.span)

    def cond_chain(self, clauses: list, scope: Scope | None, tail: bool, span: Span) -> ir.Node:
        self.check_expansion(len(clauses), span)
        steps: list[tuple] = []
        cur = scope
        node: ir.Node = ir.ValuesNode([], span)  # no clause matched: zero values
        for i, c in enumerate(clauses):
            items = self.clause_parts(c, "cond")
            if is_symbol(items[0]) and items[0].value.name == "else":
                if i != len(clauses) - 1:
                    raise normalizer_error("E130", "else must be the last cond clause", c.span)
                if len(items) < 2:
                    raise normalizer_error("E130", "an else clause needs a body", c.span)
                node = self.seq(items[1:], cur, tail, c.span)
                break
            test = self.expr(items[0], cur, False)
            if len(items) == 1:
                # (test): the clause's value is the test's value, kept in a temporary.
                t = self.temp()
                cur = Scope([t], cur)
                steps.append(("let", test, t, c.span))
            else:
                steps.append(("if", test, self.seq(items[1:], cur, tail, c.span), c.span))
        for kind, test, x, cspan in reversed(steps):
            if kind == "if":
                node = ir.If(test, x, node, cspan)
            else:
                tref = ir.Local(0, 0, str(x), False, cspan)
                node = ir.Let([test], ir.If(tref, tref, node, cspan), cspan)
        return node

    def form_case(self, d: SList, scope: Scope | None, tail: bool) -> ir.Node:
        if len(d.items) < 2:
            raise normalizer_error("E130", "case needs a key expression", d.span)
        key = self.expr(d.items[1], scope, False)
        t = self.temp()
        inner = Scope([t], scope)
        node: ir.Node = ir.ValuesNode([], d.span)
        clauses = d.items[2:]
        self.check_expansion(len(clauses), d.span)
        built = []
        for i, c in enumerate(clauses):
            items = self.clause_parts(c, "case")
            if len(items) < 2:
                raise normalizer_error("E130", "a case clause needs a body", c.span)
            if is_symbol(items[0]) and items[0].value.name == "else":
                if i != len(clauses) - 1:
                    raise normalizer_error("E130", "else must be the last case clause", c.span)
                built.append((None, self.seq(items[1:], inner, tail, c.span), c.span))
                continue
            data = items[0]
            if type(data) is not SList or data.tail is not None:
                raise normalizer_error("E130", "case clause data must be a list", data.span)
            tests = []
            for datum in data.items:
                self.check_quoted(datum)
                tests.append(ir.App(ir.Intrinsic("eqv?", datum.span),
                                    [ir.Local(0, 0, str(t), False, datum.span),
                                     ir.Const(to_value(datum, fresh_strings=False), datum.span)],
                                    datum.span))
            test: ir.Node = ir.Const(False, data.span)
            if tests:
                test = tests[-1]
                for x in reversed(tests[:-1]):
                    test = ir.If(x, ir.Const(True, data.span), test, data.span)
            built.append((test, self.seq(items[1:], inner, tail, c.span), c.span))
        for test, body, span in reversed(built):
            node = body if test is None else ir.If(test, body, node, span)
        return ir.Let([key], node, d.span)

    def form_do(self, d: SList, scope: Scope | None, tail: bool) -> ir.Node:
        items = d.items
        if len(items) < 3:
            raise normalizer_error("E130", "do needs variable specs and a test clause", d.span)
        specs = items[1]
        if type(specs) is not SList or specs.tail is not None:
            raise normalizer_error("E130", "do variable specs must be a list", specs.span)
        atoms, inits_syn, steps_syn = [], [], []
        for s in specs.items:
            if type(s) is not SList or s.tail is not None or len(s.items) not in (2, 3):
                raise normalizer_error("E130", "malformed do spec: expected (var init [step])", s.span)
            atoms.append(s.items[0])
            inits_syn.append(s.items[1])
            steps_syn.append(s.items[2] if len(s.items) == 3 else None)
        names = self.binders(atoms, "do variable")
        test_clause = items[2]
        if type(test_clause) is not SList or test_clause.tail is not None or not test_clause.items:
            raise normalizer_error("E130", "do needs a test clause (test result ...)", test_clause.span)
        loop = self.temp()
        loop_scope = Scope([loop], scope, letrec=True)
        vars_scope = Scope(names, loop_scope)
        # Source order: each spec's init then step, the test clause, then the body.
        inits, steps = [], []
        for i, (init, step) in enumerate(zip(inits_syn, steps_syn, strict=True)):
            inits.append(self.expr(init, scope, False))
            steps.append(self.expr(step, vars_scope, False) if step is not None
                         else ir.Local(0, i, names[i], False, d.span))
        test = self.expr(test_clause.items[0], vars_scope, False)
        results = test_clause.items[1:]
        done = (self.seq(results, vars_scope, True, test_clause.span) if results
                else ir.ValuesNode([], test_clause.span))
        again = ir.App(ir.Local(1, 0, str(loop), True, d.span), steps, d.span, True)
        body_nodes = [self.expr(f, vars_scope, False) for f in items[3:]]
        cont = ir.Seq(body_nodes + [again], d.span) if body_nodes else again
        lam = ir.Lambda(len(names), False, ir.If(test, done, cont, d.span), None, d.span)
        op = ir.Letrec([lam], ir.Local(0, 0, str(loop), True, d.span), d.span)
        return ir.App(op, inits, d.span, tail)

    def form_quasiquote(self, d: SList, scope: Scope | None, tail: bool) -> ir.Node:
        if len(d.items) != 2:
            raise normalizer_error("E130", "quasiquote takes exactly one template", d.span)
        template = d.items[1]
        self.mark_unquotes(template)
        if head_name(template) == "unquote" and template.tail is None and \
                len(template.items) == 2:
            return self.expr(template.items[1], scope, tail)  # `,x is x, in x's tail position
        return self.qq(template, 1, scope)

    def qq(self, t: Any, depth: int, scope: Scope | None) -> ir.Node:
        self.step()
        return self.nested(self._qq, t, depth, scope)

    def _qq(self, t: Any, depth: int, scope: Scope | None) -> ir.Node:
        if type(t) is SAtom or not self.unquoted.get(id(t), False):
            self.check_quoted(t)
            return ir.Const(to_value(t, fresh_strings=False), t.span)
        if type(t) is SVector:
            items_list = SList(t.items, None, t.span)
            self.unquoted[id(items_list)] = True  # the vector held an unquote, so its items do
            as_list = self.qq(items_list, depth, scope)
            return ir.App(ir.Intrinsic("list->vector", t.span), [as_list], t.span)
        head = head_name(t)
        if head in ("unquote", "quasiquote", "unquote-splicing") and t.tail is None:
            if len(t.items) != 2:
                raise normalizer_error("E130", f"{head} takes exactly one expression", t.span)
            if head == "unquote-splicing" and depth == 1:
                raise normalizer_error("E130", "unquote-splicing is only allowed inside a list", t.span)
            if head == "unquote" and depth == 1:
                return self.expr(t.items[1], scope, False)
            inner_depth = depth + 1 if head == "quasiquote" else depth - 1
            return self.cons(ir.Const(sym(head), t.span),
                             self.cons(self.qq(t.items[1], inner_depth, scope),
                                       ir.Const(NIL, t.span), t.span), t.span)
        items, tail = t.items, t.tail
        if tail is None and len(items) >= 3 and is_symbol(items[-2]) and \
                items[-2].value.name in ("unquote", "unquote-splicing"):
            # `(a unquote x)` is the datum `(a . ,x)`: the unquote stands in the tail.
            items, tail = items[:-2], SList(items[-2:], None, items[-2].span)
            self.unquoted[id(tail)] = True
        result: ir.Node = (self.qq(tail, depth, scope) if tail is not None
                           else ir.Const(NIL, t.span))
        for item in reversed(items):
            if head_name(item) == "unquote-splicing" and item.tail is None:
                if len(item.items) != 2:
                    raise normalizer_error("E130", "unquote-splicing takes exactly one expression", item.span)
                if depth == 1:
                    spliced = self.expr(item.items[1], scope, False)
                    result = ir.App(ir.Intrinsic("append", item.span), [spliced, result],
                                    item.span)
                    continue
            result = self.cons(self.qq(item, depth, scope), result, item.span)
        return result

    def cons(self, a: ir.Node, b: ir.Node, span: Span) -> ir.Node:
        return ir.App(ir.Intrinsic("cons", span), [a, b], span)

    def mark_unquotes(self, template: Any) -> None:
        """Record, for every list and vector of a template, whether an unquote lies inside it:
        one post-order pass, so deep templates are not rescanned at every level."""
        marks = self.unquoted
        stack: list[tuple[Any, bool]] = [(template, False)]
        while stack:
            n, done = stack.pop()
            t = type(n)
            if t is SAtom:
                continue
            kids = n.items + ([n.tail] if t is SList and n.tail is not None else [])
            if not done:
                stack.append((n, True))
                stack.extend((k, False) for k in kids)
                continue
            marks[id(n)] = any(
                (type(k) is SAtom and type(k.value) is Symbol and
                 k.value.name in ("unquote", "unquote-splicing")) or marks.get(id(k), False)
                for k in kids)
