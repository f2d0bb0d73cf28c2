"""Every seeded bug of bench/fuzz_power.py changes what its implementation does on its own
small witness program, so the benchmark's kill rate cannot be won by bugs that change nothing."""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

import pytest

from bench.seeded_bugs.registry import BACKENDS, BUGS, FAMILIES, KERNELS
from court.verdict import project
from implementations import registry
from implementations.kernels import evaluate

ROOT = Path(__file__).resolve().parents[1]
WORKER = ROOT / "bench" / "seeded_bugs" / "worker.py"


def test_the_set_is_large_and_spread_out():
    assert len(BUGS) >= 30
    assert {b.impl for b in BUGS.values()} == set(BACKENDS) | set(KERNELS)
    assert {b.family for b in BUGS.values()} == set(FAMILIES)
    kernel = {b.where.split()[1] for b in BUGS.values() if b.where.startswith("kernel")}
    assert {"reader", "normalizer", "printer", "numbers", "primitives"} <= kernel


def test_each_bug_lives_in_the_module_of_its_implementation_and_family():
    misplaced = {n: b.apply.__module__ for n, b in BUGS.items() if b.apply.__module__ != b.home}
    assert not misplaced


def test_bug_modules_import_only_the_seeding_module():
    # No circle: the registry discovers the bug modules, they import seeding.py, and seeding.py
    # imports none of the package.
    package = ROOT / "bench" / "seeded_bugs"
    allowed = {"seeding.py": set(), "registry.py": {"bench.seeded_bugs.seeding"},
               "worker.py": {"bench.seeded_bugs.registry"}}
    wrong = {}
    for path in package.rglob("*.py"):
        imported = set()
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module:
                imported.add(node.module)
            elif isinstance(node, ast.Import):
                imported.update(a.name for a in node.names)
        ours = {m for m in imported if m.startswith("bench.seeded_bugs")}
        if ours - allowed.get(path.name, {"bench.seeded_bugs.seeding"}):
            wrong[str(path.relative_to(package))] = sorted(ours)
    assert not wrong


def test_a_kernel_bug_is_carried_by_every_member_of_its_lineage():
    kernel_bugs = [b for b in BUGS.values() if b.is_kernel]
    assert {b.impl for b in kernel_bugs} == set(KERNELS)
    for b in kernel_bugs:
        assert b.members == KERNELS[b.impl]


# A kernel bug is checked on each member of its lineage: each carries it.
@pytest.mark.parametrize(("name", "impl"),
                         [(n, m) for n in sorted(BUGS) for m in BUGS[n].members])
def test_seeded_bug_changes_its_witness(name, impl, tmp_path):
    bug = BUGS[name]
    witness = tmp_path / "witness.lspx"
    witness.write_text(bug.witness + "\n")
    healthy = evaluate(witness.read_bytes(), registry.load(impl),
                       filename="witness.lspx").to_json()
    run = subprocess.run([sys.executable, str(WORKER), "--bug", name, "--impl", impl,
                          "--check", str(witness)], capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    buggy = json.loads(run.stdout)
    if "crash" in buggy:  # the implementation breaks: a member fault in a court
        return
    before, after = project(healthy), project(buggy)
    assert [a for a in before if before[a] != after[a]], (name, after)


def test_the_launcher_refuses_a_bug_on_the_wrong_implementation():
    for name in (next(iter(BUGS)), next(n for n, b in BUGS.items() if b.is_kernel)):
        other = next(i for i in BACKENDS if i not in BUGS[name].members)
        run = subprocess.run([sys.executable, str(WORKER), "--bug", name, "--impl", other],
                             capture_output=True, text=True, timeout=120)
        assert run.returncode == 2 and "is seeded into" in run.stderr
