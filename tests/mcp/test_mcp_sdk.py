"""The server driven by the official MCP Python SDK client, in each of its modes: the legacy
handshake (2025-11-25), the pinned stateless revision (2026-07-28) and auto (discover first)."""

from __future__ import annotations

import json
import sys

import anyio
import jsonschema
import psutil
import pytest
from mcp import Client, StdioServerParameters
from mcp.shared.exceptions import MCPError
from mcp_support import LONG_LOOP, ROOT, server_env

from implementations import registry

MODES = [("legacy", "2025-11-25"), ("2026-07-28", "2026-07-28"), ("auto", "2026-07-28")]
TOOLS = {"lispex_eval", "lispex_compare", "lispex_check", "lispex_diagnostic",
         "lispex_reference"}


def params(*args: str) -> StdioServerParameters:
    return StdioServerParameters(command=sys.executable, args=["-m", "mcp_server", *args],
                                 cwd=str(ROOT), env=server_env())


def client(mode: str, *args: str) -> Client:
    return Client(params(*args), mode=mode, read_timeout_seconds=60)


async def call(c: Client, schemas: dict, name: str, arguments: dict, **kw) -> dict:
    """Call a tool and check its result the way a strict client would: structuredContent
    against the tool's outputSchema (with jsonschema), and the text block against it."""
    r = await c.call_tool(name, arguments, **kw)
    assert not r.is_error, r.content
    jsonschema.Draft202012Validator(schemas[name]).validate(r.structured_content)
    result = r.structured_content["result"]
    assert json.loads(r.content[0].text) == result
    assert result["profile"]
    return result


@pytest.mark.anyio
@pytest.mark.parametrize("mode,version", MODES)
async def test_negotiation_tool_list_and_every_tool(mode, version, pair_court):
    async with client(mode, "--product", str(pair_court)) as c:
        assert c.protocol_version == version
        if mode != "2026-07-28":  # a pinned client asks nothing before its first request
            assert c.server_info.name == "lispex-court"
            assert "never reads files" in (c.instructions or "")
        listed = (await c.list_tools()).tools
        assert {t.name for t in listed} == TOOLS
        schemas = {}
        for t in listed:
            jsonschema.Draft202012Validator.check_schema(t.input_schema)
            jsonschema.Draft202012Validator.check_schema(t.output_schema)
            assert t.input_schema["additionalProperties"] is False
            assert t.annotations.read_only_hint is True
            assert t.description
            schemas[t.name] = t.output_schema

        r = await call(c, schemas, "lispex_eval", {"source": "(car)"})
        assert r["status"] == "runtime-error" and r["exit_status"] == 1
        assert r["diagnostics"][0]["code"] == "E302"
        assert r["profile"] == "lispex-mcp-local-authoring/v1"
        assert r["products"]["core_ir_id"] and r["products"]["product_id"]
        r = await call(c, schemas, "lispex_eval",
                       {"source": "(display (car input)) (values 1 \"two\")",
                        "input": "(age 17)", "filename": "rule.lspx",
                        "profile": "lispex-product-web/v1"})
        assert (r["status"], r["stdout"], r["values"]) == ("ok", "age", ["1", "\"two\""])
        assert r["profile"] == "lispex-product-web/v1"
        if "vm" in registry.ids():
            r = await call(c, schemas, "lispex_eval", {"source": "(car)", "implementation": "vm"})
            assert r["diagnostics"][0]["code"] == "E302" and r["products"]["bytecode_id"]

        r = await call(c, schemas, "lispex_compare", {"source": "(+ 1 2)", "court": "tree-pair"})
        assert (r["status"], r["verdict"]) == ("completed", "agree")
        assert set(r["observations"]) == {"tree", "tree-again"}
        assert r["core_ir_id"] == r["observations"]["tree"]["products"]["core_ir_id"]
        assert r["bytecode_id"] is None and r["bytecode_ids"] == {}  # no compiling member
        r = await call(c, schemas, "lispex_compare", {"source": "(+ 1 2)", "court": "all-four"})
        assert r["status"] == "unavailable"
        assert {"topaz-tree", "topaz-vm"} <= set(r["missing_prerequisites"])
        assert not [a for a in r["attempted_routes"] if "topaz" in a]
        # The result says how to make them available, in structuredContent and so in the text.
        assert "--product topaz-tree --product topaz-vm" in r["remedy"], r

        r = await call(c, schemas, "lispex_check", {"source": "(define (f x) (* x x)) (f 4)"})
        assert r["status"] == "ok" and len(r["core_ir_id"]) == 64 and r["diagnostics"] == []
        r = await call(c, schemas, "lispex_check", {"source": "(let ((if 1)) if)"})
        assert r["status"] == "source-error" and r["diagnostics"][0]["code"] == "E110"

        r = await call(c, schemas, "lispex_diagnostic", {"code": "E302"})
        assert r["known"] and r["family"] == "arity-mismatch" and r["exit_status"] == 1
        r = await call(c, schemas, "lispex_diagnostic", {"code": "E999"})
        assert r["known"] is False

        r = await call(c, schemas, "lispex_reference", {})
        assert {"procedures", "forms", "reserved", "diagnostics", "profiles", "courts"} <= \
            {t["topic"] for t in r["topics"]}
        r = await call(c, schemas, "lispex_reference", {"topic": "procedures", "name": "eval"})
        assert r["known"] and r["disposition"] == "absent" and "entry" not in r
        r = await call(c, schemas, "lispex_reference", {"topic": "courts"})
        assert "tree-pair" in {e["name"] for e in r["entries"]}

        bad = await c.call_tool("lispex_eval", {"source": "1", "implementation": "nope"})
        assert bad.is_error and "implementation" in bad.content[0].text
        bad = await c.call_tool("lispex_eval", {"source": "1", "input": "(unclosed"})
        assert bad.is_error and json.loads(bad.content[0].text)["error"]["argument"] == "input"
        with pytest.raises(MCPError) as e:
            await c.call_tool("lispex_nope", {})
        assert e.value.code == -32602


@pytest.mark.anyio
@pytest.mark.parametrize("mode,version", MODES)
async def test_progress_then_cancel_then_a_normal_call(mode, version, pair_court):
    async with client(mode, "--product", str(pair_court)) as c:
        seen = []

        async def on_progress(progress, total, message):
            seen.append((progress, total, message))

        r = await c.call_tool("lispex_compare", {"source": "(+ 1 2)", "court": "tree-pair"},
                              progress_callback=on_progress)
        assert not r.is_error
        assert [p for p, _, _ in seen] == [1, 2]
        assert all(t == 2 for _, t, _ in seen)
        assert {m.split(":")[0] for _, _, m in seen} == {"tree", "tree-again"}

        server = psutil.Process(_server_pid())
        with anyio.move_on_after(1.5):  # the client sends notifications/cancelled
            await c.call_tool("lispex_eval", {"source": LONG_LOOP})
        await anyio.sleep(0.3)
        assert not _busy(server), "the cancelled evaluation is still running"
        r = await c.call_tool("lispex_eval", {"source": "(* 6 7)"})
        assert r.structured_content["result"]["values"] == ["42"]


@pytest.mark.anyio
async def test_base_court_end_to_end():
    """tree-rust (tree + vm): complete when the vm is in this distribution, else unavailable
    and naming the vm."""
    async with client("auto") as c:
        r = (await c.call_tool("lispex_compare", {"source": "(map (lambda (x) (* x x)) "
                                                            "'(1 2 3))"})).structured_content
        r = r["result"]
        assert r["court"] == "tree-rust"
        if "vm" in registry.ids():
            assert (r["status"], r["verdict"]) == ("completed", "agree")
            assert r["observations"]["vm"]["products"]["bytecode_id"]
            assert r["observations"]["tree"]["semantic"]["values"] == ["(1 4 9)"]
        else:
            assert r["status"] == "unavailable" and r["missing_prerequisites"] == ["vm"]


@pytest.mark.anyio
async def test_all_four_with_the_topaz_products_named_at_start():
    """Started with --product topaz-tree --product topaz-vm, all-four hears four members;
    started without them it is unavailable and tried no route (see the test above)."""
    async with client("auto", "--product", "topaz-tree", "--product", "topaz-vm") as c:
        r = (await c.call_tool("lispex_compare", {
            "source": "(define (f n) (if (< n 2) n (+ (f (- n 1)) (f (- n 2))))) (f 12)",
            "court": "all-four"})).structured_content["result"]
        assert (r["status"], r["verdict"]) == ("completed", "agree")
        assert set(r["observations"]) == {"tree", "vm", "topaz-tree", "topaz-vm"}
        assert {o["semantic"]["values"][0] for o in r["observations"].values()} == {"144"}
        assert r["observations"]["topaz-vm"]["products"]["bytecode_id"]
        r = (await c.call_tool("lispex_compare", {"source": "(car '())", "court": "rust-topaz"})
             ).structured_content["result"]
        assert set(r["observations"]) == {"vm", "topaz-vm"} and r["verdict"] == "agree"


@pytest.mark.anyio
async def test_timeout_answers_status_timeout(pair_court):
    async with client("legacy", "--timeout", "1", "--product", str(pair_court)) as c:
        r = (await c.call_tool("lispex_eval", {"source": LONG_LOOP})).structured_content
        assert r["result"]["status"] == "timeout"
        r = (await c.call_tool("lispex_compare", {"source": LONG_LOOP, "court": "tree-pair"}))
        assert r.structured_content["result"]["status"] == "timeout"
        r = (await c.call_tool("lispex_eval", {"source": "(+ 1 1)"})).structured_content
        assert r["result"]["values"] == ["2"]


def _busy(server: psutil.Process) -> list[psutil.Process]:
    out = []
    for p in server.children(recursive=True):
        try:
            if p.cpu_percent(0.2) > 5:  # the machine may be shared: any real use counts
                out.append(p)
        except psutil.Error:
            pass
    return out


def _cmdline_has(p: psutil.Process, word: str) -> bool:
    try:
        return word in " ".join(p.cmdline())
    except psutil.Error:  # a zombie left by an earlier test (this process is a subreaper)
        return False


def _server_pid() -> int:
    """The one server this test process started (the SDK client does not expose it)."""
    servers = [p for p in psutil.Process().children() if _cmdline_has(p, "mcp_server")]
    assert len(servers) == 1
    return servers[0].pid
