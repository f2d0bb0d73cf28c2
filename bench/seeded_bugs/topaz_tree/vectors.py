"""Seeded bugs in topaz-tree, family "vectors"."""

from __future__ import annotations

from bench.seeded_bugs.seeding import bug, derived_class, edit_function


@bug("equal-vector-zip", "topaz-tree", "kernel primitives", "vectors",
     "equal? compares two vectors with zip() and no length check, so a vector is equal? to any "
     "longer vector it is a prefix of (also inside lists, and for member and assoc)",
     "(list (equal? (vector 1 2) (vector 1 2 3)) (equal? (vector) (vector 'a))\n"
     "      (member (vector 1) (list (vector 1 2) (vector 1)))\n"
     "      (equal? (list (vector 1 2)) (list (vector 1 2))) (equal? \"ab\" \"abc\"))")
def _equal_vector_zip() -> None:
    from implementations.lispex import equality

    # Realistic: pairs of elements are pushed with zip(), as the cars and cdrs of pairs are,
    # and the length test was left to it; zip() stops quietly at the shorter vector.
    edit_function(equality, "_equal_structures",
                  "                if len(xs) != len(ys):\n"
                  "                    return False\n"
                  "                key = (id(x), id(y))\n"
                  "                if key not in seen:\n"
                  "                    seen.add(key)\n"
                  "                    stack.extend(zip(xs, ys, strict=True))\n",
                  "                key = (id(x), id(y))\n"
                  "                if key not in seen:\n"
                  "                    seen.add(key)\n"
                  "                    stack.extend(zip(xs, ys))\n")


@bug("tt-qq-vector-items-unmarked", "topaz-tree", "kernel normalizer", "vectors",
     "a quasiquoted vector holding an unquote is expanded through a list of its items that is "
     "not marked as holding the unquote, so the list is quoted whole: `#(point ,x) is the "
     "vector #(point (unquote x)) instead of #(point 1) (list templates are right)",
     "(define (point x y) `#(point ,x ,y))\n"
     "(define p (point 1 2))\n"
     "(list p (vector-ref p 1) `#(a b) `(a ,(+ 1 2)) `#(1 ,@(list 2 3)))")
def _tt_qq_vector_items_unmarked() -> None:
    # Realistic: the marks of which template nodes hold an unquote are keyed by node identity
    # and computed before expansion; the list made on the spot from the vector's items is a new
    # node, so it has no mark unless one is given to it, and an unmarked node is a constant.
    edit_function(derived_class(), "_qq",
                  "self.unquoted[id(items_list)] = True",
                  "pass")
