"""Every process a witness relay starts (guile, scheme, mit-scheme) dies with the court, however
the court dies: the court SIGKILLed mid-run leaves no Scheme behind."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import time
import uuid

import psutil
import pytest
from fault_support import MARK, ROOT, live_marked

SCHEMES = {"guile": ("guile", ("guile",)), "chez": ("scheme", ("scheme", "chezscheme")),
           "mit": ("mit-scheme", ("mit-scheme",))}


def _is_scheme(p: psutil.Process, names: tuple[str, ...]) -> bool:
    try:
        cmd = p.cmdline()
    except psutil.Error:
        return False
    return bool(cmd) and os.path.basename(cmd[0]) in names


@pytest.mark.parametrize("witness", sorted(SCHEMES))
def test_a_sigkilled_court_leaves_no_scheme_behind(witness, tmp_path):
    binary, names = SCHEMES[witness]
    if not any(shutil.which(n) for n in names):
        pytest.skip(f"{binary} is not on PATH; the {witness} witness cannot run")
    court_args = ["--court", "witness"] if witness == "guile" else ["--impl", f"tree,{witness}"]
    mark = uuid.uuid4().hex
    env = dict(os.environ, PYTHONPATH=str(ROOT), **{MARK: mark})
    court = subprocess.Popen(
        [sys.executable, "-m", "court.cli", "run", str(ROOT / "corpus"), *court_args,
         "--jobs", "2", "--report-dir", str(tmp_path / "reports")],
        env=env, cwd=tmp_path, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 180
        schemes: list[psutil.Process] = []
        while time.monotonic() < deadline and len(schemes) < 2 and court.poll() is None:
            schemes = [p for p in live_marked(mark) if _is_scheme(p, names)]
            time.sleep(0.2)
        assert schemes, f"no {binary} process started"
        time.sleep(2.0)  # cases in flight
        court.send_signal(signal.SIGKILL)
        court.wait(timeout=60)
        _, alive = psutil.wait_procs(live_marked(mark), timeout=30)
        assert not alive, [(p.pid, p.cmdline()) for p in alive]
    finally:
        if court.poll() is None:
            court.kill()
            court.wait()
        for p in live_marked(mark):
            p.kill()
