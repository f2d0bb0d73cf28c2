"""Resource limits of a run: the wall clock per case, the address space of each worker, the meter
profile and its overrides; every member of a court runs under the same."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass
class Limits:
    """What every member of a court runs under, the same for all."""

    timeout: float = 10.0  # wall-clock seconds per case
    memory_bytes: int = 2 << 30  # RLIMIT_AS of each worker
    profile: str | None = None
    meter_limits: dict[str, int] | None = None
