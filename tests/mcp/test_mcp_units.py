"""The server's parts in process: framing, the schema checker, start options, the reference and
diagnostic tables (no subprocess, no worker)."""

from __future__ import annotations

import json
import os
import threading

import jsonschema
import pytest

from court.catalog import FIXED_COURTS, ConfigError
from implementations.lispex.errors import catalog
from implementations.lispex.forms import FORBIDDEN, RESERVED
from implementations.lispex.meters import profiles
from implementations.lispex.primitives.table import rows
from mcp_server import schema_check
from mcp_server.engine import CallControl, offered_config
from mcp_server.reference import ABSENT
from mcp_server.stdio import Oversized, read_lines, sniff_id
from mcp_server.tools import Tools


@pytest.fixture(scope="module")
def tools() -> Tools:
    return Tools(offered_config([]), 5.0, "lispex-mcp-local-authoring/v1")


def call(tools: Tools, name: str, args: dict) -> dict:
    body = tools.call(name, args, CallControl())
    if body["isError"]:
        return json.loads(body["content"][0]["text"])
    return body["structuredContent"]["result"]


def lines_of(data: bytes, limit: int) -> list:
    r, w = os.pipe()
    writer = threading.Thread(target=lambda: (os.write(w, data), os.close(w)))
    writer.start()
    try:
        return [x.prefix[:8] if isinstance(x, Oversized) else x for x in read_lines(r, limit)]
    finally:
        writer.join()
        os.close(r)


def test_read_lines_bounds_every_line():
    assert lines_of(b"a\nbb\r\n\nccc", 10) == [b"a", b"bb\r", b"", b"ccc"]
    long = b"{" + b"x" * 300_000
    got = lines_of(b"ok\n" + long + b"\nafter\n" + long, 1000)
    assert got == [b"ok", long[:8], b"after", long[:8]]
    assert all(not isinstance(x, Oversized) for x in lines_of(b"y" * 1000 + b"\n", 1000))


def test_sniff_id_reads_only_the_top_level_id():
    assert sniff_id(b'{"jsonrpc":"2.0","id":42,"method":"tools/call","params":{"x":"') == 42
    assert sniff_id(b'{"params":{"id":1,"source":"...') is None
    assert sniff_id(b'{"method":"x", "id" : "abc", "params"') == "abc"
    assert sniff_id(b'{"a":"id","id":null,') is None
    assert sniff_id(b'{"a":[{"id":3}],"id":true') is None
    assert sniff_id(b'{"jsonrpc":"2.0","method":"tools/call","params":{"arguments":') is None


def test_schemas_are_valid_and_within_the_checker(tools):
    for d in tools.definitions():
        for key in ("inputSchema", "outputSchema"):
            jsonschema.Draft202012Validator.check_schema(d[key])
            assert schema_check.unknown_keywords(d[key]) == set(), (d["name"], key)
            # Declared, so that clients (the MCP Inspector) need not guess the dialect.
            assert d[key]["$schema"] == "https://json-schema.org/draft/2020-12/schema", \
                (d["name"], key)
        assert d["inputSchema"]["type"] == "object" == d["outputSchema"]["type"]
        assert 1 <= len(d["name"]) <= 64


@pytest.mark.parametrize("args", [
    {"source": "1"}, {}, {"source": 1}, {"source": "1", "extra": True},
    {"source": "1", "filename": ""}, {"source": "1", "filename": "a\nb"},
    {"source": "1", "filename": "x" * 4097}, {"source": "1", "input": ""},
    {"source": "1", "implementation": "nope"}, {"source": "1", "profile": "lispex-product-web/v1"},
    {"source": "1", "profile": "lispex-receipt-144/v1"}, {"source": None},
])
def test_checker_agrees_with_jsonschema(tools, args):
    for name in ("lispex_eval", "lispex_compare"):
        s = tools.inputs[name]
        expected = jsonschema.Draft202012Validator(s).is_valid(args)
        assert (not schema_check.errors(args, s)) == expected, (name, args)


def test_invalid_arguments_name_the_argument(tools):
    err = call(tools, "lispex_check", {"source": "1", "filename": "x" * 5000})["error"]
    assert err["code"] == "invalid-argument" and err["argument"] == "filename"
    assert call(tools, "lispex_diagnostic", {})["error"]["argument"] == "code"
    assert call(tools, "lispex_reference", {"topic": "nope"})["error"]["argument"] == "topic"


def test_start_options(tmp_path):
    base = offered_config([])
    assert dict(base.courts) == dict(FIXED_COURTS)
    assert not [p for p in base.products if p.startswith("topaz")]
    manifest = tmp_path / "topaz-vm.toml"
    manifest.write_text('id = "topaz-vm"\nfamily = "topaz"\nprotocol = "observation-json"\n'
                        'command = ["/nonexistent/topaz-vm", "{file}"]\n')
    config = offered_config([str(manifest)])
    assert "topaz-vm" in config.products
    t = Tools(config, 5.0, "lispex-mcp-local-authoring/v1")
    r = call(t, "lispex_compare", {"source": "1", "court": "rust-topaz"})
    assert r["status"] == "unavailable" and "topaz-vm" in r["missing_prerequisites"]
    assert [a for a in r["attempted_routes"] if "/nonexistent/topaz-vm" in a]
    assert "topaz-vm cannot run on this machine" in r["remedy"]
    courts = tmp_path / "court.toml"
    courts.write_text('[courts.solo]\nmembers = ["tree"]\n')
    assert "solo" in offered_config([str(courts)]).courts
    with pytest.raises(ConfigError):
        offered_config(["no-such-product"])
    clash = tmp_path / "clash.toml"
    clash.write_text('id = "tree"\ncommand = ["x"]\n')
    with pytest.raises(ConfigError):
        offered_config([str(clash)])


def test_reference_comes_from_the_kernel_tables(tools):
    topics = {t["topic"]: t["count"] for t in call(tools, "lispex_reference", {})["topics"]}
    assert topics["procedures"] == len(rows()) + len(ABSENT)
    assert topics["reserved"] == len(RESERVED) + len(FORBIDDEN)
    assert topics["diagnostics"] == len(catalog())
    assert topics["profiles"] == len(profiles())
    assert topics["courts"] == len(FIXED_COURTS)
    assert not set(ABSENT) & {r.name for r in rows()}, "a name listed absent is a primitive"

    def entry(topic, name):
        r = call(tools, "lispex_reference", {"topic": topic, "name": name})
        assert r["known"], r
        assert "entry" not in r and r["topic"] == topic and r["name"] == name
        return r

    assert entry("procedures", "eval")["disposition"] == "absent"
    assert entry("procedures", "car")["disposition"] == "present"
    first = entry("procedures", "first")
    assert (first["disposition"], first["alias_of"]) == ("alias", "car")
    assert entry("procedures", "%")["disposition"] == "deprecated"
    assert entry("reserved", "lambda")["kind"] == "syntactic-keyword"
    assert entry("reserved", "values")["usable_as_value"] is True
    assert entry("forms", "define-syntax")["disposition"] == "forbidden"
    assert entry("profiles", "lispex-mcp-local-authoring/v1")["server_default"] is True
    assert entry("courts", "tree-rust")["members"] == list(FIXED_COURTS["tree-rust"])
    unknown = call(tools, "lispex_reference", {"topic": "procedures", "name": "caar!"})
    assert unknown["known"] is False and "caar" in unknown["suggestions"]
    anywhere = call(tools, "lispex_reference", {"name": "E302"})
    assert anywhere["topic"] == "diagnostics"


def test_every_catalog_code_is_explained(tools):
    for code, e in catalog().items():
        r = call(tools, "lispex_diagnostic", {"code": code})
        assert r["known"] and (r["phase"], r["exit_status"]) == (e.phase, e.exit_status)
        assert r["raising_condition"]
    # E100's raising condition in the reference's words: the reader cannot form one datum.
    e100 = call(tools, "lispex_diagnostic", {"code": "E100"})["raising_condition"]
    assert e100.startswith("the reader cannot form one admitted datum"), e100
    assert call(tools, "lispex_diagnostic", {"code": "e302"})["code"] == "E302"
    missing = call(tools, "lispex_diagnostic", {"code": "E303x"})
    assert missing["known"] is False and "E303" in missing["suggestions"]


def test_check_reads_and_normalises_only(tools):
    ok = call(tools, "lispex_check", {"source": "(display \"never printed\") (car)"})
    assert ok["status"] == "ok" and ok["forms"] == 2 and ok["usage"]["machine_transitions"] == 0
    bad = call(tools, "lispex_check", {"source": "(define-syntax x 1)", "filename": "r.lspx"})
    d = bad["diagnostics"][0]
    assert (bad["status"], d["code"], d["span"]["file"]) == ("source-error", "E120", "r.lspx")
    assert call(tools, "lispex_check", {"source": "\ud800"})["diagnostics"][0]["code"] == "E100"


def test_output_schemas_use_no_type_lists_and_the_source_states_its_byte_cap():
    """A nullable field is written as anyOf (the form MCP clients read without a portability
    warning); the source's 8 MiB byte cap, which maxLength (characters) cannot express, is said
    in its description."""
    from mcp_server.schemas import input_schemas, output_schema

    def type_lists(node, path="$"):
        if isinstance(node, dict):
            if isinstance(node.get("type"), list):
                yield path
            for k, v in node.items():
                yield from type_lists(v, f"{path}.{k}")
        elif isinstance(node, list):
            for i, v in enumerate(node):
                yield from type_lists(v, f"{path}[{i}]")

    for tool in ("lispex_eval", "lispex_compare", "lispex_check", "lispex_diagnostic",
                 "lispex_reference"):
        out = output_schema(tool)
        assert not list(type_lists(out)), (tool, list(type_lists(out))[:3])
        jsonschema.Draft202012Validator.check_schema(out)
    source = input_schemas(["tree"], ["tree-rust"], ["lispex-mcp-local-authoring/v1"],
                           "lispex-mcp-local-authoring/v1", "tree-rust",
                           )["lispex_eval"]["properties"]["source"]
    assert "8,388,608 bytes" in source["description"]
