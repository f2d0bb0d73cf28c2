"""The generator's registry: every producer of program text, each registered by one decorator on
its function, with its weight, the types it makes and the features it needs beside it.

Six kinds of row, one record (:class:`Producer`):

  expression   an expression of a wanted type (``weights``: type -> weight, ``"*"`` for every
               type); drawn by ``Context.expr`` in proportion to weight times steering
  shape        top-level forms of a program (``chance`` percent when its feature is on,
               ``otherwise`` when off); steered like expressions
  edge_family  a call at the edge of a primitive's domain, drawn by the edge call from a deck of
               cards: the family holds the cards at its ``slots`` (its weight is their number)
  program_part a form a program gets beside the rest (``chance`` percent of programs)
  planted      the fault an unsafe program plants in place of an expression (``chance``)
  transform    a change made to a whole unsafe program (``chance``; the first one drawn)

A row's place in the draw order is the place of its module in ``CATALOG``, then the place of its
function in the module: moving a producer moves what a seed draws, and so does adding one
(bench/fuzz_draws.py shows whether a change kept the draws). The edge families' deck is fixed by
their slots instead, so that a family may keep cards in more than one place of it; a new family
takes slots past the last.

Producers are plain functions taking the generation context (court/fuzz/context.py) first.
No producer module imports another: what several share is in pieces.py, values.py and
signatures.py.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache

FEATURES = ("closures", "recursion", "strings", "lists", "vectors", "floats", "rationals",
            "errors", "handlers", "callcc", "dynwind", "multivalues", "output", "input",
            "chars", "hof", "quasiquote", "loops", "bignums", "state", "rebind", "printer",
            "edges", "layout")
TYPES = ("int", "num", "str", "bool", "list", "vec", "char", "sym", "any")

# The producer modules, in draw order.
CATALOG = ("forms", "control", "edges", "shapes", "recursion", "pitfalls", "effects",
           "transforms")
KINDS = ("expression", "shape", "edge_family", "program_part", "planted", "transform")
STEERED = ("expression", "shape")  # the kinds the feedback table's steering weighs


class RegistryError(Exception):
    """A row the registry refuses: raised when its module is imported."""


@dataclass(frozen=True, eq=False)
class Producer:
    kind: str
    name: str
    fn: Callable
    module: str
    seq: int  # the order of registration within its module
    weights: dict[str, float] = field(default_factory=dict)  # wanted type -> weight
    needs: tuple[str, ...] = ()  # features it needs, all of them
    needs_one_of: tuple[str, ...] = ()  # features of which it needs one
    chance: float = 0.0
    otherwise: float = 0.0
    steer_cap: float | None = None  # the most the steering may raise its chance by
    unsafe_only: bool = False
    anywhere: bool = False  # a program part placed among the forms, not after them
    slots: tuple[int, ...] = ()
    may_fault: bool = False  # an edge family's call may fault: guarded
    faults_now_and_then: bool = False  # ... faults rarely: guarded in the edge sampler
    gives_no_value: bool = False  # ... may give no value: collected in the edge sampler
    tag: str = ""  # added to the program's tags when the row is drawn

    @property
    def id(self) -> str:
        return f"{self.kind}:{self.name}"

    def enabled(self, features: set[str] | frozenset[str]) -> bool:
        return all(f in features for f in self.needs) and \
            (not self.needs_one_of or any(f in features for f in self.needs_one_of))


_ROWS: dict[str, list[Producer]] = {k: [] for k in KINDS}
_SEQ: dict[str, int] = {}


def _register(kind: str, name: str, **row) -> Callable[[Callable], Callable]:
    for f in (*row.get("needs", ()), *row.get("needs_one_of", ())):
        if f not in FEATURES:
            raise RegistryError(f"{kind} {name!r}: no feature {f!r} (FEATURES has them)")

    def decorate(fn: Callable) -> Callable:
        module = fn.__module__.rsplit(".", 1)[-1]
        if module not in CATALOG:
            raise RegistryError(f"{kind} {name!r}: module {module!r} is not in the CATALOG "
                                f"of court/fuzz/registry.py")
        if any(p.name == name for p in _ROWS[kind]):
            raise RegistryError(f"{kind} {name!r} is registered twice")
        seq = _SEQ[module] = _SEQ.get(module, 0) + 1
        _ROWS[kind].append(Producer(kind, name, fn, module, seq, **row))
        return fn
    return decorate


def expression(name: str, weights: dict[str, float], *, needs: tuple[str, ...] = (),
               needs_one_of: tuple[str, ...] = ()) -> Callable[[Callable], Callable]:
    """fn(context, depth, scope, wanted type) -> text of that type."""
    for t in weights:
        if t != "*" and t not in TYPES:
            raise RegistryError(f"expression {name!r}: no type {t!r}")
    return _register("expression", name, weights=dict(weights), needs=needs,
                     needs_one_of=needs_one_of, tag="gen:" + name)


def shape(name: str, *, needs: str, chance: float, otherwise: float,
          steer_cap: float | None = None) -> Callable[[Callable], Callable]:
    """fn(context, scope) -> top-level forms; it may add procedures to the scope."""
    return _register("shape", name, needs=(needs,), chance=chance, otherwise=otherwise,
                     steer_cap=steer_cap, tag="shape:" + name)


def edge_family(name: str, *, slots: tuple[int, ...], may_fault: bool = False,
                faults_now_and_then: bool = False,
                gives_no_value: bool = False) -> Callable[[Callable], Callable]:
    """fn(context, depth, scope) -> an expression of any type."""
    return _register("edge_family", name, slots=slots, may_fault=may_fault,
                     faults_now_and_then=faults_now_and_then, gives_no_value=gives_no_value,
                     tag="edge:" + name.replace("_", "-"))


def program_part(name: str, *, chance: float, unsafe_only: bool = False,
                 anywhere: bool = False) -> Callable[[Callable], Callable]:
    """fn(context, scope) -> top-level forms as one text."""
    return _register("program_part", name, chance=chance, unsafe_only=unsafe_only,
                     anywhere=anywhere)


def planted(name: str, *, chance: float) -> Callable[[Callable], Callable]:
    """fn(context, scope) -> an expression that faults (unsafe programs only)."""
    return _register("planted", name, chance=chance, unsafe_only=True)


def transform(name: str, *, chance: float) -> Callable[[Callable], Callable]:
    """fn(context, source) -> the source changed (unsafe programs only)."""
    return _register("transform", name, chance=chance, unsafe_only=True)


# -- reading the registry ----------------------------------------------------------------------

@cache
def _loaded() -> bool:
    for module in CATALOG:
        importlib.import_module(f"{__package__}.{module}")
    return True


def rows(kind: str) -> tuple[Producer, ...]:
    """The rows of one kind, in draw order."""
    _loaded()
    return _sorted(kind, len(_ROWS[kind]))


@cache
def _sorted(kind: str, _count: int) -> tuple[Producer, ...]:
    return tuple(sorted(_ROWS[kind], key=lambda p: (CATALOG.index(p.module), p.seq)))


def find(kind: str, name: str) -> Producer:
    for p in rows(kind):
        if p.name == name:
            return p
    raise KeyError(f"no {kind} {name!r}")


def planted_fault() -> Producer:
    (p,) = rows("planted")
    return p


@cache
def edge_deck() -> tuple[Producer, ...]:
    """The edge families' cards: slot i holds the family that claimed it. Every slot from 0 to
    the last is claimed once."""
    deck: dict[int, Producer] = {}
    for p in rows("edge_family"):
        for i in p.slots:
            if i in deck:
                raise RegistryError(f"edge families {deck[i].name!r} and {p.name!r} both "
                                    f"claim slot {i}")
            deck[i] = p
    missing = [i for i in range(len(deck)) if i not in deck]
    if missing:
        raise RegistryError(f"edge deck slots {missing} are claimed by no family")
    return tuple(deck[i] for i in range(len(deck)))


def gate_key(features: set[str] | frozenset[str]) -> frozenset[str]:
    """The features of a program that some expression producer needs: programs alike in these
    draw expressions from the same tables."""
    return frozenset(f for f in _gates(len(rows("expression"))) if f in features)


def expression_table(t: str, gates: frozenset[str]) -> tuple[tuple[Producer, float, str], ...]:
    """(producer, base weight, the type it is asked for) for wanted type ``t``, in draw order,
    of the producers the features (their ``gate_key``) enable: the producers of every type;
    for ``any``, then those of ``any`` alone, then those of each type in turn (TYPES' order) at
    a third of their weight, unless they have a weight for ``any`` of their own."""
    return _enabled(t, gates, len(rows("expression")))


@cache
def _gates(_count: int) -> tuple[str, ...]:
    """The features some expression producer needs: the only ones a table depends on."""
    return tuple(sorted({f for p in rows("expression") for f in (*p.needs, *p.needs_one_of)}))


@cache
def _enabled(t: str, features: frozenset[str], count: int) -> tuple[tuple[Producer, float, str], ...]:
    return tuple(row for row in _table(t, count) if row[0].enabled(features))


@cache
def _table(t: str, _count: int) -> tuple[tuple[Producer, float, str], ...]:
    """The table of every producer, enabled or not: a producer's place in it does not depend
    on which others are enabled."""
    every = rows("expression")
    table = [(p, p.weights["*"], t) for p in every if "*" in p.weights]
    if t != "any":
        return tuple(table + [(p, p.weights[t], t) for p in every if t in p.weights])
    table += [(p, p.weights["any"], "any") for p in every if p.weights.keys() == {"any"}]
    seen = {p.name for p, _, _ in table}
    for k in TYPES[:-1]:
        for p in every:
            if k not in p.weights or p.name in seen:
                continue
            seen.add(p.name)
            own = p.weights.get("any")
            table.append((p, own, "any") if own is not None else (p, p.weights[k] / 3, k))
    return tuple(table)


def steered_tags() -> frozenset[str]:
    """The tags the steered producers add when drawn (the feedback table tells them apart from
    the tags a producer adds for what it chose inside)."""
    return frozenset(p.tag for kind in STEERED for p in rows(kind))
