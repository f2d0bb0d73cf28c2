"""The five meters of lispex.product-resource-meter/v1 and the resource profiles.

Charging follows METER-PRECHARGE-1: a reservation of ``n`` units is admitted iff
``used + n <= limit``. A bulk charge behaves as ``n`` single-unit charges, so when it is denied
the units that would have been admitted one by one are counted (usage reaches the limit) and the
exhaustion is raised. Usage is reported for admitted units only.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from functools import cache

from .errors import ResourceExhausted

# Non-tail call depth at which a run ends with the `recursion-limit` resource outcome.
RECURSION_LIMIT = 10_000


@dataclass(frozen=True)
class Axis:
    id: str
    limit_field: str
    usage_field: str
    exhaustion_code: str
    charged: str


@dataclass(frozen=True)
class Profile:
    id: str
    purpose: str
    public_selectable: bool
    limits: tuple[int, ...]  # in axis order
    default: bool = False

    def limit_map(self) -> dict[str, int]:
        return {a.id: lim for a, lim in zip(axes(), self.limits, strict=True)}


@cache
def _data() -> dict:
    # A plain file read: importlib.resources (and the pathlib, tempfile and zipfile it pulls in)
    # would double the import time of every worker for one file that sits beside this module.
    import tomllib

    with open(os.path.join(os.path.dirname(__file__), "data", "profiles.toml"), "rb") as f:
        return tomllib.load(f)


@cache
def axes() -> tuple[Axis, ...]:
    return tuple(Axis(**a) for a in _data()["axis"])


@cache
def profiles() -> dict[str, Profile]:
    out = {}
    for p in _data()["profile"]:
        p = dict(p)
        p["limits"] = tuple(p["limits"])
        out[p["id"]] = Profile(**p)
    return out


def default_profile() -> Profile:
    return next(p for p in profiles().values() if p.default)


AXIS_IDS = ("frontend-transition", "token", "normalization-step", "machine-transition",
            "output-byte")


class Meter:
    """Usage and limits for one run. Back ends may count machine transitions in a local
    variable for speed and settle them here with :meth:`charge`."""

    __slots__ = ("limits", "used", "exact")

    def __init__(self, limits: dict[str, int]) -> None:
        self.limits = [limits[a] for a in AXIS_IDS]
        self.used = [0, 0, 0, 0, 0]
        # False when the back end's machine-transition count may stray from what its meter
        # model counts for this run (observation `resources.meter_exact`); the court then does
        # not compare it. The built-in back ends count exactly and never set it.
        self.exact = True

    def charge(self, axis: int, n: int = 1) -> None:
        used = self.used[axis] + n
        if used > self.limits[axis]:
            self.used[axis] = self.limits[axis]
            raise ResourceExhausted(axes()[axis].exhaustion_code,
                                    f"{AXIS_IDS[axis]} limit of {self.limits[axis]} exceeded")
        self.used[axis] = used

    def remaining(self, axis: int) -> int:
        return self.limits[axis] - self.used[axis]

    def usage(self) -> dict[str, int]:
        return {a.usage_field: u for a, u in zip(axes(), self.used, strict=True)}

    def limit_fields(self) -> dict[str, int]:
        return {a.limit_field: lim for a, lim in zip(axes(), self.limits, strict=True)}


FRONTEND, TOKEN, NORMALIZATION, MACHINE, OUTPUT = range(5)
