"""Helpers for the MCP server tests: how to start the server and a raw JSON-lines driver."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import time
from pathlib import Path
from queue import Empty, Queue
from typing import Any

import psutil

ROOT = Path(__file__).resolve().parents[2]
SERVER = [sys.executable, "-m", "mcp_server"]
LONG_LOOP = "(let loop ((i 0)) (if (< i 100000000) (loop (+ i 1)) i))"
INIT = {"protocolVersion": "2025-11-25", "capabilities": {},
        "clientInfo": {"name": "raw-test", "version": "0"}}
ENVELOPE = {"io.modelcontextprotocol/protocolVersion": "2026-07-28",
            "io.modelcontextprotocol/clientCapabilities": {},
            "io.modelcontextprotocol/clientInfo": {"name": "raw-test", "version": "0"}}


def server_env() -> dict[str, str]:
    # The SDK's stdio client passes only an allow-listed environment; the server must find
    # this checkout's packages all the same.
    return {"PYTHONPATH": str(ROOT)}


class Raw:
    """The server as a subprocess, driven one JSON line at a time."""

    def __init__(self, *args: str) -> None:
        self.proc = subprocess.Popen(SERVER + list(args), stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=ROOT,
                                     env={**os.environ, **server_env()})
        self.lines: Queue[bytes | None] = Queue()
        threading.Thread(target=self._pump, daemon=True).start()
        self.stderr: list[bytes] = []
        threading.Thread(target=self._drain_stderr, daemon=True).start()

    def _pump(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self.lines.put(line)
        self.lines.put(None)

    def _drain_stderr(self) -> None:
        assert self.proc.stderr is not None
        for line in self.proc.stderr:
            self.stderr.append(line)

    def write(self, data: bytes) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(data)
        self.proc.stdin.flush()

    def send(self, message: Any) -> None:
        self.write(json.dumps(message).encode() + b"\n")

    def request(self, rid: Any, method: str, params: dict | None = None) -> None:
        msg: dict[str, Any] = {"jsonrpc": "2.0", "id": rid, "method": method}
        if params is not None:
            msg["params"] = params
        self.send(msg)

    def read(self, timeout: float = 20.0) -> dict[str, Any]:
        line = self.lines.get(timeout=timeout)
        assert line is not None, "the server closed stdout"
        assert line.endswith(b"\n") and b"\n" not in line[:-1]
        return json.loads(line)

    def nothing_for(self, seconds: float) -> bool:
        try:
            self.lines.get(timeout=seconds)
        except Empty:
            return True
        return False

    def ask(self, rid: Any, method: str, params: dict | None = None) -> dict[str, Any]:
        self.request(rid, method, params)
        return self.read()

    def initialize(self) -> dict[str, Any]:
        reply = self.ask("init", "initialize", INIT)
        self.send({"jsonrpc": "2.0", "method": "notifications/initialized"})
        return reply

    def children(self) -> list[psutil.Process]:
        return psutil.Process(self.proc.pid).children(recursive=True)

    def workers(self) -> list[psutil.Process]:
        """The server's implementation workers: interpreters of implementations.worker, or
        workers forked by the worker template (named ``worker:IMPL``)."""
        out = []
        for p in self.children():
            try:
                if p.name().startswith("worker:") or \
                        "implementations.worker" in " ".join(p.cmdline()):
                    out.append(p)
            except psutil.Error:  # gone (or a zombie) meanwhile: not a running worker
                pass
        return out

    def close(self, timeout: float = 10.0) -> int:
        assert self.proc.stdin is not None
        try:
            self.proc.stdin.close()
        except BrokenPipeError:
            pass
        try:
            return self.proc.wait(timeout=timeout)
        finally:
            if self.proc.poll() is None:
                self.proc.kill()
                self.proc.wait()


def wait_for(predicate, timeout: float = 10.0) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.05)
    return predicate()
