"""The generator's registry: rows it refuses, the edge deck, the tables it draws expressions from,
the feedback table counting producers by registry id, and producer modules that import no other
producer module nor the reducer."""

from __future__ import annotations

import ast
import random
from pathlib import Path

import pytest

from court.fuzz import registry
from court.fuzz.feedback import Coverage
from court.fuzz.generate import generate

FUZZ = Path(registry.__file__).parent


def test_the_registry_refuses_a_row_it_cannot_draw():
    def p_nothing(g, d, s, t):
        return "0"

    registry.rows("expression")  # the catalog loaded: its rows are there to clash with

    with pytest.raises(registry.RegistryError, match="no feature 'colour'"):
        registry.expression("nothing", {"*": 1.0}, needs=("colour",))
    with pytest.raises(registry.RegistryError, match="no type 'float'"):
        registry.expression("nothing", {"float": 1.0})
    with pytest.raises(registry.RegistryError, match="not in the CATALOG"):
        registry.expression("nothing", {"*": 1.0})(p_nothing)
    p_nothing.__module__ = "court.fuzz.forms"
    with pytest.raises(registry.RegistryError, match="registered twice"):
        registry.expression("if", {"*": 1.0})(p_nothing)
    assert "nothing" not in {p.name for p in registry.rows("expression")}


def test_every_slot_of_the_edge_deck_is_one_familys():
    deck = registry.edge_deck()
    families = registry.rows("edge_family")
    assert len(deck) == sum(len(p.slots) for p in families)
    assert {p.name for p in deck} == {p.name for p in families}
    assert deck[22].name == deck[43].name == "numtext"  # a family may hold cards apart


def test_expression_tables_follow_the_features_and_the_wanted_type():
    none = registry.expression_table("int", registry.gate_key(set()))
    every = registry.expression_table("int", registry.gate_key(set(registry.FEATURES)))
    names = [p.name for p, _, _ in every]
    assert {p.name for p, _, _ in none} < set(names) and "fold" in names and "callcc" in names
    assert all(t == "int" for _, _, t in every)
    anything = registry.expression_table("any", registry.gate_key(set(registry.FEATURES)))
    rows = {p.name: (w, t) for p, w, t in anything}
    assert rows["member"] == (0.6, "any")  # its own weight for any
    assert rows["arith"] == (2.0 / 3, "int")  # a third of its first type's
    assert rows["edge"] == (2.0, "any")


def test_the_feedback_table_counts_producers_by_registry_id():
    cov = Coverage()
    rng = random.Random("registry")
    for _ in range(200):
        cov.add_program(generate(rng), census=False)
    ids = {p.id for kind in registry.KINDS for p in registry.rows(kind)}
    assert cov.producers and set(cov.producers) <= ids
    steering = cov.steering()
    assert steering.producers and all(p.split(":")[0] in registry.STEERED
                                      for p in steering.producers)
    section = dict(cov.table())["producers"]
    assert {name for name, _ in section} == ids


def relative_imports(path: Path) -> set[str]:
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and node.level == 1:
            found |= {node.module.split(".")[0]} if node.module else {a.name for a in node.names}
    return found


def test_no_producer_module_imports_another_or_the_reducer():
    producers = set(registry.CATALOG)
    for module in producers:
        wrong = relative_imports(FUZZ / f"{module}.py") & (producers | {"reduce", "generate"})
        assert not wrong, (module, wrong)
    for module in ("context", "registry", "pieces"):
        assert not relative_imports(FUZZ / f"{module}.py") & producers, module
