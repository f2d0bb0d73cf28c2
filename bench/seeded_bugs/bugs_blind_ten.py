"""Seeded bugs written blind, batch ten: by a session that did not read the fuzzer
(court/fuzz/) first, so that they measure what the generator reaches rather than what it was
written beside (see bugs.py). This batch is about the back ends' control machinery and its
less-travelled paths: multiple values (zero values where one is required, `values` applied as a
first-class procedure, the one-value analyses of the compilers (set! taken for one value, the
-for-each primitives, a guard's re-raise yielding the handler's values), call-with-values (the
consumer's transition, the consumer's fault site in tail position), dynamic-wind (the value a
wind returns), exception handlers (where the E332 of a handler returning from `raise` is
offered, `=>`-less guard clauses), and the machine-transition meter that tree and vm must count
alike. Three bugs per implementation."""

from __future__ import annotations

from bench.seeded_bugs.bugs import bug, edit_function

# -- tree ---------------------------------------------------------------------------------------


@bug("blind10-inline-test-prim-one-transition", "tree", "tree back end", "meters/limits",
     "a primitive applied to leaves as an if test, a let init or a non-final body expression, "
     "which the machine evaluates in place, is charged one machine transition instead of two "
     "(entering the application and applying the primitive), so the tree's count falls below "
     "the vm's; the same call as an operand is still charged two",
     "(define (f x) (if (< x 10) (+ x 1) x))\n"
     "(let ((a (car '(1 2))) (b (cdr '(1 2))))\n"
     "  (vector-length (make-vector 3 0))\n"
     "  (list (f a) b))")
def _inline_test_prim_one_transition() -> None:
    from implementations.tree import machine

    # Realistic: the in-place path of if/let/seq was copied from the operand path, where the
    # two charges sit a few lines apart; here the second one (for applying the primitive) was
    # taken for a duplicate of the first and dropped. Only the meter shows it.
    edit_function(machine.Machine, "run",
                  "                                            site = x\n"
                  "                                            steps += 1\n"
                  "                                            if steps > slimit:\n"
                  "                                                raise self.exhausted()\n",
                  "                                            site = x\n")


@bug("blind10-e332-to-same-handler", "tree", "tree back end", "handlers",
     "when a handler returns from a non-continuable raise, the E332 condition is offered to the "
     "handler chain saved in the raise frame (the one that includes the handler that just "
     "returned) instead of the handlers outside it, so the same handler sees its own E332",
     "(guard (e (#t (list 'outer (if (error-object? e) (error-object-message e) e))))\n"
     "  (with-exception-handler\n"
     "    (lambda (c) (if (error-object? c) (raise 'handler-saw-e332) 0))\n"
     "    (lambda () (+ 1 (raise 'boom)))))")
def _e332_to_same_handler() -> None:
    from implementations.tree import control

    # Realistic: the continuable branch just above restores `saved`; the non-continuable one
    # was written to match and signals from `saved` too, where R7RS raises the secondary
    # exception in the dynamic environment of the handler (the outer handlers).
    edit_function(control.Control, "control",
                  "self.signal(err, False, span, k, handlers)",
                  "self.signal(err, False, span, k, saved)")


@bug("blind10-first-class-values-packs-one", "tree", "tree back end", "multiple values",
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


# -- vm -----------------------------------------------------------------------------------------


@bug("blind10-zero-values-single", "vm", "vm back end", "multiple values",
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


@bug("blind10-cwv-consumer-unpaid", "vm", "vm back end", "meters/limits",
     "the application of a call-with-values consumer that the machine makes on its own (when "
     "the producer returns into the call-with-values frame) charges no machine transition, so "
     "every call-with-values counts one fewer transition than in the tree interpreter",
     "(define (split n) (values (quotient n 10) (remainder n 10)))\n"
     "(call-with-values (lambda () (split 47)) (lambda (q r) (+ q r)))\n"
     "(call-with-values (lambda () (values)) list)")
def _cwv_consumer_unpaid() -> None:
    from implementations.vm import control

    # Realistic: the producer's application is ticked where the frame is pushed; the consumer's
    # tick in the frame handler was taken for the same transition paid twice and removed.
    edit_function(control.Control, "control",
                  "        code, pc, env = caller if caller is not None else (None, 0, None)\n"
                  "        self.tick()\n",
                  "        code, pc, env = caller if caller is not None else (None, 0, None)\n")


@bug("blind10-wind-returns-after-value", "vm", "vm back end", "dynamic-wind",
     "on a normal exit, dynamic-wind returns what the after thunk returned instead of what the "
     "body thunk returned (the body's value saved in the done frame is thrown away), so a wind "
     "whose after thunk does a set! or display yields zero values",
     "(define log '())\n"
     "(define (note x) (set! log (cons x log)))\n"
     "(define r (dynamic-wind (lambda () (note 'in)) (lambda () 42) (lambda () 'after)))\n"
     "(list r (reverse log))")
def _wind_returns_after_value() -> None:
    from implementations.vm import control

    # Realistic: every other K_* frame returns the value on top of the stack; the done frame
    # is the one that must drop it and return its saved value, and was written like the rest.
    edit_function(control.Control, "control",
                  "        stack.pop()\n        return self.ret(data, handlers)\n",
                  "        return self.ret(stack.pop(), handlers)\n")


# -- topaz-tree ---------------------------------------------------------------------------------


@bug("blind10-tt-values-one-unchecked", "topaz-tree", "topaz-tree back end", "multiple values",
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


@bug("blind10-tt-set-single-valued", "topaz-tree", "topaz-tree back end", "scoping/set!",
     "the analysis of which expressions yield exactly one value counts a set! among the leaves "
     "that always do, so a set! used where one value is required (an if test, an operand, a "
     "let init) is not checked: its zero values pass for a true value instead of E320",
     "(define x 0)\n"
     "(define r (if (set! x 5) 'then 'else))\n"
     "(list r x)")
def _tt_set_single_valued() -> None:
    from implementations.topaz.tree import analysis

    # Realistic: R7RS's set! returns "an unspecified value", one value, and the leaf list of
    # the analysis was written from that; Lispex's set! yields zero values (LISPEX.md 5).
    edit_function(analysis.SingleValued, "_leaf",
                  "(ir.Const, ir.Local, ir.Global, ir.Intrinsic, ir.Lambda)",
                  "(ir.Const, ir.Local, ir.Global, ir.Intrinsic, ir.Lambda, ir.SetLocal,\n"
                  "             ir.SetGlobal)")


@bug("blind10-tt-guard-test-clause-condition", "topaz-tree", "topaz-tree back end", "handlers",
     "a guard clause that has a test and no body yields the condition instead of the value of "
     "its test, so (guard (e ((assq 'a e))) (raise alist)) gives the whole alist",
     "(guard (e ((assq 'b e)) (else 'none)) (raise (list (cons 'a 1) (cons 'b 2))))\n"
     "(guard (e ((memv e '(1 2 3)))) (raise 2))")
def _tt_guard_test_clause_condition() -> None:
    from implementations.topaz.tree import compiler, guard

    # Realistic: the usual test-only clause is (e) or a predicate returning #t, where the
    # condition and the test's value look alike; the slip takes the guard's variable.
    edit_function(guard, "compile_guard",
                  "return t if clause_body is None else clause_body(e)",
                  "return g.payload if clause_body is None else clause_body(e)")
    compiler.compile_guard = guard.compile_guard


# -- topaz-vm -----------------------------------------------------------------------------------


@bug("blind10-tv-reraise-not-multiple", "topaz-vm", "topaz-vm back end", "multiple values",
     "the analysis of what a procedure body can return forgets that a guard without an else "
     "clause re-raises, and that a continuable re-raise returns whatever the outer handler "
     "returns; a direct call of such a procedure is then taken to give one value, so several "
     "values from the handler are bound by a let instead of E320",
     "(define (f) (guard (e ((string? e) 'str)) (raise-continuable 'sym) 'done))\n"
     "(define (g) (let ((v (f))) (if v 'one-value 'false)))\n"
     "(guard (e (#t (list 'caught (error-object? e))))\n"
     "  (with-exception-handler (lambda (c) (if (symbol? c) (values 1 2) (raise c))) g))")
def _tv_reraise_not_multiple() -> None:
    from implementations.topaz.vm import analysis

    # Realistic: the guard's result was analysed as its body and its clauses, the parts one
    # can see; the re-raise is an implicit path with no node of its own.
    edit_function(analysis._Tails, "tail",
                  "        else:\n"
                  "            mv = True  # a continuable re-raise returns whatever the "
                  "handler returns\n",
                  "")


@bug("blind10-tv-for-each-single", "topaz-vm", "topaz-vm back end", "multiple values",
     "for-each, vector-for-each and string-for-each are listed with the guest-calling "
     "primitives that return one value, so their zero values are not checked where one value "
     "is required: (list (for-each f xs)) is not an E320",
     "(define (show x) (display x))\n"
     "(define r (vector-for-each show (vector 1 2)))\n"
     "(if (for-each show '(3)) 'true 'false)")
def _tv_for_each_single() -> None:
    from implementations.topaz.vm import analysis

    # Realistic: the set was made from the guest-calling library's table (map, filter, the
    # folds, ...) and kept its -for-each members, which return no values at all.
    analysis.BACKEND_SINGLE = analysis.BACKEND_SINGLE | {"for-each", "vector-for-each",
                                                         "string-for-each"}


@bug("blind10-tv-cwv-tail-consumer-site", "topaz-vm", "topaz-vm back end",
     "diagnostics and spans",
     "a call-with-values in tail position hands its consumer back as a tail call without "
     "setting the site back to the call-with-values, so a fault of applying the consumer "
     "(E302 for the wrong number of values, E301) is reported at the last application the "
     "producer made",
     "(define (pair) (apply values (list 1 2)))\n"
     "(define (f) (call-with-values pair (lambda (a) a)))\n"
     "(f)")
def _tv_cwv_tail_consumer_site() -> None:
    from implementations.topaz.vm import runtime

    # Realistic: the non-tail branch records the site through call_at; the tail branch was
    # written as the bare TailCall, as p_apply's tail branch is.
    edit_function(runtime.Runtime, "p_call_with_values",
                  "        self.site_set(site)\n        return TailCall(consumer, args)\n",
                  "        return TailCall(consumer, args)\n")
