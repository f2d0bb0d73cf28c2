"""The shared subset: programs on which Lispex and a witness are meant to agree.

A court with a witness member (a product with a known-differences file) fuzzes only inside the
subset: a generated program that shows a feature a known difference is about (the entry's
``uses`` names or ``source`` pattern, for entries marked ``fuzz_avoid``) is skipped before it
runs. A disagreement that a known difference still explains after the run (one matched by the
Lispex side's diagnostic code or the witness's answer) is counted as known, never a finding.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..differences import Difference, KnownDifferences


@dataclass
class SharedSubset:
    known: KnownDifferences

    @property
    def active(self) -> bool:
        return bool(self.known)

    def excluded_by(self, source: str) -> Difference | None:
        """The known difference that puts this program outside the subset, if any."""
        for d in self.known.static_entries():
            if d.static_match(source):
                return d
        return None

    def admits(self, source: str) -> bool:
        return self.excluded_by(source) is None
