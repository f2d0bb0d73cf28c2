"""The user documentation runs: every example in docs/*.md is checked against this checkout.

Conventions for examples in the docs (docs/language.md explains them to readers too):

* A fenced block tagged ``lispex`` is a whole program. It must be followed, with nothing but blank
  lines in between, by one or more expectation blocks:

  - ``output``: exactly what ``court eval example.lspx`` writes to stdout (the program's explicit
    output, then each value of the last top-level form in ``write`` form, one per line). The
    program is run on the tree back end with :func:`implementations.lispex.run.evaluate`, and the
    text is joined exactly as court/cli/eval.py does.
  - ``stderr``: exactly what the same command writes to stderr (warnings, then the diagnostic,
    each rendered ``CODE file:line:col message irritants`` with the file label
    ``example.lspx``). When an example has one of ``output`` and ``stderr`` but not the other,
    the other stream must be empty: an example never hides a diagnostic or any output.
  - ``lispex-core``: the canonical Core IR text the normalizer makes of the program. A block with
    only this expectation is normalized, not run (so it may use free variables).
  - ``toml``: a corpus expectation (``lispex.court-expectation/v1``) for the program; it must load
    with court.corpus, its ``[run]`` table (profile, limits) applies, and the run must match it
    exactly as tests/test_conformance.py compares.

  Leading comment lines ``;; input: DATUM``, ``;; profile: ID`` and ``;; limit: AXIS=N`` stand for
  the ``--input``, ``--profile`` and ``--limit`` flags.

* A fenced block tagged ``console`` holds shell commands: each line starting with ``$ `` is run with
  bash in the repository root (``court`` and ``python`` there mean this checkout's
  ``python -m court.cli`` and the test's Python), and the lines up to the next ``$ `` are its
  expected stdout followed by its stderr. Inside an expected line, ``[...]`` matches any text.

* Blocks with any other tag (``text``, ``scheme``, ``python``, ``json``) are illustrations, never
  run. The generated tables of docs/language.md must be up to date (docs/gen_primitives.py).
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import re
import subprocess
import sys
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from court.corpus import load_expectation, normative
from implementations import registry
from implementations.lispex.normalizer import normalize
from implementations.lispex.reader import read_source
from implementations.lispex.run import evaluate

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
DOC_FILES = sorted(DOCS.glob("*.md"))
EXPECT_KINDS = ("output", "stderr", "lispex-core", "toml")
LABEL = "example.lspx"

_FENCE = re.compile(r"^```([^\n`]*)\n(.*?)^```[ \t]*$", re.S | re.M)


@dataclass
class Block:
    tag: str
    text: str
    line: int  # 1-based line of the opening fence
    start: int
    end: int


@dataclass
class Example:
    doc: str
    line: int
    source: str
    expect: dict[str, str] = field(default_factory=dict)

    @property
    def id(self) -> str:
        return f"{self.doc}:{self.line}"


def blocks(text: str) -> list[Block]:
    return [Block(m.group(1).strip(), m.group(2), text.count("\n", 0, m.start()) + 1, m.start(),
                  m.end()) for m in _FENCE.finditer(text)]


def collect() -> tuple[list[Example], list[Block], list[str]]:
    """Every lispex example with its expectations, every console block, and layout errors."""
    examples: list[Example] = []
    consoles: list[Block] = []
    errors: list[str] = []
    for path in DOC_FILES:
        text = path.read_text("utf-8")
        bs = blocks(text)
        i = 0
        while i < len(bs):
            b = bs[i]
            if b.tag == "console":
                consoles.append(Block(f"{path.name}:{b.line}", b.text, b.line, b.start, b.end))
            if b.tag in EXPECT_KINDS:
                errors.append(f"{path.name}:{b.line}: {b.tag} block without a lispex block")
            if b.tag != "lispex":
                i += 1
                continue
            ex = Example(path.name, b.line, b.text)
            prev = b
            i += 1
            while i < len(bs) and bs[i].tag in EXPECT_KINDS and not text[prev.end:bs[i].start].strip():
                if bs[i].tag in ex.expect:
                    errors.append(f"{path.name}:{bs[i].line}: two {bs[i].tag} blocks")
                ex.expect[bs[i].tag] = bs[i].text
                prev = bs[i]
                i += 1
            if not ex.expect:
                errors.append(f"{ex.id}: lispex block with no expectation block after it")
            examples.append(ex)
    return examples, consoles, errors


EXAMPLES, CONSOLES, LAYOUT_ERRORS = collect()
RUN = [e for e in EXAMPLES if "output" in e.expect or "stderr" in e.expect or "toml" in e.expect]
CORE = [e for e in EXAMPLES if "lispex-core" in e.expect]


def flags(source: str) -> tuple[str | None, str | None, dict[str, int]]:
    """The court eval flags an example's leading ``;; name: value`` comments stand for."""
    input_text = profile = None
    limits: dict[str, int] = {}
    for line in source.splitlines():
        m = re.match(r";; (input|profile|limit): (.*)$", line)
        if not m:
            break
        name, value = m.groups()
        if name == "input":
            input_text = value
        elif name == "profile":
            profile = value
        else:
            axis, _, n = value.partition("=")
            limits[axis] = int(n)
    return input_text, profile, limits


def run_example(ex: Example, run: dict | None = None):
    input_text, profile, limits = flags(ex.source)
    run = run or {}
    profile = run.get("profile", profile)
    limits = {**limits, **run.get("limits", {})}
    obs = evaluate(ex.source.encode("utf-8"), registry.load("tree"), filename=LABEL,
                   input_text=input_text, profile_id=profile, limits=limits)
    # Joined as court/cli/eval.py prints them.
    stdout = obs.stdout + "".join(v + "\n" for v in obs.values)
    stderr = "".join(w.render() + "\n" for w in obs.warnings)
    stderr += "".join(d.render(LABEL) + "\n" for d in obs.diagnostics)
    return obs, stdout, stderr


def test_examples_are_laid_out_right():
    assert not LAYOUT_ERRORS, LAYOUT_ERRORS


def test_language_reference_has_enough_runnable_examples():
    ran = [e for e in RUN if e.doc == "language.md"]
    assert len(ran) >= 40, len(ran)


@pytest.mark.parametrize("ex", RUN, ids=[e.id for e in RUN])
def test_example_runs_as_documented(ex: Example, tmp_path: Path):
    want = run = None
    if "toml" in ex.expect:
        # Through the corpus loader itself, so the doc shows a case file it really accepts.
        path = tmp_path / "example.expect.toml"
        path.write_text(ex.expect["toml"], "utf-8")
        want, run = load_expectation(path)
    obs, stdout, stderr = run_example(ex, run)
    if "output" in ex.expect or "stderr" in ex.expect:
        # A missing block means that stream is empty: an example never hides anything.
        assert stdout == ex.expect.get("output", "")
        assert stderr == ex.expect.get("stderr", "")
    if want is not None:
        # Compared as tests/test_conformance.py and court run compare a case.
        got = normative(obs.to_json()["semantic"])
        if "diagnostic" in got and "diagnostic" in want:
            got["diagnostic"] = {k: v for k, v in got["diagnostic"].items()
                                 if k in want["diagnostic"]}
        assert got == want


@pytest.mark.parametrize("ex", CORE, ids=[e.id for e in CORE])
def test_core_ir_example_is_current(ex: Example):
    read = read_source(ex.source.encode("utf-8"), LABEL)
    assert normalize(read.datums, LABEL, None, read.pragmas).canonical_text() == \
        ex.expect["lispex-core"]


def _commands(block: Block) -> list[tuple[str, str]]:
    cmds: list[tuple[str, list[str]]] = []
    for line in block.text.splitlines():
        if line.startswith("$ "):
            cmds.append((line[2:], []))
        elif cmds:
            cmds[-1][1].append(line)
        elif line.strip():
            raise AssertionError(f"{block.tag}: output before the first $ command")
    return [(c, "".join(x + "\n" for x in out)) for c, out in cmds]


def _matches(expected: str, got: str) -> bool:
    want = expected.splitlines()
    have = got.splitlines()
    if len(want) != len(have):
        return False
    for w, h in zip(want, have, strict=True):
        pattern = ".*".join(re.escape(part) for part in w.split("[...]"))
        if not re.fullmatch(pattern, h):
            return False
    return True


CONSOLE_COMMANDS = [(b.tag, c, out) for b in CONSOLES for c, out in _commands(b)]


@pytest.mark.parametrize("where,command,expected", CONSOLE_COMMANDS,
                         ids=[f"{w}:{c[:40]}" for w, c, _ in CONSOLE_COMMANDS])
def test_console_example(where: str, command: str, expected: str):
    prelude = ('court() { "$DOCS_PY" -m court.cli "$@"; }\n'
               'python() { "$DOCS_PY" "$@"; }\n')
    env = dict(os.environ, DOCS_PY=sys.executable, COLUMNS="80", PYTHONPATH=str(ROOT))
    proc = subprocess.run(["bash", "-c", prelude + command], cwd=ROOT, env=env,
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                          timeout=60)
    assert _matches(expected, proc.stdout), f"{where}: {command}\n--- got:\n{proc.stdout}"


def _generator():
    spec = importlib.util.spec_from_file_location("gen_primitives", DOCS / "gen_primitives.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_generated_tables_are_up_to_date():
    doc = (DOCS / "language.md").read_text("utf-8")
    assert _generator().regenerate(doc) == doc, "run: python docs/gen_primitives.py"


def test_every_primitive_is_documented():
    doc = (DOCS / "language.md").read_text("utf-8")
    section = doc.split("<!-- primitives:begin -->")[1].split("<!-- primitives:end -->")[0]
    with open(ROOT / "implementations/lispex/data/primitives.toml", "rb") as f:
        names = [r["name"] for r in tomllib.load(f)["primitive"]]
    assert len(names) == 205
    listed = re.findall(r"^\| `([^`]+)` \|", section, re.M)
    assert sorted(listed) == sorted(names)


def test_every_diagnostic_code_and_profile_is_documented():
    doc = (DOCS / "language.md").read_text("utf-8")
    with open(ROOT / "implementations/lispex/data/diagnostics.toml", "rb") as f:
        codes = [r["code"] for r in tomllib.load(f)["diagnostic"]]
    with open(ROOT / "implementations/lispex/data/profiles.toml", "rb") as f:
        profiles = [p["id"] for p in tomllib.load(f)["profile"]]
    missing = [c for c in codes + profiles if f"`{c}`" not in doc]
    assert not missing


def test_every_court_command_is_documented():
    from court.cli import build_parser

    parser = build_parser()
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    doc = (DOCS / "cli.md").read_text("utf-8")
    missing = [name for name in sub.choices if f"`court {name}" not in doc]
    assert not missing, f"docs/cli.md does not mention: {missing}"
