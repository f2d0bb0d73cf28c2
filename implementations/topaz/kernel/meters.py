"""The five meter axes and the resource profiles (data: profiles.toml).

Charging follows METER-PRECHARGE-1: a reservation is admitted iff the axis stays within its
limit; a denied one leaves the axis at its limit and ends the run with the axis's code.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from .data import table
from .errors import ResourceExhausted

FRONTEND = "frontend-transition"
TOKEN = "token"
NORMALIZE = "normalization-step"
MACHINE = "machine-transition"
OUTPUT = "output-byte"
RECURSION_LIMIT = 10_000


@dataclass(frozen=True)
class Axis:
    id: str
    limit_field: str
    usage_field: str
    code: str


@cache
def axes() -> tuple[Axis, ...]:
    return tuple(Axis(a["id"], a["limit_field"], a["usage_field"], a["exhaustion_code"])
            for a in table("profiles")["axis"])


def profiles() -> dict[str, dict]:
    return {p["id"]: p for p in table("profiles")["profile"]}


def default_profile() -> str:
    return next(p["id"] for p in table("profiles")["profile"] if p.get("default"))


@cache
def _codes() -> dict[str, str]:
    return {a.id: a.code for a in axes()}


class Meter:
    def __init__(self, limits: dict[str, int]) -> None:
        self.limits = dict(limits)
        self.used = {a: 0 for a in self.limits}
        self._codes = _codes()

    def remaining(self, axis: str) -> int:
        return self.limits[axis] - self.used[axis]

    def charge(self, axis: str, amount: int) -> None:
        used = self.used[axis] + amount
        if used > self.limits[axis]:
            self.used[axis] = self.limits[axis]
            raise ResourceExhausted(self._codes[axis],
                                    f"{axis} limit of {self.limits[axis]} exceeded")
        self.used[axis] = used
