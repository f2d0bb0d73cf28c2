"""The observation a run makes (docs/observation.md, ``lispex.court-observation/v1``)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .errors import Diagnostic

SCHEMA = "lispex.court-observation/v1"
EXIT = {"ok": 0, "source-error": 1, "runtime-error": 1, "resource": 2}


@dataclass
class Observation:
    implementation: str
    status: str
    values: list[str] = field(default_factory=list)
    stdout: str = ""
    diagnostics: list[Diagnostic] = field(default_factory=list)
    warnings: list[Diagnostic] = field(default_factory=list)
    resource_outcome: dict = field(default_factory=lambda: {"status": "within-limits"})
    usage: dict = field(default_factory=dict)
    limits: dict = field(default_factory=dict)
    profile: str = ""
    products: dict = field(default_factory=dict)
    measurements: dict = field(default_factory=dict)
    faults: list = field(default_factory=list)

    @property
    def exit_status(self) -> int | None:
        return EXIT.get(self.status)

    def to_json(self) -> dict[str, Any]:
        resources: dict[str, Any] = {"usage": dict(self.usage), "limits": dict(self.limits),
                                     "profile": self.profile}
        resources.update(self.measurements)
        return {
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
            **({"faults": list(self.faults)} if self.faults else {}),
        }
