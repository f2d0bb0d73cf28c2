"""What the fault-injection tests share besides their fixtures: the corpus's shape, the mark
that tags every process a run starts, and the test-only products' manifests. (A module of its
own: `conftest` is a name every test folder has.)"""

from __future__ import annotations

import sys
from pathlib import Path

import psutil

ROOT = Path(__file__).resolve().parents[2]
PRODUCTS = Path(__file__).resolve().parent / "products"
N_CASES = 50
FAULTY = (10, 25, 40)  # the cases whose program holds `; FAULT`
MARK = "LISPEX_FAULT_TEST_MARK"



def case_id(i: int) -> str:
    return f"c{i:03d}"


def live_marked(mark: str) -> list[psutil.Process]:
    found = []
    for p in psutil.process_iter():
        try:
            if p.status() != psutil.STATUS_ZOMBIE and p.environ().get(MARK) == mark:
                found.append(p)
        except psutil.Error:
            continue
    return found


def worker_toml(mode: str) -> str:
    return (f'[products.faulty]\nprotocol = "court-worker/v1"\n'
            f'command = ["{sys.executable}", "{PRODUCTS / "faulty_worker.py"}", '
            f'"--mode", "{mode}"]\n')


def oneshot_toml(mode: str, protocol: str = "observation-json") -> str:
    return (f'[products.faulty]\nprotocol = "{protocol}"\n'
            f'command = ["{sys.executable}", "-S", "{PRODUCTS / "faulty_oneshot.py"}", '
            f'"{mode}", "{{file}}"]\n')
