"""The tree machine's control frames and the paths the hot loop hands off: conditions, guard
clauses, escapes, dynamic-wind, and the control primitives (apply, values, call/cc, ...).

Kept out of machine.py so the loop stays readable; ``Machine`` inherits these as methods, which is
also what the seeded bugs (bench/seeded_bugs/bugs_tree.py) and test fakes patch.
"""

from __future__ import annotations

from typing import Any

from implementations.lispex import core_ir as ir
from implementations.lispex.errors import LispexError, Raised
from implementations.lispex.values import (
    NO_VALUES,
    ErrorObject,
    Primitive,
    Procedure,
    Str,
    Values,
    list_from,
    list_to_python,
)

from .objects import Continuation, GuardHandler

UNBOUND = object()
UNINIT = object()

EVAL, ARGS, RET, APPLY, UNWIND = range(5)

(F_ARGS, F_IF, F_SEQ, F_LET, F_LETREC, F_SETL, F_SETG, F_DEFG, F_VALUES, F_RET, F_GEN, F_CWV,
 F_CC, F_DW_BEFORE, F_DW, F_DW_DONE, F_HANDLERS, F_RAISE, F_GUARD, F_GCLAUSE, F_UNWIND) = range(21)

RET_FRAME = (F_RET,)


def mv_error(span: Any, v: Values) -> LispexError:
    return LispexError("E320", f"expected one value, got {len(v.items)}", (), span)


def arity_error(name: str | None, expected: str, got: int) -> LispexError:
    who = name or "anonymous procedure"
    return LispexError("E302", f"{who}: expected {expected} argument(s), got {got}", ())


def uninit_error(x: ir.Local) -> LispexError:
    return LispexError("E321", f"{x.name} is read before it is initialised", (), x.span)


def unbound_error(x: Any) -> LispexError:
    return LispexError("E300", f"unbound variable {x.name}", (), x.span)


def prim_arity_error(p: Primitive, got: int) -> LispexError:
    return LispexError("E302", f"{p.name}: expected {_arity_text(p)} argument(s), got {got}", ())


def error_object(e: LispexError, span: Any) -> ErrorObject:
    return ErrorObject(e.code, Str(e.message), list_from(e.irritants), e.span or span)


def _arity_text(p: Primitive) -> str:
    if p.max_args < 0:
        return f"at least {p.min_args}"
    if p.min_args == p.max_args:
        return str(p.min_args)
    return f"{p.min_args} to {p.max_args}"


class Control:
    """The machine's rarely taken paths (see the module doc)."""

    def start_generator(self, gen_fn: Any, vals: list, site: Any, k: list) -> tuple:
        """Start a library procedure that calls back into Lispex under an F_GEN frame.
        Returns (mode, val, vals): its first callback to apply, or its value."""
        gen = gen_fn(*vals[1:])
        k.append((F_GEN, gen, site))
        try:
            f, args = next(gen)
        except StopIteration as stop:
            k.pop()
            return RET, stop.value, vals
        except LispexError as e:
            k.pop()
            if e.span is None:
                e.span = site.span
            raise
        return APPLY, None, [f, *args]

    def escape(self, cont: Continuation, vals: list) -> tuple:
        """Calling an escape continuation: the (target, action) to unwind with."""
        if not cont.active:
            raise LispexError("E340", "escape continuation is no longer active", ())
        args = vals[1:]
        return cont.index, ("deliver", args[0] if len(args) == 1 else Values(tuple(args)))

    def signal(self, payload: Any, continuable: bool, span: Any, k: list, handlers: Any) -> tuple:
        """Offer ``payload`` to the innermost handler. Returns the machine state to continue."""
        if handlers is None:
            raise Raised(payload, span)
        h, outer = handlers
        if type(h) is GuardHandler:
            return UNWIND, None, [], False, handlers, (h.index, ("guard", payload, continuable,
                                                                 span))
        k.append((F_RAISE, continuable, payload, handlers, span))
        return APPLY, None, [h, payload], False, outer, None

    def unwind(self, k: list, target: int, action: tuple, handlers: Any, depth: int) -> tuple:
        """Pop frames down to ``target``, running dynamic-wind ``after`` thunks on the way.
        Returns (mode, val, vals, handlers, depth, site, node, env); ``site`` None: unchanged."""
        while len(k) > target + 1:
            fr = k.pop()
            tag = fr[0]
            if tag == F_RET:
                depth -= 1
            elif tag == F_CC:
                fr[1].active = False
            elif tag == F_DW:
                k.append((F_UNWIND, target, action))
                return APPLY, None, [fr[1]], fr[2], depth, fr[3], None, None
        fr = k.pop()
        if action[0] == "deliver":
            fr[1].active = False
            return RET, action[1], [], fr[2], depth, None, None, None
        _, payload, continuable, span = action
        node, env, handlers = fr[1], [fr[2], payload], fr[3]
        mode, node, val = self.guard_next(node, env, 0, payload, continuable, span, k)
        if mode == APPLY:  # no clause matched: raise again
            mode, val, vals, _, handlers, node = self.signal(payload, continuable, span, k,
                                                             handlers)
            return mode, val, vals, handlers, depth, None, node, None
        return mode, val, [], handlers, depth, None, node, env

    def guard_next(self, node: ir.Guard, env: list, i: int, payload: Any, continuable: bool,
                   span: Any, k: list) -> tuple:
        """Evaluate guard clause ``i`` (or the else body); APPLY means nothing matched."""
        if i < len(node.clauses):
            k.append((F_GCLAUSE, node, env, i, payload, continuable, span))
            return EVAL, node.clauses[i][0], None
        if node.else_body is not None:
            return EVAL, node.else_body, None
        return APPLY, None, None

    def control(self, fr: tuple, k: list, val: Any, handlers: Any, depth: int) -> tuple:
        """Return to a control frame. Returns (mode, val, vals, tail, handlers, depth, node, env)."""
        tag = fr[0]
        if tag == F_DEFG:
            if type(val) is Values:
                raise mv_error(fr[1].value.span, val)
            self.gv[fr[1].slot] = val
            return RET, NO_VALUES, [], False, handlers, depth, None, None
        if tag == F_CWV:
            args = val.items if type(val) is Values else (val,)
            return APPLY, None, [fr[1], *args], fr[2], handlers, depth, None, None
        if tag == F_CC:
            fr[1].active = False
            return RET, val, [], False, handlers, depth, None, None
        if tag == F_DW_BEFORE:
            _, thunk, after, saved, site = fr
            k.append((F_DW, after, saved, site))
            return APPLY, None, [thunk], False, handlers, depth, None, None
        if tag == F_DW:
            k.append((F_DW_DONE, val))
            return APPLY, None, [fr[1]], False, fr[2], depth, None, None
        if tag == F_DW_DONE:
            return RET, fr[1], [], False, handlers, depth, None, None
        if tag == F_HANDLERS:
            return RET, val, [], False, fr[1], depth, None, None
        if tag == F_GUARD:
            return RET, val, [], False, fr[3], depth, None, None
        if tag == F_RAISE:
            _, continuable, payload, saved, span = fr
            if continuable:
                return RET, val, [], False, saved, depth, None, None
            err = ErrorObject("E332", Str("exception handler returned from a non-continuable "
                                          "raise"), list_from([payload]), span)
            mode, val, vals, tail, handlers, node = self.signal(err, False, span, k, handlers)
            return mode, val, vals, tail, handlers, depth, node, None
        if tag == F_GCLAUSE:
            _, node, env, i, payload, continuable, span = fr
            if type(val) is Values:
                raise mv_error(node.clauses[i][0].span, val)
            if val is not False:
                body = node.clauses[i][1]
                if body is None:
                    return RET, val, [], False, handlers, depth, None, None
                return EVAL, None, [], False, handlers, depth, body, env
            mode, nxt, _ = self.guard_next(node, env, i + 1, payload, continuable, span, k)
            if mode == EVAL:
                return EVAL, None, [], False, handlers, depth, nxt, env
            mode, val, vals, tail, handlers, node = self.signal(payload, continuable, span, k,
                                                                handlers)
            return mode, val, vals, tail, handlers, depth, node, None
        if tag == F_UNWIND:
            return UNWIND, None, [], False, handlers, depth, (fr[1], fr[2]), None
        raise TypeError(f"unknown frame tag {tag}")

    def special(self, fn: Primitive, vals: list, tail: bool, k: list, handlers: Any,
                site: Any) -> tuple:
        """The control primitives. Returns (mode, val, vals, tail, handlers, node)."""
        name = fn.name
        args = vals[1:]
        if name == "apply":
            spread = list_to_python(args[-1])
            if spread is None:
                raise LispexError("E310", "apply: the last argument must be a proper list",
                                  (args[-1],))
            return APPLY, None, [args[0], *args[1:-1], *spread], tail, handlers, None
        if name == "values":
            return RET, (args[0] if len(args) == 1 else Values(tuple(args))), [], tail, \
                handlers, None
        if name == "call-with-values":
            k.append((F_CWV, args[1], tail, site))
            return APPLY, None, [args[0]], False, handlers, None
        if name == "call-with-current-continuation":
            cont = Continuation(len(k))
            k.append((F_CC, cont, handlers))
            return APPLY, None, [args[0], cont], False, handlers, None
        if name == "dynamic-wind":
            before, thunk, after = args
            k.append((F_DW_BEFORE, thunk, after, handlers, site))
            return APPLY, None, [before], False, handlers, None
        if name == "with-exception-handler":
            handler, thunk = args
            if not isinstance(handler, Procedure):
                raise LispexError("E312", "with-exception-handler: expected a procedure as the "
                                  "handler", (handler,))
            k.append((F_HANDLERS, handlers))
            return APPLY, None, [thunk], False, (handler, handlers), None
        if name in ("raise", "raise-continuable"):
            return self.signal(args[0], name == "raise-continuable", site.span, k, handlers)
        raise TypeError(f"primitive {name} has no tree implementation")
