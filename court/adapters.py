"""Foreign products run one process per case: `observation-json` and `lispex-cli` adapters.

Each adapter writes the program to a temporary file, runs the product's command with ``{file}``
and (when an input is given) ``{input}`` substituted, under the same deadline and memory limit as
every other member, and turns what came back into an observation.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import tempfile
import time
from typing import Any

from .products import Product
from .supervisor import Fault, Limits, _limit_memory, kill_group

DIAG_LINE = re.compile(r"^(?P<code>E\d{3}|W\d{3}|[a-z-]+-limit|recursion-limit) "
                       r"(?P<file>.*?):(?P<line>\d+):(?P<col>\d+) (?P<msg>.*)$")

# Axes a `lispex-cli` transcript cannot express separately.
CLI_UNCOMPARABLE = ("stdout", "values", "diagnostic_phase")


def _command(product: Product, path: str, input_text: str | None) -> list[str]:
    args = [a.replace("{file}", path) for a in product.command]
    if input_text is not None:
        args += [a.replace("{input}", input_text).replace("{file}", path)
                 for a in product.input_args]
    return args


def run_process(product: Product, source: bytes, input_text: str | None, filename: str,
                limits: Limits) -> tuple[subprocess.CompletedProcess, float]:
    suffix = os.path.splitext(filename)[1] or ".lspx"
    with tempfile.TemporaryDirectory(prefix="court-") as tmp:
        path = os.path.join(tmp, "program" + suffix)
        with open(path, "wb") as f:
            f.write(source)
        cmd = _command(product, path, input_text)
        t0 = time.perf_counter()
        try:
            proc = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                    stderr=subprocess.PIPE, start_new_session=True,
                                    preexec_fn=_limit_memory(limits.memory_bytes))
        except OSError as e:
            raise Fault("build", f"cannot start {product.id}: {e}") from None
        try:
            out, err = proc.communicate(timeout=limits.timeout)
        except subprocess.TimeoutExpired:
            kill_group(proc)
            raise Fault("timeout", f"{product.id} did not finish within {limits.timeout:g} s; "
                                   "it was killed") from None
        wall = time.perf_counter() - t0
        problems = kill_group(proc)  # reaps any stray descendants it left behind
        if problems:
            raise Fault("cleanup", "; ".join(problems))
        return subprocess.CompletedProcess(cmd, proc.returncode, out, err), wall


def observation_json(product: Product, source: bytes, input_text: str | None, filename: str,
                     limits: Limits) -> dict[str, Any]:
    done, wall = run_process(product, source, input_text, filename, limits)
    try:
        obs = json.loads(done.stdout.decode("utf-8"))
        sem = obs["semantic"]
        for key in ("status", "values", "stdout", "exit_status", "diagnostics", "warnings"):
            sem[key]  # noqa: B018 - presence check
    except (ValueError, KeyError, TypeError, UnicodeDecodeError):
        tail = done.stderr.decode("utf-8", "replace").strip().splitlines()[-1:] or [""]
        raise Fault("protocol", f"{product.id} did not print one observation JSON object "
                                f"(exit status {done.returncode}; {tail[0]})") from None
    obs["implementation"] = product.id
    obs.setdefault("resources", {})["wall_seconds"] = wall
    obs.setdefault("products", {})
    return obs


def lispex_cli(product: Product, source: bytes, input_text: str | None, filename: str,
               limits: Limits) -> dict[str, Any]:
    done, wall = run_process(product, source, input_text, filename, limits)
    if done.returncode not in (0, 1, 2):
        raise Fault("crash", f"{product.id} exited with status {done.returncode}")
    try:
        transcript = done.stdout.decode("utf-8")
        errtext = done.stderr.decode("utf-8")
    except UnicodeDecodeError:
        raise Fault("protocol", f"{product.id} wrote output that is not UTF-8") from None
    diagnostics, warnings = [], []
    for line in errtext.splitlines():
        m = DIAG_LINE.match(line)
        if not m:
            continue
        entry = {"code": m["code"], "severity": "warning" if m["code"].startswith("W") else
                 "error", "phase": None, "message": m["msg"], "irritants": [],
                 "span": {"file": m["file"], "line": int(m["line"]), "column": int(m["col"]),
                          "start": None, "end": None}}
        (warnings if m["code"].startswith("W") else diagnostics).append(entry)
    code = done.returncode
    if code == 0:
        status = "ok"
    elif code == 2:
        status = "resource"
    elif diagnostics and diagnostics[0]["code"][:2] in ("E1",):
        status = "source-error"
    else:
        status = "runtime-error"
    return {
        "schema": "lispex.court-observation/v1",
        "implementation": product.id,
        "semantic": {"status": status, "values": None, "stdout": None, "transcript": transcript,
                     "exit_status": code, "diagnostics": diagnostics[:1], "warnings": warnings,
                     "resource_outcome": {"status": "limit-exceeded" if code == 2
                                          else "within-limits"}},
        "resources": {"wall_seconds": wall},
        "products": {},
        "uncomparable_axes": list(CLI_UNCOMPARABLE),
    }


ONESHOT = {"observation-json": observation_json, "lispex-cli": lispex_cli}
