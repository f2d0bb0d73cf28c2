"""Feedback: what the campaign's programs exercised, and weights that steer generation toward
what is rarely reached.

Counted per program: the Core IR node kinds of the program (the kernel normalizer's tree, walked
here; the normalizer is the shared front end, not an evaluator), the primitives it names, the
registered producers it was drawn from (by registry id) and the variants they tagged, and from
the observations the outcome statuses and diagnostic codes. Every count is a number of
programs. The steering weight of a thing is larger the rarer it is, so rarely reached
producers, primitives and diagnostics are drawn more often; weights are recomputed only at
block boundaries of the campaign, which keeps a run reproducible.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from implementations.lispex import core_ir as ir
from implementations.lispex.normalizer import normalize
from implementations.lispex.reader import read_source

from . import registry
from . import values as V
from .case import Case
from .context import Steering
from .signatures import PRIMITIVES

NODE_KINDS = ("Const", "Local", "Global", "Intrinsic", "If", "Lambda", "Seq", "SetLocal",
              "SetGlobal", "DefineGlobal", "Let", "Letrec", "ValuesNode", "App", "TailApp",
              "Guard")
CONTROL = ("call/cc", "call-with-current-continuation", "dynamic-wind", "with-exception-handler",
           "raise", "raise-continuable", "error", "call-with-values", "values", "apply")
# Every entry of the fault tables, as the generator tags it ("E312:4").
ENTRIES = [f"{code}:{i}" for table in (V.RUNTIME_FAULTS, V.SOURCE_FAULTS)
           for code, pool in table.items() for i in range(len(pool))]
DIAGNOSTICS = tuple(sorted(set(V.RUNTIME_FAULTS) | set(V.SOURCE_FAULTS) | {"E340"})) + \
    ("recursion-limit",)


def core_ir_census(source: str) -> tuple[set[str], set[str]]:
    """Node kinds and global or intrinsic names in the program's Core IR (empty when the program
    is a source error)."""
    try:
        program = normalize(read_source(source.encode("utf-8"), "fuzz").datums, "fuzz")
    except Exception:  # noqa: BLE001 - a source error has no Core IR; its code is counted
        return set(), set()
    kinds: set[str] = set()
    names: set[str] = set()
    stack: list[Any] = list(program.forms)
    while stack:
        n = stack.pop()
        kind = type(n).__name__
        if isinstance(n, ir.App):
            kind = "TailApp" if n.tail else "App"
            stack.extend(n.parts)
        elif isinstance(n, (ir.Global, ir.Intrinsic)):
            names.add(n.name)
        elif isinstance(n, ir.If):
            stack.extend((n.test, n.then, n.else_))
        elif isinstance(n, ir.Lambda):
            stack.append(n.body)
        elif isinstance(n, ir.Seq):
            stack.extend(n.exprs)
        elif isinstance(n, (ir.SetLocal, ir.SetGlobal, ir.DefineGlobal)):
            stack.append(n.value)
        elif isinstance(n, (ir.Let, ir.Letrec)):
            stack.extend(n.inits)
            stack.append(n.body)
        elif isinstance(n, ir.ValuesNode):
            stack.extend(n.args)
        elif isinstance(n, ir.Guard):
            stack.append(n.body)
            for test, body in n.clauses:
                stack.append(test)
                if body is not None:
                    stack.append(body)
            if n.else_body is not None:
                stack.append(n.else_body)
        kinds.add(kind)
    return kinds, names


class Coverage:
    def __init__(self, primitives: list[str] | None = None) -> None:
        self.programs = 0
        self.nodes: Counter[str] = Counter()
        self.prims: Counter[str] = Counter()
        self.tags: Counter[str] = Counter()
        self.producers: Counter[str] = Counter()  # registry id -> programs drawn from it
        self.outcomes: Counter[str] = Counter()
        self.diags: Counter[str] = Counter()
        self.origins: Counter[str] = Counter()
        self.primitives = primitives or list(PRIMITIVES)
        self.censused = 0  # programs whose Core IR was walked (a sample: it costs)

    def add_program(self, case: Case, census: bool = True) -> None:
        self.programs += 1
        if census:
            self.censused += 1
            kinds, names = core_ir_census(case.source)
            self.nodes.update(kinds)
            self.prims.update(n for n in names if n in self._known)
        self.tags.update(t for t in case.tags if not t.startswith("prim:"))
        self.producers.update(case.producers)
        self.origins[case.origin.split(":")[0]] += 1

    @property
    def _known(self) -> set[str]:
        known = getattr(self, "_known_set", None)
        if known is None:
            known = self._known_set = set(self.primitives)
        return known

    def add_observations(self, observations: dict[str, dict[str, Any]]) -> None:
        statuses, codes = set(), set()
        for o in observations.values():
            sem = o.get("semantic") or {}
            statuses.add(sem.get("status", "?"))
            for diag in (sem.get("diagnostics") or [])[:1]:
                codes.add(diag.get("code"))
            for w in sem.get("warnings") or []:
                codes.add(w.get("code"))
        self.outcomes.update(statuses)
        self.diags.update(c for c in codes if c)

    def steering(self) -> Steering:
        """Rarer is heavier: weight (mean + 1) / (count + 1), kept within [0.5, 4]. The mean of
        the producers' counts is taken over the steered producers reached and the variants
        (shape tags) producers chose inside them, so that a producer reached as often as a
        typical variant weighs about 1."""
        def weights(counter: Counter[str], universe: list[str]) -> dict[str, float]:
            if not universe:
                return {}
            mean = sum(counter[u] for u in universe) / len(universe)
            return {u: min(4.0, max(0.5, (mean + 1) / (counter[u] + 1))) for u in universe}

        steered = [p for p in self.producers if p.split(":", 1)[0] in registry.STEERED]
        drawn = registry.steered_tags()
        variants = [t for t in self.tags if t.startswith(("gen:", "shape:")) and t not in drawn]
        reached = Counter({**{p: self.producers[p] for p in steered},
                           **{t: self.tags[t] for t in variants}})
        prod = weights(reached, steered + variants)
        entries = Counter({t[len("entry:"):]: n for t, n in self.tags.items()
                           if t.startswith("entry:")})
        return Steering(
            producers={p: prod[p] for p in steered},
            primitives=weights(self.prims, self.primitives),
            faults=weights(self.diags, list(DIAGNOSTICS)),
            entries=weights(entries, ENTRIES))

    def table(self) -> list[tuple[str, list[tuple[str, int]]]]:
        """The sections of `court fuzz --coverage`, each a list of (name, programs)."""
        prims = [(p, self.prims[p]) for p in self.primitives]
        return [
            ("Core IR node kinds", [(k, self.nodes[k]) for k in NODE_KINDS]),
            ("control features", [(c, self.prims[c]) for c in CONTROL]),
            ("outcomes", sorted(self.outcomes.items())),
            ("diagnostics", [(c, self.diags[c]) for c in DIAGNOSTICS] +
             [(c, n) for c, n in sorted(self.diags.items()) if c not in DIAGNOSTICS]),
            ("shapes", sorted((t, n) for t, n in self.tags.items() if t.startswith("shape:"))),
            ("producers", [(p.id, self.producers[p.id]) for kind in registry.KINDS
                           for p in registry.rows(kind)]),
            ("primitives", sorted(prims, key=lambda p: (p[1], p[0]))),
            ("programs by origin", sorted(self.origins.items())),
        ]
