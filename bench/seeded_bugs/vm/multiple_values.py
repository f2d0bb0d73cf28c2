"""Seeded bugs in vm, family "multiple values"."""

from __future__ import annotations

from bench.seeded_bugs.seeding import bug, edit_function


@bug("zero-values-single", "vm", "vm back end", "multiple values",
     "the compiler's test for an expression that is always exactly one value accepts a values "
     "form of at most one argument, so (values) as an operand, a let init or an if test gets "
     "no require-one check: zero values flow on as if they were a value instead of E320",
     "(define (g) (let ((x (values))) 'bound))\n"
     "(define r (if (values) 'yes 'no))\n"
     "(list r (g))")
def _zero_values_single() -> None:
    from implementations.vm import compiler

    # Realistic: "(values x) is one value" written as len(args) <= 1, an off-by-one that
    # forgets zero values; (values) is rare as an operand, and a cond or case with no match
    # (also zero values) is an If, not a values form, so it is still checked.
    edit_function(compiler, "_single", "len(node.args) == 1", "len(node.args) <= 1")


@bug("vm-two-valued-prims-single", "vm", "vm back end", "multiple values",
     "the evaluator generator's table of kernel primitives that always return one value also "
     "lists exact-integer-sqrt, floor/ and truncate/, which return two, so where their result "
     "must be a single value (a let init, an operand, a test) the E320 check is left out and "
     "the two values go on as if they were one",
     "(define (split n)\n"
     "  (let ((r (exact-integer-sqrt n)))\n"
     "    (call-with-values (lambda () r) list)))\n"
     "(list (call-with-values (lambda () (exact-integer-sqrt 17)) list)\n"
     "      (call-with-values (lambda () (floor/ 7 2)) cons)\n"
     "      (split 17))")
def _vm_two_valued_prims_single() -> None:
    from implementations.vm import treegen

    # Realistic: the list was filled from the numeric family of the primitive table ("numeric
    # primitives return a number"), with sqrt, expt and square; the three that return two
    # numbers sit among them. Called in tail position, or for call-with-values, they are
    # right, which is how they are normally used.
    treegen.SINGLE_VALUED = treegen.SINGLE_VALUED | {"exact-integer-sqrt", "floor/",
                                                     "truncate/"}


@bug("vm-inline-prim-stack-unchecked", "vm", "vm back end", "multiple values",
     "a kernel primitive called inline on an operand that the machine left on its stack (the "
     "result of a procedure call) takes that operand without its one-value check, so several "
     "values reach the primitive instead of an E320: (number? (f)) is #f when f returns two "
     "values, (+ 1 (f)) an E312",
     "(define (div-mod n d) (values (quotient n d) (remainder n d)))\n"
     "(define (show x) (display x) (newline))\n"
     "(show (quotient 17 5))\n"
     "(show (number? (div-mod 17 5)))")
def _vm_inline_prim_stack_unchecked() -> None:
    from implementations.vm.link import CodeLinker

    # Realistic: the evaluator's stack parameters were taken to be checked already, as the
    # operands of a general call are (the call instruction checks them); for an inline
    # primitive the evaluator is the consumer and has to make the check itself.
    edit_function(CodeLinker, "call",
                  'nodes.append(("stack", nstack, it.check))',
                  'nodes.append(("stack", nstack, None))')
