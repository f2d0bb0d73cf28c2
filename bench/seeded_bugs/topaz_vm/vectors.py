"""Seeded bugs in topaz-vm, family "vectors"."""

from __future__ import annotations

from typing import Any

from bench.seeded_bugs.seeding import bug, edit_function, patch_primitive


@bug("vector-negative-index", "topaz-vm", "kernel primitives", "vectors",
     "vector-ref accepts a negative index (Python indexing from the end)",
     "(vector-ref (vector 1 2 3) -1)")
def _vector_negative_index() -> None:
    def make(real):
        def vector_ref(v, i):
            items = getattr(v, "items", None)
            if type(i) is int and i < 0 and items is not None and -i <= len(items):
                return items[i]
            return real(v, i)
        return vector_ref
    patch_primitive("topaz-vm", "vector-ref", make)


@bug("list-tail-whole", "topaz-vm", "kernel primitives", "vectors",
     "list-tail of a list by its own length is out of range instead of giving '()",
     "(list (list-tail '(1 2) 2) (list-tail '(1 2 3) 1))")
def _list_tail_whole() -> None:
    def make(real):
        def tail(lst, k):
            n, cur = 0, lst
            while hasattr(cur, "cdr"):
                n, cur = n + 1, cur.cdr
            return real(lst, k + 1) if type(k) is int and k > 0 and k == n else real(lst, k)
        return tail
    patch_primitive("topaz-vm", "list-tail", make)


@bug("tv-vector-copy-keeps-literal", "topaz-vm", "kernel primitives", "vectors",
     "vector-copy of a quoted (immutable) vector returns an immutable copy, so vector-set! on "
     "the copy fails with E312",
     "(define v (vector-copy '#(1 2 3)))\n(vector-set! v 0 'x)\nv")
def _tv_vector_copy_keeps_literal() -> None:
    from implementations.topaz.kernel.values import Vector

    # Realistic: the copy was made "like the original", mutability flag included.
    def make(real):
        def vector_copy(v, *opt):
            out = real(v, *opt)
            return Vector(out.items, v.mutable) if type(v) is Vector else out
        return vector_copy
    patch_primitive("topaz-vm", "vector-copy", make)


@bug("vector-map-live", "topaz-vm", "topaz-vm guest library", "vectors",
     "vector-map walks the vector itself rather than a snapshot, so a callback that sets a "
     "later element changes what the later callbacks see",
     "(define v (vector 1 2 3))\n(vector-map (lambda (x) (vector-set! v 2 30) (* x 2)) v)")
def _vector_map_live() -> None:
    from implementations.topaz.vm.guest import GuestPrimitives

    # Realistic: `for x in vec.items` looked harmless; the copy is what R7RS's "the order of
    # application is unspecified but the result is as if ..." needs.
    def g_vector_map(self: Any, d: int, tail: bool, f: Any, vec: Any) -> Any:
        from implementations.topaz.kernel.values import Vector

        site = self.site_get()
        span = self.sites[site]
        if type(vec) is not Vector:
            self._expect(d, "vector-map", "a vector", vec, span)
        return Vector([self._one(d, "vector-map", self.call_at(d, site, f, (x,)), span)
                       for x in vec.items])
    GuestPrimitives.g_vector_map = g_vector_map


@bug("tv-vector-index-float", "topaz-vm", "kernel primitives", "vectors",
     "vector-ref, vector-set! and bytevector-u8-ref accept an inexact integral index (1.0) and "
     "use it as the exact one, instead of failing with E312 (an index must be an exact "
     "integer); a non-integral index is still E312",
     "(define v (vector 'a 'b 'c))\n"
     "(define i (/ 4.0 2))\n"
     "(vector-set! v i 'z)\n"
     "(list (vector-ref v 1.0) v (bytevector-u8-ref (bytevector 7 8) 1.0))")
def _tv_vector_index_float() -> None:
    from implementations.topaz.kernel.primitives import objects

    # Realistic: "the index must be an integer", and (integer? 2.0) is #t; the integer
    # division family accepts integral floats, and this check was written the same way.
    edit_function(objects, "_index", "    if type(k) is not int:\n",
                  "    k = int(k) if type(k) is float and k.is_integer() else k\n"
                  "    if type(k) is not int:\n")
