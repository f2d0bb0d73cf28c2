"""Corpus-seeded mutation (after LangFuzz): bundled corpus programs, parsed with the kernel
reader, recombined and mutated.

A mutant is one corpus program with one to three mutations: a subtree swapped for a subtree of
the same kind from another corpus program (same head symbol, or same kind of literal), a
constant changed to an edge value, an expression wrapped in guard / dynamic-wind / call/cc /
a handler / a lambda (each meaning-preserving, so the wrapper's machinery is what is tested), a
top-level definition renamed (to a fresh name or to a primitive's name the program does not
use, which shadows the primitive), a definition inlined at its uses, a form duplicated.
Only expression positions are mutated: never quoted data, formals or binding lists.
Programs are parsed on first use and cached; everything is drawn from the campaign's rng.
"""

from __future__ import annotations

import copy
import random
import re
from pathlib import Path

from . import values as V
from .case import Case
from .layout import relayout
from .signatures import PRIMITIVES
from .trees import Tree, parse, render, render_node

_NUMBER = re.compile(r"^-?[0-9]")
WRAPS = [
    "(call/cc (lambda (k%w) {e}))", "(call/cc (lambda (k%w) (k%w {e})))",
    "(dynamic-wind (lambda () #f) (lambda () {e}) (lambda () (display \"\")))",
    "(guard (e%w (#f 0)) {e})", "(guard (e%w ((eq? e%w 'never) 0)) {e})",
    "(with-exception-handler (lambda (c%w) (raise c%w)) (lambda () {e}))",
    "(call-with-values (lambda () {e}) (lambda xs%w (apply values xs%w)))",
    "(let () {e})", "((lambda () {e}))", "(if #t {e} 0)", "(apply (lambda () {e}) '())",
    "(begin {e})", "(let loop%w ((i%w 0)) (if (= i%w 0) {e} (loop%w 0)))",
]
SPECIAL_HEADS = {"quote", "quasiquote", "lambda", "define", "let", "let*", "letrec", "do",
                 "cond", "case", "guard", "set!", "if", "when", "unless", "begin", "and",
                 "or", "module", "export", "import", "unquote", "unquote-splicing"}


def atom_kind(text: str) -> str:
    if text.startswith('"'):
        return "str"
    if text.startswith("#\\"):
        return "char"
    if text in ("#t", "#f"):
        return "bool"
    if _NUMBER.match(text):
        return "float" if any(c in text for c in ".e") else ("rat" if "/" in text else "int")
    return "sym"


def _head(t: Tree) -> str | None:
    if t[0] == "list" and t[1] and t[1][0][0] == "atom" and atom_kind(t[1][0][1]) == "sym":
        return t[1][0][1]
    return None


def expression_paths(forms: list[Tree]) -> list[tuple[int, ...]]:
    """The paths of nodes in expression position (not quoted data, formals or binders)."""
    out: list[tuple[int, ...]] = []

    def expr(t: Tree, path: tuple[int, ...]) -> None:
        out.append(path)
        if t[0] != "list" or t[2] is not None:
            return
        kids, h = t[1], _head(t)
        n = len(kids)

        def each(idx) -> None:
            for i in idx:
                if i < n:
                    expr(kids[i], path + (i,))

        def bindings(i: int) -> None:
            if i < n and kids[i][0] == "list":
                for j, b in enumerate(kids[i][1]):
                    if b[0] == "list" and len(b[1]) == 2:
                        expr(b[1][1], path + (i, j, 1))

        def clauses(start: int) -> None:
            for i in range(start, n):
                c = kids[i]
                if c[0] == "list":
                    for j, part in enumerate(c[1]):
                        if not (j == 0 and part == ["atom", "else"]):
                            expr(part, path + (i, j))

        if h in ("quote", "quasiquote", "do", "module", "export", "import"):
            return
        if h == "lambda":
            each(range(2, n))
        elif h == "define":
            each(range(2, n))
        elif h in ("let", "let*", "letrec"):
            named = n > 1 and kids[1][0] == "atom"
            bindings(2 if named else 1)
            each(range(3 if named else 2, n))
        elif h == "cond":
            clauses(1)
        elif h == "case":
            each([1])
            for i in range(2, n):
                if kids[i][0] == "list":
                    each_clause = kids[i][1]
                    for j in range(1, len(each_clause)):
                        expr(each_clause[j], path + (i, j))
        elif h == "guard":
            if n > 1 and kids[1][0] == "list":
                spec = kids[1][1]
                for i in range(1, len(spec)):
                    if spec[i][0] == "list":
                        for j, part in enumerate(spec[i][1]):
                            if not (j == 0 and part == ["atom", "else"]):
                                expr(part, path + (1, i, j))
            each(range(2, n))
        elif h == "set!":
            each([2])
        elif h in SPECIAL_HEADS:
            each(range(1, n))
        else:
            each(range(n))

    for i, f in enumerate(forms):
        expr(f, (i,))
    return out


def _get(forms: list[Tree], path: tuple[int, ...]) -> Tree:
    node = forms[path[0]]
    for i in path[1:]:
        node = node[1][i]
    return node


def _set(forms: list[Tree], path: tuple[int, ...], value: Tree) -> None:
    if len(path) == 1:
        forms[path[0]] = value
    else:
        _get(forms, path[:-1])[1][path[-1]] = value


def _symbols(t: Tree, out: set[str]) -> set[str]:
    if t[0] == "atom":
        if atom_kind(t[1]) == "sym":
            out.add(t[1])
    else:
        for c in t[1]:
            _symbols(c, out)
        if t[0] == "list" and t[2] is not None:
            _symbols(t[2], out)
    return out


def _rename(t: Tree, old: str, new: str) -> Tree:
    if t[0] == "atom":
        return ["atom", new] if t[1] == old else t
    if t[0] == "vec":
        return ["vec", [_rename(c, old, new) for c in t[1]]]
    if _head(t) == "quote":
        return t
    return ["list", [_rename(c, old, new) for c in t[1]],
            _rename(t[2], old, new) if t[2] is not None else None]


# Mutants run under a smaller transition budget than the campaign's. A mutated loop bound runs a
# loop to the limit; measured on 2,000 programs of seed 1, the 0.45% that did so took 23% of the
# four members' CPU (the topaz members count a transition per call, so they run furthest). The
# corpus programs they come from need a few thousand transitions; those that need more than this
# still run, and a member that stops where others finish is re-run with a raised budget.
MUTANT_LIMITS: tuple[tuple[str, int], ...] = (("machine-transition", 50_000),)


class Mutator:
    def __init__(self, corpus: Path, rng: random.Random) -> None:
        self.rng = rng
        self.files = sorted(p for p in corpus.rglob("*.lspx")) if corpus.is_dir() else []
        self.root = corpus
        self.cache: dict[int, tuple[list[Tree], str | None] | None] = {}
        self.by_head: dict[str, list[Tree]] = {}
        self.by_atom: dict[str, list[Tree]] = {}

    def available(self) -> bool:
        return bool(self.files)

    def load(self, i: int) -> tuple[list[Tree], str | None] | None:
        if i not in self.cache:
            path = self.files[i]
            try:
                forms = parse(path.read_text("utf-8"))
            except Exception:  # noqa: BLE001 - reader-error cases and non-UTF-8 files
                forms = None
            inp = path.with_suffix(".input")
            entry = None
            if forms:
                entry = (forms, inp.read_text("utf-8").strip() if inp.exists() else None)
                for p in expression_paths(forms):
                    node = _get(forms, p)
                    h = _head(node)
                    if h is not None:
                        self.by_head.setdefault(h, []).append(node)
                    elif node[0] == "atom":
                        self.by_atom.setdefault(atom_kind(node[1]), []).append(node)
            self.cache[i] = entry
        return self.cache[i]

    def mutant(self) -> Case | None:
        for _ in range(5):
            i = self.rng.randrange(len(self.files))
            entry = self.load(i)
            if entry is None:
                continue
            self.load(self.rng.randrange(len(self.files)))  # grow the donor pool
            forms = copy.deepcopy(entry[0])
            done = []
            for _ in range(self.rng.randint(1, 3)):
                op = self.rng.choice(["swap", "swap", "constant", "constant", "wrap", "wrap",
                                      "rename", "inline", "duplicate"])
                if getattr(self, "m_" + op)(forms):
                    done.append("mut:" + op)
            if not done:
                continue
            rel = self.files[i].relative_to(self.root).with_suffix("").as_posix()
            text = render(forms)
            if self.rng.randrange(100) < 25:
                text = relayout(text, self.rng)[0]
                done.append("mut:layout")
            return Case(text, entry[1], ("mutated",), False, origin=f"mutated:{rel}",
                        tags=tuple(sorted(set(done))), limits=MUTANT_LIMITS)
        return None

    def _expr_path(self, forms: list[Tree]) -> tuple[int, ...] | None:
        paths = expression_paths(forms)
        return self.rng.choice(paths) if paths else None

    def m_swap(self, forms: list[Tree]) -> bool:
        path = self._expr_path(forms)
        if path is None:
            return False
        node = _get(forms, path)
        h = _head(node)
        pool = self.by_head.get(h, []) if h else \
            self.by_atom.get(atom_kind(node[1]), []) if node[0] == "atom" else []
        if not pool:
            return False
        _set(forms, path, copy.deepcopy(self.rng.choice(pool)))
        return True

    def m_constant(self, forms: list[Tree]) -> bool:
        atoms = [p for p in expression_paths(forms) if _get(forms, p)[0] == "atom"
                 and atom_kind(_get(forms, p)[1]) != "sym"]
        if not atoms:
            return False
        path = self.rng.choice(atoms)
        kind = atom_kind(_get(forms, path)[1])
        pools = {"int": ["0", "1", "-1", "2", "3", "-2", "10"] * 3 + V.INTS,
                 "float": V.FLOATS, "rat": V.RATIONALS + ["0", "1"], "str": V.STRINGS,
                 "char": V.CHARS, "bool": ["#t", "#f", "0", "'()"]}
        _set(forms, path, ["atom", self.rng.choice(pools[kind])])
        return True

    def m_wrap(self, forms: list[Tree]) -> bool:
        path = self._expr_path(forms)
        if path is None or (len(path) == 1 and _head(forms[path[0]]) == "define"):
            return False
        node = _get(forms, path)
        text = self.rng.choice(WRAPS).format(e=render_node(node))
        _set(forms, path, parse(text)[0])
        return True

    def _defined(self, forms: list[Tree]) -> list[tuple[int, str]]:
        out = []
        for i, f in enumerate(forms):
            if _head(f) == "define" and len(f[1]) > 2:
                target = f[1][1]
                if target[0] == "atom":
                    out.append((i, target[1]))
                elif target[0] == "list" and target[1] and target[1][0][0] == "atom":
                    out.append((i, target[1][0][1]))
        return out

    def m_rename(self, forms: list[Tree]) -> bool:
        defs = self._defined(forms)
        if not defs:
            return False
        _, old = self.rng.choice(defs)
        used: set[str] = set()
        for f in forms:
            _symbols(f, used)
        if self.rng.random() < 0.6:
            free = [p for p in PRIMITIVES if p not in used]
            new = self.rng.choice(free) if free else old + "-r"
        else:
            new = old + "-renamed"
        forms[:] = [_rename(f, old, new) for f in forms]
        return True

    def m_inline(self, forms: list[Tree]) -> bool:
        """`(define x V)` with x never assigned: some uses of x become V itself."""
        simple = [(i, name) for i, name in self._defined(forms)
                  if forms[i][1][1][0] == "atom" and len(forms[i][1]) == 3]
        if not simple:
            return False
        i, name = self.rng.choice(simple)
        assigned = any(_head(_get(forms, p)) == "set!" and _get(forms, p)[1][1] == ["atom", name]
                       for p in expression_paths(forms))
        if assigned:
            return False
        value = forms[i][1][2]
        uses = [p for p in expression_paths(forms) if p[0] > i and
                _get(forms, p) == ["atom", name]]
        if not uses:
            return False
        for p in self.rng.sample(uses, self.rng.randint(1, len(uses))):
            _set(forms, p, copy.deepcopy(value))
        return True

    def m_duplicate(self, forms: list[Tree]) -> bool:
        i = self.rng.randrange(len(forms))
        forms.insert(i + 1, copy.deepcopy(forms[i]))
        return True
