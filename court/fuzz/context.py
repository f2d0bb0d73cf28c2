"""The generation context every producer receives: the program's random stream, its features
and safety, the steering, the names in scope, and the helpers that draw from them (a pick, a
chance, a fresh name, a literal, a leaf, an expression of a wanted type).

Everything is drawn from one ``random.Random``: the same seed gives the same programs."""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from . import registry
from . import values as V
from .signatures import SIGNATURES

LEAF_CHANCE = 30  # percent of expressions that are a leaf before the depth runs out


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
    """Weights the generator draws by: producers (by registry id), primitives, diagnostic codes
    and fault-table entries, each a factor around 1.0 (rarely reached things above). Built by
    feedback.Coverage.steering()."""

    def __init__(self, producers: dict[str, float] | None = None,
                 primitives: dict[str, float] | None = None,
                 faults: dict[str, float] | None = None,
                 entries: dict[str, float] | None = None) -> None:
        self.producers = producers or {}
        self.primitives = primitives or {}
        self.faults = faults or {}
        self.entries = entries or {}  # "E312:4": the fault table's entries, as drawn so far
        # Drawn up once per steering: the expression tables' weights by (type, gate key), and
        # the weights of the primitive a program leans on.
        self.tables: dict[tuple[str, frozenset[str]], tuple[list, list[float]]] = {}
        self.focus = [self.primitives.get(s[0], 1.0) for s in SIGNATURES]


UNSTEERED = Steering()


class Context:
    def __init__(self, rng: random.Random, features: set[str], safe: bool,
                 steering: Steering | None = None) -> None:
        self.rng = rng
        self.f = features
        self.safe = safe
        self.steer = steering or UNSTEERED
        self.n = 0
        self.tags: set[str] = set()
        self.used: set[str] = set()  # registry ids of the producers drawn
        self.sampling = False  # inside the edge sampler: no edge that costs tens of ms
        self.focus = self.weighted(SIGNATURES, self.steer.focus)
        self.gates = registry.gate_key(features)

    # -- drawing helpers ---------------------------------------------------------------------

    def pick(self, seq):
        seq = seq if isinstance(seq, (list, tuple)) else list(seq)
        return seq[self.rng.randrange(len(seq))]

    def weighted(self, seq, weights):
        return self.rng.choices(seq, weights)[0]

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

    def use(self, producer: registry.Producer) -> None:
        """Record a registered producer as drawn (and its tag, if it has one)."""
        self.used.add(producer.id)
        if producer.tag:
            self.tags.add(producer.tag)

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

    # -- leaves --------------------------------------------------------------------------------

    def literal(self, t: str) -> str:
        if t == "int":
            if self.on("bignums") and self.chance(30):
                return self.pick(V.INTS)
            return str(self.rng.randint(-20, 20))
        if t == "num":
            return self._number()
        if t == "list":
            if self.on("printer") and self.chance(30):
                return self.pick(V.QUOTED)
            items = [self.quoted_atom() for _ in range(self.small(0, 4))]
            return "'(" + " ".join(items) + ")"
        if t == "vec":
            if self.on("printer") and self.chance(25):
                return self.pick(["#()", "#(1 #() ())", "#(a \"s\" #\\x)", "(vector)"])
            return "(vector " + " ".join(self.literal("int") for _ in range(self.small(0, 3))) + ")"
        pool = {"str": V.STRINGS, "bool": ["#t", "#f"], "char": V.CHARS, "sym": V.SYMBOLS}
        if t in pool:
            return self.pick(pool[t])
        return self.literal(self.pick(["int", "num", "str", "bool", "char", "list", "sym"]))

    def _number(self) -> str:
        pool = ["int"] + (["float"] if self.on("floats") else []) + \
            (["rat"] if self.on("rationals") else [])
        kind = self.pick(pool)
        if kind == "float":
            return self.pick(V.FLOATS)
        if kind == "rat":
            return self.pick(V.RATIONALS)
        return self.literal("int")

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
        """An expression of type ``t``: a leaf, a planted fault (unsafe programs), or the text
        of an expression producer drawn by weight and steering."""
        if depth <= 0 or self.chance(LEAF_CHANCE):
            return self.leaf(t, scope)
        if not self.safe:
            plant = registry.planted_fault()
            if self.chance(plant.chance):
                self.use(plant)
                return plant.fn(self, scope)
        table, weights = self._table(t)
        producer, wanted = self.weighted(table, weights)
        self.use(producer)
        return producer.fn(self, depth - 1, scope, wanted)

    sub = expr

    def _table(self, t: str) -> tuple[list, list[float]]:
        """The expression producers for ``t`` and their weights under this program's features
        and steering."""
        got = self.steer.tables.get((t, self.gates))
        if got is None:
            rows = registry.expression_table(t, self.gates)
            got = self.steer.tables[(t, self.gates)] = (
                [(p, wanted) for p, _, wanted in rows],
                [self.steer.producers.get(p.id, 1.0) * w for p, w, _ in rows])
        return got
