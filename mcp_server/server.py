"""The stdio loop: read bounded lines, route each request by era, run tool calls in order.

The main thread reads stdin and answers everything but ``tools/call`` itself, so it keeps
reading while a call runs and sees ``notifications/cancelled`` at once. Calls run one at a time,
in arrival order, on the call thread; a bounded queue holds those waiting (overflow gets an
error). A cancelled call gets no response; a call past ``--timeout`` answers status ``timeout``.
When stdin closes, the queued calls are finished, every worker is stopped, and the process exits.
"""

from __future__ import annotations

import argparse
import json
import os
import queue
import signal
import sys
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from . import DEFAULT_PROFILE, add_serve_arguments
from . import protocol as P
from .stdio import Oversized, Writer, read_lines, sniff_id

STDIN_FD = 0
WARM_JOIN = 30.0


def _log(message: str) -> None:
    sys.stderr.write(f"lispex-court mcp: {message}\n")
    sys.stderr.flush()


@dataclass
class Call:
    rid: Any
    name: str
    arguments: dict[str, Any]
    modern: bool
    progress_token: Any = None
    cancelled: bool = False
    control: Any = None  # engine.CallControl, made when the call starts
    progress_count: int = 0


class Server:
    def __init__(self, tools: Any, version: str, writer: Writer) -> None:
        self.tools = tools
        self.version = version
        self.writer = writer
        self.legacy_version: str | None = None  # set by initialize
        self.queue: queue.Queue[Call | None] = queue.Queue(maxsize=P.MAX_QUEUED_CALLS)
        self.lock = threading.Lock()  # guards pending/current against the call thread
        self.pending: dict[tuple, list[Call]] = {}
        self.current: Call | None = None
        self.stopping = False
        self.thread = threading.Thread(target=self._call_loop, name="mcp-calls", daemon=True)

    # -- reading and routing --------------------------------------------------------------

    def serve(self, fd: int = STDIN_FD, wake: int = -1) -> None:
        self.thread.start()
        for line in read_lines(fd, P.MAX_LINE_BYTES, wake):
            if isinstance(line, Oversized):
                rid = sniff_id(line.prefix)
                self.writer.send(P.error(rid if rid is not None else P.MISSING,
                                         P.INVALID_REQUEST,
                                         f"Invalid request: the line exceeds the "
                                         f"{P.MAX_LINE_BYTES >> 20} MiB limit and was skipped"))
                continue
            self.handle_line(line)
        self.queue.put(None)  # after the calls already queued
        self.thread.join()

    def handle_line(self, line: bytes) -> None:
        if line.endswith(b"\r"):
            line = line[:-1]
        if not line.strip():
            return
        try:
            text = line.decode("utf-8")
        except UnicodeDecodeError:
            self.writer.send(P.error(P.MISSING, P.PARSE_ERROR,
                                     "Parse error: the line is not valid UTF-8"))
            return
        try:
            message = json.loads(text, parse_constant=_no_constants)
        except (ValueError, RecursionError) as e:
            self.writer.send(P.error(P.MISSING, P.PARSE_ERROR, "Parse error: Invalid JSON",
                                     str(e)[:200]))
            return
        try:
            reply = self.handle_message(message)
        except Exception as e:  # a bug must not take the server down
            _log(f"internal error: {e!r}")
            rid = message.get("id") if isinstance(message, dict) else None
            reply = P.error(rid if P.valid_id(rid) else P.MISSING, P.INTERNAL_ERROR,
                            "Internal error")
        if reply is not None:
            self.writer.send(reply)

    def handle_message(self, msg: Any) -> dict[str, Any] | None:
        if not isinstance(msg, dict):
            what = "a batch (array)" if isinstance(msg, list) else "not an object"
            return P.error(P.MISSING, P.INVALID_REQUEST,
                           f"Invalid request: the message is {what}; send one JSON-RPC object "
                           "per line")
        has_id = "id" in msg
        rid = msg.get("id")
        reply_id = rid if P.valid_id(rid) else P.MISSING
        method = msg.get("method")
        if "method" not in msg and has_id and ("result" in msg or "error" in msg):
            return None  # a response from the client: the server never asks anything
        if msg.get("jsonrpc") != "2.0":
            return self._invalid(has_id, reply_id, "jsonrpc must be \"2.0\"")
        if not isinstance(method, str) or not method:
            return self._invalid(has_id, reply_id, "method must be a non-empty string")
        if not has_id:
            self.notification(method, msg.get("params"))
            return None
        if not P.valid_id(rid):
            return P.error(P.MISSING, P.INVALID_REQUEST,
                           "Invalid request: id must be a string or an integer")
        params = msg.get("params", {})
        if not isinstance(params, dict):
            return P.error(rid, P.INVALID_PARAMS, "Invalid params: params must be an object")
        return self.request(rid, method, params)

    @staticmethod
    def _invalid(has_id: bool, reply_id: Any, why: str) -> dict[str, Any] | None:
        if not has_id:
            return P.error(P.MISSING, P.INVALID_REQUEST, f"Invalid request: {why}")
        return P.error(reply_id, P.INVALID_REQUEST, f"Invalid request: {why}")

    def notification(self, method: str, params: Any) -> None:
        if method == "notifications/cancelled" and isinstance(params, dict):
            rid = params.get("requestId")
            if P.valid_id(rid):
                self.cancel(rid)
        # notifications/initialized and anything unknown: nothing to do, never an answer.

    def request(self, rid: Any, method: str, params: dict[str, Any]) -> dict[str, Any] | None:
        meta = params.get("_meta")
        modern = isinstance(meta, dict) and P.PROTOCOL_KEY in meta
        if method == "initialize":
            return self.initialize(rid, params)
        if modern:
            problem = P.envelope_problem(params)
            if problem:
                return P.error(rid, *problem)
            return self.modern(rid, method, params)
        if self.legacy_version is not None:
            return self.legacy(rid, method, params)
        if method == "ping":
            return P.result(rid, {})
        return P.error(rid, P.INVALID_PARAMS,
                       f"Invalid params: a {P.MODERN_VERSION} request carries params._meta "
                       f"with {P.PROTOCOL_KEY} and {P.CAPABILITIES_KEY}; without them, "
                       "send initialize first",
                       {"missing": [P.PROTOCOL_KEY, P.CAPABILITIES_KEY]})

    def initialize(self, rid: Any, params: dict[str, Any]) -> dict[str, Any]:
        if not isinstance(params.get("protocolVersion"), str):
            return P.error(rid, P.INVALID_PARAMS,
                           "Invalid params: initialize needs protocolVersion (a string)")
        # The one handshake version served; any other request is answered with it.
        self.legacy_version = P.LEGACY_VERSION
        return P.result(rid, {"protocolVersion": P.LEGACY_VERSION,
                              "capabilities": P.capabilities(),
                              "serverInfo": P.server_info(self.version),
                              "instructions": P.INSTRUCTIONS})

    def legacy(self, rid: Any, method: str, params: dict[str, Any]) -> dict[str, Any] | None:
        if method == "ping":
            return P.result(rid, {})
        if method == "tools/list":
            if params.get("cursor") is not None:
                return P.error(rid, P.INVALID_PARAMS, "Invalid params: unknown cursor")
            return P.result(rid, {"tools": self.tools.definitions()})
        if method == "tools/call":
            return self.call(rid, params, modern=False)
        return P.error(rid, P.METHOD_NOT_FOUND, "Method not found", method)

    def modern(self, rid: Any, method: str, params: dict[str, Any]) -> dict[str, Any] | None:
        if method == "server/discover":
            return P.result(rid, self.stamp({
                "supportedVersions": list(P.SUPPORTED_VERSIONS),
                "capabilities": P.capabilities(), "instructions": P.INSTRUCTIONS,
                "ttlMs": P.CACHE_TTL_MS, "cacheScope": P.CACHE_SCOPE}))
        if method == "tools/list":
            if params.get("cursor") is not None:
                return P.error(rid, P.INVALID_PARAMS, "Invalid params: unknown cursor")
            return P.result(rid, self.stamp({"tools": self.tools.definitions(),
                                             "ttlMs": P.CACHE_TTL_MS,
                                             "cacheScope": P.CACHE_SCOPE}))
        if method == "tools/call":
            return self.call(rid, params, modern=True)
        return P.error(rid, P.METHOD_NOT_FOUND, "Method not found", method)

    def stamp(self, body: dict[str, Any]) -> dict[str, Any]:
        """What every 2026-07-28 result carries."""
        body["resultType"] = "complete"
        body["_meta"] = {P.SERVER_INFO_KEY: P.server_info(self.version)}
        return body

    # -- tool calls -----------------------------------------------------------------------

    def call(self, rid: Any, params: dict[str, Any], modern: bool) -> dict[str, Any] | None:
        name = params.get("name")
        if not isinstance(name, str):
            return P.error(rid, P.INVALID_PARAMS, "Invalid params: tools/call needs a name")
        arguments = params.get("arguments", {})
        if arguments is None:
            arguments = {}
        if not isinstance(arguments, dict):
            return P.error(rid, P.INVALID_PARAMS, "Invalid params: arguments must be an object")
        if name not in self.tools.inputs:
            return P.error(rid, P.INVALID_PARAMS, f"Unknown tool: {name}",
                           {"known": list(self.tools.inputs)})
        call = Call(rid, name, arguments, modern, P.progress_token(params))
        with self.lock:
            try:
                self.queue.put_nowait(call)
            except queue.Full:
                return P.error(rid, P.SERVER_BUSY,
                               f"Server busy: {P.MAX_QUEUED_CALLS} calls are already waiting; "
                               "retry when one has answered")
            self.pending.setdefault(P.id_key(rid), []).append(call)
        return None

    def cancel(self, rid: Any) -> None:
        with self.lock:
            key = P.id_key(rid)
            for call in self.pending.get(key, []):
                call.cancelled = True
            current = self.current
            if current is not None and P.id_key(current.rid) == key and not current.cancelled:
                current.cancelled = True
                if current.control is not None:
                    self.tools.abort(current.control)

    def _call_loop(self) -> None:
        from .engine import CallControl  # light: the court's machinery loads on first use

        while True:
            call = self.queue.get()
            if call is None or self.stopping:
                return
            with self.lock:
                waiting = self.pending.get(P.id_key(call.rid), [])
                if call in waiting:
                    waiting.remove(call)
                if not waiting:
                    self.pending.pop(P.id_key(call.rid), None)
                if call.cancelled:
                    continue
                call.control = CallControl()
                self.current = call
            timer = None
            if call.name in ("lispex_eval", "lispex_compare"):
                timer = threading.Timer(self.tools.timeout, self._expire, (call,))
                timer.daemon = True
                timer.start()
            try:
                body = self.tools.call(call.name, call.arguments, call.control,
                                       self._progress(call) if call.progress_token is not None
                                       else None)
            except Exception as e:  # a bug must cost one call, not the server
                _log(f"{call.name} failed: {e!r}")
                from .tools import error_result

                body = error_result({"code": "internal-error", "message": repr(e)})
            finally:
                if timer is not None:
                    timer.cancel()
                call.control.done.set()
            if call.modern:
                self.stamp(body)
            with self.lock:  # so that a cancel is either before the answer or too late
                self.current = None
                if not call.cancelled:  # else the client wants nothing more about it
                    self.writer.send(P.result(call.rid, body))

    def stop(self) -> None:
        """Drop the queued calls and stop the running one (on a signal); give the call thread
        a moment to return before the workers are stopped under it."""
        with self.lock:
            self.stopping = True
            for waiting in self.pending.values():
                for call in waiting:
                    call.cancelled = True
            current = self.current
            if current is not None and current.control is not None:
                current.cancelled = True
                self.tools.abort(current.control)
        if self.thread.is_alive():
            try:
                self.queue.put_nowait(None)
            except queue.Full:
                pass
            self.thread.join(timeout=5.0)

    def _expire(self, call: Call) -> None:
        with self.lock:
            if self.current is not call or call.control.done.is_set():
                return
            call.control.timed_out = True
            self.tools.abort(call.control)

    def _progress(self, call: Call):
        def send(message: str) -> None:
            with self.lock:
                if call.cancelled:
                    return
                call.progress_count += 1
                params: dict[str, Any] = {"progressToken": call.progress_token,
                                          "progress": call.progress_count, "message": message}
                total = len(call.control.members)
                if call.progress_count <= total:
                    params["total"] = total
                self.writer.send({"jsonrpc": "2.0", "method": "notifications/progress",
                                  "params": params})
        return send


def _no_constants(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="python -m mcp_server",
                                description="Lispex Court MCP server on stdin/stdout")
    add_serve_arguments(p)
    return p


def main(args: argparse.Namespace | Sequence[str] | None = None) -> int:
    if not isinstance(args, argparse.Namespace):
        args = build_parser().parse_args(args)
    # Protocol only on stdout: keep a private copy of it and point fd 1 at stderr, so a stray
    # print anywhere (ours or a library's) cannot corrupt the stream.
    out_fd = os.dup(1)
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    # The worker template of the default court boots while the server loads the rest; the
    # warm-up below forks its workers from it.
    from court.catalog import DEFAULT_COURT, FIXED_COURTS
    from court.workers.forkserver import prestart, shutdown

    prestart(FIXED_COURTS[DEFAULT_COURT])
    tools = _start(args)
    if tools is None:
        shutdown()
        return 2
    from court import __version__

    server = Server(tools, __version__, Writer(out_fd))

    def on_signal(signum: int, _frame: Any) -> None:
        raise SystemExit(128 + signum)

    signal.signal(signal.SIGTERM, on_signal)
    # Whichever thread the kernel gives a signal to, the main thread's wait for input ends.
    wake_r, wake_w = os.pipe()
    os.set_blocking(wake_r, False)
    os.set_blocking(wake_w, False)
    signal.set_wakeup_fd(wake_w, warn_on_full_buffer=False)
    # The default court's workers start now, beside the first requests: initialize,
    # server/discover and tools/list never wait for them, and the first call finds them warm.
    warm = threading.Thread(target=_warm, args=(tools,), daemon=True, name="mcp-warm")
    warm.start()
    code = 0
    try:
        server.serve(wake=wake_r)
    except KeyboardInterrupt:
        code = 130
    except SystemExit as e:
        code = int(e.code or 0)
    finally:
        server.stop()
        warm.join(timeout=WARM_JOIN)  # so that no worker starts after the others are stopped
        for problem in tools.close():
            _log(f"cleanup: {problem}")
    return code


def _warm(tools: Any) -> None:
    try:
        tools.warm()
    except Exception as e:  # noqa: BLE001 - a warm-up failure is the first call's to report
        _log(f"warming the workers failed: {e!r}")


def _start(args: argparse.Namespace) -> Any:
    from court.catalog import ConfigError
    from implementations.lispex.meters import profiles

    from .engine import offered_config
    from .tools import Tools

    if args.timeout <= 0:
        _log("--timeout must be positive")
        return None
    if args.profile not in profiles():
        _log(f"unknown profile {args.profile}; known: {', '.join(profiles())}")
        return None
    try:
        config = offered_config(list(args.product))
    except ConfigError as e:
        _log(str(e))
        return None
    tools = Tools(config, args.timeout, args.profile or DEFAULT_PROFILE)
    if getattr(args, "signing_key", None):
        from .receipts import load_key

        tools.signing_key = load_key(args.signing_key, _log)
        if tools.signing_key is None:
            return None
    return tools
