"""Values from programs are hostile text in a report: Markdown, HTML, backticks, newlines, and
megabytes of output. These helpers make them inert and short before they reach a report."""

from __future__ import annotations

import json
import re
from typing import Any

MAX_VALUE = 160  # characters of one value shown in a summary line or an annotation
ELLIPSIS = "…"
# Inside a line (never at its start: every escaped value follows other text) only these
# characters make Markdown: emphasis, code, links, tables, strikethrough.
_MD_SPECIAL = re.compile(r"([\\`*_\[\]|~])")


def truncate(text: str, n: int = MAX_VALUE) -> str:
    if len(text) <= n:
        return text
    return text[: n - 1] + ELLIPSIS + f" ({len(text) - n + 1} more chars)"


def value(v: Any, n: int = MAX_VALUE) -> str:
    """A value as JSON (strings quoted, newlines as \\n) on one line, truncated."""
    return truncate(json.dumps(v, ensure_ascii=False), n)


def md(text: str) -> str:
    """Text that Markdown and the HTML inside it show literally: entities for <, > and &,
    backslashes before Markdown punctuation, and no line breaks."""
    text = text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    text = text.replace("\r", " ").replace("\n", " ")
    return _MD_SPECIAL.sub(r"\\\1", text)


def md_code(text: str) -> str:
    """An identifier as a code span when it can be one, else as escaped text."""
    if "`" in text or "\n" in text or "|" in text:
        return md(text)
    return f"`{text}`"


def workflow_data(text: str) -> str:
    """The message of a GitHub workflow command (::error ...::MESSAGE)."""
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def workflow_property(text: str) -> str:
    """A property of a GitHub workflow command (file=..., title=...)."""
    return workflow_data(text).replace(":", "%3A").replace(",", "%2C")
