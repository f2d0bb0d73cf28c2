"""The reader: UTF-8 bytes -> datums with spans, in three passes.

1. decode the bytes strictly (invalid UTF-8 is E100 before anything else), charging one
   frontend transition per scalar;
2. scan the whole text into tokens, charging one token each; every fault inside a token
   (numbers, strings, characters, ``#`` syntax, brackets, unterminated strings and comments)
   is found here, so it wins over a structural fault earlier in the file;
3. assemble the tokens into datums (lists, dotted lists, vectors, bytevectors, quote marks),
   with an explicit stack so nesting depth costs no Python recursion.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .errors import SourceError
from .meters import FRONTEND, TOKEN, Meter
from .numparse import NotFinite, looks_numeric, parse_decimal
from .printer import write_string
from .span import Span
from .syntax import Atom, Bytes, Seq, Vec
from .values import Char, Str, Symbol

WHITESPACE = frozenset(" \t\r\n")
DELIMITERS = frozenset(" \t\r\n()[]{}\";'`,")
CHAR_NAMES = {
    "space": 0x20, "newline": 0x0A, "linefeed": 0x0A, "tab": 0x09, "return": 0x0D,
    "null": 0x00, "nul": 0x00, "delete": 0x7F, "rubout": 0x7F, "escape": 0x1B, "esc": 0x1B,
    "backspace": 0x08, "alarm": 0x07, "page": 0x0C,
}
QUOTES = {"'": "quote", "`": "quasiquote", ",": "unquote", ",@": "unquote-splicing"}
HEX = frozenset("0123456789abcdefABCDEF")


@dataclass(slots=True)
class Token:
    kind: str  # "(" ")" "#(" "#u8(" "." "quote" (with .text the mark) or "atom"
    span: Span
    value: Any = None
    text: str = ""
    numeric: bool = False


@dataclass
class ReadResult:
    datums: list
    pragmas: list[str] = field(default_factory=list)


def _scalar_value(code: int) -> bool:
    return 0 <= code <= 0x10FFFF and not 0xD800 <= code <= 0xDFFF


class Scanner:
    def __init__(self, text: str, offsets: list[int], file: str, meter: Meter | None) -> None:
        self.t = text
        self.off = offsets  # byte offset of each scalar, plus the total length at the end
        self.file = file
        self.meter = meter
        self.i = 0
        self.line = 1
        self.line_start = 0  # scalar index where the current line starts
        self.tokens: list[Token] = []
        self.pragmas: list[str] = []

    # -- positions -------------------------------------------------------------------------

    def pos(self) -> tuple[int, int, int]:
        return (self.line, self.i - self.line_start + 1, self.i)

    def span_from(self, p: tuple[int, int, int], end: int | None = None) -> Span:
        e = self.i if end is None else end
        return Span(self.file, p[0], p[1], self.off[p[2]], self.off[e])

    def fail(self, code: str, message: str, p: tuple[int, int, int], end: int | None = None,
             irritant: str | None = None) -> SourceError:
        irritants = (irritant,) if irritant is not None else ()
        return SourceError(code, message, self.span_from(p, end), "reader", irritants)

    def advance_over(self, j: int) -> None:
        """Move to scalar index ``j``, keeping the line count."""
        t = self.t
        while self.i < j:
            if t[self.i] == "\n":
                self.line += 1
                self.line_start = self.i + 1
            self.i += 1

    def emit(self, tok: Token) -> None:
        if self.meter is not None:
            self.meter.charge(TOKEN, 1)
        self.tokens.append(tok)

    # -- the scan --------------------------------------------------------------------------

    def scan(self) -> list[Token]:  # noqa: C901
        t, n = self.t, len(self.t)
        header = True
        while self.i < n:
            c = t[self.i]
            if c in WHITESPACE:
                self.advance_over(self.i + 1)
                continue
            if c == ";":
                j = t.find("\n", self.i)
                j = n if j < 0 else j
                if header and t.startswith(";!", self.i):
                    self.pragmas.append(t[self.i:j].rstrip("\r"))
                self.i = j
                continue
            p = self.pos()
            if c.isspace():
                self.i += 1
                raise self.fail("E100", "only space, tab, carriage return and line feed are "
                                "whitespace in Lispex", p, irritant=write_string(c))
            header = False
            if c in "([{":
                if c != "(":
                    self.i += 1
                    raise self.fail("E100", "brackets are not Lispex syntax; use ( ... )", p,
                                    irritant=write_string(c))
                self.i += 1
                self.emit(Token("(", self.span_from(p)))
            elif c in ")]}":
                self.i += 1
                if c != ")":
                    raise self.fail("E100", "brackets are not Lispex syntax; use ( ... )", p,
                                    irritant=write_string(c))
                self.emit(Token(")", self.span_from(p)))
            elif c in "'`,":
                if c == "," and self.i + 1 < n and t[self.i + 1] == "@":
                    mark = ",@"
                else:
                    mark = c
                self.i += len(mark)
                self.emit(Token("quote", self.span_from(p), text=QUOTES[mark]))
            elif c == '"':
                self.string(p)
            elif c == "#":
                self.hash(p)
            else:
                self.atom(p)
        return self.tokens

    def word_end(self, j: int) -> int:
        t, n = self.t, len(self.t)
        while j < n and t[j] not in DELIMITERS and not t[j].isspace():
            j += 1
        return j

    def atom(self, p: tuple[int, int, int]) -> None:
        j = self.word_end(self.i)
        word = self.t[self.i:j]
        self.i = j
        span = self.span_from(p)
        if word == ".":
            self.emit(Token(".", span))
            return
        if looks_numeric(word):
            try:
                value = parse_decimal(word)
            except NotFinite:
                raise SourceError("E314", "real literal is not a finite double", span,
                                  "reader", (write_string(word),)) from None
            if value is None:
                raise SourceError("E100", "malformed number; a token starting with a digit "
                                  "(or - and a digit) must be an integer, a rational p/q or a "
                                  "decimal real", span, "reader", (write_string(word),))
            self.emit(Token("atom", span, value, word, numeric=True))
            return
        self.emit(Token("atom", span, Symbol(word), word))

    def hash(self, p: tuple[int, int, int]) -> None:  # noqa: C901
        t, n, i = self.t, len(self.t), self.i
        nxt = t[i + 1] if i + 1 < n else ""
        if nxt == "|":
            self.block_comment(p)
            return
        if nxt == ";":
            self.i = i + 2
            raise self.fail("E120", "datum comments (#;) are not supported in Lispex; use ; "
                            "or #| ... |#", p, irritant=write_string("#;"))
        if nxt == "(":
            self.i = i + 2
            self.emit(Token("#(", self.span_from(p)))
            return
        if nxt == "\\":
            self.char(p)
            return
        j = self.word_end(i + 1)
        word = t[i:j]
        if word == "#u8" and j < n and t[j] == "(":
            self.i = j + 1
            self.emit(Token("#u8(", self.span_from(p)))
            return
        self.i = j
        if word in ("#t", "#true"):
            self.emit(Token("atom", self.span_from(p), True, word))
            return
        if word in ("#f", "#false"):
            self.emit(Token("atom", self.span_from(p), False, word))
            return
        if word == "#lang":
            raise self.fail("E120", "#lang lines are not supported in Lispex", p,
                            irritant=write_string(word))
        if len(word) > 1 and word[1] in "xXeEiIbBoOdD":
            raise self.fail("E100", "radix and exactness prefixes are not supported in this "
                            "version", p, irritant=write_string(word))
        raise self.fail("E100", "unknown # syntax", p, irritant=write_string(word or "#"))

    def block_comment(self, p: tuple[int, int, int]) -> None:
        t, n = self.t, len(self.t)
        depth, j = 1, self.i + 2
        while j < n:
            if t.startswith("|#", j):
                depth -= 1
                j += 2
                if depth == 0:
                    self.advance_over(j)
                    return
            elif t.startswith("#|", j):
                depth += 1
                j += 2
            else:
                j += 1
        raise self.fail("E100", "unterminated block comment", p, self.i + 2)

    def char(self, p: tuple[int, int, int]) -> None:
        t, n = self.t, len(self.t)
        start = self.i + 2
        if start >= n:
            self.i = start
            raise self.fail("E150", "#\\ must be followed by a character", p)
        j = start + 1
        while j < n and t[j] not in DELIMITERS and t[j] != "|" and not t[j].isspace():
            j += 1
        name = t[start:j]
        self.i = j
        if len(name) == 1:
            code = ord(name)
        elif name in CHAR_NAMES:
            code = CHAR_NAMES[name]
        elif name[0] == "x" and all(ch in HEX for ch in name[1:]):
            code = int(name[1:], 16)
            if not _scalar_value(code):
                raise self.fail("E150", "character code is not a Unicode scalar value", p,
                                irritant=write_string("#\\" + name))
        else:
            raise self.fail("E150", "unknown character name", p,
                            irritant=write_string("#\\" + name))
        self.emit(Token("atom", self.span_from(p), Char(code), "#\\" + name))

    def string(self, p: tuple[int, int, int]) -> None:  # noqa: C901
        t, n = self.t, len(self.t)
        # the extent first: a string with no closing quote is unterminated, whatever is in it
        k = self.i + 1
        while k < n and t[k] != '"':
            k += 2 if t[k] == "\\" else 1
        if k >= n:
            raise self.fail("E100", "unterminated string", p, n)
        out: list[str] = []
        j = self.i + 1
        while True:
            if j >= n:
                raise self.fail("E100", "unterminated string", p, n)
            c = t[j]
            if c == '"':
                j += 1
                break
            if c != "\\":
                out.append(c)
                j += 1
                continue
            e = t[j + 1] if j + 1 < n else ""
            simple = {'"': '"', "\\": "\\", "n": "\n", "t": "\t", "r": "\r"}.get(e)
            if simple is not None:
                out.append(simple)
                j += 2
                continue
            if e in ("x", "X"):
                k = j + 2
                while k < n and t[k] in HEX:
                    k += 1
                if k == j + 2 or k >= n or t[k] != ";":
                    self.advance_over(j)
                    raise self.fail("E150", "malformed \\x escape; use \\xHH;", self.pos(),
                                    min(k + 1, n), write_string(t[j:min(k + 1, n)]))
                code = int(t[j + 2:k], 16)
                if not _scalar_value(code):
                    self.advance_over(j)
                    raise self.fail("E150", "\\x escape is not a Unicode scalar value",
                                    self.pos(), k + 1, write_string(t[j:k + 1]))
                out.append(chr(code))
                j = k + 1
                continue
            self.advance_over(j)
            raise self.fail("E150", "unknown string escape; use \\\" \\\\ \\n \\t \\r or "
                            "\\xHH;", self.pos(), min(j + 2, n), write_string(t[j:j + 2]))
        self.advance_over(j)
        self.emit(Token("atom", self.span_from(p), Str("".join(out)), t[p[2]:j]))


def decode(source: bytes, file: str, meter: Meter | None) -> tuple[str, list[int]]:
    try:
        text = source.decode("utf-8")
    except UnicodeDecodeError as e:
        good = source[:e.start].decode("utf-8")
        line = good.count("\n") + 1
        column = len(good) - (good.rfind("\n") + 1) + 1
        raise SourceError("E100", "the source is not valid UTF-8",
                          Span(file, line, column, e.start, e.start + 1), "reader") from None
    if meter is not None:
        meter.charge(FRONTEND, len(text))
    offsets = [0] * (len(text) + 1)
    if len(text) == len(source):
        offsets = list(range(len(text) + 1))
    else:
        b = 0
        for k, ch in enumerate(text):
            offsets[k] = b
            o = ord(ch)
            b += 1 if o < 0x80 else 2 if o < 0x800 else 3 if o < 0x10000 else 4
        offsets[len(text)] = b
    return text, offsets


class Assembler:
    """Tokens -> datums. Frames on an explicit stack: [kind, open token, items, tail state]."""

    def __init__(self, tokens: list[Token]) -> None:
        self.tokens = tokens
        self.texts: dict[int, str] = {}  # bytevector elements: the text they were written as

    def run(self) -> list:  # noqa: C901
        top: list = []
        stack: list[list] = []  # [kind, open_tok, items, dot_tok, tail, pending_quotes]
        quotes: list[Token] = []  # quote marks waiting for their datum at the top level

        def pending() -> list[Token]:
            return stack[-1][5] if stack else quotes

        def deliver(d: Any) -> None:
            q = pending()
            while q:
                mark = q.pop()
                d = Seq([Atom(Symbol(mark.text), mark.span), d], None, mark.span.through(d.span))
            if not stack:
                top.append(d)
                return
            frame = stack[-1]
            if frame[3] is not None:  # after the dot
                if frame[4] is not None:
                    raise SourceError("E140", "only one datum may follow . in a dotted list",
                                      d.span, "reader")
                frame[4] = d
                return
            if frame[0] == "#u8(":
                if type(d) is not Atom or type(d.value) is not int or not 0 <= d.value <= 255 \
                        or not self.texts.get(id(d), "").isdigit():
                    raise SourceError("E100", "bytevector elements must be integer literals "
                                      "from 0 to 255", d.span, "reader")
            frame[2].append(d)

        for tok in self.tokens:
            k = tok.kind
            if k == "atom":
                atom = Atom(tok.value, tok.span)
                if stack and stack[-1][0] == "#u8(":
                    self.texts[id(atom)] = tok.text
                deliver(atom)
            elif k in ("(", "#(", "#u8("):
                if stack and stack[-1][0] == "#u8(":
                    raise SourceError("E100", "bytevector elements must be integer literals "
                                      "from 0 to 255", tok.span, "reader")
                stack.append([k, tok, [], None, None, []])
            elif k == "quote":
                if stack and stack[-1][0] == "#u8(":
                    raise SourceError("E100", "bytevector elements must be integer literals "
                                      "from 0 to 255", tok.span, "reader")
                if stack and stack[-1][3] is not None and stack[-1][4] is not None:
                    raise SourceError("E140", "only one datum may follow . in a dotted list",
                                      tok.span, "reader")
                pending().append(tok)
            elif k == ".":
                if not stack:
                    raise SourceError("E100", ". is only allowed inside a list", tok.span,
                                      "reader")
                frame = stack[-1]
                if frame[0] != "(":
                    raise SourceError("E100", ". is not allowed in a vector", tok.span,
                                      "reader")
                if frame[5]:
                    raise SourceError("E100", "a quote mark must be followed by a datum",
                                      frame[5][-1].span, "reader")
                if frame[3] is not None:
                    raise SourceError("E140", "only one datum may follow . in a dotted list",
                                      tok.span, "reader")
                if not frame[2]:
                    raise SourceError("E140", "a dotted list needs a datum before .",
                                      tok.span, "reader")
                frame[3] = tok
            else:  # ")"
                if not stack:
                    raise SourceError("E100", "unexpected ) with no matching (", tok.span,
                                      "reader")
                frame = stack[-1]
                if frame[5]:
                    raise SourceError("E100", "a quote mark must be followed by a datum",
                                      frame[5][-1].span, "reader")
                if frame[3] is not None and frame[4] is None:
                    raise SourceError("E140", "a dotted list needs a datum after .",
                                      frame[3].span, "reader")
                stack.pop()
                span = frame[1].span.through(tok.span)
                if frame[0] == "(":
                    items, tail = frame[2], frame[4]
                    # (a . (b c)) is the list (a b c): a list after the dot joins this one
                    while type(tail) is Seq:
                        items = items + tail.items
                        tail = tail.tail
                    d: Any = Seq(items, tail, span)
                elif frame[0] == "#(":
                    d = Vec(frame[2], span)
                else:
                    d = Bytes(bytes(x.value for x in frame[2]), span)
                deliver(d)
        if stack:
            if stack[-1][5]:
                # A quote mark inside the innermost open list is the innermost thing left
                # unfinished when the text ends: it is reported, not the list around it.
                raise SourceError("E100", "a quote mark must be followed by a datum",
                                  stack[-1][5][-1].span, "reader")
            opener = stack[-1][1]  # the list still open when the text ends
            raise SourceError("E100", "unterminated list; a ( is never closed", opener.span,
                              "reader")
        if quotes:
            raise SourceError("E100", "a quote mark must be followed by a datum",
                              quotes[-1].span, "reader")
        return top


def read_source(source: bytes, file: str, meter: Meter | None = None) -> ReadResult:
    text, offsets = decode(source, file, meter)
    scanner = Scanner(text, offsets, file, meter)
    tokens = scanner.scan()
    return ReadResult(Assembler(tokens).run(), scanner.pragmas)
