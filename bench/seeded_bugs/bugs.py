"""Seeded bugs: realistic single-point mistakes, each applied to one implementation by a patch.

Each bug names the implementation it is seeded into (`tree`, `vm`, `topaz-tree`, `topaz-vm`), the
part of the code it sits in (`where`: a back end, or a kernel module of that member's own copy:
reader, normalizer, printer, numbers, primitives, meters), its feature family, and a small
witness program on which it changes the result (tests/test_seeded_bugs.py checks that it does,
so the benchmark cannot pass vacuously). ``apply()`` patches the running process; the worker in
``worker.py`` applies one bug and then serves the ordinary worker protocol.

The bugs are written for this benchmark and are not the four in tests/harness/fakes.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from dataclasses import dataclass
from importlib import import_module
from typing import Any

BACKENDS = {"tree": "implementations.tree", "vm": "implementations.vm",
            "topaz-tree": "implementations.topaz.tree", "topaz-vm": "implementations.topaz.vm"}
FAMILIES = ("control flow", "scoping/set!", "closures", "tail calls", "numerics", "printing",
            "strings/chars", "vectors", "diagnostics and spans", "meters/limits", "call/cc",
            "dynamic-wind", "handlers", "multiple values", "apply/rest args", "reader and layout")


@dataclass(frozen=True)
class Bug:
    name: str
    impl: str
    where: str
    family: str
    what: str
    witness: str
    apply: Callable[[], None]


BUGS: dict[str, Bug] = {}


def bug(name: str, impl: str, where: str, family: str, what: str, witness: str):
    def register(fn: Callable[[], None]) -> Callable[[], None]:
        assert name not in BUGS and impl in BACKENDS and family in FAMILIES, name
        BUGS[name] = Bug(name, impl, where, family, what, witness, fn)
        return fn
    return register


def _prims(impl: str) -> dict:
    return import_module(BACKENDS[impl]).primitives()


def patch_primitive(impl: str, name: str, make: Callable[[Callable], Callable]) -> None:
    """Replace primitive ``name`` (and its aliases) in ``impl``'s table with ``make(real)``,
    called the same way as the real function."""
    prims = _prims(impl)
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


def _err(code: str, message: str, *irritants: Any) -> Exception:
    from implementations.lispex.errors import LispexError

    return LispexError(code, message, irritants)


def _derived_class() -> type:
    from implementations.lispex import derived

    return next(v for v in vars(derived).values()
                if isinstance(v, type) and hasattr(v, "form_when"))


# The bugs themselves, one module per implementation; importing them registers them in BUGS,
# in this order.
from bench.seeded_bugs import bugs_tree, bugs_vm, bugs_topaz_tree, bugs_topaz_vm  # noqa: E402,F401,I001
from bench.seeded_bugs import bugs_blind_tree_vm, bugs_blind_topaz  # noqa: E402,F401,I001
from bench.seeded_bugs import bugs_blind_three  # noqa: E402,F401,I001
from bench.seeded_bugs import bugs_blind_four  # noqa: E402,F401,I001
from bench.seeded_bugs import bugs_blind_five  # noqa: E402,F401,I001
from bench.seeded_bugs import bugs_blind_six  # noqa: E402,F401,I001
from bench.seeded_bugs import bugs_blind_seven  # noqa: E402,F401,I001
from bench.seeded_bugs import bugs_blind_eight  # noqa: E402,F401,I001
from bench.seeded_bugs import bugs_blind_nine  # noqa: E402,F401,I001
from bench.seeded_bugs import bugs_blind_ten  # noqa: E402,F401,I001
from bench.seeded_bugs import bugs_blind_eleven  # noqa: E402,F401,I001
from bench.seeded_bugs import bugs_blind_twelve  # noqa: E402,F401,I001
from bench.seeded_bugs import bugs_blind_thirteen  # noqa: E402,F401,I001
from bench.seeded_bugs import bugs_blind_fourteen  # noqa: E402,F401,I001
from bench.seeded_bugs import bugs_blind_fifteen  # noqa: E402,F401,I001
from bench.seeded_bugs import bugs_blind_sixteen  # noqa: E402,F401,I001
from bench.seeded_bugs import bugs_blind_seventeen  # noqa: E402,F401,I001
from bench.seeded_bugs import bugs_blind_eighteen  # noqa: E402,F401,I001
from bench.seeded_bugs import bugs_blind_nineteen  # noqa: E402,F401,I001
from bench.seeded_bugs import bugs_blind_twenty  # noqa: E402,F401,I001
