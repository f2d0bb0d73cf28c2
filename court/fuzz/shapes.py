"""Producers of state, loops and procedures (set! on captured variables, letrec and internal
define forward references, do and named let with several variables, vector-set!, rest
parameters and apply, shadowed primitives) and the program-level shapes: counters in closures,
globals assigned and read through closures, rebound primitive names, printer paths, and a
diagnostic of every code in varied contexts. The recursion and loop shapes are in recursion.py."""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import values as V
from .context import Fn
from .registry import expression, program_part, shape
from .signatures import PRIMITIVES
from .trees import parse, render_node

if TYPE_CHECKING:
    from .context import Context as G
    from .context import Scope

# Where a body with leading definitions may stand, and where it may not (E130).
BODIES = ["((lambda () {}))", "(let () {})", "(let* () {})", "(letrec () {})", "(let lp () {})",
          "(guard (e (#t 'caught)) {})", "((lambda args {}) 1 2)"]
NOT_BODIES = ["(when #t {})", "(unless #f {})", "(cond (#t {}))", "(case 1 ((1) {}))",
              "(begin {})", "(guard (e (#t {})) (raise 'x))", "(do ((i 0 1)) (#t {}))",
              "(if #t (begin {}) 0)", "(cond ((= 1 2) 0) (else {}))"]


# -- state --------------------------------------------------------------------------------


@expression("set_local", {"*": 0.8}, needs=("state",))
def p_set_local(g: G, d: int, s: Scope, t: str) -> str:
    x = g.fresh("x")
    inner = s.child(**{x: t})
    if g.chance(50):
        # a captured variable assigned by a closure, seen by the enclosing body
        bump = g.fresh("bump")
        g.tag("shape:set-captured")
        if g.chance(35):
            # operands read the variable before and after a call that assigns it: the
            # earlier read must keep the value it had
            g.tag("shape:set-between-operands")
            reads = f"(list {x} ({bump}) {x})"
            if g.chance(40):  # the same reads as a let's inits
                a, b, c = g.fresh("a"), g.fresh("b"), g.fresh("c")
                reads = f"(let (({a} {x}) ({b} ({bump})) ({c} {x})) (list {a} {b} {c}))"
            body = reads if t in ("list", "any") else f"(car {reads})"
            return (f"(let (({x} {g.sub(t, d, s)})) (let (({bump} (lambda () (set! {x} "
                    f"{g.sub(t, d, inner)}) {x}))) {body}))")
        calls = " ".join(f"({bump})" for _ in range(g.small(1, 3)))
        return (f"(let (({x} {g.sub(t, d, s)})) (let (({bump} (lambda () (set! {x} "
                f"{g.sub(t, d, inner)}) {x}))) {calls} {x}))")
    return f"(let (({x} {g.sub(t, d, s)})) (set! {x} {g.sub(t, d, inner)}) {x})"


@expression("letrec_forward", {"*": 0.6}, needs=("state",))
def p_letrec_forward(g: G, d: int, s: Scope, t: str) -> str:
    """letrec whose earlier procedure calls a later one (mutual recursion, bounded)."""
    ev, od, n = g.fresh("ev"), g.fresh("od"), g.fresh("n")
    k = g.small(0, 12)
    inner = s.child()
    res = g.sub(t, d, inner)
    g.tag("shape:letrec-forward")
    return (f"(letrec (({ev} (lambda ({n}) (if (= {n} 0) #t ({od} (- {n} 1))))) "
            f"({od} (lambda ({n}) (if (= {n} 0) #f ({ev} (- {n} 1)))))) "
            f"(if ({ev} {k}) {res} {g.sub(t, d, inner)}))")


@expression("internal_define", {"*": 0.6}, needs=("state",))
def p_internal_define(g: G, d: int, s: Scope, t: str) -> str:
    """Internal defines in a body: a procedure referring forward to a later definition,
    and (in unsafe programs) a read before initialisation, which is E321."""
    a, b, f = g.fresh("a"), g.fresh("b"), g.fresh("f")
    vt = g.pick(["int", "str", "list"])
    g.tag("shape:internal-define")
    # Every form with a body takes leading defines; the forms whose parts merely look like
    # bodies (when, cond clauses, do, guard clauses, begin) refuse them (E130).
    where = g.pick(BODIES)
    if not g.safe and g.chance(40):
        where = g.pick(NOT_BODIES)
        g.tag("fault:E130")
    g.tag("shape:define-in-" + where.split(" ")[0].lstrip("("))
    if not g.safe and g.chance(30):
        g.tag("fault:E321")
        if g.chance(50):
            # an earlier init calls a procedure defined after it: its slot is not yet set
            return where.format(f"(define {a} ({f})) (define ({f}) {g.sub(vt, d, s)}) {a}")
        return where.format(f"(define {a} {b}) (define {b} {g.sub(vt, d, s)}) {a}")
    inner = s.child(**{b: vt})
    body = g.sub(t, d, inner)
    return where.format(f"(define ({f}) {b}) (define {b} {g.sub(vt, d, s)}) "
                        f"(define {a} ({f})) {body}")


@expression("vector_set", {"vec": 0.8})
def p_vector_set(g: G, d: int, s: Scope, t: str) -> str:
    v = g.fresh("vec")
    n = g.small(1, 4)
    items = " ".join(g.sub("any", d, s) for _ in range(n))
    sets = " ".join(f"(vector-set! {v} {g.small(0, n - 1)} {g.sub('any', d, s)})"
                    for _ in range(g.small(1, 3)))
    g.tag("prim:vector-set!")
    if g.chance(25):
        return f"(let (({v} (make-vector {n} 0))) {sets} (vector-set! {v} 0 {v}) " \
               f"(vector-length {v}) (vector-copy {v} 1))"
    if g.chance(15):
        # a callback that changes the vector being mapped: the map reads what is there when
        # it gets to each element
        e = g.fresh("e")
        walk = g.pick(["vector-map", "vector-for-each"])
        g.tag("shape:vector-mutated-while-mapped")
        return (f"(let (({v} (vector {items}))) (list ({walk} (lambda ({e}) "
                f"(vector-set! {v} {n - 1} {g.sub('any', d, s)}) {e}) {v}) {v}))")
    if g.chance(40):
        # fresh vectors made from literals (copies, conversions, maps) are mutable even
        # though the literal is not
        lit = " ".join(g.quoted_atom().lstrip("'") for _ in range(n + 1))
        made = g.pick([f"(vector-copy '#({lit}))", f"(vector-copy '#({lit}) 1)",
                       f"(list->vector '({lit}))", f"(vector-map (lambda (e) e) '#({lit}))",
                       f"(vector-copy (vector-copy '#({lit})))"])
        g.tag("shape:vector-from-literal")
        return f"(let (({v} {made})) {sets} {v})"
    return f"(let (({v} (vector {items}))) {sets} {v})"


# -- procedures ---------------------------------------------------------------------------


@expression("shadow_prim", {"*": 0.5}, needs=("rebind",))
def p_shadow_prim(g: G, d: int, s: Scope, t: str) -> str:
    """A primitive's name bound locally to something else; calls must see the binding."""
    name, repl = g.pick(V.REBINDS)
    g.tag("shape:shadow-prim")
    use = g.pick([f"({name} 1 2)" if name in ("+", "max") else f"({name} '(1 2))",
                  f"(procedure? {name})", "0"])
    if name in ("abs", "square", "not"):
        use = f"({name} {g.sub('int', d, s)})"
    if name in ("string-upcase",):
        use = f"({name} {g.sub('str', d, s)})"
    if name in ("display",):
        use = f"(begin ({name} {g.sub('any', d, s)}) 0)"
    if name == "eqv?":
        use = f"(case {g.sub('int', d, s)} ((1) 'one) (else 'other))"
    if name in ("cons", "append", "list->vector"):
        use = f"`(1 ,{g.sub('int', d, s)} ,@(list 2) #(3 ,{g.sub('int', d, s)}))"
    if name == "number->string":
        use = f"({name} {g.sub('int', d, s)})"
    if name == "remainder":
        use = f"(remainder {g.sub('int', d, s)} -3)"
    if name == "cons" or name == "list":
        use = f"(list ({name} 1 2) {use})" if name == "list" else use
    return f"(let (({name} {repl})) (list {use} {g.sub(t, d, s)}))"


@expression("apply", {"*": 0.8}, needs=("hof",))
def p_apply(g: G, d: int, s: Scope, t: str) -> str:
    fns = {"int": ["+", "*", "max", "min", "gcd", "lcm", "-",
                   "(lambda (a . r) (+ a (length r)))"],
           "num": ["+", "max", "min"],
           "str": ["string-append"], "list": ["list", "append"], "vec": ["vector"],
           "bool": ["=", "<", "equal?"]}
    kind = t if t in fns else g.pick(list(fns))
    fn = g.pick(fns[kind])
    arg_t = {"str": "str", "list": "list" if fn == "append" else "any", "vec": "any",
             "bool": "int"}.get(kind, "int")
    lead = " ".join(g.sub(arg_t, d, s) for _ in range(g.small(0 if fn not in
                                                                     ("-", "=", "<") else 1, 2)))
    if fn.startswith("(lambda") and not lead:
        lead = g.sub("int", d, s)
    items = " ".join(g.sub(arg_t, d, s) for _ in range(g.small(0, 3)))
    if fn in ("=", "<", "equal?") and not items:
        items = g.sub(arg_t, d, s)
    g.tag("prim:apply")
    return f"(apply {fn}{' ' + lead if lead else ''} (list {items}))"


@expression("rest_lambda", {"*": 0.6}, needs=("hof",))
def p_rest_lambda(g: G, d: int, s: Scope, t: str) -> str:
    r = g.fresh("rest")
    shape = g.pick(["args", "one", "two"])
    g.tag("shape:rest-" + shape)
    n = g.small(0, 4)
    actual = " ".join(g.sub("any", d, s) for _ in range(n + (1 if shape != "args" else 0)
                                                            + (1 if shape == "two" else 0)))
    if shape == "args":
        params, inner = r, s.child(**{r: "list"})
    elif shape == "one":
        a = g.fresh("a")
        params, inner = f"({a} . {r})", s.child(**{a: "any", r: "list"})
    else:
        a, b = g.fresh("a"), g.fresh("b")
        params, inner = f"({a} {b} . {r})", s.child(**{a: "any", b: "any", r: "list"})
    body = g.sub(t, d, inner)
    if t in ("int", "num") and g.chance(50):
        body = f"(+ (length {r}) {body})"
    via_apply = g.chance(40)
    if via_apply:
        return f"(apply (lambda {params} {body}) (list {actual}))"
    return f"((lambda {params} {body}){' ' + actual if actual else ''})"


# -- loops --------------------------------------------------------------------------------


@expression("do", {"*": 0.8}, needs=("loops",))
def p_do(g: G, d: int, s: Scope, t: str) -> str:
    i, acc, lst = g.fresh("i"), g.fresh("acc"), g.fresh("l")
    inner = s.child(**{i: "int", acc: "int", lst: "list"})
    limit = g.small(0, 6)
    extra = f" ({lst} '() (cons {acc} {lst}))" if g.chance(60) else ""
    body = f" (display {i})" if g.on("output") and g.chance(30) else ""
    if extra and g.chance(35):
        # a variable without a step keeps the value the body gave it
        extra = f" ({lst} '())"
        body += f" (set! {lst} (cons {i} {lst}))"
        g.tag("form:do-no-step")
    has_list = bool(extra)
    if not extra and g.chance(40):
        # stepped to the previous value of another variable: every step sees old values
        prev = g.fresh("prev")
        extra = f" ({prev} -1 {i})"
        inner.vars[prev] = "int"
        g.tag("form:do-prev")
    result = acc if t in ("int", "num") else \
        (lst if has_list and t in ("list", "any") else g.sub(t, d, inner))
    g.tag("form:do-multi" if extra else "form:do")
    # the step is (- i -1), not (+ i 1): a program may have rebound + (to *, say), and the
    # loop must still end
    return (f"(do (({i} 0 (- {i} -1)) ({acc} {g.sub('int', d, s)} "
            f"(+ {acc} {g.sub('int', d, inner)})){extra}) "
            f"((>= {i} {limit}) {result}){body})")


@expression("named_let", {"*": 0.8}, needs=("loops",))
def p_named_let(g: G, d: int, s: Scope, t: str) -> str:
    """Several variables updated together: the new values are computed from the old."""
    loop, i, a, b = g.fresh("loop"), g.fresh("i"), g.fresh("a"), g.fresh("b")
    inner = s.child(**{i: "int", a: "int", b: "int"})
    g.tag("form:named-let-multi")
    end = a if t in ("int", "num") else (f"(list {a} {b})" if t in ("list", "any")
                                          else g.sub(t, d, inner))
    step = g.pick([f"{b} (+ {a} {b} {g.sub('int', d, inner)})", f"{b} {a}",
                   f"(+ {a} {g.small(1, 3)}) {a}"])
    return (f"(let {loop} (({i} {g.small(0, 8)}) ({a} {g.sub('int', d, s)}) "
            f"({b} {g.small(-3, 3)})) (if (<= {i} 0) {end} "
            f"({loop} (- {i} 1) {step})))")


@expression("loop_closures", {"*": 0.5}, needs=("loops",))
def p_loop_closures(g: G, d: int, s: Scope, t: str) -> str:
    """Closures made in each iteration of a do loop or named let, called after the loop:
    each must see its own iteration's binding (a loop that assigns one variable instead of
    binding a new one shows the last value in all of them), also after a set! through one."""
    i, fs, f, loop = g.fresh("i"), g.fresh("fs"), g.fresh("f"), g.fresh("loop")
    n = g.small(1, 4)
    body = g.pick([i, f"(* {i} 10)", f"(begin (set! {i} (+ {i} 100)) {i})",
                   f"(list {i} {g.sub('int', d, s)})"])
    shape = g.pick(["do", "named-let", "let-in-loop", "define"])
    g.tag("shape:loop-closures-" + shape)
    calls = f"(map (lambda ({f}) ({f})) {fs})"
    if shape == "do":
        text = (f"(do (({i} 0 (- {i} -1)) ({fs} '() (cons (lambda () {body}) {fs}))) "
                f"((= {i} {n}) (list {calls} {calls} {i})))")
    elif shape == "define":
        # a procedure calling itself in tail position, closing over its parameters
        text = (f"(let () (define ({loop} {i} {fs}) (if (= {i} {n}) (list {calls} {calls}) "
                f"({loop} (- {i} -1) (cons (lambda () {body}) {fs})))) ({loop} 0 '()))")
    elif shape == "named-let":
        text = (f"(let {loop} (({i} 0) ({fs} '())) (if (= {i} {n}) (list {calls} {calls}) "
                f"({loop} (- {i} -1) (cons (lambda () {body}) {fs}))))")
    else:
        j = g.fresh("j")
        text = (f"(let (({fs} '())) (do (({j} 0 (- {j} -1))) ((= {j} {n})) (let (({i} {j})) "
                f"(set! {fs} (cons (lambda () {body}) {fs})))) (list {calls} {calls}))")
    if t in ("list", "any"):
        return text
    return f"(begin {text} {g.sub(t, d, s)})"


# -- program-level shapes -----------------------------------------------------------------


@shape("counter", needs="state", chance=35, otherwise=3)
def shape_counter(g: G, scope: Scope) -> list[str]:
    mk, n, step, c = g.fresh("make"), g.fresh("n"), g.fresh("step"), g.fresh("c")
    forms = [f"(define ({mk} {n}) (lambda ({step}) (set! {n} (+ {n} {step})) {n}))",
             f"(define {c} ({mk} {g.literal('int')}))"]
    scope.fns[c] = Fn(c, [step], ["int"], "int")
    forms.append(f"(display (list ({c} 1) ({c} {g.small(-3, 3)})))")
    if g.chance(50):  # a second counter shares nothing with the first
        c2 = g.fresh("c")
        forms.append(f"(define {c2} ({mk} 0))")
        forms.append(f"(write (list ({c2} 5) ({c} 0) ({c2} 0)))")
        scope.fns[c2] = Fn(c2, [step], ["int"], "int")
    return forms


@shape("global_set", needs="state", chance=35, otherwise=3)
def shape_global_set(g: G, scope: Scope) -> list[str]:
    glob, get, bump, k = g.fresh("g"), g.fresh("get"), g.fresh("bump"), g.fresh("k")
    forms = [f"(define {glob} {g.literal('int')})", f"(define ({get}) {glob})",
             f"(define ({bump} {k}) (set! {glob} (+ {glob} {k})) {glob})",
             f"(set! {glob} {g.expr('int', 2, scope)})", f"(display ({get}))",
             f"(display ({bump} {g.small(1, 5)}))"]
    if g.chance(40):  # re-define at top level reassigns the cell the closures see
        forms.append(f"(define {glob} {g.literal('int')})")
        forms.append(f"(write (list ({get}) ({bump} 1)))")
    if g.chance(40):
        # a procedure defined once and then replaced by set! (at top level or from inside
        # another procedure): its callers, tail and non-tail, must call the new one, however
        # fixed the single definition made it look
        p, caller, x = g.fresh("proc"), g.fresh("caller"), g.fresh("x")
        first = f"(list 'first {x})"
        calls = f"(list ({p} {x}) (car ({p} {x})))"
        new = f"(lambda ({x}) (list 'second {x}))"
        where = g.pick(["global", "global", "internal", "letrec"])
        if where == "global":
            forms += [f"(define ({p} {x}) {first})", f"(define ({caller} {x}) {calls})",
                      f"(write ({caller} 1))"]
            if g.chance(50):
                forms.append(f"(set! {p} {new})")
            else:
                forms.append(f"((lambda () (set! {p} {new})))")
            forms.append(f"(write (list ({caller} 2) ({p} 3)))")
        else:
            # the same inside a body: a procedure bound by an internal definition or a
            # letrec is as replaceable as a global one
            run, before = g.fresh("run"), g.fresh("before")
            if where == "internal":
                body = (f"(define ({p} {x}) {first}) (define ({caller} {x}) {calls}) "
                        f"(define {before} ({caller} 1)) (set! {p} {new}) "
                        f"(list {before} ({caller} 2) ({p} 3))")
            else:
                body = (f"(letrec (({p} (lambda ({x}) {first})) "
                        f"({caller} (lambda ({x}) {calls}))) (let (({before} ({caller} 1))) "
                        f"(set! {p} {new}) (list {before} ({caller} 2) ({p} 3))))")
            forms += [f"(define ({run}) {body})", f"(write ({run}))"]
        g.tag("shape:procedure-replaced")
        g.tag("shape:procedure-replaced-" + where)
    scope.fns[get] = Fn(get, [], [], "int")
    scope.fns[bump] = Fn(bump, [k], ["int"], "int")
    return forms


@shape("rebind", needs="rebind", chance=35, otherwise=3)
def shape_rebind(g: G, scope: Scope) -> list[str]:
    name, repl = g.pick(V.REBINDS)
    forms = []
    # Where the binding changes: a top-level define or set!, or a set! made inside a
    # procedure or a let body, which a back end that scans only top-level forms for
    # assignments to primitives' names misses.
    how = g.pick(["define", "define", "set", "set", "in-procedure", "in-let"])
    g.tag("shape:rebind-" + how)
    if how == "define":
        forms.append(f"(define {name} {repl})")
    elif how == "set":  # set! of a primitive's global binding
        forms.append(f"(set! {name} {repl})")
    elif how == "in-procedure":
        p = g.fresh("rebind")
        forms.append(f"(define ({p}) (set! {name} {repl}) 'rebound)")
        forms.append(f"(write ({p}))")
    else:
        forms.append(f"(let ((z 1)) (set! {name} {repl}) z)")
    probe = {"+": "(+ 2 3)", "max": "(max 1 2)", "abs": "(abs -5)", "square": "(square 4)",
             "eqv?": "(case 2 ((1) 'one) (else 'other))", "not": "(not 5)",
             "display": "(display \"x\")", "remainder": "(remainder -7 2)",
             "number->string": "(number->string 5)", "string-upcase": "(string-upcase \"a\")",
             "cons": "`(1 ,@(list 2) . 3)", "append": "`(1 ,@(list 2 3) 4)",
             "list->vector": "`#(1 ,(+ 1 1))"}.get(name, f"({name} (list 1 2))")
    if g.chance(40):  # the use in a procedure defined before the binding changed
        use = g.fresh("use")
        forms.insert(0, f"(define ({use}) {probe})")
        probe = f"({use})"
    forms.append(f"(write {probe})" if name != "display" else probe)
    after = g.pick(["(map abs (list -1 2))", "(length (list 1 2))",
                    "(apply + (list 1 2))", "(reverse (list 1 2))", "`(a ,@(list 1 2))",
                    "(case 1 ((1) 1) (else 0))", "(vector 1 2)"])
    forms.append(f"(write (list {after}))")
    return forms


@shape("printer", needs="printer", chance=35, otherwise=3)
def shape_printer(g: G, scope: Scope) -> list[str]:
    return [g.pick(V.PRINTER) for _ in range(g.small(1, 4))]


# -- diagnostics --------------------------------------------------------------------------


def through_global(g: G, code: str, fault: str, f: str) -> str:
    """The fault made through a global procedure: its operands become the parameters of
    ``f``, so the faulting call sees locals (where fast paths live) and the program calls a
    global; now and then ``f`` is called with one argument too many or too few (E302 at a
    call of a global), or ``f`` is not a procedure (E301)."""
    if code == "E301":
        return f"(define {f} {g.literal(g.pick(['int', 'str', 'list']))})\n({f} 1)"
    tree = parse(fault)[0]
    if tree[0] != "list" or tree[2] is not None or len(tree[1]) < 2 \
            or tree[1][0][0] != "atom" or tree[1][0][1] not in PRIMITIVES:
        return f"(define ({f}) {fault})\n({f})"
    op, args = tree[1][0][1], [render_node(a) for a in tree[1][1:]]
    params = [g.fresh("p") for _ in args]
    if g.chance(25):
        args = args[:-1] if g.chance(50) else [*args, "0"]
    return (f"(define ({f} {' '.join(params)})\n  ({op} {' '.join(params)}))\n"
            f"({f} {' '.join(args)})")


@program_part("diagnostic", chance=40, unsafe_only=True)
def diagnostic(g: G, scope: Scope) -> str:
    """A form that ends the program with a diagnostic, of a code drawn toward those least
    seen, in one of several contexts (so spans sit at varied lines and columns)."""
    codes = list(V.RUNTIME_FAULTS) + list(V.SOURCE_FAULTS)
    weights = [g.steer.faults.get(c, 1.0) * (0.5 if c in V.SOURCE_FAULTS else 1.0)
               for c in codes]
    code = g.weighted(codes, weights)
    g.tag("fault:" + code)
    if code in V.SOURCE_FAULTS and code not in V.RUNTIME_FAULTS:
        return g.fault_entry(code, V.SOURCE_FAULTS[code])
    pool = V.RUNTIME_FAULTS.get(code) or V.SOURCE_FAULTS[code]
    fault = g.fault_entry(code, pool)
    if code == "E303" or fault.startswith(("(+ 1 later", "(later-", "(define ")):
        # not inside a procedure: later definitions would bind it, and a define is a form
        return "\n".join([fault, *V.later_definitions([fault])])
    f = g.fresh("bad")
    context = g.pick(["bare", "procedure", "callback", "wind", "guard", "nested",
                      "after-output", "global", "global", "reraise"])
    g.tag("shape:diag-" + context)
    if context == "global":
        return through_global(g, code, fault, f)
    if context == "procedure":
        return f"(define ({f}) (let ((x 1))\n    {fault}))\n({f})"
    if context == "callback":
        return f"(map (lambda (x)\n  {fault}) '(1 2))"
    if context == "wind":
        return (f"(dynamic-wind (lambda () (display \"b\"))\n  (lambda () {fault})\n"
                f"  (lambda () (display \"a\")))")
    if context == "guard" and code.startswith("E3"):
        return (f"(guard (e ((error-object? e) (list (error-object-message e) "
                f"(error-object-irritants e))) (#t (list 'raised e)))\n  {fault})")
    if context == "reraise" and code.startswith("E3"):
        # the condition caught, kept and raised again uncaught: it is reported where it
        # happened, with its own code and span, not at the raise that raised it again
        e, kept = g.fresh("e"), g.fresh("kept")
        return (f"(let (({kept} (guard ({e} (#t {e})) {fault})))\n  (display 'kept)\n"
                f"  (raise {kept}))")
    if context == "nested":
        return f"(list 1\n      (if #t\n          {fault} 0))"
    if context == "after-output":
        return f"(display \"before\")\n{fault}"
    return fault
