"""What a receipt costs: `court compare` with and without `--receipt`, and `court verify` with and
without re-execution, as whole processes; and the in-process share of making and checking one.

    python bench/receipts.py [--runs 11] [--program corpus/examples/loan-precheck-approve]

Whole-process figures are the median wall time of ``--runs`` processes (spawn to exit), the
variants interleaved round-robin so that a burst of load on the shared machine hits each alike;
each variant runs once before timing. The in-process figures are medians of 200 repetitions of
building and signing the statement of one finished case, and of the checks that run no
process (envelope, signature, payload type, canonical form, statement, request); then
``--runs`` whole verifications in process, with and without re-execution, interleaved. Exits 1 if a compare does not agree or a verification does not verify.
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
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))


def env() -> dict[str, str]:
    e = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    e["PYTHONPATH"] = str(ROOT) + (os.pathsep + e["PYTHONPATH"] if e.get("PYTHONPATH") else "")
    return e


def court(*argv: str) -> list[str]:
    return [sys.executable, "-m", "court.cli", *argv]


def timed(cmd: list[str]) -> tuple[float, int, str]:
    t0 = time.perf_counter()
    proc = subprocess.run(cmd, cwd=ROOT, env=env(), capture_output=True, text=True)
    return time.perf_counter() - t0, proc.returncode, proc.stdout


def in_process(program: Path, data: Path | None, keydir: Path,
               repeats: int) -> dict[str, float]:
    from court.catalog import load_config, resolve
    from court.session import CourtSession
    from court.vouchers import receipt_bytes, receipt_for
    from court.vouchers.keys import load_public_key, load_signing_key
    from court.vouchers.verify import Request, verify
    from court.workers.limits import Limits

    key = load_signing_key(keydir / "court-signing.key")
    pub = load_public_key(keydir / "court-signing.pub")
    source = program.read_bytes()
    text = data.read_text("utf-8") if data else None
    res = resolve(load_config(None, search_cwd=False), "tree-rust")
    limits = Limits(timeout=60.0)
    with CourtSession(res, limits, jobs=2) as session:
        case = session.run_case(source, text, program.name)
    sign, check = [], []
    receipt = b""
    for _ in range(200):
        t0 = time.perf_counter()
        receipt = receipt_bytes(receipt_for(key, res, limits, source, text, program.name, case))
        sign.append(time.perf_counter() - t0)
    # The checks that need no process: envelope .. request.
    for _ in range(200):
        t0 = time.perf_counter()
        v = verify(receipt, keys=[pub], request=Request(source, text, data is not None),
                   local=False)
        check.append(time.perf_counter() - t0)
    assert v.verified, v.lines()
    # A whole verification in this process (the court's workers start and stop each time),
    # with and without re-execution, interleaved.
    whole: dict[bool, list[float]] = {True: [], False: []}
    for _ in range(repeats):
        for reexec in (True, False):
            t0 = time.perf_counter()
            v = verify(receipt, keys=[pub], request=Request(source, text, data is not None),
                       reexec=reexec)
            whole[reexec].append(time.perf_counter() - t0)
            assert v.verified, v.lines()
    return {"sign": statistics.median(sign), "check": statistics.median(check),
            "verify": statistics.median(whole[True]),
            "verify_no_reexec": statistics.median(whole[False]),
            "receipt_bytes": len(receipt)}


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--runs", type=int, default=11)
    p.add_argument("--program", default="corpus/examples/loan-precheck-approve",
                   help="a case without its suffix (.lspx, and .input when there is one)")
    args = p.parse_args()
    program = ROOT / f"{args.program}.lspx"
    data = ROOT / f"{args.program}.input"
    data = data if data.exists() else None
    tmp = Path(tempfile.mkdtemp(prefix="court-receipts-"))
    keydir = tmp / "keys"
    subprocess.run(court("keys", "generate", str(keydir)), cwd=ROOT, env=env(), check=True,
                   capture_output=True)
    receipt = tmp / "r.json"
    inp = ["--input-file", str(data)] if data else []
    verify_args = ["verify", str(receipt), "--key", str(keydir / "court-signing.pub"),
                   "--source", str(program), *(["--input", str(data)] if data else [])]
    variants = {
        "compare": court("compare", str(program), *inp, "--plain"),
        "compare --receipt": court("compare", str(program), *inp, "--plain", "--receipt",
                                   str(receipt), "--signing-key",
                                   str(keydir / "court-signing.key")),
        "verify (re-execution)": court(*verify_args),
        "verify --no-reexec": court(*verify_args, "--no-reexec"),
    }
    samples: dict[str, list[float]] = {k: [] for k in variants}
    for name, cmd in variants.items():  # warm-up; the receipt exists before verify runs
        _, code, out = timed(cmd)
        if code != 0:
            print(f"{name}: exit {code}\n{out}", file=sys.stderr)
            return 1
    for _ in range(args.runs):
        for name, cmd in variants.items():
            wall, code, out = timed(cmd)
            if code != 0 or ("compare" in name and "verdict: agree" not in out) or \
                    ("verify" in name and "result: verified" not in out):
                print(f"{name}: exit {code}\n{out}", file=sys.stderr)
                return 1
            samples[name].append(wall)
    med = {k: statistics.median(v) for k, v in samples.items()}
    inner = in_process(program, data, keydir, args.runs)
    print(f"{args.program} on tree-rust; {args.runs} runs each, interleaved; "
          f"{platform.python_implementation()} {platform.python_version()}, "
          f"{os.cpu_count()} CPUs")
    for name, m in med.items():
        print(f"  {name:<24} {m * 1000:8.1f} ms  (min {min(samples[name]) * 1000:.1f})")
    print(f"  --receipt adds          {(med['compare --receipt'] - med['compare']) * 1000:8.1f} ms"
          f"  ({med['compare --receipt'] / med['compare']:.2f}x the plain compare)")
    print(f"  re-execution adds       "
          f"{(med['verify (re-execution)'] - med['verify --no-reexec']) * 1000:8.1f} ms")
    print(f"  in process: statement + canonical JSON + Ed25519 signature "
          f"{inner['sign'] * 1e6:.0f} us; checks V100..V160 (no process) {inner['check'] * 1e6:.0f} us; "
          f"receipt {inner['receipt_bytes']} bytes")
    print(f"  in process: verify {inner['verify'] * 1000:.1f} ms with re-execution, "
          f"{inner['verify_no_reexec'] * 1000:.1f} ms without (each starts the court's workers)")
    print(json.dumps({"median_seconds": med, "in_process_seconds": {
        k: inner[k] for k in ("sign", "check", "verify", "verify_no_reexec")}}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
