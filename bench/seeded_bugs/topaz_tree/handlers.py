"""Seeded bugs in topaz-tree, family "handlers"."""

from __future__ import annotations

from bench.seeded_bugs.seeding import bug, edit_function


@bug("tt-guard-reraise-noncontinuable", "topaz-tree", "topaz-tree runtime", "handlers",
     "a guard none of whose clauses matches re-raises the condition as non-continuable, so an "
     "outer handler returning from a raise-continuable gives E332",
     "(with-exception-handler\n  (lambda (e) 42)\n"
     "  (lambda () (+ 1 (guard (e ((string? e) 'no)) (raise-continuable 'x)))))")
def _tt_guard_reraise_noncontinuable() -> None:
    from types import SimpleNamespace

    from implementations.topaz.tree import control, guard

    # Realistic: the re-raise was written as a plain `raise` of the payload, forgetting that
    # R7RS re-raises "as if by raise-continuable" in the guard's dynamic environment.
    def signal(rt, payload, continuable, span):
        return control.signal(rt, payload, False, span)
    guard.control = SimpleNamespace(fault=control.fault, signal=signal)


@bug("tt-guard-test-clause-condition", "topaz-tree", "topaz-tree back end", "handlers",
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


@bug("tt-e332-irritants-bare", "topaz-tree", "topaz-tree back end", "handlers",
     "the E332 condition made when a handler returns from a non-continuable raise carries the "
     "raised object itself as its irritants instead of a one-element list of it, so "
     "error-object-irritants of a caught E332 is boom, not (boom)",
     "(define (risky x) (if (< x 0) (raise (list 'negative x)) (* x 2)))\n"
     "(define (attempt x)\n"
     "  (guard (e ((error-object? e) (list 'error (error-object-irritants e)))\n"
     "            (#t (list 'raised e)))\n"
     "    (with-exception-handler (lambda (c) 'ignored) (lambda () (risky x)))))\n"
     "(list (attempt 5) (attempt -3))")
def _tt_e332_irritants_bare() -> None:
    from implementations.topaz.tree import control

    # Realistic: "its irritant is the raised object" was written straight into the irritants
    # field, which holds the list of irritants.
    edit_function(control, "signal", "list_from([payload]), span)", "payload, span)")
