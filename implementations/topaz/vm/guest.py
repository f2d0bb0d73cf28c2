"""topaz-vm's guest-calling library primitives: map, for-each, filter, the folds, any?/all?
and the vector and string variants.

Each callback is a non-tail call one level deeper than the primitive's caller. A fault of the
primitive itself (an argument of the wrong kind, a callback that returned several values), or
of applying the callback (E301, E302), is reported at the primitive's own call site, captured
on entry.
"""

from __future__ import annotations

from typing import Any

from implementations.topaz.kernel.values import (
    NO_VALUES,
    Char,
    Str,
    Values,
    Vector,
    list_from,
    list_to_python,
)


class GuestPrimitives:
    """Mixed into the runtime, which provides ``call_at``, ``err``, ``sites`` and
    ``site_get``."""

    call_at: Any
    err: Any
    sites: list
    site_get: Any

    def guest_table(self) -> dict[str, Any]:
        return {
            "map": self.g_map,
            "for-each": self.g_for_each,
            "filter": self.g_filter,
            "fold-left": self.g_fold_left,
            "fold-right": self.g_fold_right,
            "any?": self.g_any,
            "all?": self.g_all,
            "vector-map": self.g_vector_map,
            "vector-for-each": self.g_vector_for_each,
            "string-map": self.g_string_map,
            "string-for-each": self.g_string_for_each,
        }

    def _elements(self, d: int, name: str, lst: Any, span: Any) -> list:
        items = list_to_python(lst)
        if items is None:
            raise self.err("E310", f"{name}: expected a proper list", (lst,), d, span)
        return items

    def _one(self, d: int, name: str, v: Any, span: Any) -> Any:
        if type(v) is Values:
            raise self.err("E320", f"{name}: the procedure returned {len(v.items)} values, "
                           "expected one", (), d, span)
        return v

    def _expect(self, d: int, name: str, what: str, x: Any, span: Any) -> None:
        raise self.err("E312", f"{name}: expected {what}", (x,), d, span)

    def g_map(self, d: int, tail: bool, f: Any, lst: Any) -> Any:
        site = self.site_get()
        span = self.sites[site]
        out = []
        for x in self._elements(d, "map", lst, span):
            v = self.call_at(d, site, f, (x,))
            if type(v) is Values:
                self._one(d, "map", v, span)
            out.append(v)
        return list_from(out)

    def g_for_each(self, d: int, tail: bool, f: Any, lst: Any) -> Any:
        site = self.site_get()
        span = self.sites[site]
        for x in self._elements(d, "for-each", lst, span):
            self.call_at(d, site, f, (x,))
        return NO_VALUES

    def g_filter(self, d: int, tail: bool, f: Any, lst: Any) -> Any:
        site = self.site_get()
        span = self.sites[site]
        out = []
        for x in self._elements(d, "filter", lst, span):
            if self._one(d, "filter", self.call_at(d, site, f, (x,)), span) is not False:
                out.append(x)
        return list_from(out)

    def g_fold_left(self, d: int, tail: bool, f: Any, acc: Any, lst: Any) -> Any:
        site = self.site_get()
        span = self.sites[site]
        for x in self._elements(d, "fold-left", lst, span):
            acc = self._one(d, "fold-left", self.call_at(d, site, f, (acc, x)), span)
        return acc

    def g_fold_right(self, d: int, tail: bool, f: Any, acc: Any, lst: Any) -> Any:
        site = self.site_get()
        span = self.sites[site]
        for x in reversed(self._elements(d, "fold-right", lst, span)):
            acc = self._one(d, "fold-right", self.call_at(d, site, f, (x, acc)), span)
        return acc

    def g_any(self, d: int, tail: bool, f: Any, lst: Any) -> Any:
        site = self.site_get()
        span = self.sites[site]
        for x in self._elements(d, "any?", lst, span):
            if self._one(d, "any?", self.call_at(d, site, f, (x,)), span) is not False:
                return True
        return False

    def g_all(self, d: int, tail: bool, f: Any, lst: Any) -> Any:
        site = self.site_get()
        span = self.sites[site]
        for x in self._elements(d, "all?", lst, span):
            if self._one(d, "all?", self.call_at(d, site, f, (x,)), span) is False:
                return False
        return True

    def g_vector_map(self, d: int, tail: bool, f: Any, vec: Any) -> Any:
        site = self.site_get()
        span = self.sites[site]
        if type(vec) is not Vector:
            self._expect(d, "vector-map", "a vector", vec, span)
        out = [self._one(d, "vector-map", self.call_at(d, site, f, (x,)), span)
               for x in list(vec.items)]
        return Vector(out)

    def g_vector_for_each(self, d: int, tail: bool, f: Any, vec: Any) -> Any:
        site = self.site_get()
        span = self.sites[site]
        if type(vec) is not Vector:
            self._expect(d, "vector-for-each", "a vector", vec, span)
        for x in list(vec.items):
            self.call_at(d, site, f, (x,))
        return NO_VALUES

    def g_string_map(self, d: int, tail: bool, f: Any, s: Any) -> Any:
        site = self.site_get()
        span = self.sites[site]
        if type(s) is not Str:
            self._expect(d, "string-map", "a string", s, span)
        out = []
        for ch in s.s:
            r = self._one(d, "string-map", self.call_at(d, site, f, (Char(ord(ch)),)), span)
            if type(r) is not Char:
                self._expect(d, "string-map", "the procedure to return a character", r, span)
            out.append(chr(r.code))
        return Str("".join(out))

    def g_string_for_each(self, d: int, tail: bool, f: Any, s: Any) -> Any:
        site = self.site_get()
        span = self.sites[site]
        if type(s) is not Str:
            self._expect(d, "string-for-each", "a string", s, span)
        for ch in s.s:
            self.call_at(d, site, f, (Char(ord(ch)),))
        return NO_VALUES
