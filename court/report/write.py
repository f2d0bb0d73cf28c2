"""Writing a report's four files, and the CI side effects (step summary, annotations)."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from . import html, junit, markdown

FILES = ("court-report.json", "junit.xml", "summary.md", "report.html")


def write_all(report: dict[str, Any], folder: Path) -> list[Path]:
    folder.mkdir(parents=True, exist_ok=True)
    paths = [folder / f for f in FILES]
    paths[0].write_text(json.dumps(report, ensure_ascii=False, indent=1) + "\n", "utf-8")
    paths[1].write_bytes(junit.render(report))
    summary = markdown.render(report)
    paths[2].write_text(summary, "utf-8")
    paths[3].write_text(html.render(report), "utf-8")
    step = os.environ.get("GITHUB_STEP_SUMMARY")
    if step:
        with open(step, "a", encoding="utf-8") as f:
            f.write(summary)
    return paths


def read_report(path: Path) -> dict[str, Any]:
    """A court-report.json, from the file or from a folder holding one."""
    if path.is_dir():
        path = path / FILES[0]
    with open(path, encoding="utf-8") as f:
        return json.load(f)
