"""Writing a report's four files as one set, reading a report back, and the CI side effects.

The four files of a report directory always belong to one run. They are rendered in memory,
written into a fresh staging folder inside the report directory (same file system, so a rename
moves them), flushed to disk, and only then moved into place: the old `court-report.json` is
removed first and the new one moved in last. So at every moment a `court-report.json` that exists
belongs with the other three files beside it, and a write that fails (a full disk, a read-only
folder) leaves the previous report set exactly as it was.
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
from pathlib import Path
from typing import Any

from ..files import MAX_REPORT_BYTES, FileRefused, read_bounded, safe_text
from . import html, junit, markdown

FILES = ("court-report.json", "junit.xml", "summary.md", "report.html")
STAGING_PREFIX = ".court-staging-"


class ReportWriteError(Exception):
    """The report set could not be written; the previous set (if any) is untouched."""


class ReportError(Exception):
    """A file given as a report is not a readable `lispex.court-report/v1` report."""


def dump_report(report: dict[str, Any]) -> str:
    """The JSON text of a report: one top-level key per line and one case per line.

    Indented JSON goes through the json module's pure-Python encoder, which took a quarter of a
    second for a 1,000-case corpus report; a case per line uses the C encoder and still diffs
    case by case between runs.
    """
    lines = []
    for key, value in report.items():
        if key == "cases" and isinstance(value, list) and value:
            body = ",\n".join(" " + json.dumps(c, ensure_ascii=False) for c in value)
            text = f"[\n{body}\n]"
        else:
            text = json.dumps(value, ensure_ascii=False)
        lines.append(f"{json.dumps(key, ensure_ascii=False)}: {text}")
    return "{\n" + ",\n".join(lines) + "\n}\n"


def render_all(report: dict[str, Any]) -> dict[str, bytes]:
    return {
        FILES[0]: dump_report(report).encode("utf-8"),
        FILES[1]: junit.render(report),
        FILES[2]: markdown.render(report).encode("utf-8"),
        FILES[3]: html.render(report).encode("utf-8"),
    }


def check_writable(folder: Path) -> None:
    """Refuse a report directory the court could not write into, before any case runs: make it
    if it is missing, then create and remove a staging folder in it (a real write, which catches
    read-only mounts and full disks that permission bits do not show)."""
    where = safe_text(str(folder))
    if folder.exists() and not folder.is_dir():
        raise ReportWriteError(f"--report-dir {where} exists and is not a folder")
    try:
        folder.mkdir(parents=True, exist_ok=True)
        probe = tempfile.mkdtemp(prefix=STAGING_PREFIX, dir=folder)
        os.rmdir(probe)
    except OSError as e:
        raise ReportWriteError(f"--report-dir {where} is not a writable folder: "
                               f"{e.strerror or e}") from None


def write_all(report: dict[str, Any], folder: Path,
              before_swap: Any = None) -> list[Path]:
    """Write the four files of ``report`` into ``folder`` as a set. Raises ReportWriteError.

    ``before_swap`` (tests only) is called once the staged files are on disk, just before the
    first file of the old set is touched.
    """
    blobs = render_all(report)
    where = safe_text(str(folder))
    size = len(blobs[FILES[0]])
    if size > MAX_REPORT_BYTES:
        # Written, it would be a report that merge and replay refuse to read.
        raise ReportWriteError(f"cannot write reports to {where}: court-report.json would be "
                               f"{size >> 20} MiB, more than the {MAX_REPORT_BYTES >> 20} MiB "
                               "the court reads back; the previous reports there are untouched")
    try:
        folder.mkdir(parents=True, exist_ok=True)
        _remove_stale_staging(folder)
        staging = Path(tempfile.mkdtemp(prefix=STAGING_PREFIX, dir=folder))
    except OSError as e:
        raise ReportWriteError(f"cannot write reports to {where}: {e.strerror or e}") from None
    try:
        try:
            for name, data in blobs.items():
                _write_synced(staging / name, data)
        except OSError as e:
            raise ReportWriteError(f"cannot write reports to {where}: {e.strerror or e}; the "
                                   "previous reports there are untouched") from None
        if before_swap is not None:
            before_swap(staging)
        paths = [folder / f for f in FILES]
        try:
            # The old JSON goes first and the new one comes last: a court-report.json never
            # stands beside files of another run, whatever moment the process is stopped at.
            try:
                os.unlink(paths[0])
            except FileNotFoundError:
                pass
            for name in reversed(FILES):
                os.replace(staging / name, folder / name)
            _sync_dir(folder)
        except OSError as e:
            raise ReportWriteError(f"cannot move the reports into {where}: "
                                   f"{e.strerror or e}") from None
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    step = os.environ.get("GITHUB_STEP_SUMMARY")
    if step:
        with open(step, "a", encoding="utf-8") as f:
            f.write(blobs[FILES[2]].decode("utf-8"))
    return paths


def _write_synced(path: Path, data: bytes) -> None:
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, 0o644)
    try:
        view = memoryview(data)
        while view:
            n = os.write(fd, view)
            view = view[n:]
        os.fsync(fd)
    finally:
        os.close(fd)


def _sync_dir(folder: Path) -> None:
    try:
        fd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def _remove_stale_staging(folder: Path) -> None:
    """Staging folders a killed court left behind (never a complete set: it is moved out)."""
    for entry in folder.iterdir():
        if entry.name.startswith(STAGING_PREFIX) and entry.is_dir():
            shutil.rmtree(entry, ignore_errors=True)


def read_report(path: Path) -> dict[str, Any]:
    """A court-report.json, from the file or from a folder holding one, checked for the fields
    merge and replay rely on. Raises ReportError naming the file and what is wrong."""
    if path.is_dir():
        path = path / FILES[0]
    where = safe_text(str(path))
    try:
        data = read_bounded(path, MAX_REPORT_BYTES, "report")
    except FileRefused as e:
        raise ReportError(safe_text(str(e))) from None
    except OSError as e:
        raise ReportError(f"{where}: {e.strerror or e}") from None
    try:
        doc = json.loads(data.decode("utf-8"))
    except UnicodeDecodeError:
        raise ReportError(f"{where}: not UTF-8 text") from None
    except ValueError as e:
        raise ReportError(f"{where}: not JSON ({e})") from None
    problem = report_problem(doc)
    if problem:
        raise ReportError(f"{where}: not a lispex.court-report/v1 report: {problem}")
    return doc


def report_problem(doc: Any) -> str | None:
    """What makes ``doc`` unusable as a report, or None."""
    from .model import REPORT_SCHEMA

    if not isinstance(doc, dict):
        return f"the top level is {type(doc).__name__}, not an object"
    if doc.get("schema") != REPORT_SCHEMA:
        return f"schema is {doc.get('schema')!r}"
    run = doc.get("run")
    if not isinstance(run, dict):
        return "no run object"
    for key, kind in (("court", str), ("started_at", str), ("finished_at", str),
                      ("complete", bool)):
        if not isinstance(run.get(key), kind):
            return f"run.{key} is missing or not a {kind.__name__}"
    if not isinstance(run.get("duration_seconds"), int | float):
        return "run.duration_seconds is missing or not a number"
    products = doc.get("products")
    if not isinstance(products, list) or not all(
            isinstance(p, dict) and isinstance(p.get("id"), str)
            and (p.get("product_id") is None or isinstance(p.get("product_id"), str))
            for p in products):
        return "products must be a list of {id, product_id}"
    cases = doc.get("cases")
    if not isinstance(cases, list):
        return "cases must be a list"
    for i, c in enumerate(cases):
        if not isinstance(c, dict) or not isinstance(c.get("id"), str) \
                or not isinstance(c.get("outcome"), str):
            return f"cases[{i}] has no id or outcome"
        obs = c.get("observations", {})
        if not isinstance(obs, dict):
            return f"cases[{i}].observations must be an object"
        for m, o in obs.items():
            sem = o.get("semantic") if isinstance(o, dict) else None
            if not isinstance(sem, dict) or not isinstance(sem.get("status"), str):
                return f"cases[{i}].observations.{m} has no semantic status"
            for key, kinds in (("warnings", list), ("diagnostics", list),
                               ("values", list | None)):
                if not isinstance(sem.get(key), kinds):
                    return f"cases[{i}].observations.{m}.semantic.{key} is missing or malformed"
            for key in ("stdout", "exit_status"):
                if key not in sem:
                    return f"cases[{i}].observations.{m}.semantic.{key} is missing"
    if not isinstance(doc.get("faults", []), list):
        return "faults must be a list"
    return None
