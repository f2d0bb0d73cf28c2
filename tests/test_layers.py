"""The import structure of the product: layers, no circles, no private names across modules.

Every ``import`` in ``court/``, ``implementations/`` and ``mcp_server/`` is read with ``ast``,
function-local (lazy) imports included: a lazy import still runs when it is reached, so it obeys
the same rules. The layers are written down once, in ``tests/layers.toml``.

Three rules:

- no import circle between modules (``a`` imports ``b`` imports ... imports ``a``);
- no import from a lower layer to a higher one;
- no private name (one leading underscore) imported from, or read off, another module: a name
  shared between modules is public, or it lives where it is used.

Run as a script (``python3 tests/test_layers.py``) it prints every violation.
"""

from __future__ import annotations

import ast
import sys
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LAYERS_FILE = Path(__file__).resolve().parent / "layers.toml"


@dataclass(frozen=True)
class Layers:
    """Named layers, lowest first; each holds module prefixes. The longest prefix decides."""

    names: tuple[str, ...]
    prefixes: dict[str, int]   # module prefix -> index into names
    roots: tuple[str, ...]     # top-level packages whose modules are read
    # Packages with a known circle inside them, still to be taken apart: a circle wholly inside
    # one of them is not reported, and a listed package with no circle left is.
    pending: dict[str, str] = field(default_factory=dict)

    @classmethod
    def load(cls, path: Path = LAYERS_FILE) -> Layers:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
        names: list[str] = []
        prefixes: dict[str, int] = {}
        for index, layer in enumerate(data["layer"]):
            names.append(layer["name"])
            for prefix in layer["modules"]:
                if prefix in prefixes:
                    raise ValueError(f"{path}: {prefix!r} is in two layers")
                prefixes[prefix] = index
        pending = {entry["package"]: entry["why"] for entry in data.get("pending", [])}
        return cls(tuple(names), prefixes, tuple(data["scan"]), pending)

    def of(self, module: str) -> int | None:
        parts = module.split(".")
        for end in range(len(parts), 0, -1):
            index = self.prefixes.get(".".join(parts[:end]))
            if index is not None:
                return index
        return None


@dataclass
class Imports:
    """What one module imports: module edges and the names it takes from other modules."""

    edges: dict[str, int] = field(default_factory=dict)              # module -> first line
    private: list[tuple[str, str, int]] = field(default_factory=list)  # (module, name, line)


def _private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__")


def module_names(root: Path, scan: tuple[str, ...]) -> dict[str, Path]:
    """Every module under the scanned packages, by dotted name (a package by its own name)."""
    found: dict[str, Path] = {}
    for top in scan:
        for path in sorted((root / top).rglob("*.py")):
            parts = list(path.relative_to(root).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            found[".".join(parts)] = path
    return found


def _absolute(module: str, is_package: bool, node: ast.ImportFrom) -> str:
    if not node.level:
        return node.module or ""
    base = module.split(".")
    if not is_package:
        base = base[:-1]
    if node.level > 1:
        base = base[: len(base) - (node.level - 1)]
    return ".".join(base + ([node.module] if node.module else []))


def read_imports(module: str, path: Path, modules: dict[str, Path],
                 tops: tuple[str, ...]) -> Imports:
    """The imports of one module that land inside the scanned packages (or in ``tops``)."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    is_package = path.name == "__init__.py"
    found = Imports()
    module_aliases: dict[str, str] = {}   # a local name bound to one of our modules

    def ours(name: str) -> bool:
        return name.split(".")[0] in tops

    def edge(target: str, line: int) -> None:
        if target != module:
            found.edges.setdefault(target, line)

    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if not ours(alias.name):
                    continue
                edge(alias.name, node.lineno)
                if alias.asname:
                    module_aliases[alias.asname] = alias.name
                if any(_private(part) for part in alias.name.split(".")[1:]):
                    found.private.append((alias.name, alias.name, node.lineno))
        elif isinstance(node, ast.ImportFrom):
            source = _absolute(module, is_package, node)
            if not ours(source):
                continue
            for alias in node.names:
                submodule = f"{source}.{alias.name}"
                if submodule in modules:
                    edge(submodule, node.lineno)
                    module_aliases[alias.asname or alias.name] = submodule
                else:
                    edge(source, node.lineno)
                if _private(alias.name) and source != module:
                    found.private.append((source, alias.name, node.lineno))
    for node in ast.walk(tree):
        if (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name)
                and node.value.id in module_aliases and _private(node.attr)):
            target = module_aliases[node.value.id]
            if target != module:
                found.private.append((target, node.attr, node.lineno))
    return found


def _resolve(target: str, modules: dict[str, Path]) -> str | None:
    """The scanned module an import lands in (``a.b.c`` may name a class inside ``a.b``)."""
    parts = target.split(".")
    for end in range(len(parts), 0, -1):
        name = ".".join(parts[:end])
        if name in modules:
            return name
    return None


@dataclass
class Graph:
    root: Path
    modules: dict[str, Path]
    edges: dict[str, dict[str, int]]           # module -> {module it imports: line}
    outside: dict[str, dict[str, int]]         # module -> {unscanned module of ours: line}
    private: dict[str, list[tuple[str, str, int]]]

    @classmethod
    def build(cls, root: Path, layers: Layers) -> Graph:
        modules = module_names(root, layers.roots)
        tops = tuple({prefix.split(".")[0] for prefix in layers.prefixes} | set(layers.roots))
        edges: dict[str, dict[str, int]] = {}
        outside: dict[str, dict[str, int]] = {}
        private: dict[str, list[tuple[str, str, int]]] = {}
        for name, path in modules.items():
            imports = read_imports(name, path, modules, tops)
            edges[name], outside[name] = {}, {}
            for target, line in imports.edges.items():
                resolved = _resolve(target, modules)
                if resolved is None:
                    outside[name].setdefault(target, line)
                elif resolved != name:
                    edges[name].setdefault(resolved, line)
            private[name] = imports.private
        return cls(root, modules, edges, outside, private)

    def where(self, module: str, line: int) -> str:
        return f"{self.modules[module].relative_to(self.root).as_posix()}:{line}"


def cycles(graph: Graph) -> list[list[str]]:
    """One circle per strongly connected component of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    components: list[list[str]] = []
    counter = 0

    def connect(start: str) -> None:
        nonlocal counter
        work = [(start, iter(sorted(graph.edges[start])))]
        index[start] = low[start] = counter
        counter += 1
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            for child in children:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph.edges[child]))))
                    break
                if child in on_stack:
                    low[node] = min(low[node], index[child])
            else:
                work.pop()
                if work:
                    parent = work[-1][0]
                    low[parent] = min(low[parent], low[node])
                if low[node] == index[node]:
                    component = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        component.append(member)
                        if member == node:
                            break
                    if len(component) > 1:
                        components.append(sorted(component))

    for module in sorted(graph.edges):
        if module not in index:
            connect(module)
    return [_circle(graph, set(component)) for component in sorted(components)]


def _circle(graph: Graph, component: set[str]) -> list[str]:
    """A shortest path from the component's first module back to itself, inside the component."""
    start = min(component)
    previous: dict[str, str] = {}
    frontier = [start]
    while frontier:
        following = []
        for node in frontier:
            for child in sorted(graph.edges[node]):
                if child not in component:
                    continue
                if child == start:
                    path = [node]
                    while path[-1] != start:
                        path.append(previous[path[-1]])
                    return [start, *reversed(path[:-1]), start] if node != start else [start, start]
                if child not in previous:
                    previous[child] = node
                    following.append(child)
        frontier = following
    raise AssertionError(f"no circle through {start}")


def circle_text(graph: Graph, circle: list[str]) -> str:
    steps = [f"{a} imports {b} ({graph.where(a, graph.edges[a][b])})"
             for a, b in zip(circle, circle[1:], strict=False)]
    return "import circle: " + " -> ".join(circle) + "\n    " + "\n    ".join(steps)


def _inside(circle: list[str], package: str) -> bool:
    return all(m == package or m.startswith(package + ".") for m in circle)


def circle_problems(graph: Graph, layers: Layers) -> list[str]:
    """Every circle not wholly inside a pending package, and every pending package without one."""
    found = cycles(graph)
    problems = [circle_text(graph, c) for c in found
                if not any(_inside(c, package) for package in layers.pending)]
    for package, why in sorted(layers.pending.items()):
        if not any(_inside(c, package) for c in found):
            problems.append(f"{package} has no import circle left ({why}): delete its [[pending]] "
                            f"entry from {LAYERS_FILE.name}")
    return problems


def upward_imports(graph: Graph, layers: Layers) -> list[str]:
    found = []
    for module in sorted(graph.edges):
        own = layers.of(module)
        if own is None:
            found.append(f"{graph.where(module, 1)}: {module} is in no layer of {LAYERS_FILE.name}")
            continue
        targets = {**graph.edges[module], **graph.outside[module]}
        for target, line in sorted(targets.items()):
            theirs = layers.of(target)
            if theirs is not None and theirs > own:
                found.append(f"{graph.where(module, line)}: {module} ({layers.names[own]}) "
                             f"imports {target} ({layers.names[theirs]}), a higher layer")
    return found


def private_imports(graph: Graph) -> list[str]:
    return [f"{graph.where(module, line)}: {module} uses private {name} of {source}"
            for module in sorted(graph.private)
            for source, name, line in graph.private[module]]


def violations(root: Path = ROOT, layers: Layers | None = None) -> list[str]:
    layers = layers or Layers.load()
    graph = Graph.build(root, layers)
    return (circle_problems(graph, layers) + upward_imports(graph, layers) + private_imports(graph))


# -- the product ---------------------------------------------------------------------------------

def _product() -> tuple[Graph, Layers]:
    layers = Layers.load()
    return Graph.build(ROOT, layers), layers


def test_every_module_is_read():
    graph, layers = _product()
    assert "court.cli.main" in graph.modules and "mcp_server.server" in graph.modules
    assert "implementations.lispex.reader" in graph.modules
    assert sum(len(edges) for edges in graph.edges.values()) > 200


def test_no_import_circle():
    graph, layers = _product()
    assert circle_problems(graph, layers) == []


def test_no_import_runs_up_a_layer():
    graph, layers = _product()
    assert upward_imports(graph, layers) == []


def test_no_private_name_crosses_a_module_border():
    graph, _ = _product()
    assert private_imports(graph) == []


# -- the checker, on small trees made for it -----------------------------------------------------

TINY_LAYERS = """
scan = ["low", "high"]

[[layer]]
name = "low"
modules = ["low"]

[[layer]]
name = "high"
modules = ["high"]
"""


def _tree(tmp_path: Path, files: dict[str, str]) -> tuple[Path, Layers]:
    for name, text in files.items():
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    (tmp_path / "layers.toml").write_text(TINY_LAYERS, encoding="utf-8")
    return tmp_path, Layers.load(tmp_path / "layers.toml")


CLEAN = {
    "low/__init__.py": "",
    "low/a.py": "X = 1\n",
    "low/b.py": "from .a import X\n",
    "high/__init__.py": "",
    "high/c.py": "from low.b import X\nimport low.a\n",
}


def test_checker_passes_a_clean_tree(tmp_path):
    root, layers = _tree(tmp_path, CLEAN)
    assert violations(root, layers) == []


def test_checker_reports_a_planted_circle(tmp_path):
    root, layers = _tree(tmp_path, {**CLEAN, "low/a.py": "X = 1\n",
                                    "low/d.py": "def f():\n    from . import e\n",
                                    "low/e.py": "from low import f\n",
                                    "low/f.py": "import low.d\n"})
    graph = Graph.build(root, layers)
    assert cycles(graph) == [["low.d", "low.e", "low.f", "low.d"]]
    found = violations(root, layers)
    assert len(found) == 1 and found[0].startswith("import circle: low.d -> low.e -> low.f")
    assert "low/d.py:2" in found[0]


def test_checker_reports_two_modules_importing_each_other(tmp_path):
    root, layers = _tree(tmp_path, {**CLEAN, "low/a.py": "from .b import Y\nX = 1\n"})
    assert cycles(Graph.build(root, layers)) == [["low.a", "low.b", "low.a"]]


def test_checker_holds_a_pending_package_to_its_circle(tmp_path):
    circle = {"low/a.py": "from .b import Y\nX = 1\n"}
    root, layers = _tree(tmp_path, {**CLEAN, **circle})
    pending = Layers(layers.names, layers.prefixes, layers.roots, {"low": "being split"})
    assert violations(root, pending) == []
    other = Layers(layers.names, layers.prefixes, layers.roots, {"high": "being split"})
    found = violations(root, other)
    assert found[0].startswith("import circle: low.a -> low.b -> low.a")
    assert found[1] == ("high has no import circle left (being split): delete its [[pending]] "
                        "entry from layers.toml")


def test_checker_reports_an_upward_import(tmp_path):
    root, layers = _tree(tmp_path, {**CLEAN, "high/d.py": "",
                                    "low/b.py": "from .a import X\ndef g():\n    import high.d\n"})
    found = violations(root, layers)
    assert len(found) == 1
    assert "low.b (low) imports high.d (high), a higher layer" in found[0]
    assert "low/b.py:3" in found[0]


def test_checker_reports_a_private_name(tmp_path):
    root, layers = _tree(tmp_path, {**CLEAN,
                                    "low/a.py": "def _helper():\n    pass\n",
                                    "low/b.py": "from .a import _helper\n",
                                    "high/c.py": "from low import a\na._helper()\n"})
    found = violations(root, layers)
    assert found == ["high/c.py:2: high.c uses private _helper of low.a",
                     "low/b.py:1: low.b uses private _helper of low.a"]


def test_checker_allows_private_names_inside_one_module(tmp_path):
    root, layers = _tree(tmp_path, {**CLEAN, "low/a.py": "import low.a as me\n_x = 1\nme._x\n"})
    assert private_imports(Graph.build(root, layers)) == []


def test_checker_reports_a_module_in_no_layer(tmp_path):
    root, layers = _tree(tmp_path, {**CLEAN})
    layers = Layers(layers.names, {"low": 0}, layers.roots)
    found = violations(root, layers)
    assert [line.split(": ", 1)[1] for line in found] == \
        ["high is in no layer of layers.toml", "high.c is in no layer of layers.toml"]


if __name__ == "__main__":
    problems = violations()
    print("\n".join(problems) or "no import circle, no upward import, no private name crossing")
    sys.exit(1 if problems else 0)
