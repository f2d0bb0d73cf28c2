"""The server on raw JSON lines: every malformed input gets its JSON-RPC error and the server
stays up; era routing per request; queueing, cancellation and a clean exit."""

from __future__ import annotations

import ctypes
import json
import platform
import signal

import psutil
import pytest
from mcp_support import ENVELOPE, INIT, LONG_LOOP, wait_for
from process_checks import assert_gone

MODERN = {"_meta": ENVELOPE}


def call_params(name: str, arguments: dict, modern: bool = False, **meta) -> dict:
    p: dict = {"name": name, "arguments": arguments}
    if modern or meta:
        p["_meta"] = {**(ENVELOPE if modern else {}), **meta}
    return p


def assert_error(reply: dict, code: int, rid=None) -> dict:
    assert "result" not in reply, reply
    assert reply["error"]["code"] == code, reply
    if rid is None:
        assert "id" in reply and reply["id"] is None  # JSON-RPC 2.0: null when unreadable
    else:
        assert reply["id"] == rid and type(reply["id"]) is type(rid)
    return reply["error"]


def test_malformed_lines_get_errors_and_the_server_stays_up(raw):
    s = raw()
    s.write(b"{not json\n")
    assert_error(s.read(), -32700)
    s.write(b'{"jsonrpc":"2.0","id":1,"method":"ping","params":{"x":"\xff\xfe"}}\n')
    assert_error(s.read(), -32700)  # invalid UTF-8 is a parse error
    s.write(b'{"jsonrpc":"2.0","id":1,"method":"ping","x":NaN}\n')
    assert_error(s.read(), -32700)
    s.write(b"[" * 100_000 + b"\n")
    assert_error(s.read(), -32700)
    s.send([{"jsonrpc": "2.0", "id": 1, "method": "ping"}])  # batches were removed
    assert_error(s.read(), -32600)
    s.send({"id": 2, "method": "ping"})
    assert_error(s.read(), -32600, 2)
    s.send({"jsonrpc": "2.0", "id": None, "method": "ping"})
    assert_error(s.read(), -32600)
    s.send({"jsonrpc": "2.0", "id": 1.5, "method": "ping"})
    assert_error(s.read(), -32600)
    s.send({"jsonrpc": "2.0", "id": 3, "method": 7})
    assert_error(s.read(), -32600, 3)
    s.send("just a string")
    assert_error(s.read(), -32600)
    s.write(b"\n   \n")  # blank lines are skipped silently
    assert s.ask(0, "ping") == {"jsonrpc": "2.0", "id": 0, "result": {}}
    assert s.close() == 0


def test_oversized_line_is_answered_and_skipped_without_holding_it(raw):
    s = raw()
    assert s.ask("a", "ping")["result"] == {}
    before = _peak_rss(s.proc.pid)
    filler = "x" * (48 << 20)  # three times the limit
    s.write(b'{"jsonrpc":"2.0","id":77,"method":"tools/call","params":{"name":"lispex_check",'
            b'"arguments":{"source":"' + filler.encode() + b'"}}}\n')
    err = assert_error(s.read(), -32600, 77)
    assert "16 MiB" in err["message"]
    assert s.ask("b", "ping")["result"] == {}
    grew = _peak_rss(s.proc.pid) - before
    # Up to the limit is buffered before the line is known to be too long; never the rest.
    assert grew < 24 << 20, f"peak RSS grew by {grew >> 20} MiB"
    # A line just under the limit is read whole, and its source is bounded by the tool.
    s.initialize()
    big = "1 " * ((9 << 20) // 2)
    s.request(5, "tools/call", call_params("lispex_check", {"source": big}))
    reply = s.read()
    assert reply["result"]["isError"] is True
    assert json.loads(reply["result"]["content"][0]["text"])["error"]["argument"] == "source"


def test_era_routing_and_protocol_errors(raw):
    s = raw()
    # Before any handshake: ping is served, other requests need the 2026-07-28 envelope.
    assert s.ask(1, "ping")["result"] == {}
    assert_error(s.ask(2, "tools/list"), -32602, 2)
    assert_error(s.ask(3, "tools/list", {"_meta": {k: v for k, v in ENVELOPE.items()
                                                    if "Capabilities" not in k}}), -32602, 3)
    e = assert_error(s.ask(4, "tools/list", {"_meta": {**ENVELOPE, "io.modelcontextprotocol/"
                                                       "protocolVersion": "1900-01-01"}}),
                     -32022, 4)
    assert e["data"] == {"supported": ["2026-07-28", "2025-11-25"], "requested": "1900-01-01"}
    # Modern, stateless.
    d = s.ask("d", "server/discover", MODERN)["result"]
    assert d["resultType"] == "complete" and "2026-07-28" in d["supportedVersions"]
    assert set(e["data"]["supported"]) <= set(d["supportedVersions"])
    assert d["capabilities"]["tools"] == {"listChanged": False}
    assert d["ttlMs"] >= 0 and d["cacheScope"] in ("public", "private")
    assert d["_meta"]["io.modelcontextprotocol/serverInfo"]["name"] == "lispex-court"
    t = s.ask(5, "tools/list", MODERN)["result"]
    assert t["resultType"] == "complete" and "ttlMs" in t and "cacheScope" in t
    assert [x["name"] for x in t["tools"]] == [x["name"] for x in
                                               s.ask(6, "tools/list", MODERN)["result"]["tools"]]
    assert_error(s.ask(7, "ping", MODERN), -32601, 7)
    assert_error(s.ask(8, "resources/list", MODERN), -32601, 8)
    # Legacy handshake; answered with 2025-11-25 whatever the client asks for.
    reply = s.ask(9, "initialize", {**INIT, "protocolVersion": "2026-07-28"})
    assert reply["result"]["protocolVersion"] == "2025-11-25"
    assert reply["result"]["serverInfo"]["name"] == "lispex-court"
    assert "never reads files" in reply["result"]["instructions"]
    listed = s.ask(10, "tools/list")["result"]
    assert "resultType" not in listed and "ttlMs" not in listed
    assert_error(s.ask(11, "nope/nope"), -32601, 11)
    # Both eras on one process: an enveloped request is still served statelessly.
    assert s.ask(12, "tools/list", MODERN)["result"]["resultType"] == "complete"
    # Bad params.
    assert_error(s.ask(13, "tools/call", {"arguments": {}}), -32602, 13)
    assert_error(s.ask(14, "tools/call", {"name": "lispex_eval", "arguments": [1]}), -32602, 14)
    s.send({"jsonrpc": "2.0", "id": 15, "method": "tools/list", "params": [1, 2]})
    assert_error(s.read(), -32602, 15)
    assert_error(s.ask(16, "tools/list", {"cursor": "page-2"}), -32602, 16)
    e = assert_error(s.ask(17, "tools/call", call_params("lispex_nope", {})), -32602, 17)
    assert e["message"] == "Unknown tool: lispex_nope"
    assert_error(s.ask(18, "tools/call", call_params("lispex_nope", {}, modern=True)), -32602, 18)
    # Notifications and responses are never answered; ids keep their JSON type.
    s.send({"jsonrpc": "2.0", "method": "notifications/whatever"})
    s.send({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 999}})
    s.send({"jsonrpc": "2.0", "id": 5, "result": {}})
    assert s.ask("19", "ping") == {"jsonrpc": "2.0", "id": "19", "result": {}}
    assert s.close() == 0


def test_tool_results_in_both_eras(raw):
    s = raw()
    r = s.ask(1, "tools/call", call_params("lispex_eval", {"source": "(car)"}, modern=True))
    res = r["result"]
    assert res["resultType"] == "complete" and res["isError"] is False
    assert res["_meta"]["io.modelcontextprotocol/serverInfo"]["name"] == "lispex-court"
    out = res["structuredContent"]["result"]
    assert (out["status"], out["exit_status"], out["diagnostics"][0]["code"]) == \
        ("runtime-error", 1, "E302")
    assert json.loads(res["content"][0]["text"]) == out
    s.initialize()
    res = s.ask(2, "tools/call", call_params("lispex_eval", {"source": "(car)"}))["result"]
    assert "resultType" not in res and res["structuredContent"]["result"] == {
        **out, "resources": res["structuredContent"]["result"]["resources"]}
    bad = s.ask(3, "tools/call", call_params("lispex_check", {"source": 5}))["result"]
    assert bad["isError"] is True
    assert json.loads(bad["content"][0]["text"])["error"]["argument"] == "source"
    bad = s.ask(4, "tools/call", call_params("lispex_check", {"source": "1", "filename": ""}))
    assert json.loads(bad["result"]["content"][0]["text"])["error"]["argument"] == "filename"
    s.close()


def test_cancel_running_call_sends_nothing_and_queue_is_bounded(raw):
    s = raw()
    s.initialize()
    s.request("long", "tools/call", call_params("lispex_eval", {"source": LONG_LOOP},
                                                progressToken="p"))
    assert wait_for(lambda: busy(s) >= 1)  # the long call is running (its worker is busy)
    for i in range(8):  # fills the queue behind the running call
        s.request(f"q{i}", "tools/call", call_params("lispex_eval", {"source": f"(+ {i} 1)"}))
    s.request("over", "tools/call", call_params("lispex_eval", {"source": "1"}))
    assert_error(s.read(), -31000, "over")
    s.send({"jsonrpc": "2.0", "method": "notifications/cancelled",
            "params": {"requestId": "q3", "reason": "queued, then cancelled"}})
    s.send({"jsonrpc": "2.0", "method": "notifications/cancelled",
            "params": {"requestId": "long", "reason": "test"}})
    got = [s.read() for _ in range(7)]
    assert [g["id"] for g in got] == [f"q{i}" for i in range(8) if i != 3]
    assert [g["result"]["structuredContent"]["result"]["values"] for g in got] == \
        [[str(i + 1)] for i in range(8) if i != 3]
    assert s.nothing_for(0.5), "a cancelled call was answered"
    assert s.close() == 0


def test_cancel_a_compare_mid_way(raw, pair_court):
    s = raw("--product", str(pair_court))
    s.initialize()
    s.request(1, "tools/call", call_params("lispex_compare", {"source": LONG_LOOP,
                                                              "court": "tree-pair"},
                                           progressToken=1))
    assert wait_for(lambda: busy(s) == 2)
    s.send({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 1}})
    assert wait_for(lambda: busy(s) == 0)
    r = s.ask(2, "tools/call", call_params("lispex_compare", {"source": "(+ 1 2)",
                                                              "court": "tree-pair"}))
    assert r["id"] == 2 and r["result"]["structuredContent"]["result"]["verdict"] == "agree"
    assert s.nothing_for(0.3)
    assert s.close() == 0


@pytest.mark.parametrize("how", ["eof", "sigterm"])
def test_no_worker_left_after_the_server_exits(raw, pair_court, how):
    s = raw("--product", str(pair_court), "--timeout", "2")
    s.initialize()
    s.request(1, "tools/call", call_params("lispex_compare", {"source": "(+ 1 2)",
                                                              "court": "tree-pair"}))
    assert s.read()["result"]["structuredContent"]["result"]["verdict"] == "agree"
    s.request(2, "tools/call", call_params("lispex_eval", {"source": LONG_LOOP}))
    workers = s.children()
    assert len(workers) >= 2
    if how == "sigterm":
        s.proc.send_signal(signal.SIGTERM)
        assert s.proc.wait(timeout=10) == 128 + signal.SIGTERM
    else:
        # Closing stdin ends the input, not the calls already made: the running one is still
        # answered (here after --timeout), then every worker is stopped and the server exits.
        assert s.close(timeout=30) == 0
        assert s.read()["result"]["structuredContent"]["result"]["status"] == "timeout"
    assert_gone(workers, grace=5)


TGKILL = {"x86_64": 234, "aarch64": 131}  # the tgkill system call's number


@pytest.mark.skipif(platform.machine() not in TGKILL, reason="tgkill's number not known here")
def test_sigterm_given_to_another_thread_still_stops_a_server_waiting_for_input(raw):
    # The kernel may hand a process's signal to any of its threads; the main thread, blocked
    # reading stdin, must still wake and stop. Sent here to each other thread in turn, on
    # purpose: before the wakeup pipe, that left the server waiting for input for good.
    s = raw()
    s.initialize()
    assert s.ask(1, "tools/list", {})["result"]["tools"]
    others = [t.id for t in psutil.Process(s.proc.pid).threads() if t.id != s.proc.pid]
    assert others
    libc = ctypes.CDLL(None, use_errno=True)
    assert libc.syscall(TGKILL[platform.machine()], s.proc.pid, others[0], signal.SIGTERM) == 0
    assert s.proc.wait(timeout=10) == 128 + signal.SIGTERM

def test_bad_start_options_exit_2(raw):
    for args in (["--product", "no-such-product"], ["--profile", "nope/v1"],
                 ["--timeout", "0"]):
        s = raw(*args)
        assert s.proc.wait(timeout=10) == 2
        assert s.proc.stdout.read() == b""  # nothing but protocol on stdout, ever


def busy(s) -> int:
    """How many of the server's workers are using a CPU."""
    n = 0
    for p in s.workers():
        try:
            n += p.cpu_percent(0.2) > 5  # the machine may be shared: any real use counts
        except psutil.Error:
            pass
    return n


def _peak_rss(pid: int) -> int:
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) * 1024
    raise AssertionError("no VmHWM")
