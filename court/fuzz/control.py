"""Producers of control: call/cc (escapes from inside the body, out of handlers, out of winds),
exception handlers (raise-continuable with nested handlers, several raises per handler),
guard (re-raise when no clause matches), dynamic-wind nesting, multiple values through
call-with-values, and the planted faults of unsafe programs."""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import values as V
from .pieces import arg, caught, raised, test
from .registry import expression, planted, program_part

if TYPE_CHECKING:
    from .context import Context as G
    from .context import Scope

# What the innermost raise of two nested guards raises: matched by neither, one or the other.
NESTED_RAISED = ["5", "'q", '"s"', "(list 1)"]


# -- escapes ------------------------------------------------------------------------------


@expression("callcc", {"*": 1.0}, needs=("callcc",))
def p_callcc(g: G, d: int, s: Scope, t: str) -> str:
    k = g.fresh("k")
    inner = s.child()
    body = g.sub(t, d, inner)
    shape = g.pick(["plain", "inside", "loop", "handler", "wind", "values", "operands",
                    "outer", "outer"])
    g.tag("shape:callcc-" + shape)
    cc = g.pick(["call/cc", "call-with-current-continuation"])
    if shape == "operands":
        # the escape leaves operands already evaluated inside its body; the call pending
        # outside must see only its own
        inside = " ".join(g.sub("any", d, s) for _ in range(g.small(1, 2)))
        outside = " ".join(g.sub("any", d, s) for _ in range(g.small(1, 2)))
        return (f"(list {outside} ({cc} (lambda ({k}) (list {inside} ({k} {body}) "
                f"{g.sub('any', d, s)}))))")
    if shape == "outer":
        # the outer continuation called from inside an inner call/cc's receiver: the inner
        # call/cc must let that escape through, and the work pending after it is skipped
        j, x = g.fresh("j"), g.fresh("x")
        escape = g.pick([
            f"({k} {body})",
            f"(if {test(g, d, s)} ({k} {body}) ({j} {g.sub('any', d, s)}))",
            f"(begin (for-each (lambda ({x}) (if {test(g, d, s)} ({k} {body}) #f)) "
            f"(list {g.sub('any', d, s)} {g.sub('any', d, s)})) ({j} 'fell))",
            f"(+ 1 ({j} ({k} {body})))"])
        inner = f"({g.pick(['call/cc', 'call-with-current-continuation'])} (lambda ({j}) {escape}))"
        return (f"({cc} (lambda ({k}) (begin (display (list 'inner {inner})) "
                f"{g.sub(t, d, s)})))")
    if shape == "inside" and t in ("int", "num"):
        # the continuation called from inside its own body, abandoning the pending `+`
        return f"({cc} (lambda ({k}) (+ 1 ({k} {body}) {g.sub('int', d, s)})))"
    if shape == "loop":
        x = g.fresh("x")
        lst = " ".join(g.sub(t, d, s) for _ in range(g.small(1, 4)))
        return (f"({cc} (lambda ({k}) (for-each (lambda ({x}) (if {test(g, d, s)} "
                f"({k} {x}) #f)) (list {lst})) {body}))")
    if shape == "handler" and (g.on("handlers") or g.on("errors")):
        e = g.fresh("e")
        return (f"({cc} (lambda ({k}) (with-exception-handler (lambda ({e}) ({k} {body})) "
                f"(lambda () (+ 1 (raise {raised(g, d, s)}))))))")
    if shape == "wind" and g.on("dynwind"):
        return (f"({cc} (lambda ({k}) (dynamic-wind (lambda () (display \"<\")) "
                f"(lambda () ({k} {body}) (display \"unreached\")) "
                f"(lambda () (display \">\")))))")
    if shape == "values" and g.on("multivalues"):
        a, b = g.fresh("a"), g.fresh("b")
        return (f"(call-with-values (lambda () ({cc} (lambda ({k}) ({k} {body} "
                f"{g.sub('any', d, s)})))) (lambda ({a} {b}) {a}))")
    return f"({cc} (lambda ({k}) {body}))"


# -- handlers and guards ------------------------------------------------------------------


@expression("handler", {"*": 1.0}, needs=("handlers",))
def p_handler(g: G, d: int, s: Scope, t: str) -> str:
    """with-exception-handler: a handler returning to raise-continuable, or an escape by
    guard around a handler that raises again."""
    if t in ("int", "num"):
        e = g.fresh("e")
        raises = " ".join(f"(raise-continuable {g.sub('int', d, s)})"
                          for _ in range(g.small(1, 3)))
        g.tag("shape:several-raises")
        return (f"(with-exception-handler (lambda ({e}) (if (number? {e}) (* {e} 2) 0)) "
                f"(lambda () (+ {g.sub('int', d, s)} {raises})))")
    e, c = g.fresh("e"), g.fresh("c")
    inner = s.child(**{e: "any"})
    return (f"(guard ({e} ((symbol? {e}) {g.sub(t, d, inner)}) "
            f"((error-object? {e}) {g.sub(t, d, inner)}) "
            f"(else {g.sub(t, d, inner)})) "
            f"(with-exception-handler (lambda ({c}) {g.pick(V.SYMBOLS)}) "
            f"(lambda () (raise {raised(g, d, s)}))))")


@expression("continuable", {"*": 0.7}, needs=("handlers",))
def p_continuable(g: G, d: int, s: Scope, t: str) -> str:
    """Nested handlers: the inner handler raises on to the outer one (which runs with the
    inner suppressed), both continuable, several raises in one body."""
    e1, e2 = g.fresh("e"), g.fresh("e")
    outer = f"(lambda ({e1}) (if (number? {e1}) (+ {e1} 100) {e1}))"
    inner = (f"(lambda ({e2}) (if (number? {e2}) (* 2 (raise-continuable (+ {e2} 1))) "
             f"(raise-continuable {e2})))")
    raises = [f"(raise-continuable {g.sub('int', d, s)})" for _ in range(g.small(1, 3))]
    g.tag("shape:nested-handlers")
    body = f"(+ {' '.join(raises)})"
    if t not in ("int", "num"):
        body = f"(begin {body} {g.sub(t, d, s)})"
    return (f"(with-exception-handler {outer} (lambda () (with-exception-handler {inner} "
            f"(lambda () {body}))))")


@expression("handler_compose", {"*": 0.8}, needs=("handlers",))
def p_handler_compose(g: G, d: int, s: Scope, t: str) -> str:
    """Handlers composed with guard, call/cc and winds: a guard with no matching clause
    re-raising to a handler that returns (continuable: the value goes back to the raise),
    an escape out of with-exception-handler followed by a raise that must meet the outer
    handlers again, a handler that escapes out of a wind."""
    shape = g.pick(["return-through-guard", "escape-then-raise", "handler-escapes",
                    "escape-out-of-wind", "wrap-and-reraise", "nested-guards"])
    g.tag("shape:compose-" + shape)
    e, e2, k = g.fresh("e"), g.fresh("e"), g.fresh("k")
    how = g.pick(["raise-continuable", "raise-continuable", "raise"])
    x = raised(g, d, s)
    no_match = g.pick([f"((string? {e2}) 0)", f"((eq? {e2} 'never) 1)",
                       f"((error-object? {e2}) 2)", f"((symbol? {e2}) 3)"])
    value = g.pick(["5", "0", f"(if (number? {e}) (+ {e} 1) 9)"])
    if shape == "return-through-guard":
        body = (f"(with-exception-handler (lambda ({e}) {value}) (lambda () (+ 1 "
                f"(guard ({e2} {no_match}) ({how} {x})))))")
    elif shape == "escape-then-raise":
        leave = g.pick([f"({k} 1)", f"(+ 1 ({k} 2))", f"(begin ({k} 3) 4)"])
        body = (f"(guard ({e} (#t (list 'guarded {e}))) (call/cc (lambda ({k}) "
                f"(with-exception-handler (lambda ({e2}) 'inner) (lambda () {leave})))) "
                f"({how} {x}))")
    elif shape == "handler-escapes":
        body = (f"(with-exception-handler (lambda ({e}) {value}) (lambda () "
                f"(+ (call/cc (lambda ({k}) (with-exception-handler (lambda ({e2}) "
                f"({k} 5)) (lambda () ({how} 1))))) (raise-continuable 2))))")
    elif shape == "escape-out-of-wind":
        body = (f"(guard ({e} (#t (list 'outer {e}))) (list (call/cc (lambda ({k}) "
                f"(with-exception-handler (lambda ({e2}) ({k} (list 'left {e2}))) "
                f"(lambda () (dynamic-wind (lambda () (display \"<\")) "
                f"(lambda () ({how} {x})) (lambda () (display \">\"))))))) "
                f"(raise-continuable 'after)))")
    elif shape == "wrap-and-reraise":
        body = (f"(guard ({e} ((pair? {e}) (list 'wrapped {e})) (#t (list 'plain {e}))) "
                f"(with-exception-handler (lambda ({e2}) ({g.pick(['raise', 'raise-continuable'])} "
                f"(list 'w {e2}))) (lambda () ({how} {x}))))")
    else:
        body = (f"(with-exception-handler (lambda ({e}) 7) (lambda () (guard ({e2} "
                f"((symbol? {e2}) 'sym)) (guard ({k} ((string? {k}) 'str)) "
                f"(+ 1 ({how} {g.pick(NESTED_RAISED)}))))))")
    if t in ("int", "num", "any"):
        return body if t == "any" else f"(let (({k} {body})) (if (number? {k}) {k} 0))"
    return f"(begin {body} {g.sub(t, d, s)})"


@expression("guard", {"*": 1.0}, needs=("errors",))
def p_guard(g: G, d: int, s: Scope, t: str) -> str:
    if g.chance(25):
        return guard_then_locals(g, d, s, t)
    e = g.fresh("e")
    raiser = g.pick([f"(raise {g.pick(V.SYMBOLS)})",
                     f"(error {g.pick(V.STRINGS)} {g.sub('any', d, s)})",
                     f"(raise {g.sub('int', d, s)})",
                     f"(vector-ref (vector 1 2) {g.small(0, 4)})",
                     f"(car {g.sub('list', d, s)})",
                     g.sub(t, d, s), f"(raise '{g.pick(['a', 'b'])})",
                     f"(raise {g.small(1, 4)})"])
    body = f"(begin {raiser} {g.sub(t, d, s)})" if g.chance(50) else raiser
    inner = s.child(**{e: "any"})
    clauses = [f"((symbol? {e}) {g.sub(t, d, inner)})",
               f"((string? {e}) {g.sub(t, d, inner)})",
               f"((number? {e}) {g.sub(t, d, inner)})"]
    if t in ("str", "any"):
        clauses.append(f"((error-object? {e}) (error-object-message {e}))")
    if t in ("list", "any"):
        clauses.append(f"((error-object? {e}) (error-object-irritants {e}))")
    if t == "any":
        # clauses whose value is the test's: a test alone, and a test => a receiver
        clauses += [f"((memv {e} '(1 2 3)))", f"((assq {e} '((a . 1) (b . 2))))",
                    f"((assq {e} '((a . 1) (b . 2))) => cdr)", f"((symbol? {e}) => list)"]
        g.rng.shuffle(clauses)
    clauses = [c for c in clauses if g.chance(70)] or clauses[:1]
    tail = f" (else {g.sub(t, d, inner)})" if g.chance(70) else ""
    return f"(guard ({e} {' '.join(clauses)}{tail}) {body})"


def guard_then_locals(g: G, d: int, s: Scope, t: str) -> str:
    """A guard in a let init, not in tail position, with locals (a let's, a parameter)
    read after it: whichever way it ends (a test-only clause, a test => a receiver, a
    clause body, else, a re-raise to an outer guard, no raise), it must leave its scope."""
    e, x, r, p = g.fresh("e"), g.fresh("x"), g.fresh("r"), g.fresh("p")
    thrown, first = g.pick([("2", f"((memv {e} '(1 2 3)))"),
                            ("'b", f"((assq {e} '((a . 1) (b . 2))))"),
                            ("'a", f"((assq {e} '((a . 1) (b . 2))) => cdr)"),
                            ("'a", f"((symbol? {e}) (list 'body {e}))"),
                            ("5", f"((string? {e}) 'no) (else (list 'else {e}))"),
                            ("\"s\"", f"((number? {e}) 'no)")])
    body = g.pick([f"(raise {thrown})", f"(+ 1 (raise-continuable {thrown}))",
                   f"(begin (display 'in) {thrown})"])
    if "raise-continuable" in body:
        body = f"(with-exception-handler (lambda (c) 1) (lambda () {body}))"
    guard = f"(guard ({e} {first}) {body})"
    if first.endswith("'no)"):  # no clause matches: the outer guard gets the re-raise
        guard = f"(guard ({e} (#t (list 'outer {e}))) {guard})"
    g.tag("shape:guard-then-locals")
    show = f"(display (list {r} {x} {p}))"
    return (f"((lambda ({p}) (let (({x} {g.sub('any', d, s)})) (let (({r} {guard})) "
            f"{show} {g.sub(t, d, s)}))) {g.small(0, 9)})")


@expression("reraise", {"*": 0.5}, needs=("errors",))
def p_reraise(g: G, d: int, s: Scope, t: str) -> str:
    """An inner guard with no matching clause re-raises to the outer one, through a wind
    whose after thunk must run exactly once."""
    e1, e2 = g.fresh("e"), g.fresh("e")
    thrown = raised(g, d, s)
    inner_body = f"(raise {thrown})" if g.chance(70) else \
        f"(error \"inner\" {g.sub('any', d, s)})"
    if g.on("dynwind") and g.chance(50):
        inner_body = (f"(dynamic-wind (lambda () (display \"in \")) (lambda () {inner_body})"
                      f" (lambda () (display \"out \")))")
    inner_s = s.child(**{e2: "any"})
    outer_s = s.child(**{e1: "any"})
    if g.on("handlers") and g.chance(40):
        # raise-continuable through a non-tail guard with no matching clause, resumed by
        # the outer handler: the code after the guard reads the locals around it
        x, y = g.fresh("x"), g.fresh("y")
        g.tag("shape:reraise-resumed")
        return (f"(with-exception-handler (lambda ({e1}) {g.literal('int')}) (lambda () "
                f"(let (({x} {g.sub('any', d, s)})) (let (({y} (+ 1 (guard ({e2} "
                f"((string? {e2}) 0)) (raise-continuable {thrown}))))) (list {x} {y})))))")
    g.tag("shape:reraise")
    return (f"(guard ({e1} (#t (display (list 'outer {e1})) {g.sub(t, d, outer_s)})) "
            f"(guard ({e2} ((eq? {e2} 'never) {g.sub(t, d, inner_s)})) {inner_body}))")


# -- winds and values ---------------------------------------------------------------------


@expression("dynwind", {"*": 1.0}, needs=("dynwind",))
def p_dynwind(g: G, d: int, s: Scope, t: str) -> str:
    before = f'(lambda () (display "{g.pick(["<", "[", "in "])}"))'
    after = f'(lambda () (display "{g.pick([">", "]", " out"])}"))'
    shape = g.pick(["plain", "escape", "raise", "nested", "after-handlers",
                    "before-escape", "values"])
    needs = {"escape": ("callcc",), "raise": ("errors",), "after-handlers": ("callcc", "handlers"),
             "before-escape": ("errors",), "values": ("multivalues",)}
    if not all(g.on(f) for f in needs.get(shape, ())):
        shape = "plain"  # the tag names the shape the program has
    if shape in ("escape", "raise") and not g.safe and g.chance(40):
        # an after thunk that faults when an escape applies it: a fault of applying it (a
        # wrong arity, a non-procedure) belongs to the dynamic-wind, wherever the escape
        # was made; and the escape is made from inside a procedure, so the last
        # application is another
        shape += "-bad-after"
        after = g.pick(["(lambda (why) why)", "(lambda (a b) a)", "5", "'after",
                        "(lambda () (car '()))", "(lambda () (raise 'from-after))"])
    g.tag("shape:wind-" + shape)
    if shape in WINDS:
        return WINDS[shape](g, d, s, t, before, after)
    return f"(dynamic-wind {before} (lambda () {g.sub(t, d, s)}) {after})"


def _wind_escape_bad_after(g: G, d: int, s: Scope, t: str, before: str, after: str) -> str:
    k, j = g.fresh("k"), g.fresh("j")
    return (f"(call/cc (lambda ({k}) (dynamic-wind {before} (lambda () "
            f"((lambda ({j}) ({j} {g.sub(t, d, s)})) {k})) {after})))")


def _wind_raise_bad_after(g: G, d: int, s: Scope, t: str, before: str, after: str) -> str:
    e, x = g.fresh("e"), g.fresh("x")
    # a fault of the after thunk is not caught: its span is compared
    return (f"(guard ({e} ((not (error-object? {e})) (list 'caught {e}))) "
            f"(dynamic-wind {before} (lambda () "
            f"((lambda ({x}) (raise {x})) {raised(g, d, s)})) {after}))")


def _wind_after_handlers(g: G, d: int, s: Scope, t: str, before: str, after: str) -> str:
    # an escape from inside a handler installed in the body: the after thunk runs with
    # the handlers of the dynamic-wind call, so its raise-continuable reaches the outer
    k, e = g.fresh("k"), g.fresh("e")
    outer, inner = g.pick(["10", "'outer", '"o"']), g.pick(["20", "'inner"])
    escape = g.pick([f"({k} {g.sub(t, d, s)})",
                     f"(with-exception-handler (lambda ({e}) ({k} "
                     f"{g.sub(t, d, s)})) (lambda () (raise 'y)))"])
    after_raise = g.pick(["(display (raise-continuable 'x))",
                          "(display (list 'after (raise-continuable 'x)))"])
    return (f"(with-exception-handler (lambda ({e}) {outer}) (lambda () "
            f"(call/cc (lambda ({k}) (dynamic-wind {before} (lambda () "
            f"(with-exception-handler (lambda ({e}) {inner}) (lambda () {escape}))) "
            f"(lambda () {after_raise}))))))")


def _wind_before_escape(g: G, d: int, s: Scope, t: str, before: str, after: str) -> str:
    # leaving the before thunk (a caught raise, a continuation) never enters the
    # extent, so the after thunk must not run
    k, e = g.fresh("k"), g.fresh("e")
    if g.on("callcc") and g.chance(50):
        return (f"(call/cc (lambda ({k}) (dynamic-wind (lambda () (display \"b\") "
                f"({k} {g.sub(t, d, s)})) (lambda () {g.sub(t, d, s)}) {after})))")
    return (f"(guard ({e} (#t (list 'caught {e}))) (dynamic-wind (lambda () "
            f"(display \"b\") (raise {raised(g, d, s)})) (lambda () "
            f"{g.sub(t, d, s)}) {after}))")


def _wind_values(g: G, d: int, s: Scope, t: str, before: str, after: str) -> str:
    # the thunk's values, several or none, pass through the after thunk
    vals = " ".join(g.sub("any", d, s) for _ in range(g.pick([0, 2, 3])))
    return (f"(call-with-values (lambda () (dynamic-wind {before} (lambda () "
            f"(values {vals})) {after})) list)")


def _wind_escape(g: G, d: int, s: Scope, t: str, before: str, after: str) -> str:
    k = g.fresh("k")
    return (f"(call/cc (lambda ({k}) (dynamic-wind {before} "
            f"(lambda () ({k} {g.sub(t, d, s)})) {after})))")


def _wind_raise(g: G, d: int, s: Scope, t: str, before: str, after: str) -> str:
    e = g.fresh("e")
    return (f"(guard ({e} (#t {g.sub(t, d, s)})) (dynamic-wind {before} "
            f"(lambda () (raise {raised(g, d, s)})) {after}))")


def _wind_nested(g: G, d: int, s: Scope, t: str, before: str, after: str) -> str:
    return (f"(dynamic-wind {before} (lambda () (dynamic-wind (lambda () (display 1)) "
            f"(lambda () {g.sub(t, d, s)}) (lambda () (display 2)))) {after})")


# The dynamic-wind shapes other than a plain one, by the tag they add.
WINDS = {
    "escape-bad-after": _wind_escape_bad_after,
    "raise-bad-after": _wind_raise_bad_after,
    "after-handlers": _wind_after_handlers,
    "before-escape": _wind_before_escape,
    "values": _wind_values,
    "escape": _wind_escape,
    "raise": _wind_raise,
    "nested": _wind_nested,
}


@expression("wind_guard_handler", {"*": 0.6}, needs=("dynwind",),
            needs_one_of=("handlers", "errors"))
def p_wind_guard_handler(g: G, d: int, s: Scope, t: str) -> str:
    """with-exception-handler inside guard inside dynamic-wind: the handler raises a new
    object (or returns from a non-continuable raise, E332), which the guard catches."""
    e, c = g.fresh("e"), g.fresh("c")
    inner = s.child(**{e: "any"})
    handler_body = g.pick([f"(raise (list 'again {c}))", "0",
                           f"(begin (display {c}) (raise 'second))"])
    escape = ""
    k = g.fresh("k")
    if g.on("callcc") and g.chance(40):
        escape = k
    body = (f"(with-exception-handler (lambda ({c}) {handler_body}) "
            f"(lambda () (+ 1 (raise {raised(g, d, s)}))))")
    if escape:
        body = f"(call/cc (lambda ({k}) (+ 1 ({k} {g.sub('int', d, s)}) {body})))"
    clauses = (f"((pair? {e}) {g.sub(t, d, inner)}) ((error-object? {e}) "
               f"{g.sub(t, d, inner)}) (else {g.sub(t, d, inner)})")
    guarded = f"(guard ({e} {clauses}) {body})"
    if t not in ("int", "num", "any"):
        guarded = f"(begin {guarded} {g.sub(t, d, s)})"
    g.tag("shape:wind-guard-handler")
    return (f"(dynamic-wind (lambda () (display \"[\")) (lambda () {guarded}) "
            f"(lambda () (display \"]\")))")


@expression("values", {"*": 1.0}, needs=("multivalues",))
def p_values(g: G, d: int, s: Scope, t: str) -> str:
    shape = g.pick(["values", "floor/", "truncate/", "sqrt", "zero", "one", "apply"])
    a, b = g.fresh("a"), g.fresh("b")
    g.tag("shape:values-" + shape)
    if shape in ("floor/", "truncate/"):
        n, m = g.sub('int', d, s), arg(g, 'nz', d, s)
        if g.chance(35):  # an inexact operand makes both values inexact
            g.tag("shape:values-inexact")
            n, m = (f"(exact->inexact {n})", m) if g.chance(50) else (n, f"{m}.0")
        producer = f"({shape} {n} {m})"
    elif shape == "sqrt":
        n = g.pick(V.BIG) if g.on("bignums") or g.chance(30) else g.small(0, 50)
        producer = f"(exact-integer-sqrt {n})"
    elif shape == "zero":
        inner = s.child()
        return (f"(call-with-values (lambda () (values)) (lambda () "
                f"{g.sub(t, d, inner)}))")
    elif shape == "one":
        return f"(call-with-values (lambda () {g.sub(t, d, s)}) (lambda ({a}) {a}))"
    elif shape == "apply":
        producer = (f"(apply values (list {g.sub('int', d, s)} "
                    f"{g.sub('int', d, s)}))")
    else:
        producer = f"(values {g.sub('int', d, s)} {g.sub('int', d, s)})"
    if t in ("list", "any") and g.chance(50):
        return f"(call-with-values (lambda () {producer}) {g.pick(['list', 'cons'])})"
    inner = s.child(**{a: "int", b: "int"})
    if t in ("int", "num"):
        return (f"(call-with-values (lambda () {producer}) (lambda ({a} {b}) "
                f"{g.pick([f'(+ {a} {b})', f'(- {a} {b})', a, b])}))")
    return f"(call-with-values (lambda () {producer}) (lambda ({a} {b}) {g.sub(t, d, inner)}))"


# -- planted faults -----------------------------------------------------------------------


@program_part("fault_sampler", chance=30)
def fault_sampler(g: G, s: Scope) -> str:
    """Two to four entries of the runtime fault rows, each caught by a guard that gives
    back the condition's message and irritants. A program ends on one uncaught fault, so
    each entry of a row came about once in a few thousand programs; caught, several are
    compared in one program. Safe programs have them too, as they have caught edge calls."""
    g.tag("shape:fault-sampler")
    defines, calls, faults = [], [], []
    for _ in range(g.small(2, 4)):
        fault = runtime_fault(g, V.DEAR_FAULTS)[1]
        if fault in V.TOP_LEVEL_FAULTS:
            # a global read in its own definition: the guard goes round the value, and the
            # global holds what it caught (a second draw reads the first's)
            name, value = fault[len("(define "):-1].split(" ", 1)
            defines.append(f"(define {name} {caught(g, value)})\n")
            calls.append(name)
        else:
            calls.append(caught(g, fault))
            faults.append(fault)
    later = "".join("\n" + form for form in V.later_definitions(faults))
    return f"{''.join(defines)}(write (list {' '.join(calls)})){later}"


@planted("fault", chance=4)
def fault(g: G, s: Scope) -> str:
    """A planted fault in expression position (unsafe programs only)."""
    code, fault = runtime_fault(g, V.TOP_LEVEL_FAULTS)
    g.tag("fault:" + code)
    return fault


def runtime_fault(g: G, leave_out: frozenset[str]) -> tuple[str, str]:
    """A row of the runtime faults, drawn toward the codes least reached, and one of its
    entries not in ``leave_out``."""
    codes = list(V.RUNTIME_FAULTS)
    code = g.weighted(codes, [g.steer.faults.get(c, 1.0) for c in codes])
    return code, g.fault_entry(code, V.RUNTIME_FAULTS[code], leave_out)
