"""Where two or more values differ, and a window onto that place when they are too long to show.

A value cut at the width loses its end, and when two long values differ near the end the cut
copies look the same: the one thing the reader came for is gone. Every place that shows
differing values (the terminal, summary.md, JUnit messages, the HTML report) cuts through this
module instead, which keeps the differing span in view, with a little context on each side and
``…`` for what is left out, and says where the span lies so that it can be marked.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

ELLIPSIS = "…"
CONTEXT = 16  # characters of common text kept before the difference


@dataclass(frozen=True)
class Window:
    """``shown`` is what to print; the difference is ``shown[start:end]`` (empty where this
    value merely stops before the others do: it is marked by one position at ``start``)."""
    shown: str
    start: int
    end: int

    def carets(self) -> str:
        """A line to print under ``shown`` in plain text: ``^`` under the differing span."""
        return " " * self.start + "^" * max(self.end - self.start, 1)


def as_text(v: Any) -> str:
    """A value on one line as a person compares it: strings bare (newlines shown as ⏎), the
    rest as JSON."""
    if isinstance(v, str):
        return v.replace("\r", "").replace("\n", "⏎")
    if isinstance(v, list) and v and all(isinstance(x, str) for x in v):
        return " ".join(v)
    return json.dumps(v, ensure_ascii=False)


def common_ends(texts: list[str]) -> tuple[int, int]:
    """The length of the prefix all ``texts`` share, and of the suffix they share after it."""
    if not texts:
        return 0, 0
    shortest = min(len(t) for t in texts)
    p = 0
    while p < shortest and all(t[p] == texts[0][p] for t in texts):
        p += 1
    s = 0
    while s < shortest - p and all(t[-1 - s] == texts[0][-1 - s] for t in texts):
        s += 1
    return p, s


def window(text: str, prefix: int, suffix: int, room: int, context: int = CONTEXT) -> Window:
    """``text`` in at most ``room`` characters (no fewer than the marks need), its differing
    span ``text[prefix:len(text) - suffix]`` kept in view."""
    end = len(text) - suffix
    if len(text) <= room:
        return Window(text, prefix, end)
    room = max(room, 2 * len(ELLIPSIS) + 8)
    begin = max(0, prefix - context)
    lead = ELLIPSIS if begin else ""
    visible = len(text) - begin
    tail = ""
    if len(lead) + visible > room:
        visible = room - len(lead) - len(ELLIPSIS)
        tail = ELLIPSIS
    shown = lead + text[begin:begin + visible] + tail
    start = len(lead) + prefix - begin
    stop = len(lead) + min(end, begin + visible) - begin
    return Window(shown, start, max(stop, start))


def windows(values: dict[str, Any], room: int, context: int = CONTEXT) -> dict[str, Window]:
    """Each member's value as a window onto the place where the values differ."""
    texts = {m: as_text(v) for m, v in values.items()}
    prefix, suffix = common_ends(list(dict.fromkeys(texts.values())))
    return {m: window(t, prefix, suffix, room, context) for m, t in texts.items()}


def pair(expected: Any, got: Any, room: int) -> tuple[Window, Window]:
    w = windows({"expected": expected, "got": got}, room)
    return w["expected"], w["got"]
