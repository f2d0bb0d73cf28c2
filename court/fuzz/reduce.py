"""An S-expression-aware reducer: the smallest program for which a predicate still holds.

It removes forms, makes a part of an earlier form the last form, removes list elements, hoists a
subtree in place of its parent, and replaces subtrees by simpler values, greedily and repeatedly,
keeping each candidate only if it is smaller and the predicate (for the court: "still valid, same
divergence signature") still holds.

Structural reduction re-renders the program, which loses its layout (comments, line breaks,
tabs, CRLF). A program that does not read, or whose divergence needs its layout, is reduced as
text instead: lines are dropped, then runs of whitespace and comments become one space, each
kept only while the predicate holds.
"""

from __future__ import annotations

import copy
import re
import time
from collections.abc import Callable

from .trees import Tree, parse, render

SIMPLE = ["0", "1", "#f", "'()", '""', "'a"]


def _paths(forms: list[Tree]) -> list[tuple[int, ...]]:
    """Every node's path, largest subtrees first (so big cuts are tried before small ones)."""
    out: list[tuple[tuple[int, ...], int]] = []

    def walk(t: Tree, path: tuple[int, ...]) -> int:
        size = 1
        if t[0] in ("list", "vec"):
            for i, c in enumerate(t[1]):
                size += walk(c, path + (i,))
        out.append((path, size))
        return size

    for i, f in enumerate(forms):
        walk(f, (i,))
    out.sort(key=lambda p: -p[1])
    return [p for p, _ in out]


def _get(forms: list[Tree], path: tuple[int, ...]) -> Tree:
    node = forms[path[0]]
    for i in path[1:]:
        node = node[1][i]
    return node


def _candidates(forms: list[Tree]):
    n = len(forms)
    for i in range(n - 1, -1, -1):  # drop whole top-level forms
        if n > 1:
            yield forms[:i] + forms[i + 1:]
    paths = _paths(forms)
    for path in paths:
        # Make a part of an earlier form the last form, in place of that form and the last:
        # `(define x 7) (set! x (bad)) (show x)` becomes `(define x 7) (bad)`, a cut the other
        # candidates only reach through a longer program.
        if path[0] < n - 1 and len(path) > 1 and _get(forms, path)[0] == "list":
            yield forms[:path[0]] + forms[path[0] + 1:-1] + [copy.deepcopy(_get(forms, path))]
    for path in paths:
        node = _get(forms, path)
        if node[0] in ("list", "vec"):
            kids = node[1]
            for i in range(len(kids) - 1, -1, -1):  # drop one element
                c = copy.deepcopy(forms)
                del _get(c, path)[1][i]
                yield c
            for i in range(len(kids)):  # hoist a child in place of this node
                c = copy.deepcopy(forms)
                _set(c, path, copy.deepcopy(kids[i]))
                yield c
        if len(path) > 1 or node[0] != "atom":
            for simple in SIMPLE:  # replace by a simple value
                if node != ["atom", simple]:
                    c = copy.deepcopy(forms)
                    _set(c, path, ["atom", simple])
                    yield c


def _set(forms: list[Tree], path: tuple[int, ...], value: Tree) -> None:
    if len(path) == 1:
        forms[path[0]] = value
        return
    parent = _get(forms, path[:-1])
    parent[1][path[-1]] = value


def reduce(source: str, predicate: Callable[[str], bool], *, seconds: float = 60.0,
           max_tests: int = 3000) -> tuple[str, int]:
    """The smallest program found and the number of predicate tests run."""
    deadline = time.monotonic() + seconds
    try:
        forms = parse(source)
    except Exception:  # noqa: BLE001 - an unreadable program cannot be reduced structurally
        return reduce_text(source, predicate, deadline, max_tests)
    best = render(forms)
    if best != source:
        if not predicate(best):  # the divergence needs the program's layout
            text, tests = reduce_text(source, predicate, deadline, max_tests - 1)
            return text, tests + 1
        tests = 1
    else:
        tests = 0
    improved = True
    while improved and tests < max_tests and time.monotonic() < deadline:
        improved = False
        for cand in _candidates(forms):
            text = render(cand)
            if len(text) >= len(best):
                continue
            tests += 1
            if predicate(text):
                forms, best, improved = cand, text, True
                break
            if tests >= max_tests or time.monotonic() >= deadline:
                break
    return best, tests


_LINES = re.compile(r"(?<=\n)")


def reduce_text(source: str, predicate: Callable[[str], bool], deadline: float,
                max_tests: int) -> tuple[str, int]:
    """Reduce ``source`` keeping its text: drop runs of lines (halves first, then single
    lines), then turn each run of whitespace and comments into a single space."""
    from .layout import separators

    best, tests = source, 0

    def budget() -> bool:
        return tests < max_tests and time.monotonic() < deadline

    lines = [x for x in _LINES.split(best) if x]
    size = max(1, len(lines) // 2)
    while budget():
        i, changed = 0, False
        while i < len(lines) and budget():
            cand = lines[:i] + lines[i + size:]
            text = "".join(cand)
            if cand and len(text) < len(best):
                tests += 1
                if predicate(text):
                    lines, best, changed = cand, text, True
                    continue
            i += size
        if not changed:
            if size == 1:
                break
            size = max(1, size // 2)
    runs = [r for r in separators(best) if best[r[0]:r[1]] != " "]
    for start, end in reversed(runs):  # from the end, so earlier offsets stay valid
        if not budget():
            break
        text = best[:start] + " " + best[end:]
        tests += 1
        if predicate(text):
            best = text
    return best, tests
