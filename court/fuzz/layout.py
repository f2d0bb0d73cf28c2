"""Source layout: the same program with other whitespace and comments between its tokens.

Programs the generator writes are laid out one way: single spaces, a newline between top-level
forms, no comments. A reader that miscounts lines after a CRLF or inside a block comment, counts
a tab as several columns, ends a nested block comment at its first ``|#``, or takes ``#|`` inside
a line comment for a comment opener, answers those programs right and others wrong, and every
diagnostic after the point shows it in its span. So a share of programs is re-laid out here:
whitespace runs outside literals (and the inside edges of parentheses) get line breaks, tabs,
CRLF, line comments, block comments (nested, empty, spanning lines) and header pragmas.

Only layout changes: nothing is inserted inside a string, a character literal or a comment, and
every insertion starts and ends with whitespace (``#`` is not a delimiter, so ``a#|x|#`` would be
one symbol). The program means what it meant; only its spans move.
"""

from __future__ import annotations

import random
import re

# (text, tag); each begins and ends with whitespace or a line break.
SEPARATORS = [
    ("\n", "newline"), ("\n\n\n", "newline"), ("\t", "tab"), (" \t\t ", "tab"),
    ("\r\n", "crlf"), ("\r\n\r\n", "crlf"), ("\n\t", "tab"),
    (" ; a line comment (with \"quotes\", #| and |#)\n", "line-comment"),
    (" ;\n", "line-comment"), ("\t;; λ 日本 ;\r\n", "line-comment"),
    (" #| block |# ", "block"), (" #||# ", "block"),
    (" #| outer #| inner |# outer |# ", "nested"), (" #|#||#|# ", "nested"),
    ("\n#|\n  several\n  lines\n|#\n", "block-lines"), (" #| λ\r\n日本 |#\t", "block-lines"),
    (" #| a ; b |# ", "block"), (" #| #\\a ( ) |# ", "block"),
]
HEADERS = [(";! lispex 1.1\n", "pragma"), (";! compat: r5rs\n", "pragma"),
           (";! lispex 1.2\n;! compat r5rs\n", "pragma"), (";; a header comment\n", "comment"),
           ("#| a header\n   block |#\n", "block-lines"), ("\r\n", "crlf"), ("\n\n", "newline")]


# One token of layout's view of the text. A block comment is matched by its opening only; its
# (nestable) end is found by _block_end.
_TOKEN = re.compile(r"""
    (?P<ws>[ \t\r\n]+)
  | (?P<str>"(?:[^"\\]|\\.)*"?)
  | (?P<line>;[^\n]*\n?)
  | (?P<block>\#\|)
  | (?P<char>\#\\.[^ \t\r\n()\[\]{}";'`,|]*)
  | (?P<open>\()
  | (?P<close>\))
  | (?P<other>[^ \t\r\n"();\#]+|\#)
""", re.S | re.X)
_BLOCK_MARK = re.compile(r"\#\||\|\#")


def _block_end(text: str, pos: int) -> int:
    depth = 1
    for m in _BLOCK_MARK.finditer(text, pos + 2):
        depth += 1 if m.group() == "#|" else -1
        if depth == 0:
            return m.end()
    return len(text)


def tokens(text: str):
    """(kind, start, end) of each token: ws, str, line, block, char, open, close, other."""
    i, n, match = 0, len(text), _TOKEN.match
    while i < n:
        m = match(text, i)
        kind = m.lastgroup
        end = _block_end(text, i) if kind == "block" else m.end()
        yield kind, i, end
        i = end


def gaps(text: str) -> list[tuple[int, int]]:
    """Where layout may change: (start, end) of each whitespace run outside literals and
    comments, and the empty gap just inside each parenthesis. A line comment's closing line
    break belongs to the comment: replacing it would pull the next line into the comment."""
    out: list[tuple[int, int]] = []
    for kind, start, end in tokens(text):
        if kind == "ws":
            out.append((start, end))
        elif kind == "open":
            out.append((end, end))
        elif kind == "close" and (not out or out[-1][1] != start):
            out.append((start, start))
    return out


def separators(text: str) -> list[tuple[int, int]]:
    """(start, end) of each maximal run of whitespace and comments outside literals."""
    out: list[tuple[int, int]] = []
    for kind, start, end in tokens(text):
        if kind in ("ws", "line", "block"):
            if out and out[-1][1] == start:
                out[-1] = (out[-1][0], end)
            else:
                out.append((start, end))
    return out


def relayout(text: str, rng: random.Random, share: int = 35) -> tuple[str, set[str]]:
    """``text`` with about ``share`` percent of its gaps re-laid out, and a header sometimes;
    returns the new text and the tags of what was used."""
    tags: set[str] = set()
    pieces: list[str] = []
    last = 0
    where = gaps(text)
    count = min(len(where), round(len(where) * share / 100 * (0.5 + rng.random())))
    for start, end in sorted(rng.sample(where, count)):
        sep, tag = rng.choice(SEPARATORS)
        pieces.append(text[last:start])
        pieces.append(sep)
        tags.add(tag)
        last = end
    pieces.append(text[last:])
    out = "".join(pieces)
    if rng.randrange(100) < 30:
        head, tag = rng.choice(HEADERS)
        out = head + out
        tags.add(tag)
    return out, tags
