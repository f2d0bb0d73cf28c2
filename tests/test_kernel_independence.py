"""The two kernels share data and protocols, never code: nothing under implementations/topaz/
imports the lispex kernel or the back ends built on it, and nothing of theirs imports topaz."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1] / "implementations"
LISPEX_SIDE = ("implementations.lispex", "implementations.tree", "implementations.vm")
TOPAZ_SIDE = ("implementations.topaz",)


def module_name(path: Path) -> str:
    rel = path.relative_to(ROOT.parent).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def imported(path: Path) -> list[tuple[int, str]]:
    """(line, absolute module) for every import in ``path``, relative ones resolved."""
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    package = module_name(path)
    if path.name != "__init__.py":
        package = package.rpartition(".")[0]
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out += [(node.lineno, a.name) for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[:len(base) - (node.level - 1)]
                mod = ".".join(base + ([node.module] if node.module else []))
            else:
                mod = node.module or ""
            out.append((node.lineno, mod))
            out += [(node.lineno, f"{mod}.{a.name}") for a in node.names]
    return out


def violations(side_dirs: list[Path], forbidden: tuple[str, ...]) -> list[str]:
    found = []
    for d in side_dirs:
        for path in sorted(d.rglob("*.py")):
            for line, mod in imported(path):
                if any(mod == f or mod.startswith(f + ".") for f in forbidden):
                    found.append(f"{path.relative_to(ROOT.parent)}:{line} imports {mod}")
    return found


def test_topaz_imports_nothing_of_the_lispex_kernel() -> None:
    assert violations([ROOT / "topaz"], LISPEX_SIDE) == []


def test_lispex_kernel_and_its_back_ends_import_nothing_of_topaz() -> None:
    dirs = [ROOT / "lispex", ROOT / "tree", ROOT / "vm"]
    assert violations(dirs, TOPAZ_SIDE) == []


def test_the_check_sees_an_import(tmp_path: Path) -> None:
    # the scan must be able to fail: a planted import is found, a relative one resolved
    probe = ROOT / "topaz" / "kernel"
    rel = imported(probe / "run.py")
    assert any(m.startswith("implementations.topaz.kernel.") for _l, m in rel)
    bad = tmp_path / "bad.py"
    bad.write_text("from implementations.lispex import values\n")
    assert [m for _l, m in imported_abs(bad)] == ["implementations.lispex",
                                                 "implementations.lispex.values"]


def imported_abs(path: Path) -> list[tuple[int, str]]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and not node.level:
            out.append((node.lineno, node.module or ""))
            out += [(node.lineno, f"{node.module}.{a.name}") for a in node.names]
    return out
