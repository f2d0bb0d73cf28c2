"""The Lispex reader: UTF-8 source bytes to datums with spans.

Reading happens in three passes over the source. The order decides which diagnostic wins when a
source has several faults; it follows the meter contract, which charges a token "before each
token is appended" and so implies a token list built before parsing:

1. Decoding. The whole source is decoded strictly as UTF-8 first, charging the
   frontend-transition meter one unit per scalar. Invalid UTF-8 anywhere is E100 at the
   offending bytes, before any other reader diagnostic.
2. Lexing. The whole text becomes a token list; the token meter is charged before each token is
   appended. Lexical faults (bad characters, numbers, strings, character literals, ``#`` syntax,
   brackets, unterminated strings and block comments) are found here, so they win over
   structural faults earlier in the file.
3. Parsing. Tokens become datums with an explicit stack (never Python recursion), so nesting
   depth is limited by memory only. Structural faults (stray ``)``, misplaced ``.``, dotted-list
   shapes E140, unclosed lists, bytevector elements) are found here.

Choices other modules rely on:

* A byte-order mark is an ordinary scalar, as the frontend contract says, and it is not
  whitespace: a leading BOM becomes part of the first token (``<BOM>(display 1)`` reads the
  symbol ``<BOM>`` and then a list). We neither strip it nor reject it specially.
* Whitespace is exactly space, tab, CR and LF. Other Unicode white space (NBSP, U+2028, form
  feed, ...) is neither whitespace nor allowed in a symbol, so it is E100.
* Lines end at LF only (CRLF counts once; a lone CR does not start a line). Columns count
  Unicode scalars from 1; span start/end are half-open UTF-8 byte offsets.
* Header pragmas are the ``;!`` line comments before the first token; their text after ``;!``
  (stripped) is returned in :attr:`ReadResult.pragmas` and never acted on. Later ``;!`` lines
  are ordinary comments.
* Character literals: the scalar after ``#\\`` is always taken (``#\\(`` is a character), then
  the literal runs to the next delimiter or ``|``; ``#\\a|b`` is ``#\\a`` then the symbol ``|b``.
  Hex literals use a lowercase ``x`` only (``#\\X41`` is E150), unlike string escapes, which
  take ``\\x`` and ``\\X``.
* A bytevector element must be a literal integer token 0..255: ``#u8(4/2)`` is E100 although
  4/2 reads as 2.
* Every reader diagnostic carries a span and ``phase="reader"`` (E120 and E314 need the phase
  because their catalog rows allow two phases).
"""

from __future__ import annotations

import gc
import re
import sys
from dataclasses import dataclass, field
from typing import Any, NoReturn

from .errors import LispexError
from .meters import FRONTEND, TOKEN, Meter
from .numparse import parse_number
from .span import Span
from .syntax import SAtom, SList, SVector
from .values import Bytevector, Char, Str, Symbol, sym

__all__ = ["ReadResult", "read_source", "read_datum_text"]


@dataclass
class ReadResult:
    datums: list = field(default_factory=list)  # syntax nodes (SAtom, SList, SVector)
    pragmas: list[str] = field(default_factory=list)  # text after ";!" in header lines


# Unicode White_Space scalars other than the four Lispex whitespace characters.
_OTHER_WS = "\x0b\x0c\x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000"
# What ends a symbol or number (as the body of a regex character class).
_DELIMS = " \t\r\n()\\[\\]{}\"';`," + _OTHER_WS
_ATOM = re.compile(f"[^{_DELIMS}]+")
# After the first scalar of a character literal; `|` also ends it.
_CHAR_REST = re.compile(f"[^{_DELIMS}|]*")
# One match per token: leading whitespace, then the token; the group number drives dispatch.
# A token starting with `#` (and anything odd: brackets, a lone quote char, other white space)
# falls to the last group and is handled by hand.
_TOKEN = re.compile(
    "[ \t\r\n]*+(?:"
    f"([^{_DELIMS}#][^{_DELIMS}]*+)"  # 1 symbol or number
    "|(\\()"  # 2 open
    "|(\\))"  # 3 close
    "|(;[^\n]*+)"  # 4 line comment
    '|("[^"\\\\]*+(?:\\\\.[^"\\\\]*+)*+")'  # 5 string (possessive: linear on failure)
    "|(['`]|,@?)"  # 6 quote marks
    "|(.))",  # 7 anything else
    re.S)
_HEX_ESCAPE = re.compile(r"([0-9A-Fa-f]*)(;?)")
_BYTE_LITERAL = re.compile(r"0|[1-9][0-9]?|1[0-9][0-9]|2[0-4][0-9]|25[0-5]")
_NON_ASCII = re.compile(r"[^\x00-\x7f]")
_BLOCK_MARK = re.compile(r"#\||\|#")
_RADIX_PREFIX = re.compile(r"#[bBoOdDxXeEiI](?:#[bBoOdDxXeEiI])?[-+]?[0-9a-fA-F.]")

_DIGITS = frozenset("0123456789")
_BOOLEANS = {"#t": True, "#true": True, "#f": False, "#false": False}
_CHAR_NAMES = {
    "space": 0x20, "newline": 0x0A, "linefeed": 0x0A, "tab": 0x09, "return": 0x0D,
    "null": 0x00, "nul": 0x00, "delete": 0x7F, "rubout": 0x7F, "escape": 0x1B, "esc": 0x1B,
    "backspace": 0x08, "alarm": 0x07, "page": 0x0C,
}
_STRING_ESCAPES = {'"': '"', "\\": "\\", "n": "\n", "t": "\t", "r": "\r"}

# Token kinds. A token is (kind, value, start, end) with start/end as str indices.
_ATOM_T, _OPEN, _VOPEN, _BOPEN, _CLOSE, _QUOTE, _DOT = range(7)
_QUOTE_SYMS = {"'": sym("quote"), "`": sym("quasiquote"), ",": sym("unquote"),
               ",@": sym("unquote-splicing")}


def _span_fresh(text: str, file: str, s: int, e: int) -> Span:
    """The span of ``text[s:e]`` computed from scratch (for diagnostics, off the fast path)."""
    line = text.count("\n", 0, s) + 1
    col = s - (text.rfind("\n", 0, s) + 1) + 1
    b = len(text[:s].encode("utf-8"))
    return Span(file, line, col, b, b + len(text[s:e].encode("utf-8")))


def _fail(code: str, message: str, text: str, file: str, s: int, e: int,
          irritants: tuple = ()) -> NoReturn:
    raise LispexError(code, message, irritants, _span_fresh(text, file, s, e), phase="reader")


def _decode(data: bytes, file: str, meter: Meter | None) -> str:
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        good = data[:exc.start].decode("utf-8")
        if meter is not None:
            # One unit is charged before each scalar is decoded, the bad one included.
            meter.charge(FRONTEND, len(good) + 1)
        line = good.count("\n") + 1
        col = len(good) - (good.rfind("\n") + 1) + 1
        bad = data[exc.start:exc.end].hex(" ")
        raise LispexError("E100", f"invalid UTF-8 (bytes {bad}); Lispex source must be UTF-8",
                          (), Span(file, line, col, exc.start, exc.end), phase="reader") from None
    if meter is not None:
        meter.charge(FRONTEND, len(text))
    return text


def _string_value(text: str, file: str, pos: int, literal: str) -> Str:
    """The value of the string ``literal`` (quotes included) found at ``pos``."""
    body = literal[1:-1]
    if "\\" not in body:
        return Str(body)
    base = pos + 1  # str index of body[0]
    out: list[str] = []
    i = 0
    while True:
        j = body.find("\\", i)
        if j < 0:
            out.append(body[i:])
            return Str("".join(out))
        out.append(body[i:j])
        c = body[j + 1]  # present: _TOKEN only matches a backslash followed by something
        simple = _STRING_ESCAPES.get(c)
        if simple is not None:
            out.append(simple)
            i = j + 2
            continue
        if c != "x" and c != "X":
            _fail("E150", "unknown string escape; use \\\" \\\\ \\n \\t \\r or \\xHH;",
                  text, file, base + j, base + j + 2, (Str("\\" + c),))
        h = _HEX_ESCAPE.match(body, j + 2)
        end = h.end()
        escape = Str(body[j:end])
        if not h.group(2):
            _fail("E150", "malformed \\x escape; write \\x, hex digits, then ;", text, file,
                  base + j, base + end, (escape,))
        if not h.group(1):
            _fail("E150", "empty \\x; escape; put hex digits between \\x and ;", text, file,
                  base + j, base + end, (escape,))
        code = int(h.group(1), 16)
        if code > 0x10FFFF or 0xD800 <= code <= 0xDFFF:
            _fail("E150", "\\x escape is not a Unicode scalar value (surrogate or too large)",
                  text, file, base + j, base + end, (escape,))
        out.append(chr(code))
        i = end


def _char_value(text: str, file: str, pos: int) -> tuple[Char, int]:
    """The character literal at ``text[pos:]`` (which starts with ``#\\``) and its end."""
    if pos + 2 >= len(text):
        _fail("E150", "#\\ at the end of the source needs a character after it",
              text, file, pos, pos + 2, (Str("#\\"),))
    # The first scalar is always part of the literal, even a delimiter: #\( is a character.
    end = _CHAR_REST.match(text, pos + 3).end()
    name = text[pos + 2:end]
    if len(name) == 1:
        return Char(ord(name)), end
    code = _CHAR_NAMES.get(name)
    if code is not None:
        return Char(code), end
    token = Str(text[pos:end])
    if name[0] == "x":
        digits = name[1:]
        if not all(d in "0123456789abcdefABCDEF" for d in digits):
            _fail("E150", "bad hex character literal; write #\\x and hex digits, as in #\\x3bb",
                  text, file, pos, end, (token,))
        code = int(digits, 16)
        if code > 0x10FFFF or 0xD800 <= code <= 0xDFFF:
            _fail("E150", "character literal is not a Unicode scalar value "
                  "(surrogate or too large)", text, file, pos, end, (token,))
        return Char(code), end
    _fail("E150", "unknown character literal; write one character followed by a delimiter, "
          "a name such as #\\space, or #\\xHH", text, file, pos, end, (token,))


def _hash_error(text: str, file: str, pos: int, word: str) -> NoReturn:
    """Diagnose an unknown ``#`` token ``word`` (already known not to be valid)."""
    end = pos + len(word)
    irritants = (Str(word),)
    if word == "#lang":
        _fail("E120", "#lang lines are not supported in Lispex", text, file, pos, end, irritants)
    if word.startswith(("#t", "#f")):
        _fail("E100", "unknown # syntax; the booleans are #t, #f, #true and #false", text, file,
              pos, end, irritants)
    if word.startswith("#u8"):
        _fail("E100", "a bytevector is written #u8( with no space before the (", text, file,
              pos, end, irritants)
    if _RADIX_PREFIX.match(word):
        _fail("E100", "radix and exactness prefixes are not supported in this version; "
              "write numbers in decimal", text, file, pos, end, irritants)
    _fail("E100", "unknown # syntax", text, file, pos, end, irritants)


def _lex(text: str, file: str, meter: Meter | None) -> tuple[list[tuple], list[str]]:
    tokens: list[tuple] = []
    pragmas: list[str] = []
    append = tokens.append
    budget = meter.remaining(TOKEN) if meter is not None else sys.maxsize
    exhausted = False
    pos = 0
    header = True
    match = _TOKEN.match
    atom_match = _ATOM.match
    interned = Symbol._table.get
    try:
        while True:
            m = match(text, pos)
            if m is None:  # only whitespace is left
                break
            k = m.lastindex
            if k == 1:
                s, end = m.span(1)  # the token ends the match
                word = text[s:end]
                c0 = word[0]
                if c0 in _DIGITS or (c0 == "-" and len(word) > 1 and word[1] in _DIGITS):
                    if c0 != "0" and len(word) < 19 and word.isascii() and word.isdigit():
                        # A small natural number (the usual one), as parse_number reads it.
                        tok: tuple = (_ATOM_T, int(word), s, end)
                    else:
                        tok = (_ATOM_T, _number(text, file, s, word), s, end)
                elif word == ".":
                    tok = (_DOT, None, s, end)
                else:
                    symbol = interned(word)
                    tok = (_ATOM_T, symbol if symbol is not None else sym(word), s, end)
            elif k == 2:
                end = m.end()
                tok = (_OPEN, None, end - 1, end)
            elif k == 3:
                end = m.end()
                tok = (_CLOSE, None, end - 1, end)
            elif k == 4:
                if header and m.group(4).startswith(";!"):
                    pragmas.append(m.group(4)[2:].strip(" \t\r"))
                pos = m.end()
                continue
            elif k == 5:
                tok = (_ATOM_T, _string_value(text, file, m.start(5), m.group(5)), m.start(5),
                       m.end())
            elif k == 6:
                s, end = m.span(6)
                tok = (_QUOTE, _QUOTE_SYMS[m.group(6)], s, end)
            else:
                pos = m.start(7)
                ch = m.group(7)
                if ch == "#":
                    nxt = text[pos + 1:pos + 2]
                    if nxt == "(":
                        tok = (_VOPEN, None, pos, pos + 2)
                    elif nxt == "|":
                        pos = _skip_block_comment(text, file, pos)
                        continue
                    elif nxt == "\\":
                        char, end = _char_value(text, file, pos)
                        tok = (_ATOM_T, char, pos, end)
                    elif nxt == ";":
                        _fail("E120", "datum comments (#;) are not supported in Lispex; "
                              "use ; or #| ... |#", text, file, pos, pos + 2, (Str("#;"),))
                    else:
                        word = atom_match(text, pos).group()  # `#` is a symbol constituent
                        end = pos + len(word)
                        if word == "#u8" and text.startswith("(", end):
                            tok = (_BOPEN, None, pos, end + 1)
                        elif word in _BOOLEANS:
                            tok = (_ATOM_T, _BOOLEANS[word], pos, end)
                        else:
                            _hash_error(text, file, pos, word)
                elif ch == '"':
                    _fail("E100", 'unterminated string; add the closing "', text, file, pos,
                          pos + 1)
                elif ch in "[]{}":
                    _fail("E100", "brackets are not Lispex syntax; use ( ... )", text, file,
                          pos, pos + 1, (Str(ch),))
                else:
                    _fail("E100", f"character U+{ord(ch):04X} is not allowed here; Lispex "
                          "whitespace is space, tab, CR and LF", text, file, pos, pos + 1)
            if len(tokens) >= budget:
                exhausted = True
                meter.charge(TOKEN, len(tokens) + 1)  # type: ignore[union-attr]  # raises
            append(tok)
            header = False
            pos = tok[3]
    finally:
        if meter is not None and not exhausted:
            meter.charge(TOKEN, len(tokens))  # within budget, so never raises
    return tokens, pragmas


def _number(text: str, file: str, pos: int, word: str) -> Any:
    try:
        value = parse_number(word)
    except LispexError as exc:  # E314: a real literal that is not finite
        raise LispexError(exc.code, exc.message, exc.irritants,
                          _span_fresh(text, file, pos, pos + len(word)), phase="reader") from None
    if value is None:
        _fail("E100", "malformed number; a token starting with a digit (or - and a digit) must "
              "be an integer, a rational p/q or a decimal real", text, file, pos,
              pos + len(word), (Str(word),))
    return value


def _skip_block_comment(text: str, file: str, pos: int) -> int:
    """The index just after the (nestable) block comment opening at ``pos``."""
    depth = 1
    for m in _BLOCK_MARK.finditer(text, pos + 2):
        if m.group() == "#|":
            depth += 1
        else:
            depth -= 1
            if depth == 0:
                return m.end()
    _fail("E100", "unterminated block comment; close it with |#", text, file, pos, pos + 2)


# Parser frames are lists [kind, items, line, column, start, end, dot_span, tail] where line to
# end locate the opening token (or quote mark) in the Span fields' units. A quote frame's items
# slot holds the quote symbol; a bytevector frame's items are the byte values. Spans are only
# built for datums (and for diagnostics): building one per bracket would double the cost.
_OPEN_NAMES = {_OPEN: "list", _VOPEN: "vector", _BOPEN: "bytevector"}


def _parse(tokens: list[tuple], text: str, file: str, ascii: bool) -> list:
    datums: list = []
    stack: list[list] = []
    # Position of the previous token, so that locating a token only scans the text since then
    # (tokens come in source order). For a pure-ASCII source the byte offset is the str index;
    # otherwise `byte` is the byte offset of str index `bpos` (the end of the previous token).
    line, line_start, last = 1, 0, 0
    count, rfind = text.count, text.rfind
    byte = bpos = next_wide = 0
    wide_search = _NON_ASCII.search
    mk, S = tuple.__new__, Span  # one C call per span (see span.py)

    def fail(code: str, message: str, span: Span, irritants: tuple = ()) -> NoReturn:
        raise LispexError(code, message, irritants, span, phase="reader")

    def frame_span(frame: list) -> Span:
        return Span(file, frame[2], frame[3], frame[4], frame[5])

    for kind, value, s, e in tokens:
        nl = count("\n", last, s)
        if nl:
            line += nl
            line_start = rfind("\n", last, s) + 1
        if ascii:
            b, be = s, e
        else:
            # Byte offsets advance with the str index until the next non-ASCII scalar.
            if s <= next_wide:
                byte += s - bpos
            else:
                byte += len(text[bpos:s].encode("utf-8"))
                m = wide_search(text, s)
                next_wide = m.start() if m else len(text)
            b = byte
            if e <= next_wide:
                byte += e - s
            else:
                byte += len(text[s:e].encode("utf-8"))
                m = wide_search(text, e)
                next_wide = m.start() if m else len(text)
            be = byte
            bpos = e
        last = s
        col = s - line_start + 1
        if stack:
            top = stack[-1]
            if top[0] == _OPEN and top[6] is not None:
                if kind == _DOT:
                    fail("E140", "a dotted list has only one . ; write (a b . c)",
                         Span(file, line, col, b, be))
                if kind != _CLOSE and top[7] is not None:
                    fail("E140", "only one datum may follow . in a dotted list",
                         Span(file, line, col, b, be))
        if kind == _ATOM_T:
            node: Any = SAtom(value, mk(S, (file, line, col, b, be)))
        elif kind == _OPEN or kind == _VOPEN or kind == _BOPEN or kind == _QUOTE:
            stack.append([kind, value if kind == _QUOTE else [], line, col, b, be, None, None])
            continue
        elif kind == _DOT:
            span = Span(file, line, col, b, be)
            if not stack:
                fail("E100", ". is only allowed inside a list, as in (a . b)", span)
            top = stack[-1]
            if top[0] == _QUOTE:
                fail("E100", f"{top[1].name} mark must be followed by a datum, not .", span)
            if top[0] != _OPEN:
                fail("E100", ". is not allowed in a vector", span)
            if not top[1]:
                fail("E140", ". needs a datum before it, as in (a . b)", span)
            top[6] = span
            continue
        else:  # _CLOSE
            if not stack:
                fail("E100", "unexpected ) with no matching (", Span(file, line, col, b, be),
                     (Str(")"),))
            frame = stack.pop()
            fk = frame[0]
            if fk == _QUOTE:
                fail("E100", f"{frame[1].name} mark must be followed by a datum",
                     frame_span(frame))
            whole = mk(S, (file, frame[2], frame[3], frame[4], be))
            if fk == _OPEN:
                if frame[6] is not None and frame[7] is None:
                    fail("E140", "a datum must follow . in a dotted list, as in (a . b)",
                         frame[6])
                items, tail = frame[1], frame[7]
                # `(a . (b c))` is the same datum as `(a b c)`: a list after the dot is spliced.
                while type(tail) is SList:
                    items = items + tail.items
                    tail = tail.tail
                node = SList(items, tail, whole)
            elif fk == _VOPEN:
                node = SVector(frame[1], whole)
            else:
                node = SAtom(Bytevector(bytes(frame[1])), whole)
        # Deliver the finished datum: through pending quote marks into the enclosing frame.
        while True:
            if not stack:
                datums.append(node)
                break
            top = stack[-1]
            fk = top[0]
            if fk == _QUOTE:
                stack.pop()
                node = SList([SAtom(top[1], frame_span(top)), node], None,
                             Span(file, top[2], top[3], top[4], node.span.end))
                continue
            if fk == _OPEN:
                if top[6] is None:
                    top[1].append(node)
                else:
                    top[7] = node
            elif fk == _VOPEN:
                top[1].append(node)
            else:
                # Only a literal integer token will do: 4/2 is the integer 2, yet rejected.
                # A datum reaching here as an atom is the current token text[s:e].
                if type(node) is not SAtom or not _BYTE_LITERAL.fullmatch(text, s, e):
                    fail("E100", "bytevector elements must be literal exact integers from 0 "
                         "to 255", node.span, (Str(text[s:e]),) if type(node) is SAtom else ())
                top[1].append(node.value)
            break
    if stack:
        top = stack[-1]
        if top[0] == _QUOTE:
            fail("E100", f"{top[1].name} mark at the end of the source needs a datum after it",
                 frame_span(top))
        fail("E100", f"unterminated {_OPEN_NAMES[top[0]]}: this opening has no matching ); "
             "add )", frame_span(top))
    return datums


def read_source(data: bytes, file: str, meter: Meter | None = None) -> ReadResult:
    """Read a whole Lispex source: every top-level datum, in order, and the header pragmas.

    Raises LispexError (with a span, phase "reader") for every reader diagnostic and lets the
    meter's ResourceExhausted propagate.
    """
    data = bytes(data)
    # The reader allocates hundreds of thousands of small objects and makes no reference
    # cycles, so the cyclic collector only costs time here (about two thirds of it on a
    # 1 MB source); refcounting frees everything. The previous state is restored.
    gc_was_enabled = gc.isenabled()
    gc.disable()
    try:
        text = _decode(data, file, meter)
        tokens, pragmas = _lex(text, file, meter)
        return ReadResult(_parse(tokens, text, file, len(text) == len(data)), pragmas)
    finally:
        if gc_was_enabled:
            gc.enable()


def read_datum_text(text: str, file: str = "<input>", meter: Meter | None = None) -> Any:
    """Read exactly one datum from ``text`` (the program input); otherwise E100."""
    # surrogatepass lets a lone surrogate reach the decoder, which reports it as E100.
    result = read_source(text.encode("utf-8", "surrogatepass"), file, meter)
    if not result.datums:
        raise LispexError("E100", "expected one datum, found none", (),
                          Span(file, 1, 1, 0, 0), phase="reader")
    if len(result.datums) > 1:
        raise LispexError("E100", "expected exactly one datum, found more; wrap them in a list",
                          (), result.datums[1].span, phase="reader")
    return result.datums[0]
