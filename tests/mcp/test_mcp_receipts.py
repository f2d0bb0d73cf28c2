"""`lispex_compare` with "receipt": true, through the MCP SDK client, verified by `court verify`;
and the tool error of a server started without a signing key."""

from __future__ import annotations

import json
import subprocess
import sys

import anyio
import pytest
from mcp import Client, StdioServerParameters
from mcp_support import ROOT, server_env

SOURCE = "(define (decide x) (if (>= (cadr x) 18) '(decision allow) '(decision deny)))\n" \
         "(decide input)\n"
INPUT = "(age 17)"


def client(*args: str) -> Client:
    params = StdioServerParameters(command=sys.executable, args=["-m", "mcp_server", *args],
                                   cwd=str(ROOT), env=server_env())
    return Client(params, mode="auto", read_timeout_seconds=60)


@pytest.fixture(scope="module")
def keydir(tmp_path_factory):
    folder = tmp_path_factory.mktemp("mcp-keys")
    subprocess.run([sys.executable, "-m", "court.cli", "keys", "generate", str(folder)],
                   check=True, cwd=ROOT, env={**server_env(), "PATH": "/usr/bin:/bin"},
                   stdout=subprocess.DEVNULL)
    return folder


@pytest.mark.anyio
async def test_a_receipt_from_lispex_compare_verifies_with_court_verify(keydir, tmp_path):
    async with client("--signing-key", str(keydir / "court-signing.key")) as c:
        r = await c.call_tool("lispex_compare", {"source": SOURCE, "input": INPUT,
                                                 "filename": "rule.lspx", "receipt": True})
        assert not r.is_error, r.content
        result = r.structured_content["result"]
        plain = await c.call_tool("lispex_compare", {"source": SOURCE, "input": INPUT})
        assert "receipt" not in plain.structured_content["result"]
    assert result["verdict"] == "agree"
    receipt = tmp_path / "rule.receipt.json"
    receipt.write_text(json.dumps(result["receipt"]))
    (tmp_path / "rule.lspx").write_text(SOURCE)
    (tmp_path / "rule.input").write_text(INPUT)
    proc = await anyio.run_process(
        [sys.executable, "-m", "court.cli", "verify", str(receipt), "--key",
         str(keydir / "court-signing.pub"), "--source", str(tmp_path / "rule.lspx"),
         "--input", str(tmp_path / "rule.input"), "--json"],
        cwd=str(ROOT), env={**server_env(), "PATH": "/usr/bin:/bin"}, check=False)
    summary = json.loads(proc.stdout)
    assert proc.returncode == 0, summary
    status = {c["check"]: c["status"] for c in summary["checks"]}
    assert status["re-execution"] == "passed" and status["verdict"] == "passed"
    # The server's limits and profile are the request's: re-execution used them.
    assert status["request"] == "passed"


@pytest.mark.anyio
async def test_a_receipt_needs_a_server_with_a_signing_key():
    async with client() as c:
        r = await c.call_tool("lispex_compare", {"source": "(+ 1 2)", "receipt": True})
        assert r.is_error
        error = json.loads(r.content[0].text)["error"]
        assert error["code"] == "invalid-argument" and error["argument"] == "receipt"
        assert "--signing-key" in error["message"]
        ok = await c.call_tool("lispex_compare", {"source": "(+ 1 2)"})
        assert not ok.is_error


def test_a_server_with_an_unusable_signing_key_does_not_start(tmp_path):
    proc = subprocess.run([sys.executable, "-m", "mcp_server", "--signing-key",
                           str(tmp_path / "none.key")], cwd=ROOT, env=server_env(),
                          stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2
    assert "--signing-key" in proc.stderr and "cannot read it" in proc.stderr
