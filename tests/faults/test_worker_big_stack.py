"""The worker's big request thread (implementations/bigstack.py): the topaz back ends run in place
on it, give the results they give on a thread of their own, and a worker whose address space is
too tight for it still answers."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from implementations import bigstack, registry
from implementations.kernels import evaluate

ROOT = Path(__file__).resolve().parents[2]

DEEP = "(define (down n) (if (= n 0) 0 (+ 1 (down (- n 1)))))\n(down {n})"
PROGRAMS = [DEEP.format(n=9_999), DEEP.format(n=10_001),
            "(define (f x) (* x x))\n(display (f 12))\n(f 3)"]


def _worker_replies(impl: str, memory_mib: int = 0) -> list[dict]:
    argv = [sys.executable, "-m", "implementations.worker", "--impl", impl]
    if memory_mib:
        argv += ["--memory-limit", str(memory_mib << 20)]
    lines = [json.dumps({"op": "hello", "id": 0})]
    # Each program twice: the second run must not see anything of the first.
    for i, src in enumerate(PROGRAMS * 2):
        lines.append(json.dumps({"op": "run", "id": i + 1, "source": src}))
    lines.append(json.dumps({"op": "shutdown"}))
    done = subprocess.run(argv, input="\n".join(lines) + "\n", capture_output=True, text=True,
                          cwd=ROOT, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    replies = [json.loads(x) for x in done.stdout.splitlines()]
    assert [r["id"] for r in replies] == list(range(len(lines) - 1))
    return replies[1:]


def _semantic(obs: dict) -> tuple:
    sem = obs["semantic"] if "semantic" in obs else obs
    return (sem["status"], sem["values"], sem["stdout"],
            [d["code"] for d in sem["diagnostics"]])


@pytest.mark.parametrize("impl", ["topaz-tree", "topaz-vm"])
@pytest.mark.parametrize("memory_mib", [0, 200])
def test_a_topaz_worker_answers_as_the_back_end_does_in_process(impl, memory_mib):
    # 200 MiB of address space cannot hold the 256 MiB request thread: the worker then serves on
    # its main thread and the back end starts its own (smaller) stacks, as it always did.
    backend = registry.load(impl)
    expected = [_semantic(evaluate(src.encode(), backend).to_json()) for src in PROGRAMS] * 2
    got = [_semantic(r["observation"]) for r in _worker_replies(impl, memory_mib)]
    assert got == expected
    assert got[0][0] == "ok" and got[1][3] == ["recursion-limit"]


def test_run_gives_its_thread_the_stack_and_hands_back_results_and_errors():
    size = 32 << 20
    assert bigstack.stack_bytes() == 0
    assert bigstack.run(bigstack.stack_bytes, size) == size
    assert bigstack.stack_bytes() == 0

    def fails():
        raise KeyError("inside")

    with pytest.raises(KeyError, match="inside"):
        bigstack.run(fails, size)


def test_a_stack_that_cannot_be_had_runs_on_the_calling_thread():
    # No address space holds this stack: the work runs here, where nothing claims a big stack.
    assert bigstack.run(bigstack.stack_bytes, 1 << 62) == 0


LOST = """
import sys
from implementations import registry, worker
backend = registry.load("tree")
def execute(*args):
    raise SystemError("error return without exception set")
backend.execute = execute
if sys.argv[1] != "0":
    worker.limit_address_space(int(sys.argv[1]) << 20)
sys.exit(worker.serve("tree", backend))
"""


@pytest.mark.parametrize("memory_mib", [0, 512])
def test_a_python_frame_that_cannot_be_had_is_out_of_memory_only_under_a_cap(memory_mib):
    # CPython 3.11 reports a Python frame it could not allocate as this SystemError, with no
    # MemoryError set. Under the worker's cap that is running out of memory (a memory-limit
    # reply, the worker retired); without a cap it is what it says, and the worker dies with it.
    requests = [{"op": "hello", "id": 0}, {"op": "run", "id": 1, "source": "(+ 1 2)"},
                {"op": "run", "id": 2, "source": "(+ 1 2)"}]
    done = subprocess.run([sys.executable, "-c", LOST, str(memory_mib)], cwd=ROOT, timeout=120,
                          input="".join(json.dumps(r) + "\n" for r in requests),
                          capture_output=True, text=True)
    replies = [json.loads(x) for x in done.stdout.splitlines()]
    if memory_mib:
        assert done.returncode == 3, done.stderr[-2000:]
        assert [r["id"] for r in replies] == [0, 1]
        assert replies[1]["error"]["kind"] == "memory-limit"
        assert "Traceback" not in done.stderr
    else:
        assert done.returncode == 1 and [r["id"] for r in replies] == [0]
        assert "SystemError: error return without exception set" in done.stderr


@pytest.mark.parametrize("memory_mib", [110, 150, 180])
def test_a_deep_recursion_under_a_tight_cap_is_answered_or_out_of_memory_never_a_crash(
        memory_mib):
    # Caps at which topaz-tree's worker used to die of the SystemError above in the middle of
    # a legal 10,001-deep recursion: every case is now answered as in process, or the worker
    # says it ran out of memory and stops.
    backend = registry.load("topaz-tree")
    expected = [_semantic(evaluate(src.encode(), backend).to_json()) for src in PROGRAMS] * 2
    argv = [sys.executable, "-m", "implementations.worker", "--impl", "topaz-tree",
            "--memory-limit", str(memory_mib << 20)]
    lines = [json.dumps({"op": "hello", "id": 0})]
    lines += [json.dumps({"op": "run", "id": i + 1, "source": src})
              for i, src in enumerate(PROGRAMS * 2)]
    done = subprocess.run(argv, input="\n".join(lines) + "\n", capture_output=True, text=True,
                          cwd=ROOT, timeout=120)
    replies = [json.loads(x) for x in done.stdout.splitlines()][1:]
    assert "Traceback" not in done.stderr, done.stderr[-2000:]
    answered = [r for r in replies if r.get("ok")]
    assert [_semantic(r["observation"]) for r in answered] == expected[:len(answered)]
    if len(replies) == len(expected):
        assert done.returncode == 0
    else:
        assert done.returncode == 3 and len(replies) == len(answered) + 1
        assert replies[-1]["error"]["kind"] == "memory-limit"
