"""Seeded bugs in tree, family "control flow"."""

from __future__ import annotations

from typing import Any

from bench.seeded_bugs.seeding import bug, edit_function


@bug("filter-python-truthy", "tree", "kernel primitives", "control flow",
     "filter keeps an element when the predicate's result is true in Python, so a predicate "
     "returning 0 or 0.0 drops the element (only #f is false in Lispex)",
     "(filter (lambda (x) (- x 2)) '(1 2 3 4))")
def _filter_python_truthy() -> None:
    from implementations.lispex import guest_library as gl

    # Realistic: `if result:` written in the host language instead of `is not False`.
    def lib_filter(f: Any, lst: Any) -> Any:
        out = []
        for x in gl.elements("filter", lst):
            if gl.single("filter", (yield f, (x,))):
                out.append(x)
        return gl.list_from(out)
    gl.GENERATORS["filter"] = lib_filter


@bug("if-leaf-test-truthy", "tree", "tree back end", "control flow",
     "an if whose test the machine evaluates in place (a variable, a constant, a primitive "
     "applied to leaves) picks its branch by Python truthiness, so a test of 0 or 0.0 takes the "
     "else branch (and (or 0 x) skips the 0); tests evaluated under a frame are still right",
     "(define (f x) (if x 'yes 'no))\n"
     "(define (g n) (if (- n 1) 'some 'none))\n"
     "(list (f 0) (f 0.0) (f '()) (f #f) (g 1) (or 0 'fallback) (if (f 0) 1 2))")
def _if_leaf_test_truthy() -> None:
    from implementations.tree import machine

    # Realistic: the frameless path of `if` was written as idiomatic Python; the F_IF frame path
    # beside it compares with `is False`, which is the Lispex rule (only #f is false).
    edit_function(machine.Machine, "run",
                  "node = node.else_ if lv[0] is False else node.then",
                  "node = node.then if lv[0] else node.else_")
