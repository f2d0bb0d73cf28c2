"""Every tool example in docs/mcp.md runs and gives the documented result.

An example is a ``json`` block holding ``{"name": TOOL, "arguments": {...}}`` followed by a
``json`` block with the result: every field shown must be in the real result with the same
value, ``"..."`` standing for any value (identities, timings). A documented ``{"error": ...}``
is the text of an ``isError`` result.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from mcp_support import ROOT

from implementations import registry
from mcp_server.engine import CallControl, offered_config
from mcp_server.tools import Tools

DOC = ROOT / "docs" / "mcp.md"


def examples(path: Path) -> list[tuple[str, dict, dict]]:
    blocks = [json.loads(b) for b in re.findall(r"^```json\n(.*?)^```", path.read_text("utf-8"),
                                               re.S | re.M)]
    out = []
    for i, b in enumerate(blocks):
        if isinstance(b, dict) and set(b) == {"name", "arguments"}:
            out.append((f"{b['name']}-{len(out)}", b, blocks[i + 1]))
    return out


EXAMPLES = examples(DOC)


def matches(doc, got) -> bool:
    if doc == "...":
        return got is not None
    if isinstance(doc, dict):
        return isinstance(got, dict) and all(k in got and matches(v, got[k])
                                             for k, v in doc.items())
    if isinstance(doc, list):
        return isinstance(got, list) and len(doc) == len(got) and \
            all(matches(a, b) for a, b in zip(doc, got, strict=True))
    return doc == got


def test_every_tool_has_an_example():
    assert {c["name"] for _, c, _ in EXAMPLES} == {
        "lispex_eval", "lispex_compare", "lispex_check", "lispex_diagnostic",
        "lispex_reference"}


@pytest.mark.parametrize("example_id,call,expected", EXAMPLES, ids=[e[0] for e in EXAMPLES])
def test_documented_example(example_id, call, expected):
    if "vm" not in registry.ids() and "vm" in json.dumps([call, expected]):
        pytest.skip("the vm is not in this distribution")
    tools = Tools(offered_config([]), 20.0, "lispex-mcp-local-authoring/v1")
    try:
        body = tools.call(call["name"], call["arguments"], CallControl())
    finally:
        assert tools.close() == []
    if "error" in expected:
        assert body["isError"] is True
        got = json.loads(body["content"][0]["text"])
    else:
        assert body["isError"] is False
        got = body["structuredContent"]["result"]
    assert matches(expected, got), json.dumps(got, indent=1)
