"""Seeded bugs in tree, family "meters/limits"."""

from __future__ import annotations

from bench.seeded_bugs.seeding import bug, derived_class, edit_function


@bug("output-chars", "tree", "kernel meters", "meters/limits",
     "the output meter counts characters, not UTF-8 bytes", '(display "héllo")')
def _output_chars() -> None:
    from implementations.lispex import context
    from implementations.lispex.meters import OUTPUT

    def emit(self, text: str) -> None:
        self.meter.charge(OUTPUT, len(text))
        self.out.append(text)
    context.RunContext.emit = emit


@bug("apply-spread-free", "tree", "tree back end", "meters/limits",
     "apply charges no machine transition for the application it makes of its procedure",
     "(define (f a b) (+ a b))\n(apply f 1 (list 2))")
def _apply_spread_free() -> None:
    from implementations.lispex.meters import MACHINE
    from implementations.tree import control

    real = control.Control.special

    def special(self, fn, vals, tail, k, handlers, site):
        out = real(self, fn, vals, tail, k, handlers, site)
        if fn.name == "apply":
            # Realistic: apply's own call is counted, and the spread call is taken to be it.
            self.meter.used[MACHINE] -= 1
        return out
    control.Control.special = special


@bug("let-lambda-free", "tree", "tree back end", "meters/limits",
     "a lambda evaluated on the machine's inline path (a let init, an if test, a non-final body "
     "expression) is closed over without its machine transition",
     "(let ((f (lambda (x) (* x 2)))) (f 21))")
def _let_lambda_free() -> None:
    from implementations.tree import machine

    # Realistic: the inline fast path duplicates the frame path's accounting by hand, and the
    # lambda case was written like a free read instead of a node entry.
    edit_function(machine.Machine, "run",
               "                                elif tx is Lambda:\n"
               "                                    steps += 1\n"
               "                                    if steps > slimit:\n"
               "                                        raise self.exhausted()\n"
               "                                    lv.append(Closure(x, env))\n",
               "                                elif tx is Lambda:\n"
               "                                    lv.append(Closure(x, env))\n")


@bug("internal-define-unmetered", "tree", "kernel normalizer", "meters/limits",
     "the internal definitions at the start of a body are normalized without charging the "
     "normalization-step meter for the define forms themselves (a top-level define is charged), "
     "so a program with internal defines reports fewer normalization steps than the vm",
     "(define (area r)\n"
     "  (define pi 3)\n"
     "  (define (square x) (* x x))\n"
     "  (* pi (square r)))\n"
     "(area 2)")
def _internal_define_unmetered() -> None:
    from implementations.lispex.normalizer import Normalizer

    # Realistic: every expression is charged on entry to expr(); a define in a body never goes
    # through expr() (its target is parsed by hand), and its own unit was only remembered at the
    # top level, where toplevel() dispatches it.
    edit_function(Normalizer, "body",
                  "        self.step()\n        names.append(self.define_target(dd))\n",
                  "        names.append(self.define_target(dd))\n")


@bug("allocation-bound-inclusive", "tree", "kernel primitives", "meters/limits",
     "make-list, make-vector, make-string and make-bytevector refuse a length of exactly "
     "10,000,000 (E311): the size bound is applied one element early",
     "(list (bytevector-length (make-bytevector 10000000 7))\n"
     "      (string-length (make-string 10000000 #\\a))\n"
     "      (length (make-list 3 0)))")
def _allocation_bound_inclusive() -> None:
    from implementations.lispex.primitives import errors_util, pairs, strings, vectors

    # Realistic: "the largest supported length" read as an exclusive bound; the reference says a
    # length *past* 10,000,000 is out of range, so 10,000,000 itself is made.
    edit_function(errors_util, "allocation_length", "if n > MAX_LENGTH:", "if n >= MAX_LENGTH:")
    for module in (pairs, strings, vectors):  # they imported the name
        module.allocation_length = errors_util.allocation_length


@bug("inline-test-prim-one-transition", "tree", "tree back end", "meters/limits",
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


@bug("frontend-counts-bytes", "tree", "kernel reader", "meters/limits",
     "the frontend-transition meter is charged one unit per byte of the UTF-8 source instead "
     "of one per decoded scalar, so a source holding non-ASCII characters (in a string, a "
     "comment, a symbol) reports more frontend transitions, and reaches the limit earlier",
     "; café, naïve — résumé\n"
     "(define greeting \"héllo wörld\")\n"
     "(display greeting)\n"
     "(string-length greeting)")
def _frontend_counts_bytes() -> None:
    from implementations.lispex import reader

    # Realistic: the charge sits next to the bytes the function was given; len(data) and
    # len(text) agree on every ASCII source, which is what the tests were written in.
    edit_function(reader, "_decode",
                  "meter.charge(FRONTEND, len(text))",
                  "meter.charge(FRONTEND, len(data))")


@bug("let-star-empty-let", "tree", "kernel normalizer", "meters/limits",
     "let* with bindings is expanded down to an empty (let () body ...) innermost, as R7RS "
     "defines it by recursion, so every let* that runs enters one more let and costs one more "
     "machine transition than on the VM (values and output are unchanged; a let* with no "
     "bindings is right)",
     "(define (hypot-ish a b)\n"
     "  (let* ((a2 (* a a))\n"
     "         (b2 (* b b)))\n"
     "    (+ a2 b2)))\n"
     "(list (hypot-ish 3 4) (let* () 'empty) (let* ((x 1)) x))")
def _let_star_empty_let() -> None:
    # Realistic: R7RS 7.3 defines (let* ((x v) rest ...) body) as (let ((x v)) (let* (rest ...)
    # body)) with (let* () body) = (let () body), and the loop was written from that; the
    # kernel's own expansion stops at the last binding, and the meter counts every let entered.
    edit_function(derived_class(), "form_let_star",
                  "node = self.body(d.items[2:], cur, tail, d.span)",
                  "node = ir.Let([], self.body(d.items[2:], Scope([], cur), tail, d.span), "
                  "d.span)")


@bug("expt-bound-upper-estimate", "tree", "kernel primitives", "meters/limits",
     "the size bound of an exact expt compares bit_length(base) * power, an upper estimate of "
     "the result's size, with the limit itself instead of the limit plus power (the estimate "
     "overshoots by up to one bit per factor), so a power that fits is refused with E311: "
     "(expt 10 300000), about 996,600 bits, is an error (small powers, and powers past the "
     "limit, are right)",
     "(define (digits-mod n m) (remainder n m))\n"
     "(define big (expt 10 300000))\n"
     "(display (list (expt 2 10) (expt 3 -2) (digits-mod big 1000007)))\n"
     "(newline)\n"
     "(display (digits-mod (expt 7 350000) 1000))")
def _expt_bound_upper_estimate() -> None:
    from implementations.lispex.primitives import numeric

    # Realistic: "m-bit base to the power p has at most m * p bits" is the bound that comes to
    # mind; the check is meant to refuse only results that surely pass the limit, for which the
    # lower estimate (m - 1) * p + 1 is the one to compare, hence the slack of p.
    edit_function(numeric, "_check_exact_size",
                  "> MAX_EXACT_BITS + abs(power):", "> MAX_EXACT_BITS:")
