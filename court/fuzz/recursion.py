"""Program shapes of recursion and loops at the recursion limit (10,000 nested calls): non-tail
recursion at and past it, through every call path (arity, rest parameter, the calls primitives
and control forms make, a tail-calling step), escapes out of it, and tail loops longer than it
whose call sits in a tail position of one form inside others, or in a position that only looks
like one."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .registry import shape

if TYPE_CHECKING:
    from .context import Context as G
    from .context import Scope

# One tail position of each form, with {call} where the tail call goes; a loop through it that
# runs past the 10,000 nested calls a non-tail call may use shows whether it is a tail call.
# `apply` and `call-with-values` make the call themselves ({f} is the procedure).
TAIL_STEPS = {
    "if": "(if (= {n} 0) 'done {call})",
    "and": "(and (>= {n} 0) (if (= {n} 0) 'done {call}))",
    "or": "(or (< {n} 0) (if (= {n} 0) 'done {call}))",
    "when": "(if (= {n} 0) 'done (when (> {n} 0) {call}))",
    "unless": "(if (= {n} 0) 'done (unless (< {n} 0) (display \"\") {call}))",
    "cond": "(cond ((= {n} 0) 'done) ((< {n} 0) 'negative) (else {call}))",
    "case": "(case {n} ((0) 'done) ((-1 -2) 'negative) (else {call}))",
    "let": "(if (= {n} 0) 'done (let ((m {n})) {call}))",
    "let*": "(if (= {n} 0) 'done (let* ((m {n}) (j m)) {call}))",
    "letrec": "(if (= {n} 0) 'done (letrec ((m {n})) {call}))",
    "begin": "(if (= {n} 0) 'done (begin (+ {n} 1) {call}))",
    "lambda": "(if (= {n} 0) 'done ((lambda (m) {call}) {n}))",
    "define": "(if (= {n} 0) 'done ((lambda () (define m {n}) {call})))",
    "apply": "(if (= {n} 0) 'done (apply {f} (list (- {n} 1))))",
    "call-with-values": "(if (= {n} 0) 'done (call-with-values (lambda () (- {n} 1)) {f}))",
    # tail positions that are not the last of their form: a then-branch, an early cond or case
    # clause, a do result
    "if-then": "(if (> {n} 0) {call} 'done)",
    "cond-first": "(cond ((> {n} 0) {call}) (else 'done))",
    "cond-middle": "(cond ((= {n} 0) 'done) ((> {n} 0) (display \"\") {call}) (else 'negative))",
    "cond-no-else": "(cond ((> {n} 0) {call}) ((= {n} 0) 'done))",
    "case-first": "(case (zero? {n}) ((#f) {call}) (else 'done))",
    "do-result": "(if (= {n} 0) 'done (do () (#t {call})))",
}

# A helper's non-tail call made through each form that runs it and returns its value
# ({call} is the direct call, {h} the helper, {args} its arguments).
HELPER_WRAPS = {
    "apply": "(apply {h} (list {args}))",
    "values": "(call-with-values (lambda () {call}) (lambda ({e}) {e}))",
    "let": "(let (({e} {call})) {e})",
    "callcc": "(call/cc (lambda ({k}) {call}))",
    "escape": "(call/cc (lambda ({k}) ({k} {call}) 0))",
    "guard": "(guard ({e} (#t 0)) {call})",
    "raise": "(guard ({e} ((number? {e}) {e})) (raise {call}))",
    "handler": "(with-exception-handler (lambda ({e}) 0) (lambda () {call}))",
    "continuable": "(with-exception-handler (lambda ({e}) {e}) (lambda () (raise-continuable {call})))",
    "wind": "(dynamic-wind (lambda () #f) (lambda () {call}) (lambda () #f))",
}

# Positions that look like tail positions and are not: what call/cc, dynamic-wind and
# with-exception-handler run is a nested call (the continuation, the after thunk and the handler
# wait on it), and so is a guard's body. A loop through one ends with recursion-limit.
NESTED_STEPS = {
    "callcc": "(call/cc (lambda (k) {call}))",
    "wind": "(dynamic-wind (lambda () #f) (lambda () {call}) (lambda () #f))",
    "handler": "(with-exception-handler (lambda (e) 0) (lambda () {call}))",
    "guard": "(guard (e (#f 0)) {call})",
}

# A recursive call made on the caller's behalf by a primitive or a control form.
THROUGH = ["(car (map {f} (list (- {n} 1))))", "(apply {f} (list (- {n} 1)))",
           "(call-with-values (lambda () ({f} (- {n} 1))) (lambda (x) x))",
           "(dynamic-wind (lambda () #f) (lambda () ({f} (- {n} 1))) (lambda () #f))",
           "(with-exception-handler (lambda (e) 0) (lambda () ({f} (- {n} 1))))",
           "(call/cc (lambda (k) ({f} (- {n} 1))))", "(guard (e (#t 0)) ({f} (- {n} 1)))",
           "(vector-ref (vector-map {f} (vector (- {n} 1))) 0)",
           "(fold-left (lambda (a x) ({f} x)) 0 (list (- {n} 1)))",
           "((lambda (m) ({f} m)) (- {n} 1))", "(let ((m ({f} (- {n} 1)))) m)"]
# Two levels of depth per level of the recursion: a procedure the primitive calls, which calls
# the recursion's procedure in a non-tail position. Half the limit's levels reach it.
THROUGH2 = ["(car (map (lambda (x) (+ x ({f} (- {n} 1)))) '(0)))",
            "(fold-left (lambda (a x) (+ a ({f} x))) 0 (list (- {n} 1)))",
            "(vector-ref (vector-map (lambda (x) (+ 0 ({f} x))) (vector (- {n} 1))) 0)",
            "(let ((r 0)) (for-each (lambda (x) (set! r (+ 1 ({f} x)))) (list (- {n} 1))) r)",
            "(call-with-values (lambda () (+ 0 ({f} (- {n} 1)))) (lambda (x) x))",
            "(dynamic-wind (lambda () #f) (lambda () (+ 0 ({f} (- {n} 1)))) (lambda () #f))"]
# The recursive call in the tail position of what a primitive or a control form runs, itself in
# the tail position of the procedure: a tail call through apply or a call-with-values consumer;
# a nested call (one level deeper) through call/cc's receiver, a wind's or a handler's
# thunk, a guard's body, a callback.
TAIL_THROUGH = ["(call/cc (lambda (k) ({f} (- {n} 1))))", "(apply {f} (list (- {n} 1)))",
                "(call-with-values (lambda () (- {n} 1)) {f})",
                "(dynamic-wind (lambda () #f) (lambda () ({f} (- {n} 1))) (lambda () #f))",
                "(with-exception-handler (lambda (e) 0) (lambda () ({f} (- {n} 1))))",
                "(guard (e (#t 0)) ({f} (- {n} 1)))", "(car (map {f} (list (- {n} 1))))"]


@shape("deep", needs="recursion", chance=2.5, otherwise=0.5, steer_cap=1.0)
def shape_deep(g: G, scope: Scope) -> list[str]:
    """Non-tail recursion near the recursion limit (10,000 nested calls); past it now and
    then, which ends the run with the recursion-limit resource outcome."""
    f, n = g.fresh("deep"), g.fresh("n")
    # Most often one below the limit, where an off-by-one in counting the depth shows.
    depth = g.pick([100, 500, 9990, 9998, 9999, 9999])
    if not g.safe and g.chance(30):
        depth = g.pick([10000, 10001, 10500])
    # The sweep costs four or five recursions to the limit, the others one.
    kind = g.pick(["count", "build", "sum", "escape", "through", "through2",
                   "tail-through", "tail-through", "bounce", "sweep", "rotate", "rotate"])
    if kind in DEEP_KINDS:
        return DEEP_KINDS[kind](g, f, n, depth)
    return _deep_plain(g, f, n, depth, kind)


def _deep_rotate(g: G, f: str, n: str, depth: int) -> list[str]:
    # each level's call made by the next of every way a primitive or a control form
    # makes it, in a shuffled order: at the deepest level that fits, one way counting a
    # level too many (on its eleventh of the levels) takes the run past the limit, so one
    # recursion tries every call path's accounting at once
    ways = list(THROUGH)
    g.rng.shuffle(ways)
    clauses = " ".join(f"(({j}) {w.format(f=f, n=n)})" for j, w in enumerate(ways[:-1]))
    via = (f"(case (modulo {n} {len(ways)}) {clauses} "
           f"(else {ways[-1].format(f=f, n=n)}))")
    depth = g.pick([9999, 9999, 10000])
    g.tag("shape:deep-rotate")
    return [f"(define ({f} {n}) (if (= {n} 0) 0 (+ 1 {via})))", f"(display ({f} {depth}))"]


def _deep_through2(g: G, f: str, n: str, depth: int) -> list[str]:
    via = g.pick(THROUGH2).format(f=f, n=n)
    depth = g.pick([4999, 5000, 5001])
    g.tag("shape:deep-through2")
    return [f"(define ({f} {n}) (if (= {n} 0) 0 (+ 1 {via})))", f"(display ({f} {depth}))"]


def _deep_tail_through(g: G, f: str, n: str, depth: int) -> list[str]:
    via = g.pick(TAIL_THROUGH).format(f=f, n=n)
    depth = g.pick([9999, 10000, 10001, 10500])
    g.tag("shape:deep-tail-through")
    return [f"(define ({f} {n}) (if (= {n} 0) 'end {via}))", f"(display ({f} {depth}))"]


def _deep_bounce(g: G, f: str, n: str, depth: int) -> list[str]:
    # each level's non-tail call reaches a procedure that tail-calls the recursion's
    # procedure: the tail call runs at the depth of the call it replaces
    step, x = g.fresh("step"), g.fresh("x")
    extra = g.pick(["", f" {x}"])
    depth = g.pick([9999, 10000, 10001])
    g.tag("shape:deep-bounce")
    return [f"(define ({f} {n}{extra}) (if (= {n} 0) 0 (+ 1 ({step} {n}{extra}))))",
            f"(define ({step} {n}{extra}) ({f} (- {n} 1){extra}))",
            f"(display ({f} {depth}{' 7' if extra else ''}))"]


def _deep_through(g: G, f: str, n: str, depth: int) -> list[str]:
    # each level's call made by a primitive or a control form (map's callback, apply,
    # a wind's thunk, a handler's thunk, call/cc's receiver): it counts toward the depth
    # all the same
    via = g.pick(THROUGH).format(f=f, n=n)
    # the deepest that fits, where a call path that counts a level too many shows, and
    # one and two past it, where one that counts too few shows
    depth = g.pick([9999, 10000, 10001])
    g.tag("shape:deep-through")
    return [f"(define ({f} {n}) (if (= {n} 0) 0 (+ 1 {via})))", f"(display ({f} {depth}))"]


def _deep_escape(g: G, f: str, n: str, depth: int) -> list[str]:
    # escapes (a continuation, a caught raise) out of deep non-tail recursion, again and
    # again: each must give back the depth of the frames it leaves, or the escapes add
    # up to the recursion limit although no one of them comes near it
    go, i, k, e = g.fresh("go"), g.fresh("i"), g.fresh("k"), g.fresh("e")
    depth, reps = g.pick([1500, 2500, 3300]), g.pick([4, 5, 7])
    if g.chance(50):
        deep = f"(define ({f} {n} {k}) (if (= {n} 0) ({k} 'out) (+ 1 ({f} (- {n} 1) {k}))))"
        once = f"(call/cc (lambda ({k}) ({f} {depth} {k})))"
    else:
        deep = f"(define ({f} {n} {k}) (if (= {n} 0) (raise 'out) (+ 1 ({f} (- {n} 1) {k}))))"
        once = f"(guard ({e} (#t {e})) ({f} {depth} 0))"
    g.tag("shape:deep-escapes")
    return [deep, f"(define ({go} {i}) (if (= {i} 0) 'done (begin {once} ({go} (- {i} 1)))))",
            f"(display ({go} {reps}))"]


def _deep_sweep(g: G, f: str, n: str, depth: int) -> list[str]:
    # The deepest recursion that fits, through procedures of one to four parameters:
    # a back end with a call path per arity must count the depth alike on each.
    g.tag("shape:deep-arity-sweep")
    forms = []
    for arity in range(1, 5):
        h = g.fresh("deep")
        ps = [g.fresh("p") for _ in range(arity - 1)]
        carried = "".join(" " + p for p in ps)
        forms += [f"(define ({h} {n}{carried}) (if (= {n} 0) 0 (+ 1 ({h} (- {n} 1){carried}))))",
                  f"(display ({h} 9999{' 0' * (arity - 1)}))"]
    if g.chance(50):  # and through a rest parameter (a general call path)
        h, r = g.fresh("deep"), g.fresh("r")
        forms += [f"(define ({h} {n} . {r}) (if (= {n} 0) 0 (+ 1 ({h} (- {n} 1) 'x))))",
                  f"(display ({h} 9999))"]
    return forms


def _deep_plain(g: G, f: str, n: str, depth: int, kind: str) -> list[str]:
    # Carried parameters: a back end whose call path differs by arity (a fast path for one,
    # two or three arguments) must count the depth the same way on each.
    extra = [g.fresh("p") for _ in range(g.pick([0, 0, 1, 1, 2, 3]))]
    if extra and kind != "sum" and g.chance(60):
        depth = 9999  # the deepest that fits: where a check one off shows
    params = " ".join([n, *extra])
    carried = "".join(" " + p for p in extra)
    given = "".join(f" {g.small(0, 9)}" for _ in extra)
    if extra:
        g.tag("shape:deep-arity")
    if kind == "count":
        body = f"(if (= {n} 0) 0 (+ 1 ({f} (- {n} 1){carried})))"
        use = f"({f} {depth}{given})"
    elif kind == "build":
        body = f"(if (= {n} 0) '() (cons {n} ({f} (- {n} 1){carried})))"
        use = f"(length ({f} {depth}{given}))"
    else:
        body = f"(if (<= {n} 0) {n} (+ {n} ({f} (- {n} 1){carried})))"
        use = f"({f} {depth}{given})"
    g.tag(f"shape:deep-{depth}")
    return [f"(define ({f} {params}) {body})", f"(display {use})"]


# The deep recursions of a shape of their own (the others count, build or sum).
DEEP_KINDS = {
    "rotate": _deep_rotate,
    "through2": _deep_through2,
    "tail-through": _deep_tail_through,
    "bounce": _deep_bounce,
    "through": _deep_through,
    "escape": _deep_escape,
    "sweep": _deep_sweep,
}


@shape("mutual", needs="recursion", chance=1, otherwise=0.2, steer_cap=1.0)
def shape_mutual(g: G, scope: Scope) -> list[str]:
    a, b, n = g.fresh("ping"), g.fresh("pong"), g.fresh("n")
    depth = g.pick([10, 100, 1000])
    return [f"(define ({a} {n}) (if (= {n} 0) '() (cons 'a ({b} (- {n} 1)))))",
            f"(define ({b} {n}) (if (= {n} 0) '() (cons 'b ({a} (- {n} 1)))))",
            f"(write (length ({a} {depth})))", f"(write ({a} {g.small(0, 5)}))"]


@shape("tailloop", needs="loops", chance=4, otherwise=0.5, steer_cap=1.0)
def shape_tailloop(g: G, scope: Scope) -> list[str]:
    """A loop of more than 10,000 iterations whose call sits in the tail position of one
    form, or of one form inside another: if that position is not a tail call, the run ends
    with recursion-limit instead of its answer. Now and then a mutual tail loop."""
    f, n = g.fresh("loop"), g.fresh("n")
    count = g.pick([10050, 11000, 12000])  # 12,000 through two forms: ~312,000 transitions
    if g.chance(15):
        a, b = g.fresh("ping"), g.fresh("pong")
        g.tag("shape:tail-mutual")
        return [f"(define ({a} {n}) (if (= {n} 0) 'done ({b} (- {n} 1))))",
                f"(define ({b} {n}) {tail_step(g, b, n, a)})",
                f"(display ({a} {count}))"]
    if g.chance(25):
        # a loop of four or five variables: a call that wide must be a tail call too
        vs = [g.fresh("w") for _ in range(g.pick([3, 4]))]
        g.tag("shape:tail-wide")
        if g.chance(50):
            steps = " ".join(f"({v} 0 (+ {v} {j}))" for j, v in enumerate(vs))
            # (- n -1) rather than (+ n 1), as in p_do: + may have been rebound
            return [f"(display (do (({n} 0 (- {n} -1)) {steps}) ((= {n} {count}) "
                    f"(list {' '.join(vs)}))))"]
        step = " ".join(f"(+ {v} {j})" for j, v in enumerate(vs))
        return [f"(define ({f} {n} {' '.join(vs)}) (if (= {n} 0) (list {' '.join(vs)}) "
                f"({f} (- {n} 1) {step})))",
                f"(display ({f} {count} {' '.join('0' for _ in vs)}))"]
    if g.chance(45):
        return tail_helper_loop(g, f, n)
    return [f"(define ({f} {n}) {tail_step(g, f, n, f)})", f"(display ({f} {count}))"]


def tail_helper_loop(g: G, f: str, n: str) -> list[str]:
    """A tail loop past the recursion limit whose every iteration also makes a non-tail
    call that returns: of a helper of each arity (and with a rest parameter), made
    directly, by apply or map, or under call/cc, guard, a handler or a wind, and half the
    time a direct call of a second helper of another arity. Whatever such a call leaves
    behind (a unit of depth, a handler, a wind, a frame) piles up over 10,000 calls and
    ends the run on a limit."""
    h, acc = g.fresh("h"), g.fresh("acc")
    arity = g.pick([0, 1, 2, 3, 3, 4, "rest", "a-rest"])
    g.tag(f"shape:tail-helper-{arity}")
    if arity == "rest":
        r = g.fresh("r")
        helper = f"(define ({h} . {r}) (if (pair? {r}) 2 1))"
        args = " ".join(["1"] * g.pick([0, 1, 2, 3]))
    elif arity == "a-rest":
        a, r = g.fresh("a"), g.fresh("r")
        helper = f"(define ({h} {a} . {r}) (if (pair? {r}) (- {a} 1) {a}))"
        args = " ".join(["3"] * g.pick([1, 2, 3]))
    else:
        ps = [g.fresh("p") for _ in range(arity)]
        helper = f"(define ({h} {' '.join(ps)}) (- 7 {' '.join(ps)}))"
        args = " ".join(str(j + 1) for j in range(arity))
    call = f"({h} {args})".replace(" )", ")")
    how = g.pick(["plain", "map"] + list(HELPER_WRAPS))
    g.tag("shape:tail-helper-by-" + how)
    k, e = g.fresh("k"), g.fresh("e")
    if how == "map" and args:
        first, *more = args.split()
        callback = h if not more else f"(lambda ({e}) ({h} {e} {' '.join(more)}))"
        call = f"(apply - (map {callback} (list {first})))"
    elif how in HELPER_WRAPS:
        call = HELPER_WRAPS[how].format(call=call, h=h, args=args, k=k, e=e)
    forms = [helper]
    if g.chance(50):
        # a second helper of another arity, called directly: two call paths per loop
        other = g.pick([a for a in range(5) if a != arity])
        g.tag(f"shape:tail-helper-{other}")
        h2 = g.fresh("h")
        ps = [g.fresh("p") for _ in range(other)]
        forms.append(f"(define ({h2} {' '.join(ps)}) (- 7 {' '.join(ps)}))")
        call += " " + f"({h2} {' '.join(str(j + 1) for j in range(other))})".replace(" )", ")")
    loop = (f"(define ({f} {n} {acc}) (if (= {n} 0) {acc} "
            f"({f} (- {n} 1) (- {acc} {call}))))")
    return forms + [loop, f"(display ({f} 10050 0))"]


def tail_step(g: G, f: str, n: str, callee: str) -> str:
    """The loop's step: the recurring call in a tail position of one form, usually inside
    a tail position of one or two more. A loop costs tens of thousands of transitions, so
    each one tries several tail positions at once."""
    step = g.pick(list(TAIL_STEPS))
    g.tag("shape:tail-" + step)
    call = TAIL_STEPS[step].format(n=n, f=callee, call=f"({callee} (- {n} 1))")
    wrappers = [k for k, v in TAIL_STEPS.items() if "{call}" in v]
    for _ in range(g.pick([0, 1, 1, 2, 2])):
        outer = g.pick(wrappers)
        g.tag("shape:tail-" + outer)
        call = TAIL_STEPS[outer].format(n=n, f=callee, call=call)
    recur = f"({callee} (- {n} 1))"
    if recur in call and g.chance(12):
        # the loop's call inside a form that calls it nested: the 10,001st iteration reaches
        # the recursion limit, unless a back end took the position for a tail one
        nested = g.pick(list(NESTED_STEPS))
        g.tag("shape:nested-" + nested)
        call = call.replace(recur, NESTED_STEPS[nested].format(call=recur), 1)
    return call
