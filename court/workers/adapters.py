"""Foreign products run one process per case: `observation-json` and `lispex-cli` adapters.

Each adapter writes the program to a temporary file (named like the case's file label), runs the
product's command under the same deadline, memory limit, profile, meter limits and file label as
every other member, and turns what came back into an observation. What the command receives:

- placeholders in ``command``, ``input`` and ``limit`` arguments: ``{file}`` (the program file),
  ``{input}`` (the input datum text), ``{label}`` (the file label the other members report in
  spans), ``{profile}`` (the resource profile id), ``{limits_json}`` (the meter limits as a JSON
  object, ``{}`` for none); ``limit`` arguments are repeated once per meter limit, with
  ``{axis}`` and ``{value}``;
- the environment variables ``LISPEX_PROFILE``, ``LISPEX_LIMITS`` (the same JSON object) and
  ``LISPEX_FILENAME`` (the label), for a product that takes its settings that way.
"""

from __future__ import annotations

import json
import os
import re
import select
import subprocess
import tempfile
import time
from typing import Any

from ..catalog import Product
from . import reaper
from .bounds import CHUNK, answer_cap, check_output, relayed_signal, signal_name, too_long
from .faults import OUT_OF_MEMORY, Fault
from .limits import Limits
from .protocol import check_observation, fill_defaults
from .reaper import kill_group

DIAG_LINE = re.compile(r"^(?P<code>E\d{3}|W\d{3}|[a-z-]+-limit|recursion-limit) "
                       r"(?P<file>.*?):(?P<line>\d+):(?P<col>\d+) (?P<msg>.*)$")

# Axes a `lispex-cli` transcript cannot express separately.
CLI_UNCOMPARABLE = ("stdout", "values", "diagnostic_phase")
DEFAULT_PROFILE = "lispex-product-native/v1"
# Once the product has exited, how long its pipes may stay open (a descendant finishing its last
# write) before whatever holds them is a process left behind.
PIPE_GRACE = 0.5
# Of an `observation-json` product's standard error only the end is ever shown.
STDERR_TAIL = 64 << 10



def settings(limits: Limits, label: str) -> dict[str, str]:
    """The profile, meter limits and file label every member of the case runs with."""
    return {"profile": limits.profile or DEFAULT_PROFILE,
            "limits_json": json.dumps(limits.meter_limits or {}, sort_keys=True),
            "label": label}


def _fill(arg: str, values: dict[str, str]) -> str:
    # One pass, so that a datum containing "{file}" is passed on as it is.
    return re.sub(r"\{(\w+)\}", lambda m: values.get(m[1], m[0]), arg)


def _command(product: Product, path: str, input_text: str | None,
             limits: Limits | None = None, label: str = "program.lspx") -> list[str]:
    values = {"file": path, **settings(limits or Limits(), label)}
    args = [_fill(a, values) for a in product.command]
    if input_text is not None:
        args += [_fill(a, dict(values, input=input_text)) for a in product.input_args]
    for axis, n in sorted(((limits.meter_limits or {}) if limits else {}).items()):
        args += [_fill(a, dict(values, axis=axis, value=str(n))) for a in product.limit_args]
    return args


def _environment(limits: Limits, label: str) -> dict[str, str]:
    s = settings(limits, label)
    return dict(os.environ, LISPEX_PROFILE=s["profile"], LISPEX_LIMITS=s["limits_json"],
                LISPEX_FILENAME=label)


def _failure(product: Product, done: subprocess.CompletedProcess, allowed: tuple[int, ...],
             ) -> Fault | None:
    """The fault a finished process shows by how it ended, or None when its status is allowed."""
    err = done.stderr.decode("utf-8", "replace")
    tail = (err.strip().splitlines() or [""])[-1][:200]
    code = done.returncode
    if code in allowed:
        return None
    if OUT_OF_MEMORY.search(err):
        return Fault("memory-limit", f"{product.id} ran out of memory (exit status {code}; "
                                     f"{tail})")
    if code < 0:
        return Fault("crash", f"{product.id} was killed by {signal_name(-code)}"
                              f"{'; ' + tail if tail else ''}")
    relayed = relayed_signal(err.strip().splitlines()[-5:])
    if relayed:
        return Fault("crash", f"{product.id} exited with status {code}: the process it drives "
                              f"was killed by {relayed}; {tail}")
    return Fault("exit", f"{product.id} exited with status {code}, which its protocol does "
                         f"not allow (only {', '.join(map(str, allowed))})"
                         f"{'; ' + tail if tail else ''}")


class _Deadline(Exception):
    pass


def _read_output(proc: subprocess.Popen, who: str, cap: int, keep_stderr: bool,
                 deadline: float) -> tuple[bytearray, bytearray, bool]:
    """(stdout, stderr, held_open) of ``proc``, read as it writes: until both pipes close, or
    until ``PIPE_GRACE`` after the process exited while something it left holds them open
    (``held_open``). Every byte is counted before it is kept: stdout past ``cap`` is a
    `protocol` fault at once; stderr past it too when ``keep_stderr``, otherwise only its last
    ``STDERR_TAIL`` bytes are kept. Raises _Deadline at ``deadline``."""
    assert proc.stdout is not None and proc.stderr is not None
    out, err = bytearray(), bytearray()
    out_fd, err_fd = proc.stdout.fileno(), proc.stderr.fileno()
    bufs = {out_fd: out, err_fd: err}
    poller = select.poll()
    for fd in bufs:
        poller.register(fd, select.POLLIN)
    try:  # readable when the process exits: no polling loop for its end
        pidfd = os.pidfd_open(proc.pid)
        poller.register(pidfd, select.POLLIN)
    except (AttributeError, OSError):
        pidfd = -1
    exited: float | None = None
    try:
        while bufs:
            now = time.monotonic()
            if exited is None and proc.poll() is not None:
                exited = now
            if exited is not None and now >= exited + PIPE_GRACE:
                return out, err, True
            if now >= deadline:
                if exited is not None:
                    return out, err, True
                raise _Deadline
            end = deadline if exited is None else min(deadline, exited + PIPE_GRACE)
            wait = end - now if pidfd >= 0 or exited is not None else min(end - now, 0.05)
            for fd, _ in poller.poll(max(wait, 0) * 1000):
                if fd == pidfd:
                    poller.unregister(pidfd)
                    continue
                try:
                    chunk = os.read(fd, CHUNK)
                except OSError:
                    chunk = b""
                if not chunk:
                    poller.unregister(fd)
                    del bufs[fd]
                    continue
                buf = bufs[fd]
                buf += chunk
                if len(buf) > cap and (fd == out_fd or keep_stderr):
                    raise too_long(who, "standard output" if fd == out_fd else
                                   "standard error", cap)
                if fd == err_fd and not keep_stderr and len(buf) > 2 * STDERR_TAIL:
                    del buf[:-STDERR_TAIL]
    finally:
        if pidfd >= 0:
            os.close(pidfd)
    return out, err, False


def run_process(product: Product, source: bytes, input_text: str | None, filename: str,
                limits: Limits) -> tuple[subprocess.CompletedProcess, float]:
    base = os.path.basename(filename) or "program.lspx"
    if not os.path.splitext(base)[1]:
        base += ".lspx"
    token = reaper.new_token(product.id)
    with tempfile.TemporaryDirectory(prefix="court-") as tmp:
        path = os.path.join(tmp, base)
        with open(path, "wb") as f:
            f.write(source)
        cmd = _command(product, path, input_text, limits, filename)
        t0 = time.perf_counter()
        try:
            proc = reaper.popen(cmd, token, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, memory_bytes=limits.memory_bytes,
                                env=_environment(limits, filename))
        except OSError as e:
            reaper.forget(token)
            raise Fault("build", f"cannot start {product.id}: {e}") from None
        try:
            try:
                out, err, held = _read_output(proc, product.id, answer_cap(limits),
                                              product.protocol == "lispex-cli",
                                              time.monotonic() + limits.timeout)
            except _Deadline:
                kill_group(proc)
                raise Fault("timeout", f"{product.id} did not finish within "
                                       f"{limits.timeout:g} s; it was killed") from None
            wall = time.perf_counter() - t0
            problems = []
            if held:
                # The product is gone; what keeps its output open is a process it left, named
                # here before the group kill below would remove it without a word.
                problems += reaper.sweep(token, product.id, final=True,
                                         why=f"holding its output open after {product.id} "
                                             "exited")
            problems += kill_group(proc)  # the group and every descendant still in reach
        finally:
            if proc.returncode is None:
                kill_group(proc)
            # What left the group (setsid, a double fork) and was re-parented to the court.
            strays = reaper.sweep(token, product.id, final=True)
            reaper.forget(token)
        problems += strays
        if problems:
            raise Fault("cleanup", "; ".join(problems))
        return subprocess.CompletedProcess(cmd, proc.returncode, out, err), wall


def _answered(product: Product, source: bytes, input_text: str | None, filename: str,
              limits: Limits) -> tuple[subprocess.CompletedProcess, float]:
    """Run a one-shot product; a Fault unless it exited with a status of its own: 0, 1 and 2
    (ok, error, resource outcome), as both one-shot protocols define them."""
    done, wall = run_process(product, source, input_text, filename, limits)
    failure = _failure(product, done, (0, 1, 2))
    if failure:
        raise failure
    return done, wall


def observation_json(product: Product, source: bytes, input_text: str | None, filename: str,
                     limits: Limits) -> dict[str, Any]:
    done, wall = _answered(product, source, input_text, filename, limits)
    try:
        text = done.stdout.decode("utf-8")
        done.stdout = b""  # a large answer is held twice at most, as text and as parsed
        obs = json.loads(text)
    except (ValueError, UnicodeDecodeError):
        err = done.stderr.decode("utf-8", "replace")
        tail = err.strip().splitlines()[-1:] or [""]
        if done.returncode != 0 and OUT_OF_MEMORY.search(err):
            raise Fault("memory-limit", f"{product.id} ran out of memory (exit status "
                                        f"{done.returncode}; {tail[0][:200]})") from None
        raise Fault("protocol", f"{product.id} did not print one observation JSON object "
                                f"(exit status {done.returncode}; {tail[0][:200]})") from None
    problem = check_observation(obs, "the printed observation")
    if problem:
        raise Fault("protocol", f"{product.id}: {problem}")
    check_output(obs, product.id, limits)
    fill_defaults(obs)
    # Only the court says what was not compared or what went wrong with the harness.
    obs.pop("uncomparable_axes", None)
    obs.pop("faults", None)
    obs["implementation"] = product.id
    obs.setdefault("resources", {})["wall_seconds"] = wall
    obs.setdefault("products", {})
    return obs


def lispex_cli(product: Product, source: bytes, input_text: str | None, filename: str,
               limits: Limits) -> dict[str, Any]:
    done, wall = _answered(product, source, input_text, filename, limits)
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
    if code == 1 and not diagnostics and OUT_OF_MEMORY.search(errtext):
        # An error status with no diagnostic, only an out-of-memory report (an uncaught
        # MemoryError, say): the host failed, the program did not.
        tail = (errtext.strip().splitlines() or [""])[-1][:200]
        raise Fault("memory-limit", f"{product.id} ran out of memory ({tail})")
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
