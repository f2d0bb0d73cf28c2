"""Corpus cases on disk: a program, an optional input datum, and its blessed expectation.

A case ``NAME`` is the program ``NAME.lspx`` (``NAME.lsx`` is accepted too), the optional input
``NAME.input`` (one datum as Lispex text) and the expectation ``NAME.expect.toml``:

    schema = "lispex.court-expectation/v1"
    status = "runtime-error"        # ok | source-error | runtime-error | resource
    values = []                     # the `write` projection of the last form's values
    stdout = ""
    exit_status = 1
    warnings = []                   # warning codes, in order
    [diagnostic]                    # present when the run ends with a diagnostic
    code = "E302"
    phase = "runtime"
    line = 1                        # the primary span, where the catalog fixes it
    column = 1
    [run]                           # optional: how to run the case
    profile = "lispex-product-native/v1"
    limits = { machine-transition = 1000 }

Only the normative axes are stored; messages, usage and identities are evidence, not verdict.
"""

from __future__ import annotations

import os
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .files import (
    MAX_CONFIG_BYTES,
    MAX_INPUT_BYTES,
    MAX_PROGRAM_BYTES,
    FileRefused,
    read_bounded,
    safe_text,
)

EXPECTATION_SCHEMA = "lispex.court-expectation/v1"
PROGRAM_SUFFIXES = (".lspx", ".lsx")


class CaseError(Exception):
    """A malformed case on disk (unreadable expectation, unknown field)."""


@dataclass
class Case:
    id: str  # path relative to the corpus root, without suffix, with forward slashes
    program: Path
    input_path: Path | None
    expect_path: Path
    expectation: dict[str, Any] | None = None
    run: dict[str, Any] = field(default_factory=dict)

    def source(self) -> bytes:
        return read_bounded(self.program, MAX_PROGRAM_BYTES, "program")

    def input_text(self) -> str | None:
        if self.input_path is None:
            return None
        return read_bounded(self.input_path, MAX_INPUT_BYTES, "input").decode("utf-8")

    @property
    def profile(self) -> str | None:
        return self.run.get("profile")

    @property
    def limits(self) -> dict[str, int]:
        return dict(self.run.get("limits", {}))


def normative(semantic: dict[str, Any]) -> dict[str, Any]:
    """The normative projection of an observation's ``semantic`` part, in expectation shape.

    An axis the product's protocol cannot observe (``values`` and ``stdout`` of a `lispex-cli`
    product, for one) is ``None`` here, never an error."""
    values = semantic.get("values")
    out: dict[str, Any] = {
        "status": semantic["status"],
        "values": None if values is None else list(values),
        "stdout": semantic.get("stdout"),
        "exit_status": semantic.get("exit_status"),
        "warnings": [w["code"] for w in semantic.get("warnings") or []],
    }
    if semantic.get("diagnostics"):
        d = semantic["diagnostics"][0]
        diag: dict[str, Any] = {"code": d["code"], "phase": d.get("phase")}
        if d.get("span"):
            diag["line"] = d["span"]["line"]
            diag["column"] = d["span"]["column"]
        out["diagnostic"] = diag
    return out


def load_expectation(path: Path) -> tuple[dict[str, Any], dict[str, Any]]:
    try:
        data = tomllib.loads(read_bounded(path, MAX_CONFIG_BYTES, "expectation")
                             .decode("utf-8"))
    except OSError as e:
        raise CaseError(str(e) if isinstance(e, FileRefused)
                        else f"{safe_text(str(path))}: {e.strerror}") from None
    except (UnicodeDecodeError, tomllib.TOMLDecodeError) as e:
        raise CaseError(f"{safe_text(str(path))}: {e}") from None
    if data.get("schema") != EXPECTATION_SCHEMA:
        raise CaseError(f"{path}: schema must be {EXPECTATION_SCHEMA!r}")
    run = data.pop("run", {})
    data.pop("schema")
    known = {"status", "values", "stdout", "exit_status", "warnings", "diagnostic"}
    unknown = set(data) - known
    if unknown:
        raise CaseError(f"{path}: unknown fields {sorted(unknown)}")
    data.setdefault("values", [])
    data.setdefault("stdout", "")
    data.setdefault("warnings", [])
    return data, run


def discover(paths: list[Path], root: Path | None = None) -> list[Case]:
    """Every case under ``paths`` (files or folders), sorted by id."""
    found: dict[str, Case] = {}
    if root is None and len(paths) > 1:
        # Ids relative to what the paths share, so `a/x` and `b/x` stay two cases.
        root = Path(os.path.commonpath([str((p if p.is_dir() else p.parent).resolve())
                                        for p in paths]))
    for p in paths:
        progs = [p] if p.is_file() else [q for q in p.rglob("*") if q.suffix in PROGRAM_SUFFIXES]
        base = root or (p if p.is_dir() else p.parent)
        for prog in progs:
            stem = prog.with_suffix("")
            try:
                rel = (stem.resolve() if root else stem).relative_to(base).as_posix()
            except ValueError:
                rel = stem.as_posix()
            # A file name that is not UTF-8 gets an id that is (its bad bytes as \xNN), so
            # the id can be hashed, matched and written into every report.
            rel = safe_text(rel)
            inp = stem.with_suffix(".input")
            case = Case(rel, prog, inp if inp.exists() else None,
                        stem.with_name(stem.name + ".expect.toml"))
            if case.expect_path.exists():
                case.expectation, case.run = load_expectation(case.expect_path)
            found[rel] = case
    return [found[k] for k in sorted(found)]
