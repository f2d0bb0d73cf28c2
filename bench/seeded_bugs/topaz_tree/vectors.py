"""Seeded bugs in topaz-tree, family "vectors"."""

from __future__ import annotations

from bench.seeded_bugs.seeding import bug, edit_function, rebind_topaz


@bug("equal-vector-zip", "topaz-tree", "kernel primitives", "vectors",
     "equal? compares two vectors with zip() and no length check, so a vector is equal? to any "
     "longer vector it is a prefix of (also inside lists, and for member and assoc)",
     "(list (equal? (vector 1 2) (vector 1 2 3)) (equal? (vector) (vector 'a))\n"
     "      (member (vector 1) (list (vector 1 2) (vector 1)))\n"
     "      (equal? (list (vector 1 2)) (list (vector 1 2))) (equal? \"ab\" \"abc\"))")
def _equal_vector_zip() -> None:
    from implementations.topaz.kernel import equality

    # Realistic: pairs of elements are pushed with zip(), as the cars and cdrs of pairs are,
    # and the length test was left to it; zip() stops quietly at the shorter vector.
    old = equality.equal
    edit_function(equality, "equal",
                  "            if len(x.items) != len(y.items):\n"
                  "                return False\n"
                  "            work.extend(zip(reversed(x.items), reversed(y.items), strict=True))\n",
                  "            work.extend(reversed(list(zip(x.items, y.items))))\n")
    rebind_topaz("topaz-tree", old, equality.equal)


@bug("tt-qq-vector-items-unmarked", "topaz-tree", "kernel normalizer", "vectors",
     "a quasiquoted vector holding an unquote is expanded through a list of its items that is "
     "not marked as holding the unquote, so the list is quoted whole: `#(point ,x) is the "
     "vector #(point (unquote x)) instead of #(point 1) (list templates are right)",
     "(define (point x y) `#(point ,x ,y))\n"
     "(define p (point 1 2))\n"
     "(list p (vector-ref p 1) `#(a b) `(a ,(+ 1 2)) `#(1 ,@(list 2 3)))")
def _tt_qq_vector_items_unmarked() -> None:
    from implementations.topaz.kernel.derived import Derived

    # Realistic: the test of whether a template holds an unquote walks lists and their tails;
    # a vector's items were not pushed, so a vector (and a list around it with no unquote of
    # its own) counts as unmarked and is quoted whole.
    edit_function(Derived, "_live",
                  "        if type(x) is Vec:\n            work.extend(x.items)\n            continue\n",
                  "        if type(x) is Vec:\n            continue\n")
