"""The implementations this distribution ships, by id, loaded lazily.

In-process runs (``court eval``) and the workers use this table; nothing else names a back end.
"""

from __future__ import annotations

from importlib import import_module
from typing import Any

# id -> "module:Class"
BUILTIN: dict[str, str] = {
    "tree": "implementations.tree:TreeBackend",
    "topaz-tree": "implementations.topaz.tree:TopazTreeBackend",
    "topaz-vm": "implementations.topaz.vm:TopazVmBackend",
    "vm": "implementations.vm:VmBackend",
}


class UnknownImplementation(KeyError):
    pass


def ids() -> list[str]:
    return list(BUILTIN)


def load(impl_id: str) -> Any:
    target = BUILTIN.get(impl_id)
    if target is None:
        raise UnknownImplementation(
            f"unknown implementation {impl_id!r}; available: {', '.join(BUILTIN)}")
    module, _, cls = target.partition(":")
    return getattr(import_module(module), cls)()
