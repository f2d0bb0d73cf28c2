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

DELIMITERS = set(" \t\r\n()[]{}\";'`,|")

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


def gaps(text: str) -> list[tuple[int, int]]:
    """Where layout may change: (start, end) of each whitespace run outside literals and
    comments, and the empty gap just inside each parenthesis."""
    out: list[tuple[int, int]] = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if c in " \t\r\n":
            j = i
            while j < n and text[j] in " \t\r\n":
                j += 1
            out.append((i, j))
            i = j
        elif c == "(":
            out.append((i + 1, i + 1))
            i += 1
        elif c == ")":
            if not out or out[-1][1] != i:
                out.append((i, i))
            i += 1
        else:
            # A literal or a comment is skipped whole; a comment's closing line break with it,
            # since replacing that would pull the next line into the comment.
            j = _skip(text, i)
            i = j if j is not None else i + 1
    return out


def separators(text: str) -> list[tuple[int, int]]:
    """(start, end) of each maximal run of whitespace and comments outside literals."""
    out: list[tuple[int, int]] = []
    i, n = 0, len(text)
    run = -1  # where the current run began, or -1
    while i < n:
        c = text[i]
        j = _skip(text, i)
        if j is not None and c != '"' and not text.startswith("#\\", i):
            if run < 0:
                run = i
            i = j
            continue
        if run >= 0:
            out.append((run, i))
            run = -1
        i = j if j is not None else i + 1
    if run >= 0:
        out.append((run, n))
    return out


def _skip(text: str, i: int) -> int | None:
    """The end of the whitespace, comment, string or character literal at ``i``; None for
    anything else."""
    n = len(text)
    c = text[i]
    if c in " \t\r\n":
        return i + 1
    if c == '"':
        i += 1
        while i < n and text[i] != '"':
            i += 2 if text[i] == "\\" else 1
        return min(i + 1, n)
    if c == ";":
        end = text.find("\n", i)
        return n if end < 0 else end + 1
    if text.startswith("#|", i):
        depth, i = 1, i + 2
        while i < n and depth:
            if text.startswith("|#", i):
                depth, i = depth - 1, i + 2
            elif text.startswith("#|", i):
                depth, i = depth + 1, i + 2
            else:
                i += 1
        return i
    if text.startswith("#\\", i):
        i += 3
        while i < n and text[i] not in DELIMITERS:
            i += 1
        return i
    return None


def relayout(text: str, rng: random.Random, share: int = 35) -> tuple[str, set[str]]:
    """``text`` with about ``share`` percent of its gaps re-laid out, and a header sometimes;
    returns the new text and the tags of what was used."""
    tags: set[str] = set()
    pieces: list[str] = []
    last = 0
    for start, end in gaps(text):
        if rng.randrange(100) >= share:
            continue
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
