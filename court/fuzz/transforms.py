"""Transforms of a whole unsafe program into one the front end must refuse: cut short or with a
stray bracket, a name that is reserved or forbidden, an escape or a character name of another
Scheme, a parameter written twice. At most one per program: the first drawn."""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import values as V
from .layout import tokens as layout_tokens
from .registry import transform

if TYPE_CHECKING:
    from .context import Context as G


@transform("broken", chance=6)
def broken(g: G, source: str) -> str:
    """The program cut short (inside nested lists, or a string) or with a bracket too many:
    a reader diagnostic whose span is the innermost unclosed opening or the stray one."""
    cut = g.rng.randrange(len(source) // 3, len(source))
    if g.chance(70):
        g.tag("shape:truncated")
        return source[:cut]
    g.tag("shape:stray-bracket")
    return source[:cut] + g.pick([")", "(", "\"", "#"]) + source[cut:]


@transform("misnamed", chance=8)
def misnamed(g: G, source: str) -> str:
    """One symbol of the program replaced by a reserved word or a forbidden name, wherever
    it stands: an operand, a body, a binder, a quoted datum, a callee. The front end must
    refuse it there as at the head of a form (E110, E120), and a fast path that checks
    only some positions shows it."""
    spots = [(s, e) for kind, s, e in layout_tokens(source)
             if kind == "other" and not source[s].isdigit() and source[s] not in "'`,#-+."]
    if not spots:
        return source
    s, e = g.pick(spots)
    names = V.FORBIDDEN_NAMES if g.chance(60) else V.RESERVED_NAMES
    word = g.pick([w for w in names if w != source[s:e]])
    g.tag("shape:misnamed")
    return source[:s] + word + source[e:]


@transform("misescaped", chance=5)
def misescaped(g: G, source: str) -> str:
    """One string literal given an escape, or one character literal a name, that another
    Scheme reads and Lispex refuses (E150 at the literal): a reader that took R7RS's whole
    table, or names in any case, reads the program instead."""
    toks = [(k, s, e) for k, s, e in layout_tokens(source) if k in ("str", "char")]
    if not toks:
        return source
    kind, s, e = g.pick(toks)
    g.tag("shape:misescaped")
    if kind == "char":
        return source[:s] + g.pick(V.FOREIGN_CHARS) + source[e:]
    at = g.rng.randrange(s + 1, e)  # after the opening quote, up to the closing one
    return source[:at] + g.pick(V.FOREIGN_ESCAPES) + source[at:]


@transform("rebound", chance=4)
def rebound(g: G, source: str) -> str:
    """One name of a lambda's or a procedure definition's parameters written twice (E130 at
    the second, the duplicate): where the normalizer reports it, in a program of any
    shape."""
    toks = [(k, s, e) for k, s, e in layout_tokens(source) if k not in ("ws", "line", "block")]
    lists = []
    for j in range(len(toks) - 2):
        head = source[toks[j + 1][1]:toks[j + 1][2]]
        if toks[j][0] == "open" and head in ("lambda", "define") and toks[j + 2][0] == "open":
            names, m = [], j + 3
            if head == "define":
                m += 1  # the procedure's own name
            while m < len(toks) and toks[m][0] == "other" and source[toks[m][1]] != ".":
                names.append(toks[m])
                m += 1
            if names:
                lists.append(names)
    if not lists:
        return source
    names = g.pick(lists)
    first = source[names[0][1]:names[0][2]]
    g.tag("shape:rebound")
    if len(names) > 1 and g.chance(60):  # a later parameter renamed to the first
        _, s, e = names[g.rng.randrange(1, len(names))]
        return source[:s] + first + source[e:]
    _, _, e = names[-1]
    return source[:e] + " " + first + source[e:]
