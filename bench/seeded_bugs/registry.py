"""Every seeded bug, found by walking the implementation packages of bench.seeded_bugs: a bug
module is discovered, never listed, so adding one needs no edit here."""

from __future__ import annotations

import pkgutil
from importlib import import_module

from bench.seeded_bugs.seeding import BACKENDS, FAMILIES, KERNELS, Bug, slug

__all__ = ["BACKENDS", "BUGS", "FAMILIES", "KERNELS", "Bug", "discover"]


def discover() -> dict[str, Bug]:
    """The bugs by name, implementation by implementation (in BACKENDS order, then the kernels
    in KERNELS order), then module by module, in the order each module defines them."""
    found: dict[str, Bug] = {}
    for impl in (*BACKENDS, *KERNELS):
        package = import_module(f"bench.seeded_bugs.{slug(impl)}")
        for info in sorted(pkgutil.iter_modules(package.__path__), key=lambda m: m.name):
            module = import_module(f"{package.__name__}.{info.name}")
            for value in vars(module).values():
                if not isinstance(value, Bug) or value.apply.__module__ != module.__name__:
                    continue
                if value.name in found:
                    raise ValueError(f"seeded bug {value.name} is declared twice: in "
                                     f"{found[value.name].apply.__module__} and {module.__name__}")
                found[value.name] = value
    return found


BUGS: dict[str, Bug] = discover()
