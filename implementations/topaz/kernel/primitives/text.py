"""Characters, strings and symbols."""

from __future__ import annotations

from itertools import pairwise
from typing import Any

from ..errors import LispexError
from ..unicode import has
from ..values import Char, Str, Symbol, Vector, list_from

MAX_LENGTH = 10_000_000


def char_arg(name: str, c: Any) -> int:
    if type(c) is not Char:
        raise LispexError("E312", f"{name}: expected a character", (c,))
    return c.code


def string_arg(name: str, s: Any) -> str:
    if type(s) is not Str:
        raise LispexError("E312", f"{name}: expected a string", (s,))
    return s.s


def _simple_upper(code: int) -> int:
    # Python has only the full mappings; where the full uppercase is several characters the
    # simple one is the single-character titlecase (U+1F80 -> U+1F88), or none (ß stays ß).
    u = chr(code).upper()
    if len(u) == 1:
        return ord(u)
    t = chr(code).title()
    return ord(t) if len(t) == 1 and t != chr(code) else code


def _simple_lower(code: int) -> int:
    u = chr(code).lower()
    if len(u) == 1:
        return ord(u)
    return ord(u[0])  # U+0130 -> "i" + combining dot: the simple mapping is "i"


def _fold(code: int) -> int:
    # simple case folding: where the full folding is several characters (U+0130, ß) there is
    # no simple one and the character folds to itself
    u = chr(code).casefold()
    return ord(u) if len(u) == 1 else code


def _char_compare(name: str, op: Any, key: Any) -> Any:
    def fn(*args: Any) -> bool:
        codes = [key(char_arg(name, c)) for c in args]
        return all(op(a, b) for a, b in pairwise(codes))
    return fn


def _string_compare(name: str, op: Any, fold: bool) -> Any:
    def fn(*args: Any) -> bool:
        texts = [string_arg(name, s) for s in args]
        if fold:
            texts = [t.casefold() for t in texts]
        return all(op(a, b) for a, b in pairwise(texts))
    return fn


def _ops() -> list[tuple[str, Any]]:
    return [("=", lambda a, b: a == b), ("<", lambda a, b: a < b), (">", lambda a, b: a > b),
            ("<=", lambda a, b: a <= b), (">=", lambda a, b: a >= b)]


def p_integer_to_char(n: Any) -> Any:
    if type(n) is not int or not (0 <= n <= 0x10FFFF) or 0xD800 <= n <= 0xDFFF:
        raise LispexError("E312", "integer->char: expected a Unicode scalar value", (n,))
    return Char(n)


def _range(name: str, n: int, args: tuple, container: Any) -> tuple[int, int]:
    start = args[0] if len(args) > 0 else 0
    end = args[1] if len(args) > 1 else n
    for k in (start, end):
        if type(k) is not int:
            raise LispexError("E312", f"{name}: expected an exact integer", (k,))
    if not 0 <= start <= n:
        raise LispexError("E311", f"{name}: index out of range", (start, container))
    if not start <= end <= n:
        raise LispexError("E311", f"{name}: index out of range", (end, container))
    return start, end


def p_string_ref(s: Any, k: Any) -> Any:
    text = string_arg("string-ref", s)
    if type(k) is not int:
        raise LispexError("E312", "string-ref: expected an exact integer", (k,))
    if not 0 <= k < len(text):
        raise LispexError("E311", "string-ref: index out of range", (k, s))
    return Char(ord(text[k]))


def p_substring(s: Any, start: Any, end: Any) -> Any:
    text = string_arg("substring", s)
    a, b = _range("substring", len(text), (start, end), s)
    return Str(text[a:b])


def p_string_copy(s: Any, *args: Any) -> Any:
    text = string_arg("string-copy", s)
    a, b = _range("string-copy", len(text), args, s)
    return Str(text[a:b])


def p_make_string(k: Any, fill: Any = None) -> Any:
    if type(k) is not int or k < 0:
        raise LispexError("E312", "make-string: expected an exact non-negative integer", (k,))
    ch = " " if fill is None else chr(char_arg("make-string", fill))
    if k > MAX_LENGTH:
        raise LispexError("E311", f"make-string: length {k} is larger than the largest "
                          f"supported length, {MAX_LENGTH}", (k,))
    return Str(ch * k)


def p_string_to_list(s: Any, *args: Any) -> Any:
    text = string_arg("string->list", s)
    a, b = _range("string->list", len(text), args, s)
    return list_from([Char(ord(c)) for c in text[a:b]])


def p_string_to_vector(s: Any, *args: Any) -> Any:
    text = string_arg("string->vector", s)
    a, b = _range("string->vector", len(text), args, s)
    return Vector([Char(ord(c)) for c in text[a:b]])


def p_vector_to_string(v: Any, *args: Any) -> Any:
    if type(v) is not Vector:
        raise LispexError("E312", "vector->string: expected a vector", (v,))
    a, b = _range("vector->string", len(v.items), args, v)
    out = []
    for c in v.items[a:b]:
        if type(c) is not Char:
            raise LispexError("E312", "vector->string: expected a vector of characters", (c,))
        out.append(chr(c.code))
    return Str("".join(out))


def p_string_append(*args: Any) -> Any:
    parts = []
    for s in args:
        if type(s) is not Str:
            string_arg("string-append", s)
        parts.append(s.s)
    return Str("".join(parts))


def p_symbol_to_string(x: Any) -> Any:
    if type(x) is not Symbol:
        raise LispexError("E312", "symbol->string: expected a symbol", (x,))
    return Str(x.name)


def p_string_to_symbol(s: Any) -> Any:
    return Symbol(string_arg("string->symbol", s))


def p_char_alphabetic(c: Any) -> bool:
    return has("Alphabetic", char_arg("char-alphabetic?", c))


def p_char_numeric(c: Any) -> bool:
    return 0x30 <= char_arg("char-numeric?", c) <= 0x39


def p_char_whitespace(c: Any) -> bool:
    return has("White_Space", char_arg("char-whitespace?", c))


def p_char_upper(c: Any) -> bool:
    return chr(char_arg("char-upper-case?", c)).isupper()  # the Unicode Uppercase property


def p_char_lower(c: Any) -> bool:
    return chr(char_arg("char-lower-case?", c)).islower()  # Lowercase: ª and º count


IMPLS: dict[str, Any] = {
    "char->integer": lambda c: char_arg("char->integer", c),
    "integer->char": p_integer_to_char,
    "char-alphabetic?": p_char_alphabetic, "char-numeric?": p_char_numeric,
    "char-whitespace?": p_char_whitespace, "char-upper-case?": p_char_upper,
    "char-lower-case?": p_char_lower,
    "char-upcase": lambda c: Char(_simple_upper(char_arg("char-upcase", c))),
    "char-downcase": lambda c: Char(_simple_lower(char_arg("char-downcase", c))),
    "char-foldcase": lambda c: Char(_fold(char_arg("char-foldcase", c))),
    "string-length": lambda s: len(string_arg("string-length", s)),
    "string-ref": p_string_ref, "substring": p_substring, "string-copy": p_string_copy,
    "make-string": p_make_string, "string->list": p_string_to_list,
    "string->vector": p_string_to_vector, "vector->string": p_vector_to_string,
    "string-append": p_string_append,
    "string-upcase": lambda s: Str(string_arg("string-upcase", s).upper()),
    "string-downcase": lambda s: Str(string_arg("string-downcase", s).lower()),
    "string-foldcase": lambda s: Str(string_arg("string-foldcase", s).casefold()),
    "symbol->string": p_symbol_to_string, "string->symbol": p_string_to_symbol,
    "char?": lambda x: type(x) is Char, "string?": lambda x: type(x) is Str,
    "symbol?": lambda x: type(x) is Symbol,
}
for _op, _fn in _ops():
    IMPLS[f"char{_op}?"] = _char_compare(f"char{_op}?", _fn, lambda c: c)
    IMPLS[f"char-ci{_op}?"] = _char_compare(f"char-ci{_op}?", _fn, _fold)
    IMPLS[f"string{_op}?"] = _string_compare(f"string{_op}?", _fn, False)
    IMPLS[f"string-ci{_op}?"] = _string_compare(f"string-ci{_op}?", _fn, True)
