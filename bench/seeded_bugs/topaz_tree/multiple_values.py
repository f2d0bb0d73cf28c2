"""Seeded bugs in topaz-tree, family "multiple values"."""

from __future__ import annotations

from bench.seeded_bugs.seeding import bug, edit_function


@bug("tt-division-pair-single", "topaz-tree", "topaz-tree analysis", "multiple values",
     "floor/ and truncate/ are listed as single-valued, so their two values used as one "
     "argument reach the primitive (a wrong result, or an E312 whose irritant cannot even be "
     "printed) instead of failing with E320",
     "(define (f x) (not (floor/ x 2)))\n(f 7)")
def _tt_division_pair_single() -> None:
    from implementations.topaz.tree import analysis

    # Realistic: the list was filled in by family ("floor ceiling round truncate ...") and the
    # two-valued division primitives beside them went in too.
    analysis.SINGLE_VALUED = analysis.SINGLE_VALUED | {"floor/", "truncate/"}


@bug("single-valued-if-else-only", "topaz-tree", "topaz-tree analysis",
     "multiple values",
     "the analysis of which expressions yield exactly one value follows only the else branch "
     "of an if, so an argument (if test (values a b) c) is taken to be single-valued and its "
     "several values reach the primitive instead of failing with E320",
     "(define (f x) (boolean? (if (> x 0) (values x x) #f)))\n"
     "(f 1)")
def _single_valued_if_else_only() -> None:
    from implementations.topaz.tree import analysis

    # Realistic: the walk "follows the spine of tail positions" to the expression that gives
    # the value, and for an if that spine was taken to be its last arm, as for a sequence.
    edit_function(analysis.SingleValued, "__call__",
                  "            if not self(n.then):\n"
                  "                result = False\n"
                  "                break\n"
                  "            spine.append(n)\n"
                  "            n = n.else_\n",
                  "            spine.append(n)\n"
                  "            n = n.else_\n")


@bug("tt-values-one-unchecked", "topaz-tree", "topaz-tree back end", "multiple values",
     "a values form of one argument is compiled as that argument's own code, without the "
     "one-value check, so (values e) passes on several (or no) values of e instead of E320",
     "(define (two) (values 1 2))\n"
     "(list (values 7) (call-with-values (lambda () (values (two))) list))")
def _tt_values_one_unchecked() -> None:
    from implementations.topaz.tree import nodes

    # Realistic: "(values x) is just x" taken literally; the argument list was built with the
    # checking `one`, and the one-argument shortcut reached for the plain compile.
    edit_function(nodes.NodeCompiler, "values",
                  "    if len(args) == 1:\n        return args[0]\n",
                  "    if len(args) == 1:\n        return self.comp(n.args[0], sc)\n")
