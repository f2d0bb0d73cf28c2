"""Lexical scopes of the normalizer: frames of names resolved to (depth, index) addresses."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


class Temp:
    """A temporary made by an expansion: a key no program can spell."""

    __slots__ = ("label",)

    def __init__(self, label: str) -> None:
        self.label = label


@dataclass
class Frame:
    names: list = field(default_factory=list)
    checked: bool = False  # a letrec frame: reads may come before the init ran


@dataclass
class Scope:
    frames: tuple = ()

    def push(self, names: list, checked: bool = False) -> Scope:
        return Scope(self.frames + (Frame(list(names), checked),))

    def lookup(self, key: Any) -> tuple[int, int, bool] | None:
        frames = self.frames
        for depth in range(len(frames)):
            frame = frames[len(frames) - 1 - depth]
            names = frame.names
            # the last binding of a name in a frame wins (never two in one frame by checks)
            for index in range(len(names) - 1, -1, -1):
                if names[index] is key or (type(key) is str and names[index] == key):
                    return depth, index, frame.checked
        return None
