"""A case of a campaign: a program, its input and what it was made of."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass
class Case:
    source: str
    input: str | None
    features: tuple[str, ...]
    safe: bool
    origin: str = "generated"  # or "mutated:<corpus case>"
    tags: tuple[str, ...] = ()  # the producers, shapes and primitives the program was made of
    # Meter limits that replace the campaign's for this program (every member sees the same).
    limits: tuple[tuple[str, int], ...] = ()
    producers: tuple[str, ...] = ()  # registry ids of the producers drawn (registry.py)
