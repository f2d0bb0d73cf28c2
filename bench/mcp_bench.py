"""The MCP server's latency: cold start and a warm lispex_compare.

    python bench/mcp_bench.py [--starts 7] [--calls 50] [--json FILE]

First compare: from spawning ``court mcp serve`` to the answer of its first ``lispex_compare``
(of ``(+ 1 2)`` on tree-rust, sent at once as a 2026-07-28 client does), beside ``python -c pass``
and beside an interpreter per member (``COURT_FORKSERVER=0``), interleaved,
median of ``--starts``; target <= 0.3 s. Cold start: from spawning ``court mcp serve`` (and
``python -m mcp_server``) to the answer of its first ``tools/list``, both as a 2026-07-28 client sends it (one stateless request) and as a
2025-11-25 client does (``initialize``, ``notifications/initialized``, then ``tools/list``); the
median of several starts. Warm compare: one server, ``lispex_compare`` on a small program round-trip over stdio
after a few warm-up calls, median of many calls, on ``tree-rust`` when the vm is in this
distribution, else on a two-member court of two tree workers. Targets: cold <= 0.5 s, warm
<= 50 ms. Prints the figures; exits 1 only if an answer is wrong.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ENTRIES = {"court mcp serve": [sys.executable, "-m", "court.cli", "mcp", "serve"],
           "python -m mcp_server": [sys.executable, "-m", "mcp_server"]}
ENVELOPE = {"io.modelcontextprotocol/protocolVersion": "2026-07-28",
            "io.modelcontextprotocol/clientCapabilities": {}}
PROGRAM = "(define (sq x) (* x x)) (map sq '(1 2 3 4))"
COLD_TARGET, WARM_TARGET, FIRST_TARGET = 0.5, 0.050, 0.3


class Server:
    def __init__(self, *args: str, entry: str = "court mcp serve", forkserver: bool = True) -> None:
        env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
        env.update(PYTHONPATH=str(ROOT), COURT_FORKSERVER="1" if forkserver else "0")
        self.proc = subprocess.Popen(ENTRIES[entry] + list(args), stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                                     cwd=ROOT, env=env)

    def ask(self, rid: int, method: str, params: dict) -> dict:
        self.send({"jsonrpc": "2.0", "id": rid, "method": method, "params": params})
        assert self.proc.stdout is not None
        reply = json.loads(self.proc.stdout.readline())
        if reply.get("id") != rid or "result" not in reply:
            raise SystemExit(f"unexpected answer to {method}: {reply}")
        return reply["result"]

    def send(self, message: dict) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(json.dumps(message).encode() + b"\n")
        self.proc.stdin.flush()

    def close(self) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.close()
        self.proc.wait(timeout=30)


def cold_start(entry: str, era: str) -> float:
    t0 = time.perf_counter()
    s = Server(entry=entry)
    if era == "legacy":
        s.ask(1, "initialize", {"protocolVersion": "2025-11-25", "capabilities": {},
                                "clientInfo": {"name": "bench", "version": "0"}})
        s.send({"jsonrpc": "2.0", "method": "notifications/initialized"})
        tools = s.ask(2, "tools/list", {})
    else:
        tools = s.ask(1, "tools/list", {"_meta": ENVELOPE})
    elapsed = time.perf_counter() - t0
    if len(tools["tools"]) != 5:
        raise SystemExit(f"tools/list listed {len(tools['tools'])} tools")
    s.close()
    return elapsed


def first_compare(forkserver: bool, court: str = "tree-rust") -> float:
    # The server offers the opt-in Topaz products only when named at its start.
    args = ["--product", "topaz-tree", "--product", "topaz-vm"] if court == "all-four" else []
    t0 = time.perf_counter()
    s = Server(*args, forkserver=forkserver)
    r = s.ask(1, "tools/call", {"_meta": ENVELOPE, "name": "lispex_compare",
                                "arguments": {"source": "(+ 1 2)", "court": court}})
    elapsed = time.perf_counter() - t0
    result = r["structuredContent"]["result"]
    if result["verdict"] != "agree" or any(o["semantic"]["values"] != ["3"]
                                           for o in result["observations"].values()):
        print(f"wrong answer: {json.dumps(result)[:400]}", file=sys.stderr)
        raise SystemExit(1)
    s.close()
    return elapsed


def python_pass() -> float:
    t0 = time.perf_counter()
    subprocess.run([sys.executable, "-c", "pass"], check=True)
    return time.perf_counter() - t0


def warm_compare(calls: int) -> tuple[str, list[float]]:
    from implementations import registry

    with tempfile.TemporaryDirectory() as tmp:
        args: list[str] = []
        court = "tree-rust"
        if "vm" not in registry.ids():
            court = "tree-pair"
            path = Path(tmp) / "court.toml"
            path.write_text(f'[products.tree-again]\ncommand = ["{sys.executable}", "-m", '
                            '"implementations.worker", "--impl", "tree"]\n'
                            'protocol = "court-worker/v1"\n'
                            '[courts.tree-pair]\nmembers = ["tree", "tree-again"]\n')
            args = ["--product", str(path)]
        s = Server(*args)
        samples = []
        try:
            for i in range(calls + 3):  # the first calls start the workers
                t0 = time.perf_counter()
                r = s.ask(10 + i, "tools/call", {"_meta": ENVELOPE, "name": "lispex_compare",
                                                 "arguments": {"source": PROGRAM,
                                                               "court": court}})
                elapsed = time.perf_counter() - t0
                result = r["structuredContent"]["result"]
                if result["verdict"] != "agree" or any(
                        o["semantic"]["values"] != ["(1 4 9 16)"]
                        for o in result["observations"].values()):
                    print(f"wrong answer: {json.dumps(result)[:400]}", file=sys.stderr)
                    raise SystemExit(1)
                if i >= 3:
                    samples.append(elapsed)
        finally:
            s.close()
    return court, samples


def main() -> int:
    p = argparse.ArgumentParser()
    p.add_argument("--starts", type=int, default=7)
    p.add_argument("--calls", type=int, default=50)
    p.add_argument("--json", help="write the raw samples here")
    args = p.parse_args()
    sys.path.insert(0, str(ROOT))
    print(f"{platform.python_implementation()} {platform.python_version()}, "
          f"{os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.2f}")
    first: dict[str, list[float]] = {"python -c pass": [], "template": [],
                                     "interpreter per member": [], "template, all-four": [],
                                     "interpreter per member, all-four": []}
    first_compare(True)  # bytecode caches
    for _ in range(args.starts):
        first["python -c pass"].append(python_pass())
        first["template"].append(first_compare(True))
        first["interpreter per member"].append(first_compare(False))
        first["template, all-four"].append(first_compare(True, "all-four"))
        first["interpreter per member, all-four"].append(first_compare(False, "all-four"))
    base = statistics.median(first["python -c pass"])
    for what, samples in first.items():
        med = statistics.median(samples)
        line = (f"first lispex_compare on a fresh server ({what}): median {med * 1000:.0f} ms "
                f"(min {min(samples) * 1000:.0f}, max {max(samples) * 1000:.0f}; "
                f"{med / base:.1f}x python -c pass)")
        if what == "python -c pass":
            line = f"python -c pass: median {med * 1000:.0f} ms"
        elif what.startswith("template"):
            line += f" target <= {FIRST_TARGET * 1000:.0f} ms " \
                    f"{'ok' if med <= FIRST_TARGET else 'MISSED'}"
        print(line)
    runs = [("court mcp serve", "modern"), ("court mcp serve", "legacy"),
            ("python -m mcp_server", "modern")]
    cold: dict[str, list[float]] = {f"{e}, {era}": [] for e, era in runs}
    for _ in range(args.starts):  # interleaved, so that a burst of load hits all alike
        for entry, era in runs:
            cold[f"{entry}, {era}"].append(cold_start(entry, era))
    for what, samples in cold.items():
        med = statistics.median(samples)
        print(f"cold start to first tools/list ({what}): median {med * 1000:.0f} ms "
              f"(min {min(samples) * 1000:.0f}, max {max(samples) * 1000:.0f}; "
              f"{len(samples)} starts) target <= {COLD_TARGET * 1000:.0f} ms "
              f"{'ok' if med <= COLD_TARGET else 'MISSED'}")
    court, warm = warm_compare(args.calls)
    med = statistics.median(warm)
    p95 = sorted(warm)[int(len(warm) * 0.95) - 1]
    print(f"warm lispex_compare on {court}: median {med * 1000:.1f} ms (p95 {p95 * 1000:.1f}, "
          f"{len(warm)} calls) target <= {WARM_TARGET * 1000:.0f} ms "
          f"{'ok' if med <= WARM_TARGET else 'MISSED'}")
    if args.json:
        Path(args.json).write_text(json.dumps({"first_compare": first, "cold": cold,
                                               "warm": {court: warm}}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
