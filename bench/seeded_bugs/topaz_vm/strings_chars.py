"""Seeded bugs in topaz-vm, family "strings/chars"."""

from __future__ import annotations

from itertools import pairwise
from typing import Any

from bench.seeded_bugs.seeding import bug, edit_function, patch_primitive


@bug("append-drops-last", "topaz-vm", "kernel primitives", "strings/chars",
     "string-append of three or more strings drops the last one",
     '(string-append "a" "b" "c")')
def _append_drops_last() -> None:
    patch_primitive("topaz-vm", "string-append",
                    lambda real: lambda *a: real(*a[:-1]) if len(a) > 2 else real(*a))


@bug("tv-string-prefix-order", "topaz-vm", "kernel primitives", "strings/chars",
     "string<? and string>? compare only the common prefix: a string is not less than a "
     "longer string it is a prefix of",
     '(list (string<? "ab" "abc") (string>? "abc" "ab") (string<? "abd" "abc"))')
def _tv_string_prefix_order() -> None:
    # Realistic: a hand-written zip() comparison with no length tie-break at the end.
    def make(real):
        def compare(*strings):
            result = real(*strings)  # type-checks every argument
            texts = [s.s for s in strings]
            if result and any(a != b and (a.startswith(b) or b.startswith(a))
                              for a, b in pairwise(texts)):
                return False
            return result
        return compare
    patch_primitive("topaz-vm", "string<?", make)
    patch_primitive("topaz-vm", "string>?", make)


@bug("single-index-is-end", "topaz-vm", "kernel primitives", "strings/chars",
     "a sequence primitive given only one optional index (string-copy, string->list, "
     "string->vector, vector->string, vector->list, vector-copy) takes it as the end, as "
     "Python's range(stop) does, instead of as the start",
     '(list (string->list "hello" 3) (string-copy "hello" 1) (string->list "ab" 0 1))')
def _single_index_is_end() -> None:
    from implementations.topaz.kernel.primitives import objects, text

    # Realistic: one optional argument read like range(n): an end, counted from 0. The range
    # helper is one function, copied into the string and the vector primitives.
    for module in (text, objects):
        edit_function(module, "_range",
                      "    start = args[0] if len(args) > 0 else 0\n"
                      "    end = args[1] if len(args) > 1 else n\n",
                      "    start = args[0] if len(args) > 1 else 0\n"
                      "    end = args[-1] if len(args) > 0 else n\n")


@bug("tv-whitespace-isspace", "topaz-vm", "kernel primitives", "strings/chars",
     "char-whitespace? is Python's str.isspace(), which is also true of the information "
     "separators U+001C..U+001F, so they count as white space although they are not in "
     "Unicode's White_Space property; every real white space character is right",
     "(define (space? n) (char-whitespace? (integer->char n)))\n"
     "(list (char-whitespace? #\\space) (char-whitespace? #\\tab) (space? 31) (space? 28)\n"
     "      (space? 160) (char-whitespace? #\\a))")
def _tv_whitespace_isspace() -> None:
    from implementations.topaz.kernel.primitives import text

    # Realistic: isspace() is documented as "whitespace characters" and agrees with the
    # White_Space property on everything but four C0 controls nobody types.
    def make(real: Any) -> Any:
        def char_whitespace(c: Any) -> bool:
            return chr(text.char_arg("char-whitespace?", c)).isspace()
        return char_whitespace
    patch_primitive("topaz-vm", "char-whitespace?", make)
