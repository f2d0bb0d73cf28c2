"""Seeded bugs in tree, family "multiple values"."""

from __future__ import annotations

from bench.seeded_bugs.seeding import bug, edit_function


@bug("dw-thunk-one-value", "tree", "tree back end", "multiple values",
     "the frame that receives the result of a dynamic-wind thunk demands exactly one value "
     "(E320), so a thunk returning several values or none fails instead of passing them on "
     "through the after thunk",
     "(call-with-values\n"
     "  (lambda () (dynamic-wind (lambda () #f) (lambda () (values 1 2)) (lambda () #f)))\n"
     "  list)")
def _dw_thunk_one_value() -> None:
    from implementations.tree import control

    # Realistic: the F_DW return path was written beside F_LET and F_LETREC, whose slots hold
    # one value, and the one-value check was copied along with their shape. The thunk's result
    # only passes through the frame, so any outcome (zero or several values) must be kept.
    edit_function(control.Control, "control",
                  "    if tag == F_DW:\n        k.append((F_DW_DONE, val))\n",
                  "    if tag == F_DW:\n        if type(val) is Values:\n"
                  "            raise mv_error(fr[3].span, val)\n"
                  "        k.append((F_DW_DONE, val))\n")


@bug("first-class-values-packs-one", "tree", "tree back end", "multiple values",
     "values applied as a procedure (through apply, or passed as a value) always packs its "
     "arguments, so (apply values '(5)) is a multiple-values outcome of one value and a "
     "single-value context rejects it with E320; a (values x) form the normalizer sees is "
     "still one value",
     "(define (spread xs) (apply values xs))\n"
     "(list (values 4) (call-with-values (lambda () (spread '(1 2))) list)\n"
     "      (+ 1 (spread '(5))))")
def _first_class_values_packs_one() -> None:
    from implementations.tree import control

    # Realistic: the primitive was written as "values builds a Values" with a special case
    # for none; the one-argument case (the value itself) lives in the normalizer's ValuesNode
    # path, which is the one the tests exercise.
    edit_function(control.Control, "special",
                  "return RET, (args[0] if len(args) == 1 else Values(tuple(args))), [], tail, \\",
                  "return RET, (Values(tuple(args)) if args else NO_VALUES), [], tail, \\")
