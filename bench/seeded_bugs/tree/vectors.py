"""Seeded bugs in tree, family "vectors"."""

from __future__ import annotations

from typing import Any

from bench.seeded_bugs.seeding import bug, edit_function, patch_primitive


@bug("vector-copy-alias", "tree", "kernel primitives", "vectors",
     "vector-copy of a whole vector (no start or end) returns the vector itself, not a fresh "
     "mutable copy",
     "(define v (vector 1 2 3))\n(define w (vector-copy v))\n(vector-set! w 0 'x)\n(list v w)")
def _vector_copy_alias() -> None:
    from implementations.lispex.values import Vector

    def make(real):
        def vector_copy(v, *opt):
            # Realistic: a "nothing to slice" shortcut that skips the copy.
            if not opt and type(v) is Vector:
                return v
            return real(v, *opt)
        return vector_copy
    patch_primitive("tree", "vector-copy", make)


@bug("list-copy-drops-tail", "tree", "kernel primitives", "vectors",
     "list-copy of an improper list ends the copy with '() instead of the original final tail, "
     "and list-copy of a non-list gives '() instead of the object itself",
     "(list (list-copy '(1 2 . 3)) (list-copy (cons 'a 'b)) (list-copy '(x y)) (list-copy 5))")
def _list_copy_drops_tail() -> None:
    from implementations.lispex.primitives.errors_util import list_expected
    from implementations.lispex.values import Pair, list_from

    # Realistic: the copy was built with list_from(items), the helper every proper-list
    # primitive uses, and its optional tail argument (the last cdr reached) was left out.
    def make(real: Any) -> Any:
        def list_copy(lst: Any) -> Any:
            items = []
            fast = slow = lst
            while type(fast) is Pair:
                items.append(fast.car)
                fast = fast.cdr
                if type(fast) is not Pair:
                    break
                items.append(fast.car)
                fast = fast.cdr
                slow = slow.cdr
                if fast is slow:
                    list_expected("list-copy", lst)
            return list_from(items)
        return list_copy
    patch_primitive("tree", "list-copy", make)


@bug("equal-nested-bytevector-identity", "tree", "kernel primitives", "vectors",
     "equal? compares two bytevectors by contents only at the top level: inside a list or a "
     "vector the walk has no bytevector case and falls back on eqv?, which is identity, so "
     "(equal? (list (bytevector 1 2)) (list (bytevector 1 2))) is #f (member and assoc of a "
     "bytevector key still match, their comparison being top-level)",
     "(define (packet tag . bytes) (list tag (apply bytevector bytes)))\n"
     "(define a (packet 'ping 1 2 3))\n"
     "(define b (packet 'ping 1 2 3))\n"
     "(list (equal? (cadr a) (cadr b)) (equal? a b)\n"
     "      (equal? (vector #u8(7)) (vector (bytevector 7)))\n"
     "      (member (bytevector 3) (list (bytevector 1) (bytevector 3))))")
def _equal_nested_bytevector_identity() -> None:
    from implementations.lispex import equality

    # Realistic: the structure walk's cases for the atoms that compare by contents were copied
    # from equal? itself, where the bytevector test is tucked under the non-container branch,
    # and only the string case came across.
    edit_function(equality, "_equal_structures",
                  "            if t is Bytevector:\n"
                  "                if x.data != y.data:\n"
                  "                    return False\n"
                  "                break\n", "")
