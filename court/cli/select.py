"""Choosing cases as pytest does: ``-k EXPR``, repeated ``--filter GLOB`` and ``--last-failed``.

``-k`` takes words joined with ``and``, ``or``, ``not`` and parentheses; a word matches a case
whose id holds it as a substring, ignoring case (``-k 'list and not tail'``). ``--filter`` globs
are OR-ed. All given selections must hold.
"""

from __future__ import annotations

import fnmatch
import re
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from .usage import UsageError

# Outcomes that are not failures; any other outcome (including kinds added later) is one.
PASSING = ("agree", "not-comparable", "known-difference")

_TOKEN = re.compile(r"\s*(\(|\)|[^\s()]+)")


class KeywordError(ValueError):
    pass


def tokens(expr: str) -> list[tuple[str, int]]:
    out, pos = [], 0
    while pos < len(expr):
        m = _TOKEN.match(expr, pos)
        if m is None:  # only trailing blanks are left
            break
        out.append((m.group(1), m.start(1)))
        pos = m.end()
    return out


def compile_keyword(expr: str) -> Callable[[str], bool]:
    """``expr`` as a predicate over case ids; KeywordError names the column of a mistake."""
    toks = tokens(expr)
    if not toks:
        return lambda _id: True
    i = 0

    def peek() -> str | None:
        return toks[i][0] if i < len(toks) else None

    def fail(what: str) -> KeywordError:
        col = toks[i][1] + 1 if i < len(toks) else len(expr) + 1
        got = f"{toks[i][0]!r}" if i < len(toks) else "the end"
        return KeywordError(f"expected {what} at column {col}, found {got}")

    def or_() -> Callable[[str], bool]:
        nonlocal i
        parts = [and_()]
        while peek() == "or":
            i += 1
            parts.append(and_())
        return parts[0] if len(parts) == 1 else (lambda s: any(p(s) for p in parts))

    def and_() -> Callable[[str], bool]:
        nonlocal i
        parts = [not_()]
        while peek() == "and":
            i += 1
            parts.append(not_())
        return parts[0] if len(parts) == 1 else (lambda s: all(p(s) for p in parts))

    def not_() -> Callable[[str], bool]:
        nonlocal i
        if peek() == "not":
            i += 1
            inner = not_()
            return lambda s: not inner(s)
        return primary()

    def primary() -> Callable[[str], bool]:
        nonlocal i
        t = peek()
        if t == "(":
            i += 1
            inner = or_()
            if peek() != ")":
                raise fail("')'")
            i += 1
            return inner
        if t is None or t in (")", "and", "or", "not"):
            raise fail("a word or '('")
        i += 1
        word = t.lower()
        return lambda s: word in s.lower()

    pred = or_()
    if i != len(toks):
        raise fail("'and' or 'or'")
    return pred


def last_failed_ids(report_dir: Path) -> set[str] | None:
    """The failing case ids of the report in ``report_dir``; None when there is no report."""
    from ..report.write import ReportError, read_report

    path = report_dir / "court-report.json"
    if not path.exists():
        return None
    try:
        report = read_report(path)
        return {c["id"] for c in report["cases"] if c["outcome"] not in PASSING}
    except (OSError, ValueError, KeyError, TypeError, ReportError) as e:
        raise UsageError(f"court: --last-failed: cannot read {path}: {e}") from None


def choose(cases: list[Any], args: Any) -> list[Any]:
    """The cases the user asked for, in their order; prints what ``--last-failed`` did."""
    out = cases
    keyword = getattr(args, "keyword", None)
    if keyword:
        try:
            pred = compile_keyword(keyword)
        except KeywordError as e:
            raise UsageError(f"court: -k {keyword!r}: {e}") from None
        out = [c for c in out if pred(c.id)]
    globs = getattr(args, "filter", None) or []
    if isinstance(globs, str):
        globs = [globs]
    if globs:
        out = [c for c in out if any(fnmatch.fnmatchcase(c.id, g) for g in globs)]
    if getattr(args, "last_failed", False):
        ids = last_failed_ids(Path(args.report_dir))
        if ids is None:
            print(f"court: --last-failed: no report in {args.report_dir}; running every "
                  "selected case", file=sys.stderr)
        elif not ids:
            print("court: --last-failed: the last run had no failures; running every "
                  "selected case", file=sys.stderr)
        else:
            out = [c for c in out if c.id in ids]
            print(f"court: --last-failed: {len(out)} case(s) that failed last time",
                  file=sys.stderr)
    return out
