"""The observation of one run: the semantic result, resource observations and identities.

This is the value every implementation produces and the court compares; its JSON form is the
schema ``lispex.court-observation/v1`` (see docs/observation.md).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .errors import Diagnostic

SCHEMA = "lispex.court-observation/v1"
STATUSES = ("ok", "source-error", "runtime-error", "resource", "infrastructure-error")


@dataclass
class Observation:
    implementation: str
    status: str
    values: list[str] = field(default_factory=list)
    stdout: str = ""
    exit_status: int = 0
    diagnostics: list[Diagnostic] = field(default_factory=list)
    warnings: list[Diagnostic] = field(default_factory=list)
    resource_outcome: dict[str, Any] = field(default_factory=lambda: {"status": "within-limits"})
    usage: dict[str, int] = field(default_factory=dict)
    limits: dict[str, int] = field(default_factory=dict)
    profile: str = ""
    products: dict[str, Any] = field(default_factory=dict)
    measurements: dict[str, Any] = field(default_factory=dict)
    faults: list[dict[str, Any]] = field(default_factory=list)
    meter_exact: bool = True  # see Meter.exact

    def to_json(self) -> dict[str, Any]:
        resources: dict[str, Any] = {"usage": dict(self.usage), "limits": dict(self.limits),
                                     "profile": self.profile}
        if not self.meter_exact:
            resources["meter_exact"] = False
        resources.update(self.measurements)
        out = {
            "schema": SCHEMA,
            "implementation": self.implementation,
            "semantic": {
                "status": self.status,
                "values": list(self.values),
                "stdout": self.stdout,
                "exit_status": self.exit_status,
                "diagnostics": [d.to_json() for d in self.diagnostics],
                "warnings": [w.to_json() for w in self.warnings],
                "resource_outcome": dict(self.resource_outcome),
            },
            "resources": resources,
            "products": dict(self.products),
        }
        if self.faults:
            out["faults"] = list(self.faults)
        return out
