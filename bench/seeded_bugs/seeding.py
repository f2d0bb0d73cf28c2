"""Declaring a seeded bug: the `Bug` record, the `@bug` decorator, and the helpers that patch an
implementation in the running process (`patch_primitive`, `edit_function`, ...).

This module imports no bug module; the bug modules import it, and `registry` finds them.
"""

from __future__ import annotations

import copy
import re
from collections.abc import Callable
from dataclasses import dataclass
from importlib import import_module
from typing import Any

BACKENDS = {"tree": "implementations.tree", "vm": "implementations.vm",
            "topaz-tree": "implementations.topaz.tree", "topaz-vm": "implementations.topaz.vm"}
# A kernel bug is seeded into the kernel a lineage shares: every member of it carries the bug.
KERNELS = {"lispex-kernel": ("tree", "vm"), "topaz-kernel": ("topaz-tree", "topaz-vm")}
FAMILIES = ("control flow", "scoping/set!", "closures", "tail calls", "numerics", "printing",
            "strings/chars", "vectors", "diagnostics and spans", "meters/limits", "call/cc",
            "dynamic-wind", "handlers", "multiple values", "apply/rest args", "reader and layout")


def slug(text: str) -> str:
    """The module name of an implementation or a family: `topaz-tree` -> `topaz_tree`,
    `scoping/set!` -> `scoping_set`."""
    return re.sub(r"[^a-z0-9]+", "_", text.lower()).strip("_")


@dataclass(frozen=True)
class Bug:
    name: str
    impl: str
    where: str
    family: str
    what: str
    witness: str
    apply: Callable[[], None]

    @property
    def home(self) -> str:
        """The module this bug belongs in: bench.seeded_bugs.<impl>.<family>."""
        return f"bench.seeded_bugs.{slug(self.impl)}.{slug(self.family)}"

    @property
    def members(self) -> tuple[str, ...]:
        """The implementations that carry the bug: its own, or every member of its kernel's
        lineage."""
        return KERNELS.get(self.impl, (self.impl,))

    @property
    def is_kernel(self) -> bool:
        return self.impl in KERNELS


def bug(name: str, impl: str, where: str, family: str, what: str,
        witness: str) -> Callable[[Callable[[], None]], Bug]:
    """Declare the decorated patch function as a seeded bug; the module-level name then holds
    the `Bug`, which is how the registry finds it."""
    if impl not in BACKENDS and impl not in KERNELS:
        raise ValueError(f"bug {name}: unknown implementation or kernel {impl!r}")
    if family not in FAMILIES:
        raise ValueError(f"bug {name}: unknown family {family!r}")

    def declare(fn: Callable[[], None]) -> Bug:
        return Bug(name, impl, where, family, what, witness, fn)
    return declare


def primitives(impl: str) -> dict:
    """The live primitive table of ``impl`` (patching it changes what the running process does)."""
    return import_module(BACKENDS[impl]).primitives()


def patch_primitive(impl: str, name: str, make: Callable[[Callable], Callable]) -> None:
    """Replace primitive ``name`` (and its aliases) in ``impl``'s table with ``make(real)``,
    called the same way as the real function."""
    prims = primitives(impl)
    old = prims[name]
    if hasattr(old, "family"):  # a primitive of the lispex kernel
        from implementations.lispex.values import Primitive

        new = Primitive(name, make(old.fn), old.min_args, old.max_args, warning=old.warning,
                        guest=old.guest, backend=old.backend, family=old.family,
                        needs_context=old.needs_context)
    else:  # a primitive of the topaz kernel: the same fields, another function
        new = copy.copy(old)
        new.fn = make(old.fn)
    for k, v in list(prims.items()):
        if v is old:
            prims[k] = new


def edit_function(owner: Any, name: str, old: str, new: str) -> None:
    """Recompile function ``owner.name`` (a method, or a module-level function) from its source
    with the one occurrence of ``old`` replaced by ``new``: a single-point edit of code that
    cannot be wrapped from outside (the middle of a method, the machine's own loop)."""
    import __future__

    import inspect
    import textwrap

    fn = getattr(owner, name)
    src = textwrap.dedent(inspect.getsource(fn))
    assert src.count(old) == 1, (name, old)
    code = compile(src.replace(old, new), inspect.getsourcefile(fn) or "<seeded>", "exec",
                   flags=__future__.annotations.compiler_flag, dont_inherit=True)
    ns: dict[str, Any] = {}
    exec(code, fn.__globals__, ns)  # noqa: S102 - the implementation's own source, edited
    setattr(owner, name, ns[name])


def patch_kernel_primitive(kernel: str, name: str, make: Callable[[Callable], Callable]) -> None:
    """``patch_primitive`` in the table of every member of ``kernel``'s lineage: each member
    builds its own table from the kernel's primitives, and a kernel bug is in all of them."""
    for impl in KERNELS[kernel]:
        patch_primitive(impl, name, make)


def rebind_kernel(kernel: str, old: Callable, new: Callable) -> None:
    """Put ``new`` wherever the kernel (and its members) hold function ``old``: the globals of
    their modules (a ``from .x import f`` copies the name), and the members' primitive tables
    with the closures their primitives were made from."""
    import sys

    prefix = "implementations.topaz." if kernel == "topaz-kernel" else "implementations."
    for modname, mod in list(sys.modules.items()):
        if modname.startswith(prefix) and mod is not None:
            for k, v in list(vars(mod).items()):
                if v is old:
                    setattr(mod, k, new)
    for impl in KERNELS[kernel]:
        prims = primitives(impl)
        for k, p in list(prims.items()):
            if p.fn is old:
                patch_primitive(impl, k, lambda real: new)
            for cell in getattr(prims[k].fn, "__closure__", None) or ():
                if cell.cell_contents is old:
                    cell.cell_contents = new


def lispex_error(code: str, message: str, *irritants: Any) -> Exception:
    """A Lispex error as the kernel raises it (for a patched primitive that fails)."""
    from implementations.lispex.errors import LispexError

    return LispexError(code, message, irritants)


def edit_topaz_form(word: str, owner: type, name: str, old: str, new: str) -> None:
    """``edit_function`` of the topaz normalizer's method ``owner.name``, which expands the form
    ``word``; the dispatch table holds the methods themselves, so its entry is pointed at the
    edited one."""
    from implementations.topaz.kernel.normalizer import Normalizer

    edit_function(owner, name, old, new)
    Normalizer.SPECIAL[word] = getattr(owner, name)


def rebind_topaz(impl: str, old: Callable, new: Callable) -> None:
    """Put ``new`` wherever the topaz kernel holds function ``old``: the globals of its modules
    (a ``from .x import f`` copies the name), the primitive table of ``impl``, and the closures
    the table's primitives were made from (memv is ``_member("memv", eqv)``)."""
    import sys

    prims = primitives(impl)
    for modname, mod in list(sys.modules.items()):
        if modname.startswith("implementations.topaz.") and mod is not None:
            for k, v in list(vars(mod).items()):
                if v is old:
                    setattr(mod, k, new)
    for k, p in list(prims.items()):
        if p.fn is old:
            patch_primitive(impl, k, lambda real: new)
        for cell in getattr(prims[k].fn, "__closure__", None) or ():
            if cell.cell_contents is old:
                cell.cell_contents = new


def derived_class() -> type:
    """The kernel normalizer's class of derived forms (the one with ``form_when``)."""
    from implementations.lispex import derived

    return next(v for v in vars(derived).values()
                if isinstance(v, type) and hasattr(v, "form_when"))
