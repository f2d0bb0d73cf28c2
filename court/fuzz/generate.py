"""Generated Lispex programs that are valid, deterministic and terminating most of the time.

Generation is type-directed and scope-aware: an expression is drawn for a wanted type (int,
number, string, boolean, list, vector, char, symbol, any) from producers that only reference
names bound in scope, with the right arity. Each program draws a set of feature toggles first, so
rare features (call/cc escapes through dynamic-wind, handlers, multiple values, input) meet each
other often, and one primitive to lean on. "Safe" programs keep types and arities right; the
others also plant faults, one of every diagnostic code. Loops and recursion are bounded by
construction; whatever escapes that is caught by the meters.

Everything is drawn from one ``random.Random``: the same seed gives the same programs, fast.
The producers live in mixins by family (forms.py, control.py, shapes.py, recursion.py,
edges.py, pitfalls.py, effects.py); the weights that steer them come from the feedback table
(feedback.py).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from . import values as V
from .control import ControlMixin
from .edges import EdgesMixin
from .effects import EffectsMixin
from .forms import FormsMixin
from .layout import relayout
from .layout import tokens as layout_tokens
from .pitfalls import PitfallsMixin
from .recursion import RecursionMixin
from .shapes import ShapesMixin
from .signatures import SIGNATURES

FEATURES = ("closures", "recursion", "strings", "lists", "vectors", "floats", "rationals",
            "errors", "handlers", "callcc", "dynwind", "multivalues", "output", "input",
            "chars", "hof", "quasiquote", "loops", "bignums", "state", "rebind", "printer",
            "edges", "layout")

# A pair tree four levels deep: every c[ad]{2,4}r is defined on it.
DEEP = ("'((((1 . 2) . (3 . 4)) . ((5 . 6) . (7 . 8))) . "
        "(((9 . 10) . (11 . 12)) . ((13 . 14) . (15 . 16))))")

TYPES = ("int", "num", "str", "bool", "list", "vec", "char", "sym", "any")


@dataclass
class Case:
    source: str
    input: str | None
    features: tuple[str, ...]
    safe: bool
    origin: str = "generated"  # or "mutated:<corpus case>"
    tags: tuple[str, ...] = ()  # the producers, shapes and primitives the program was made of
    # Meter limits that replace the campaign's for this program (every member sees the same).
    limits: tuple[tuple[str, int], ...] = ()


@dataclass
class Fn:
    name: str
    params: list[str]
    ptypes: list[str]
    ret: str
    rest: bool = False  # takes any number of extra arguments of its last type


@dataclass
class Scope:
    vars: dict[str, str] = field(default_factory=dict)  # name -> type
    fns: dict[str, Fn] = field(default_factory=dict)
    muts: set[str] = field(default_factory=set)  # names `set!` may assign without harm

    def child(self, **extra: str) -> Scope:
        s = Scope(dict(self.vars), dict(self.fns), set(self.muts))
        s.vars.update(extra)
        return s


class Steering:
    """Weights the generator draws by: producer names and primitive names, each a factor
    around 1.0 (rarely reached things above). Built by feedback.Coverage.steering()."""

    def __init__(self, producers: dict[str, float] | None = None,
                 primitives: dict[str, float] | None = None,
                 faults: dict[str, float] | None = None,
                 entries: dict[str, float] | None = None) -> None:
        self.producers = producers or {}
        self.primitives = primitives or {}
        self.faults = faults or {}
        self.entries = entries or {}  # "E312:4": the fault table's entries, as drawn so far


class Gen(FormsMixin, ControlMixin, ShapesMixin, RecursionMixin, EdgesMixin, PitfallsMixin,
          EffectsMixin):
    def __init__(self, rng: random.Random, features: set[str], safe: bool,
                 steering: Steering | None = None) -> None:
        self.rng = rng
        self.f = features
        self.safe = safe
        self.steer = steering or Steering()
        self.n = 0
        self.tags: set[str] = set()
        self.sampling = False  # inside the edge sampler: no edge that costs tens of ms
        self.focus = self.weighted(SIGNATURES, [self.steer.primitives.get(s[0], 1.0)
                                                for s in SIGNATURES])

    # -- drawing helpers ---------------------------------------------------------------------

    def pick(self, seq):
        seq = seq if isinstance(seq, (list, tuple)) else list(seq)
        return seq[self.rng.randrange(len(seq))]

    def weighted(self, seq, weights):
        return self.rng.choices(seq, weights)[0]

    def fault_entry(self, code: str, pool: list[str],
                    leave_out: frozenset[str] = frozenset()) -> str:
        """One entry of a fault table's row, drawn toward those least drawn so far: a row grows
        with every family added to it, and a uniform draw would leave some of its entries
        unreached for thousands of programs. Entries in ``leave_out`` are never drawn."""
        i = self.weighted(range(len(pool)), [0.0 if pool[j] in leave_out else
                                            self.steer.entries.get(f"{code}:{j}", 1.0)
                                            for j in range(len(pool))])
        self.tag(f"entry:{code}:{i}")
        return pool[i]

    def chance(self, percent: int) -> bool:
        return self.rng.randrange(100) < percent

    def small(self, lo: int = 0, hi: int = 5) -> int:
        return self.rng.randint(lo, hi)

    def fresh(self, base: str = "v") -> str:
        self.n += 1
        return f"{base}{self.n}"

    def on(self, feature: str) -> bool:
        return feature in self.f

    def tag(self, name: str) -> None:
        self.tags.add(name)

    # -- leaves --------------------------------------------------------------------------------

    def literal(self, t: str) -> str:
        if t == "int":
            if self.on("bignums") and self.chance(30):
                return self.pick(V.INTS)
            return str(self.rng.randint(-20, 20))
        if t == "num":
            pool = ["int"] + (["float"] if self.on("floats") else []) + \
                (["rat"] if self.on("rationals") else [])
            kind = self.pick(pool)
            if kind == "float":
                return self.pick(V.FLOATS)
            if kind == "rat":
                return self.pick(V.RATIONALS)
            return self.literal("int")
        if t == "str":
            return self.pick(V.STRINGS)
        if t == "bool":
            return self.pick(["#t", "#f"])
        if t == "char":
            return self.pick(V.CHARS)
        if t == "sym":
            return self.pick(V.SYMBOLS)
        if t == "list":
            if self.on("printer") and self.chance(30):
                return self.pick(V.QUOTED)
            items = [self.quoted_atom() for _ in range(self.small(0, 4))]
            return "'(" + " ".join(items) + ")"
        if t == "vec":
            if self.on("printer") and self.chance(25):
                return self.pick(["#()", "#(1 #() ())", "#(a \"s\" #\\x)", "(vector)"])
            return "(vector " + " ".join(self.literal("int") for _ in range(self.small(0, 3))) + ")"
        return self.literal(self.pick(["int", "num", "str", "bool", "char", "list", "sym"]))

    def quoted_atom(self) -> str:
        kind = self.pick(["int", "sym", "str", "list"] + (["float"] if self.on("floats") else []))
        if kind == "sym":
            return self.pick(V.SYMBOLS)[1:]
        if kind == "str":
            return self.pick(V.STRINGS)
        if kind == "float":
            return self.pick(V.FLOATS)
        if kind == "list":
            return "(" + " ".join(str(self.small(0, 9)) for _ in range(self.small(0, 2))) + ")"
        return self.literal("int")

    def leaf(self, t: str, scope: Scope) -> str:
        names = [n for n, nt in scope.vars.items()
                 if nt == t or (t == "any" and nt != "proc") or (t == "num" and nt == "int")]
        if names and self.chance(60):
            return self.pick(names)
        return self.literal(t)

    # -- expressions ---------------------------------------------------------------------------

    def expr(self, t: str, depth: int, scope: Scope) -> str:
        if depth <= 0 or self.chance(30):
            return self.leaf(t, scope)
        if not self.safe and self.chance(4):
            return self.fault(scope)
        table = self.producers(t)
        names = list(table)
        weights = [self.steer.producers.get(n, 1.0) * table[n][1] for n in names]
        name = self.weighted(names, weights)
        self.tag("gen:" + name)
        return table[name][0](depth - 1, scope, t)

    sub = expr

    def producers(self, t: str) -> dict:
        """name -> (producer(depth, scope, type), base weight) for the wanted type."""
        p: dict = {"if": (self.p_if, 1.0), "let": (self.p_let, 1.0),
                   "call_user": (self.p_call_user, 1.0), "prim": (self.p_prim, 2.0),
                   "extract": (self.p_extract, 1.0), "cond": (self.p_cond, 0.6),
                   "begin": (self.p_begin, 0.4), "lambda_app": (self.p_lambda_app, 0.5)}
        if self.on("callcc"):
            p["callcc"] = (self.p_callcc, 1.0)
        if self.on("handlers"):
            p["handler"] = (self.p_handler, 1.0)
            p["continuable"] = (self.p_continuable, 0.7)
            p["handler_compose"] = (self.p_handler_compose, 0.8)
        if self.on("errors"):
            p["guard"] = (self.p_guard, 1.0)
            p["reraise"] = (self.p_reraise, 0.5)
        if self.on("dynwind"):
            p["dynwind"] = (self.p_dynwind, 1.0)
            if self.on("handlers") or self.on("errors"):
                p["wind_guard_handler"] = (self.p_wind_guard_handler, 0.6)
        if self.on("multivalues"):
            p["values"] = (self.p_values, 1.0)
        if self.on("state"):
            p["set_local"] = (self.p_set_local, 0.8)
            p["letrec_forward"] = (self.p_letrec_forward, 0.6)
            p["internal_define"] = (self.p_internal_define, 0.6)
        if self.on("rebind"):
            p["shadow_prim"] = (self.p_shadow_prim, 0.5)
        if self.on("hof"):
            p["apply"] = (self.p_apply, 0.8)
            p["rest_lambda"] = (self.p_rest_lambda, 0.6)
        if self.on("loops"):
            p["do"] = (self.p_do, 0.8)
            p["named_let"] = (self.p_named_let, 0.8)
            p["loop_closures"] = (self.p_loop_closures, 0.5)
        typed = {
            "int": {"arith": (self.p_arith, 2.0), "divide": (self.p_divide, 1.0),
                    "length": (self.p_length, 1.0), "case": (self.p_case, 0.6),
                    "when": (self.p_when, 0.4)},
            "num": {"arith": (self.p_arith, 1.5), "num_op": (self.p_num_op, 1.0)},
            "str": {"string": (self.p_string, 2.0)},
            "bool": {"compare": (self.p_compare, 1.0), "pred": (self.p_pred, 1.0),
                     "logic": (self.p_logic, 1.0)},
            "list": {"list": (self.p_list, 2.0), "quasi": (self.p_quasi, 0.5),
                     "member": (self.p_member, 0.6)},
            "vec": {"vector": (self.p_vector, 2.0), "vector_set": (self.p_vector_set, 0.8)},
            "char": {"char": (self.p_char, 2.0)},
            "sym": {"symbol": (self.p_symbol, 1.0)},
        }
        if self.on("hof"):
            typed["int"]["fold"] = (self.p_fold, 0.7)
            typed["num"]["fold"] = (self.p_fold, 0.5)
            typed["list"]["map"] = (self.p_map, 0.7)
            typed["list"]["filter"] = (self.p_filter, 0.5)
        if self.on("edges"):
            typed["bool"]["edge_compare"] = (lambda d, s, _t: self.edge_compare(d, s), 1.0)
        if t == "any":
            if self.on("edges"):
                p["edge"] = (self.p_edge, 2.0)
            for k, table in typed.items():
                for n, (fn, w) in table.items():
                    p.setdefault(n, (lambda d, s, _t, fn=fn, k=k: fn(d, s, k), w / 3))
            p["member"] = (self.p_member, 0.6)
            return p
        p.update(typed.get(t, {}))
        return p

    # -- primitive calls -----------------------------------------------------------------------

    def p_prim(self, d: int, s: Scope, t: str) -> str:
        """A call of a primitive from the signature table whose result fits the wanted type.
        For `any`, every primitive fits, including those whose result is `any` (car, member,
        vector-ref, list-ref...)."""
        fits = [sig for sig in SIGNATURES if t == "any" or sig[2] == t or
                (t == "num" and sig[2] == "int")]
        if not fits:
            return self.leaf(t, s)
        if self.focus in fits and self.chance(50):
            name, args, _ = self.focus
        else:
            name, args, _ = self.weighted(fits, [self.steer.primitives.get(f[0], 1.0)
                                                 for f in fits])
        self.tag("prim:" + name)
        return f"({name}{''.join(' ' + self.arg(a, d, s) for a in args)})"

    def arg(self, a: str, d: int, s: Scope) -> str:
        if a.startswith("idx:"):
            if not self.safe and self.chance(10):  # just outside the domain: a fault to compare
                self.tag("edge:index-arg")
                return str(self.pick([-1, int(a[4:]), int(a[4:]) + 1]))
            return str(self.small(0, int(a[4:]) - 1))
        if a == "nz":
            return str(self.pick([-7, -3, -2, -1, 1, 2, 3, 5, 10]))
        if a.startswith("nelist"):
            n = int(a[6:] or 1)
            return "(list" + "".join(" " + self.sub("any", d, s)
                                     for _ in range(n + self.small(0, 2))) + ")"
        if a == "deep":
            return self.pick([DEEP, "(quote " + DEEP[1:] + ")",
                              f"(cons (cons (cons (cons {self.sub('any', d, s)} 1) (cons 2 3)) "
                              f"(cons (cons 4 5) (cons 6 7))) (cons (cons (cons 8 9) (cons 10 11)) "
                              f"(cons (cons 12 13) (cons 14 15))))"])
        if a == "charproc":
            return self.pick(["char-upcase", "char-downcase", "(lambda (c) c)",
                              "(lambda (c) (if (char-alphabetic? c) #\\* c))"])
        if a == "pred1":
            return self.pick(["number?", "symbol?", "(lambda (x) (equal? x 1))", "pair?",
                              "(lambda (x) x)", "string?"])
        if a == "proc2":
            return self.pick(["cons", "list", "(lambda (a b) (list b a))", "eqv?",
                              "(lambda (a b) a)"])
        if a == "list1":
            return f"(list {self.sub('any', d, s)})"
        if a == "errobj":
            return (f"(guard (e (#t e)) (error {self.pick(V.STRINGS)} "
                    f"{self.sub('any', d, s)}))")
        if a == "escaper":
            k = self.fresh("k")
            return f"(lambda ({k}) ({k} {self.sub('any', d, s)}))"
        if a == "thunk":
            return f"(lambda () {self.sub('any', d, s)})"
        if a == "vec3":
            return "(vector" + "".join(" " + self.sub("any", d, s) for _ in range(3)) + ")"
        if a == "alist":
            return "'((a 1) (b . 2) (3 c) (\"k\" v) (2.5 r))"
        if a == "hello":
            return '"héllo"'
        if a == "chars":
            return f"(list {self.sub('char', d, s)} {self.sub('char', d, s)})"
        if a == "charvec":
            return f"(vector {self.sub('char', d, s)})"
        if a == "bytes":
            return f"(bytevector {self.small(0, 255)} {self.small(0, 255)})"
        if a == "proc1":
            return self.pick(["car", "abs", "(lambda (x) x)", "list", "number?", "not"])
        if a == "radix":
            return self.pick(["2", "8", "10", "16"])
        return self.sub(a, d, s)

    def p_extract(self, d: int, s: Scope, t: str) -> str:
        """An element of the wanted type taken out of a container, so that car, cadr, list-ref,
        vector-ref, ... are drawn for every wanted type."""
        n = self.small(1, 4)
        items = [self.sub(t, d, s) for _ in range(n)]
        k = self.small(0, n - 1)
        how = self.pick(["car", "first", "list-ref", "nth", "vector-ref", "cadr", "caddr",
                         "assq", "list-tail", "apply"])
        self.tag("prim:" + how)
        if how in ("car", "first"):
            return f"({how} (list {' '.join(items)}))"
        if how in ("list-ref", "nth"):
            return f"({how} (list {' '.join(items)}) {k})"
        if how == "vector-ref":
            return f"(vector-ref (vector {' '.join(items)}) {k})"
        if how == "cadr":
            return f"(cadr (list {self.literal('int')} {items[0]}))"
        if how == "caddr":
            return f"(caddr (cons 1 (cons 2 (list {items[0]}))))"
        if how == "assq":
            return f"(cadr (assq 'k{k} (list {' '.join(f'(list {chr(39)}k{i} {x})' for i, x in enumerate(items))})))"
        if how == "list-tail":
            return f"(car (list-tail (list {' '.join(items)}) {k}))"
        return f"(apply (lambda xs (list-ref xs {k})) (list {' '.join(items)}))"

    # -- programs ------------------------------------------------------------------------------

    def function(self, scope: Scope) -> tuple[str, Fn]:
        name = self.fresh("f")
        if self.on("recursion") and self.chance(50):
            n, acc = self.fresh("n"), self.fresh("acc")
            if self.chance(50):
                fn = Fn(name, [n, acc], ["int", "int"], "int")
                inner = scope.child(**{n: "int", acc: "int"})  # the step never calls itself
                # the counter is clamped so that a huge argument still ends quickly
                body = (f"(if (<= {n} 0) {acc} ({name} (- (min {n} 8) 1) "
                        f"(+ {acc} {self.expr('int', 2, inner)})))")
                return f"(define ({name} {n} {acc}) {body})", fn
            fn = Fn(name, [n], ["int"], "int")
            base = self.expr('int', 1, scope.child(**{n: "int"}))  # never calls itself
            inner = scope.child(**{n: "int"})
            inner.fns[name] = fn
            body = (f"(if (<= {n} 0) {base} "
                    f"(+ {self.expr('int', 1, inner)} ({name} (- (min {n} 8) 1))))")
            return f"(define ({name} {n}) {body})", fn
        ptypes = [self.pick(["int", "str", "list", "num", "any"]) for _ in range(self.small(0, 3))]
        params = [self.fresh("p") for _ in ptypes]
        ret = self.pick(["int", "str", "list", "bool", "any", "num"])
        rest = self.on("hof") and bool(ptypes) and self.chance(25)
        inner = scope.child(**dict(zip(params, ptypes, strict=True)))
        if rest:
            inner.vars[params[-1]] = "list"
        body = self.expr(ret, 2 + self.small(0, 1), inner)
        fn = Fn(name, params, ptypes, ret, rest)
        if rest:
            self.tag("gen:rest_define")
            head = " ".join(params[:-1])
            return f"(define ({name}{' ' + head if head else ''} . {params[-1]}) {body})", fn
        if self.on("closures") and self.chance(30) and ret == "int":
            k = self.fresh("k")
            return (f"(define ({name} {' '.join(params)}) (let (({k} (lambda (z) (+ z 1)))) "
                    f"({k} {body})))", fn)
        return f"(define ({name}{''.join(' ' + p for p in params)}) {body})", fn

    def statement(self, scope: Scope) -> str:
        shape = self.pick(["display", "write", "newline", "for-each", "println"]) \
            if self.on("output") else "display"
        if shape == "newline":
            return "(newline)"
        if self.on("edges") and self.chance(30):
            return f"(write {self.p_edge(2, scope, 'any')})"
        if shape == "for-each":
            x = self.fresh("x")
            kind = self.pick(["for-each", "vector-for-each", "string-for-each"])
            self.tag("prim:" + kind)
            arg = {"for-each": "list", "vector-for-each": "vec", "string-for-each": "str"}[kind]
            return f"({kind} (lambda ({x}) (write {x})) {self.expr(arg, 2, scope)})"
        return f"({shape} {self.expr('any', 2, scope)})"

    def input_datum(self) -> tuple[str, dict[str, str]]:
        age = self.rng.randint(-5, 130)
        score = self.pick(["3/2", "0", "-1", "2.5", "100"])
        name = self.pick(V.STRINGS)
        return f"((age {age}) (score {score}) (name {name}) (tags a b))", \
            {"age": "int", "score": "num", "name": "str"}

    def program(self) -> tuple[str, str | None]:
        """A program; half are small (one definition at most, one expression), which cost a
        fraction of a full one to evaluate: most bugs need only a small trigger, and the
        campaign's throughput is bounded by evaluation."""
        small = self.chance(50)
        self.tag("size:small" if small else "size:full")
        scope = Scope()
        forms: list[str] = []
        input_text = None
        if self.on("input"):
            input_text, fields = self.input_datum()
            for fieldname, t in fields.items():
                g = self.fresh(fieldname)
                forms.append(f"(define {g} (cadr (assq '{fieldname} input)))")
                scope.vars[g] = t
        for _ in range(self.small(0, 1 if small else 3)):
            text, fn = self.function(scope)
            forms.append(text)
            scope.fns[fn.name] = fn
        for _ in range(self.small(0, 0 if small else 2)):
            t = self.pick(["int", "str", "list", "num"])
            g = self.fresh("g")
            forms.append(f"(define {g} {self.expr(t, 2, scope)})")
            scope.vars[g] = t
        forms.extend(self.shapes(scope, 1 if small else 6))
        for _ in range(self.small(0, 1 if small else 3)):
            forms.append(self.statement(scope))
        if self.chance(30):
            forms.append(self.fault_sampler())
        if self.chance(25):
            forms.append(self.edge_sampler(scope))
        if not self.safe and self.chance(40):
            forms.append(self.diagnostic(scope))
        if not self.safe and self.chance(8):
            forms.insert(self.small(0, len(forms)), self.token_form())
        forms.append(self.expr(self.pick(TYPES), 3 if small else 3 + self.small(0, 1), scope))
        source = "\n".join(forms) + "\n"
        if self.on("layout"):
            source, used = relayout(source, self.rng)
            self.tags.update("layout:" + t for t in used)
        return source, input_text

    def misnamed(self, source: str) -> str:
        """One symbol of the program replaced by a reserved word or a forbidden name, wherever
        it stands: an operand, a body, a binder, a quoted datum, a callee. The front end must
        refuse it there as at the head of a form (E110, E120), and a fast path that checks
        only some positions shows it."""
        spots = [(s, e) for kind, s, e in layout_tokens(source)
                 if kind == "other" and not source[s].isdigit() and source[s] not in "'`,#-+."]
        if not spots:
            return source
        s, e = self.pick(spots)
        names = V.FORBIDDEN_NAMES if self.chance(60) else V.RESERVED_NAMES
        word = self.pick([w for w in names if w != source[s:e]])
        self.tag("shape:misnamed")
        return source[:s] + word + source[e:]

    def misescaped(self, source: str) -> str:
        """One string literal given an escape, or one character literal a name, that another
        Scheme reads and Lispex refuses (E150 at the literal): a reader that took R7RS's whole
        table, or names in any case, reads the program instead."""
        toks = [(k, s, e) for k, s, e in layout_tokens(source) if k in ("str", "char")]
        if not toks:
            return source
        kind, s, e = self.pick(toks)
        self.tag("shape:misescaped")
        if kind == "char":
            return source[:s] + self.pick(V.FOREIGN_CHARS) + source[e:]
        at = self.rng.randrange(s + 1, e)  # after the opening quote, up to the closing one
        return source[:at] + self.pick(V.FOREIGN_ESCAPES) + source[at:]

    def rebound(self, source: str) -> str:
        """One name of a lambda's or a procedure definition's parameters written twice (E130 at
        the second, the duplicate): where the normalizer reports it, in a program of any
        shape."""
        toks = [(k, s, e) for k, s, e in layout_tokens(source) if k not in ("ws", "line", "block")]
        lists = []
        for j in range(len(toks) - 2):
            head = source[toks[j + 1][1]:toks[j + 1][2]]
            if toks[j][0] == "open" and head in ("lambda", "define") and toks[j + 2][0] == "open":
                names, m = [], j + 3
                if head == "define":
                    m += 1  # the procedure's own name
                while m < len(toks) and toks[m][0] == "other" and source[toks[m][1]] != ".":
                    names.append(toks[m])
                    m += 1
                if names:
                    lists.append(names)
        if not lists:
            return source
        names = self.pick(lists)
        first = source[names[0][1]:names[0][2]]
        self.tag("shape:rebound")
        if len(names) > 1 and self.chance(60):  # a later parameter renamed to the first
            _, s, e = names[self.rng.randrange(1, len(names))]
            return source[:s] + first + source[e:]
        _, _, e = names[-1]
        return source[:e] + " " + first + source[e:]

    def broken(self, source: str) -> str:
        """The program cut short (inside nested lists, or a string) or with a bracket too many:
        a reader diagnostic whose span is the innermost unclosed opening or the stray one."""
        cut = self.rng.randrange(len(source) // 3, len(source))
        if self.chance(70):
            self.tag("shape:truncated")
            return source[:cut]
        self.tag("shape:stray-bracket")
        return source[:cut] + self.pick([")", "(", "\"", "#"]) + source[cut:]


def generate(rng: random.Random, *, only_safe: bool = False,
             steering: Steering | None = None) -> Case:
    """One program. Every draw comes from ``rng``, so a seeded rng gives the same sequence."""
    features = {f for f in FEATURES if rng.randrange(100) < 40}
    safe = only_safe or rng.randrange(100) < 75
    gen = Gen(rng, features, safe, steering)
    source, input_text = gen.program()
    if not safe and rng.randrange(100) < 6:
        source = gen.broken(source)
    elif not safe and rng.randrange(100) < 8:
        source = gen.misnamed(source)
    elif not safe and rng.randrange(100) < 5:
        source = gen.misescaped(source)
    elif not safe and rng.randrange(100) < 4:
        source = gen.rebound(source)
    return Case(source, input_text, tuple(sorted(features)), safe, tags=tuple(sorted(gen.tags)))
