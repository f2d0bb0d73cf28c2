"""The derived forms, expanded straight into Core IR (docs/core-ir.md, "What the derived forms
become"), and ``guard``. Temporaries are :class:`~.scopes.Temp` keys in frames of their own.
"""

from __future__ import annotations

from typing import Any

from . import core_ir as ir
from .errors import SourceError
from .scopes import Scope, Temp
from .syntax import Seq, Vec, symbol_name, to_value
from .values import NIL, Symbol


def _malformed(message: str, span: Any) -> SourceError:
    return SourceError("E130", message, span, "normalizer")


def _is(d: Any, word: str) -> bool:
    return symbol_name(d) == word


def _clause_items(c: Any) -> list:
    if type(c) is not Seq or c.tail is not None or not c.items:
        raise _malformed("a clause must be a non-empty list", c.span)
    return c.items


NO_VALUES_NODE = ir.ValuesNode
QQ_WORDS = ("unquote", "unquote-splicing", "quasiquote")


class Derived:
    """Mixed into the normalizer, which provides expr, body, sequence, bindings, binder,
    named_value and distinct."""

    # -- let*, named let -------------------------------------------------------------------

    def let_star(self, d: Seq, sc: Scope, tail: bool) -> Any:
        items = d.items
        if len(items) < 3:
            raise _malformed("let* needs bindings and a body", d.span)
        binds = self.bindings(items[1], d)
        if not binds:
            return ir.Let([], self.body(items[2:], sc.push([]), tail, d.span), d.span)
        return self._let_star(binds, 0, items[2:], sc, tail, d.span)

    def _let_star(self, binds: list, i: int, body: list, sc: Scope, tail: bool, span: Any) -> Any:
        name, value, _s = binds[i]
        init = self.named_value(value, name, sc, False)
        inner = sc.push([name])
        if i + 1 == len(binds):
            rest = self.body(body, inner, tail, span)
        else:
            self.step()
            rest = self._let_star(binds, i + 1, body, inner, tail, span)
        return ir.Let([init], rest, span)

    def named_let(self, d: Seq, sc: Scope, tail: bool) -> Any:
        items = d.items
        name = self.binder(items[1])
        if len(items) < 4:
            raise _malformed("named let needs bindings and a body", d.span)
        binds = self.bindings(items[2], d)
        self.distinct([(n, s) for n, _v, s in binds])
        inits = [self.expr(v, sc, False) for _n, v, _s in binds]
        loop_scope = sc.push([name], checked=True)
        params = loop_scope.push([n for n, _v, _s in binds])
        lam = ir.Lambda(name, len(binds), False, self.body(items[3:], params, True, d.span),
                        d.span)
        ref = ir.Local(0, 0, name, True, items[1].span)
        return ir.App(ir.Letrec([lam], ref, d.span), inits, tail, d.span)

    # -- cond, case ------------------------------------------------------------------------

    def cond(self, d: Seq, sc: Scope, tail: bool) -> Any:
        clauses = d.items[1:]
        if not clauses:
            raise _malformed("cond needs at least one clause", d.span)
        return self._cond(clauses, 0, sc, tail, d.span)

    def _cond(self, clauses: list, i: int, sc: Scope, tail: bool, span: Any) -> Any:
        """The clauses from ``i`` on, each checked as it is reached (a fault in an earlier
        clause's test comes before a malformed later clause)."""
        if i == len(clauses):
            return ir.ValuesNode([], span)
        c = clauses[i]
        items = _clause_items(c)
        if _is(items[0], "else") and i != len(clauses) - 1:
            raise _malformed("else must be the last cond clause", c.span)
        if len(items) > 1 and _is(items[1], "=>"):
            raise _malformed("cond => clauses are not supported in Lispex", c.span)
        if _is(items[0], "else") and len(items) == 1:
            raise _malformed("else needs at least one expression", c.span)
        if _is(items[0], "else"):
            return self.sequence(items[1:], sc, tail, c.span)
        test = self.expr(items[0], sc, False)
        if len(items) == 1:
            inner = sc.push([Temp("cond")])
            if i + 1 < len(clauses):
                self.step()
            rest = self._cond(clauses, i + 1, inner, tail, span)
            t = ir.Local(0, 0, "", False, c.span)
            return ir.Let([test], ir.If(t, ir.Local(0, 0, "", False, c.span), rest, c.span),
                          c.span)
        then = self.sequence(items[1:], sc, tail, c.span)
        if i + 1 < len(clauses):
            self.step()
        return ir.If(test, then, self._cond(clauses, i + 1, sc, tail, span), c.span)

    def case(self, d: Seq, sc: Scope, tail: bool) -> Any:
        items = d.items
        if len(items) < 2:
            raise _malformed("case needs a key", d.span)
        clauses = items[2:]
        for i, c in enumerate(clauses):
            ci = _clause_items(c)
            if _is(ci[0], "else"):
                if i != len(clauses) - 1:
                    raise _malformed("else must be the last case clause", c.span)
            elif type(ci[0]) is not Seq or ci[0].tail is not None:
                raise _malformed("case clause data must be a list", ci[0].span)
            if len(ci) > 1 and _is(ci[1], "=>"):
                raise _malformed("case => clauses are not supported in Lispex", c.span)
            if len(ci) < 2:
                raise _malformed("a case clause needs at least one expression", c.span)
        key = self.expr(items[1], sc, False)
        inner = sc.push([Temp("key")])
        return ir.Let([key], self._case(clauses, 0, inner, tail, d.span), d.span)

    def _case(self, clauses: list, i: int, sc: Scope, tail: bool, span: Any) -> Any:
        if i == len(clauses):
            return ir.ValuesNode([], span)
        c = clauses[i]
        ci = c.items
        if _is(ci[0], "else"):
            return self.sequence(ci[1:], sc, tail, c.span)
        tests = []
        for datum in ci[0].items:
            self.check_forbidden_datum(datum)
            tests.append(ir.App(ir.Intrinsic("eqv?", datum.span),
                                [ir.Local(0, 0, "", False, datum.span),
                                 ir.Const(to_value(datum), datum.span)], False, datum.span))
        if not tests:
            test: Any = ir.Const(False, ci[0].span)
        else:
            test = tests[-1]
            for t in reversed(tests[:-1]):
                test = ir.If(t, ir.Const(True, c.span), test, c.span)
        then = self.sequence(ci[1:], sc, tail, c.span)
        return ir.If(test, then, self._case(clauses, i + 1, sc, tail, span), c.span)

    # -- and, or, when, unless -------------------------------------------------------------

    def and_(self, d: Seq, sc: Scope, tail: bool) -> Any:
        args = d.items[1:]
        if not args:
            return ir.Const(True, d.span)
        out = self.expr(args[-1], sc, tail)
        tests = [self.expr(a, sc, False) for a in args[:-1]]
        for t in reversed(tests):
            out = ir.If(t, out, ir.Const(False, d.span), d.span)
        return out

    def or_(self, d: Seq, sc: Scope, tail: bool) -> Any:
        args = d.items[1:]
        if not args:
            return ir.Const(False, d.span)
        return self._or(args, 0, sc, tail, d.span)

    def _or(self, args: list, i: int, sc: Scope, tail: bool, span: Any) -> Any:
        if i == len(args) - 1:
            return self.expr(args[i], sc, tail)
        first = self.expr(args[i], sc, False)
        inner = sc.push([Temp("or")])
        rest = self._or(args, i + 1, inner, tail, span)
        t = ir.Local(0, 0, "", False, span)
        return ir.Let([first], ir.If(t, ir.Local(0, 0, "", False, span), rest, span), span)

    def when(self, d: Seq, sc: Scope, tail: bool) -> Any:
        if len(d.items) < 3:
            raise _malformed("when needs a test and at least one expression", d.span)
        test = self.expr(d.items[1], sc, False)
        return ir.If(test, self.sequence(d.items[2:], sc, tail, d.span),
                     ir.ValuesNode([], d.span), d.span)

    def unless(self, d: Seq, sc: Scope, tail: bool) -> Any:
        if len(d.items) < 3:
            raise _malformed("unless needs a test and at least one expression", d.span)
        test = self.expr(d.items[1], sc, False)
        return ir.If(test, ir.ValuesNode([], d.span),
                     self.sequence(d.items[2:], sc, tail, d.span), d.span)

    # -- do --------------------------------------------------------------------------------

    def do(self, d: Seq, sc: Scope, tail: bool) -> Any:
        items = d.items
        if len(items) < 3:
            raise _malformed("do needs variable specs and a test clause", d.span)
        specs_d, test_d = items[1], items[2]
        if type(specs_d) is not Seq or specs_d.tail is not None:
            raise _malformed("do needs a list of (variable init [step])", specs_d.span)
        for s in specs_d.items:  # every spec's shape first, then the names
            if type(s) is not Seq or s.tail is not None or not 2 <= len(s.items) <= 3:
                raise _malformed("a do variable is (variable init [step])", s.span)
        specs = []
        for s in specs_d.items:
            specs.append((self.binder(s.items[0]), s.items[1],
                          s.items[2] if len(s.items) == 3 else None, s.items[0].span))
        if type(test_d) is not Seq or test_d.tail is not None or not test_d.items:
            raise _malformed("do needs a test clause (test result ...)", test_d.span)
        self.distinct([(n, s) for n, _i, _st, s in specs])
        inits = [self.expr(init, sc, False) for _n, init, _st, _s in specs]
        loop_scope = sc.push([Temp("do")], checked=True)
        params = loop_scope.push([n for n, _i, _st, _s in specs])
        test = self.expr(test_d.items[0], params, False)
        results = test_d.items[1:]
        if results:
            result = self.sequence(results, params, True, test_d.span)
        else:
            result = ir.ValuesNode([], test_d.span)
        body = [self.expr(x, params, False) for x in items[3:]]
        steps = []
        for i, (n, _init, step, s) in enumerate(specs):
            if step is None:
                steps.append(ir.Local(0, i, n, False, s))
            else:
                steps.append(self.expr(step, params, False))
        again = ir.App(ir.Local(1, 0, "", True, d.span), steps, True, d.span)
        loop_body = ir.Seq([*body, again], d.span) if body else again
        lam = ir.Lambda(None, len(specs), False, ir.If(test, result, loop_body, d.span), d.span)
        return ir.App(ir.Letrec([lam], ir.Local(0, 0, "", True, d.span), d.span), inits, tail,
                      d.span)

    # -- guard -----------------------------------------------------------------------------

    def guard(self, d: Seq, sc: Scope, tail: bool) -> Any:
        items = d.items
        spec = items[1] if len(items) > 1 else None
        if type(spec) is Seq and spec.tail is None and spec.items:
            self.binder(spec.items[0])  # a bad variable is reported where it is written
        if spec is None or type(spec) is not Seq or spec.tail is not None or \
                len(spec.items) < 2 or len(items) < 3:
            raise _malformed("guard needs (variable clause ...) and a body", d.span)
        var = self.binder(spec.items[0])
        clauses = spec.items[1:]
        inner = sc.push([var])
        out = []
        else_body = None
        # The first fault in the text is the one reported: each clause (its shape, then what it
        # holds) in turn, then the body, which the clauses precede.
        for i, c in enumerate(clauses):
            ci = _clause_items(c)
            if _is(ci[0], "else") and i != len(clauses) - 1:
                raise _malformed("else must be the last guard clause", c.span)
            if len(ci) > 1 and _is(ci[1], "=>"):
                raise _malformed("guard => clauses are not supported in Lispex", c.span)
            if _is(ci[0], "else"):
                if len(ci) < 2:
                    raise _malformed("else needs at least one expression", c.span)
                else_body = self.sequence(ci[1:], inner, tail, c.span)
                continue
            test = self.expr(ci[0], inner, False)
            out.append((test, self.sequence(ci[1:], inner, tail, c.span) if len(ci) > 1
                        else None))
        body = self.body(items[2:], sc, False, d.span)
        return ir.Guard(body, out, else_body, d.span)

    # -- quasiquote ------------------------------------------------------------------------

    def quasiquote(self, d: Seq, sc: Scope, tail: bool) -> Any:
        if len(d.items) != 2:
            raise _malformed("quasiquote takes exactly one template", d.span)
        t = d.items[1]
        if type(t) is Seq and t.tail is None and len(t.items) >= 1 and \
                _is(t.items[0], "unquote-splicing"):
            raise _malformed("unquote-splicing is only allowed inside a list template", t.span)
        return self.qq(t, 1, sc, tail)

    def _live(self, t: Any, depth: int) -> bool:
        """Whether template ``t`` holds quasiquote syntax (an unquote, unquote-splicing or
        quasiquote form) at any depth: only a template without any stays one constant."""
        work = [t]
        while work:
            x = work.pop()
            if type(x) is Vec:
                work.extend(x.items)
                continue
            if type(x) is not Seq:
                continue
            if x.items and symbol_name(x.items[0]) in QQ_WORDS:
                return True
            if x.tail is None and len(x.items) >= 3 and symbol_name(x.items[-2]) in QQ_WORDS:
                return True
            work.extend(x.items)
            if x.tail is not None:
                work.append(x.tail)
        return False

    def _const(self, t: Any) -> Any:
        self.check_forbidden_datum(t)
        return ir.Const(to_value(t), t.span)

    def _cons(self, a: Any, b: Any, span: Any) -> Any:
        return ir.App(ir.Intrinsic("cons", span), [a, b], False, span)

    def qq(self, t: Any, depth: int, sc: Scope, tail: bool = False) -> Any:  # noqa: C901
        self.step()
        if not self._live(t, depth):
            return self._const(t)
        if type(t) is Vec:
            as_list = Seq(t.items, None, t.span)
            return ir.App(ir.Intrinsic("list->vector", t.span), [self.qq_list(as_list, depth, sc)],
                          False, t.span)
        head = symbol_name(t.items[0]) if t.items else None
        if head in ("unquote", "unquote-splicing"):
            if t.tail is not None or len(t.items) != 2:
                raise _malformed(f"{head} takes exactly one expression", t.span)
            if depth == 1:
                if head == "unquote-splicing":
                    raise _malformed("unquote-splicing is only allowed inside a list template",
                                     t.span)
                return self.expr(t.items[1], sc, tail)
            inner = self.qq(t.items[1], depth - 1, sc)
            return self._cons(ir.Const(Symbol(head), t.span),
                              self._cons(inner, ir.Const(NIL, t.span), t.span), t.span)
        if head == "quasiquote" and t.tail is None and len(t.items) == 2:
            inner = self.qq(t.items[1], depth + 1, sc)
            return self._cons(ir.Const(Symbol(head), t.span),
                              self._cons(inner, ir.Const(NIL, t.span), t.span), t.span)
        return self.qq_list(t, depth, sc)

    def qq_list(self, t: Seq, depth: int, sc: Scope) -> Any:
        """A list template: each element consed (or, for ``,@`` at depth 1, appended) onto
        the rest, from the back; the end is the tail template or ``()``."""
        items = t.items
        if t.tail is not None:
            out = self.qq(t.tail, depth, sc)
        else:
            out = ir.Const(NIL, t.span)
        for i in range(len(items) - 1, -1, -1):
            x = items[i]
            if symbol_name(x) in ("unquote", "unquote-splicing") and i == len(items) - 2 \
                    and t.tail is None:
                # `(a . ,b)` reads as (a unquote b): the rest of the list is one unquote
                out = self.qq(Seq(items[i:], None, x.span), depth, sc)
                continue
            if type(x) is Seq and x.tail is None and len(x.items) == 2 and \
                    _is(x.items[0], "unquote-splicing") and depth == 1:
                out = ir.App(ir.Intrinsic("append", x.span),
                             [self.expr(x.items[1], sc, False), out], False, x.span)
                continue
            out = self._cons(self.qq(x, depth, sc), out, x.span)
        return out

    SPECIAL_DERIVED = {
        "let*": let_star,
        "cond": cond,
        "case": case,
        "and": and_,
        "or": or_,
        "when": when,
        "unless": unless,
        "do": do,
        "guard": guard,
        "quasiquote": quasiquote,
    }
