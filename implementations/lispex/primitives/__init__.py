"""The kernel's primitives: one module per family, all registered in :mod:`.table`.

Importing the package imports every family module, which registers its primitives; so whoever
imports :mod:`.table` finds the registry complete, and the table never imports the families
(they import it).
"""

from . import (  # noqa: F401
    chars,
    control,
    equality,
    numeric,
    output,
    pairs,
    predicates,
    strings,
    vectors,
)
