"""Checks of the options every court command shares, made before any worker starts.

Each check raises UsageError (exit 2) with one line naming the option and what is wrong; none of
them starts a process. The profile and meter-axis catalogs are data of the Lispex package
(``implementations/lispex/data/profiles.toml``): the court reads them, it does not evaluate.
"""

from __future__ import annotations

import argparse
import math
import re
from pathlib import Path

from ..files import MAX_INPUT_BYTES, MAX_PROGRAM_BYTES, FileRefused, read_bounded, safe_text
from ..workers.limits import Limits
from .usage import UsageError, parse_limit

# The wall clock is a safety net against hangs; the deterministic meters are the limit. The
# slowest bundled case (a 1,000,000-iteration tail loop, 7 million machine transitions) takes
# 3.5 s on `tree` on an idle core; 60 s leaves it 17 times that on a loaded machine.
DEFAULT_TIMEOUT = 60.0
MAX_TIMEOUT = 7 * 24 * 3600.0
# Below this a Python worker cannot even start (the interpreter maps ~30 MiB); above it the
# value is a typo, not a limit (1 TiB).
MIN_MEMORY_MIB = 64
MAX_MEMORY_MIB = 1 << 20
MAX_JOBS = 256
# Meter limits travel as JSON numbers: keep them exact in every reader.
MAX_METER_LIMIT = 2 ** 53

_SHARD = re.compile(r"([0-9]+)/([0-9]+)")


def profile_catalog() -> tuple[list[str], tuple[str, ...]]:
    """(profile ids, meter axis ids) from the Lispex data."""
    from implementations.lispex.meters import AXIS_IDS, profiles

    return list(profiles()), AXIS_IDS


def check_profile(profile: str | None) -> None:
    if profile is None:
        return
    known, _ = profile_catalog()
    if profile not in known:
        raise UsageError(f"court: --profile: unknown profile {profile!r}; known: "
                         f"{', '.join(known)}")


def meter_limits(texts: list) -> dict[str, int]:
    _, axes = profile_catalog()
    out: dict[str, int] = {}
    for text in texts:
        if isinstance(text, tuple):  # already parsed by argparse (court eval)
            axis, n = text
        else:
            try:
                axis, n = parse_limit(text)
            except argparse.ArgumentTypeError as e:
                raise UsageError(f"court: --limit: {e}") from None
        if axis not in axes:
            raise UsageError(f"court: --limit: unknown meter axis {axis!r}; known: "
                             f"{', '.join(axes)}")
        if n > MAX_METER_LIMIT:
            raise UsageError(f"court: --limit {axis}: {n} is larger than 2^53")
        if axis in out and out[axis] != n:
            raise UsageError(f"court: --limit {axis} is given twice with different values")
        out[axis] = n
    return out


def check_timeout(value: float | None) -> float:
    if value is None:
        return DEFAULT_TIMEOUT
    if not math.isfinite(value) or value <= 0:
        raise UsageError(f"court: --timeout must be a finite number of seconds above 0, got "
                         f"{value!r}")
    if value > MAX_TIMEOUT:
        raise UsageError(f"court: --timeout {value:g} is more than a week; the wall clock is a "
                         "safety net, the meters are the limit")
    return value


def check_memory(mib: int) -> int:
    if not MIN_MEMORY_MIB <= mib <= MAX_MEMORY_MIB:
        raise UsageError(f"court: --memory-limit must be between {MIN_MEMORY_MIB} and "
                         f"{MAX_MEMORY_MIB} MiB, got {mib}")
    return mib << 20


def check_jobs(jobs: int) -> int:
    if not 1 <= jobs <= MAX_JOBS:
        raise UsageError(f"court: --jobs must be between 1 and {MAX_JOBS}, got {jobs}")
    return jobs


def limits(args: argparse.Namespace) -> Limits:
    """The Limits every member runs under, from checked options."""
    check_profile(args.profile)
    meter = meter_limits(args.limit)
    timeout = check_timeout(args.timeout)
    memory = check_memory(args.memory_limit)
    if getattr(args, "jobs", None) is not None:  # None: one slot per CPU
        check_jobs(args.jobs)
    return Limits(timeout=timeout, memory_bytes=memory, profile=args.profile,
                  meter_limits=meter)


def impl_list(text: str | None) -> list[str] | None:
    """The ids of ``--impl a,b``: no empty item, no id twice."""
    if text is None:
        return None
    items = [s.strip() for s in text.split(",")]
    if not text.strip() or any(not s for s in items):
        raise UsageError(f"court: --impl: expected comma-separated product ids, got {text!r} "
                         "(an empty item)")
    seen = set()
    for s in items:
        if s in seen:
            raise UsageError(f"court: --impl names {s!r} twice; each member runs once")
        seen.add(s)
    return items


def check_known_products(ids: list[str] | None, config) -> None:
    """An id that no manifest describes is a typo (exit 2); a described product that is not
    installed is an unavailable court (exit 3), reported later."""
    for pid in ids or []:
        if pid not in config.products:
            raise UsageError(f"court: --impl: unknown product {pid!r}; known: "
                             f"{', '.join(config.products)}")


def nonempty(args: argparse.Namespace, *names: str) -> None:
    """Options given as empty strings (`--filter ''`) are mistakes, not wildcards."""
    for name in names:
        value = getattr(args, name, None)
        if isinstance(value, str) and not value.strip():
            raise UsageError(f"court: --{name.replace('_', '-')} must not be empty")
        if isinstance(value, list):
            for v in value:
                if isinstance(v, str) and not v.strip():
                    what = "a path" if name in ("paths", "dirs") else f"--{name}"
                    raise UsageError(f"court: {what} must not be empty")


def parse_shard(text: str | None) -> tuple[int, int] | None:
    if text is None:
        return None
    m = _SHARD.fullmatch(text.strip())
    if not m or not 1 <= int(m[1]) <= int(m[2]) or int(m[2]) > 1_000_000:
        raise UsageError(f"court: --shard must be K/N with 1 <= K <= N, got {text!r}")
    return int(m[1]), int(m[2])


def read_program(path: str) -> bytes:
    if not path:
        raise UsageError("court: the program path must not be empty")
    try:
        return read_bounded(path, MAX_PROGRAM_BYTES, "program")
    except FileRefused as e:
        raise UsageError(f"court: {safe_text(str(e))}") from None
    except OSError as e:
        raise UsageError(f"court: cannot read {safe_text(path)}: {e.strerror}") from None


def read_input(args: argparse.Namespace) -> str | None:
    if getattr(args, "input_file", None) is None:
        text = getattr(args, "input", None)
        if text is not None and len(text.encode("utf-8", "surrogateescape")) > MAX_INPUT_BYTES:
            raise UsageError(f"court: --input is larger than {MAX_INPUT_BYTES >> 20} MiB")
        return text
    path = args.input_file
    if not path:
        raise UsageError("court: --input-file must not be empty")
    try:
        return read_bounded(path, MAX_INPUT_BYTES, "input").decode("utf-8")
    except FileRefused as e:
        raise UsageError(f"court: {safe_text(str(e))}") from None
    except OSError as e:
        raise UsageError(f"court: cannot read input file {safe_text(path)}: {e.strerror}") \
            from None
    except UnicodeDecodeError as e:
        raise UsageError(f"court: cannot read input file {safe_text(path)}: not UTF-8 ({e})") \
            from None


def case_paths(paths: list[str]) -> list[Path]:
    """Corpus paths: each a case file or a folder (a FIFO or a device is neither)."""
    out = []
    for text in paths:
        if not text:
            raise UsageError("court: a case path must not be empty")
        p = Path(text)
        if not p.exists():
            raise UsageError(f"court: no such case or folder: {safe_text(text)}")
        if not (p.is_file() or p.is_dir()):
            raise UsageError(f"court: {safe_text(text)} is neither a case file nor a folder")
        out.append(p)
    return out
