"""Generated Lispex programs that are valid, deterministic and terminating most of the time.

Generation is type-directed and scope-aware: an expression is drawn for a wanted type (int,
number, string, boolean, list, vector, char, symbol, any) from producers that only reference
names bound in scope, with the right arity. Each program draws a set of feature toggles first, so
rare features (call/cc escapes through dynamic-wind, handlers, multiple values, input) meet each
other often, and one primitive to lean on. "Safe" programs keep types and arities right; the
others also plant faults, one of every diagnostic code. Loops and recursion are bounded by
construction; whatever escapes that is caught by the meters.

This module assembles a program: definitions, program-level shapes, statements, the parts a
program gets beside them, and a last expression. What goes into each is drawn from the registry
(registry.py), where every producer is registered beside its function; the producers get the
generation context (context.py). Everything is drawn from one ``random.Random``: the same seed
gives the same programs.
"""

from __future__ import annotations

import random

from . import registry
from . import values as V
from .case import Case
from .context import Context, Fn, Scope, Steering
from .layout import relayout
from .registry import FEATURES, TYPES

FEATURE_CHANCE = 40  # percent of programs with each feature
SAFE_CHANCE = 75  # percent of programs that are safe (the others plant faults)
SMALL_CHANCE = 50  # percent of programs that are small

__all__ = ["FEATURES", "TYPES", "Case", "Context", "Scope", "Steering", "generate", "program"]


def generate(rng: random.Random, *, only_safe: bool = False,
             steering: Steering | None = None) -> Case:
    """One program. Every draw comes from ``rng``, so a seeded rng gives the same sequence."""
    features = {f for f in FEATURES if rng.randrange(100) < FEATURE_CHANCE}
    safe = only_safe or rng.randrange(100) < SAFE_CHANCE
    g = Context(rng, features, safe, steering)
    source, input_text = program(g)
    if not safe:
        source = transformed(g, source)
    return Case(source, input_text, tuple(sorted(features)), safe, tags=tuple(sorted(g.tags)),
                producers=tuple(sorted(g.used)))


def transformed(g: Context, source: str) -> str:
    """The program changed by the first transform whose chance comes up, if any does."""
    for t in registry.rows("transform"):
        if g.chance(t.chance):
            g.use(t)
            return t.fn(g, source)
    return source


def program(g: Context) -> tuple[str, str | None]:
    """A program; half are small (one definition at most, one expression), which cost a
    fraction of a full one to evaluate: most bugs need only a small trigger, and the
    campaign's throughput is bounded by evaluation."""
    small = g.chance(SMALL_CHANCE)
    g.tag("size:small" if small else "size:full")
    scope = Scope()
    forms: list[str] = []
    input_text = None
    if g.on("input"):
        input_text, fields = input_datum(g)
        for fieldname, t in fields.items():
            name = g.fresh(fieldname)
            forms.append(f"(define {name} (cadr (assq '{fieldname} input)))")
            scope.vars[name] = t
    for _ in range(g.small(0, 1 if small else 3)):
        text, fn = function(g, scope)
        forms.append(text)
        scope.fns[fn.name] = fn
    for _ in range(g.small(0, 0 if small else 2)):
        t = g.pick(["int", "str", "list", "num"])
        name = g.fresh("g")
        forms.append(f"(define {name} {g.expr(t, 2, scope)})")
        scope.vars[name] = t
    forms.extend(shapes(g, scope, 1 if small else 6))
    for _ in range(g.small(0, 1 if small else 3)):
        forms.append(statement(g, scope))
    parts(g, scope, forms)
    forms.append(g.expr(g.pick(TYPES), 3 if small else 3 + g.small(0, 1), scope))
    source = "\n".join(forms) + "\n"
    if g.on("layout"):
        source, used = relayout(source, g.rng)
        g.tags.update("layout:" + t for t in used)
    return source, input_text


def shapes(g: Context, scope: Scope, most: int = 6) -> list[str]:
    """Program-level shapes, each drawn at its chance (when its feature is on, or its chance
    otherwise) times its steering, at most ``most`` of them."""
    forms: list[str] = []
    for shape in registry.rows("shape"):
        base = shape.chance if all(g.on(f) for f in shape.needs) else shape.otherwise
        weight = g.steer.producers.get(shape.id, 1.0)
        if shape.steer_cap is not None:
            # rare by design, because each costs tens of thousands of transitions: the
            # steering, which favours what is rare, must not undo that
            weight = min(weight, shape.steer_cap)
        if g.rng.random() * 100 < base * weight and most > 0:
            most -= 1
            g.use(shape)
            forms.extend(shape.fn(g, scope))
    return forms


def parts(g: Context, scope: Scope, forms: list[str]) -> None:
    """The parts a program gets beside the rest (samplers, a diagnostic, number tokens), each at
    its chance: after the forms, or among them."""
    for part in registry.rows("program_part"):
        if part.unsafe_only and g.safe or not g.chance(part.chance):
            continue
        g.use(part)
        if part.anywhere:
            at = g.small(0, len(forms))
            forms.insert(at, part.fn(g, scope))
        else:
            forms.append(part.fn(g, scope))


def function(g: Context, scope: Scope) -> tuple[str, Fn]:
    name = g.fresh("f")
    if g.on("recursion") and g.chance(50):
        return recursive_function(g, scope, name)
    ptypes = [g.pick(["int", "str", "list", "num", "any"]) for _ in range(g.small(0, 3))]
    params = [g.fresh("p") for _ in ptypes]
    ret = g.pick(["int", "str", "list", "bool", "any", "num"])
    rest = g.on("hof") and bool(ptypes) and g.chance(25)
    inner = scope.child(**dict(zip(params, ptypes, strict=True)))
    if rest:
        inner.vars[params[-1]] = "list"
    body = g.expr(ret, 2 + g.small(0, 1), inner)
    fn = Fn(name, params, ptypes, ret, rest)
    if rest:
        g.tag("gen:rest_define")
        head = " ".join(params[:-1])
        return f"(define ({name}{' ' + head if head else ''} . {params[-1]}) {body})", fn
    if g.on("closures") and g.chance(30) and ret == "int":
        k = g.fresh("k")
        return (f"(define ({name} {' '.join(params)}) (let (({k} (lambda (z) (+ z 1)))) "
                f"({k} {body})))", fn)
    return f"(define ({name}{''.join(' ' + p for p in params)}) {body})", fn


def recursive_function(g: Context, scope: Scope, name: str) -> tuple[str, Fn]:
    """A procedure that calls itself on a counter clamped to 8, so that a huge argument still
    ends quickly: with an accumulator (its step never calls it), or not."""
    n, acc = g.fresh("n"), g.fresh("acc")
    if g.chance(50):
        fn = Fn(name, [n, acc], ["int", "int"], "int")
        inner = scope.child(**{n: "int", acc: "int"})
        body = (f"(if (<= {n} 0) {acc} ({name} (- (min {n} 8) 1) "
                f"(+ {acc} {g.expr('int', 2, inner)})))")
        return f"(define ({name} {n} {acc}) {body})", fn
    fn = Fn(name, [n], ["int"], "int")
    base = g.expr('int', 1, scope.child(**{n: "int"}))  # never calls itself
    inner = scope.child(**{n: "int"})
    inner.fns[name] = fn
    body = (f"(if (<= {n} 0) {base} "
            f"(+ {g.expr('int', 1, inner)} ({name} (- (min {n} 8) 1))))")
    return f"(define ({name} {n}) {body})", fn


def statement(g: Context, scope: Scope) -> str:
    shape = g.pick(["display", "write", "newline", "for-each", "println"]) \
        if g.on("output") else "display"
    if shape == "newline":
        return "(newline)"
    if g.on("edges") and g.chance(30):
        return f"(write {registry.find('expression', 'edge').fn(g, 2, scope, 'any')})"
    if shape == "for-each":
        x = g.fresh("x")
        kind = g.pick(["for-each", "vector-for-each", "string-for-each"])
        g.tag("prim:" + kind)
        arg = {"for-each": "list", "vector-for-each": "vec", "string-for-each": "str"}[kind]
        return f"({kind} (lambda ({x}) (write {x})) {g.expr(arg, 2, scope)})"
    return f"({shape} {g.expr('any', 2, scope)})"


def input_datum(g: Context) -> tuple[str, dict[str, str]]:
    age = g.rng.randint(-5, 130)
    score = g.pick(["3/2", "0", "-1", "2.5", "100"])
    name = g.pick(V.STRINGS)
    return f"((age {age}) (score {score}) (name {name}) (tags a b))", \
        {"age": "int", "score": "num", "name": "str"}
