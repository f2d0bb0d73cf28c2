"""The outcome of a verification: one entry per check, in order, and the result they make."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from typing import Any

from .codes import BY_NAME, CHECKS, FAILED, NOT_PERFORMED, PASSED, UNABLE, WARNING

SCHEMA = "lispex.court-verification/v1"
VERIFIED, DIFFERS, COULD_NOT = "verified", "differs", "could-not-verify"
EXIT = {VERIFIED: 0, DIFFERS: 1, COULD_NOT: 2}


@dataclass
class Finding:
    """One thing a check compared or tried: what, what the receipt (or policy) says, what was
    found here, and why it failed when it did."""

    what: str
    expected: Any = None
    got: Any = None
    ok: bool = True
    why: str | None = None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"what": self.what, "ok": self.ok}
        if self.expected is not None or self.got is not None:
            out["expected"], out["got"] = self.expected, self.got
        if self.why:
            out["why"] = self.why
        return out


@dataclass
class Check:
    name: str
    status: str
    detail: str
    findings: list[Finding] = field(default_factory=list)

    @property
    def code(self) -> str:
        return BY_NAME[self.name].code

    def to_json(self) -> dict[str, Any]:
        return {"code": self.code, "check": self.name, "status": self.status,
                "detail": self.detail, "findings": [f.to_json() for f in self.findings]}


@dataclass
class Verification:
    checks: list[Check] = field(default_factory=list)
    receipt_digest: str | None = None
    policy_digest: str | None = None
    key_id: str | None = None
    statement: dict[str, Any] | None = None  # once signed by a trusted key and well formed
    started: str = field(default_factory=lambda: dt.datetime.now(dt.UTC).isoformat(
        timespec="seconds"))

    def add(self, name: str, status: str, detail: str,
            findings: list[Finding] | None = None) -> Check:
        if self.done(name):
            raise ValueError(f"check {name} made twice")  # a bug in the verifier
        c = Check(name, status, detail, findings or [])
        self.checks.append(c)
        return c

    def done(self, name: str) -> bool:
        return any(c.name == name for c in self.checks)

    def skip_rest(self, why: str) -> None:
        """List every check not yet made as not performed, with ``why``."""
        for kind in CHECKS:
            if not self.done(kind.name):
                self.add(kind.name, NOT_PERFORMED, why)

    @property
    def result(self) -> str:
        statuses = {c.status for c in self.checks}
        if FAILED in statuses:
            return DIFFERS
        if UNABLE in statuses:
            return COULD_NOT
        return VERIFIED

    @property
    def exit_status(self) -> int:
        return EXIT[self.result]

    @property
    def verified(self) -> bool:
        return self.result == VERIFIED

    def ordered(self) -> list[Check]:
        order = {k.name: i for i, k in enumerate(CHECKS)}
        return sorted(self.checks, key=lambda c: order[c.name])

    def to_json(self) -> dict[str, Any]:
        from court import __version__

        return {"schema": SCHEMA, "verifier": {"name": "lispex-court", "version": __version__},
                "time": self.started, "receipt_digest": self.receipt_digest,
                "policy_digest": self.policy_digest, "key_id": self.key_id,
                "result": self.result, "exit_status": self.exit_status,
                "checks": [c.to_json() for c in self.ordered()]}

    def lines(self) -> list[str]:
        """The verification as text, one line per check and one per finding that failed."""
        out = []
        for c in self.ordered():
            out.append(f"{c.code} {c.name:<13} {c.status:<13} {c.detail}")
            for f in c.findings:
                if f.ok and c.status == PASSED:
                    continue
                mark = "ok  " if f.ok else "FAIL"
                line = f"     {mark} {f.what}"
                if not f.ok and (f.expected is not None or f.got is not None):
                    line += f": expected {_short(f.expected)}, got {_short(f.got)}"
                if f.why:
                    line += f" ({f.why})"
                out.append(line)
        n_not = sum(c.status == NOT_PERFORMED for c in self.checks)
        warn = sum(c.status == WARNING for c in self.checks)
        out.append(f"result: {self.result} ({len(self.checks) - n_not} checks performed, "
                   f"{n_not} not performed, {warn} warning(s))")
        return out


def _short(value: Any, limit: int = 100) -> str:
    text = value if isinstance(value, str) else repr(value)
    return text if len(text) <= limit else text[:limit - 3] + "..."
