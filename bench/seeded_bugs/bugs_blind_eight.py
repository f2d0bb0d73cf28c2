"""Seeded bugs written blind, batch eight: by a session that did not read the fuzzer
(court/fuzz/) first, so that they measure what the generator reaches rather than what it was
written beside (see bugs.py). This batch is about scoping and set! (globals reassigned, primitives
rebound from inside procedures, the environment a sequence resumes in), closures and tail calls
(tail positions in cond and do, lambdas closed after their scope is left, call/cc in tail
position), rest arguments, multiple values, numerics (exactness, stale integer fast paths) and
Unicode case mapping of strings. Three bugs per implementation."""

from __future__ import annotations

from typing import Any

from bench.seeded_bugs.bugs import _derived_class, bug, edit_function, patch_primitive

# -- tree ---------------------------------------------------------------------------------------


@bug("blind8-cond-tail-last-clause-only", "tree", "kernel normalizer", "tail calls",
     "only the body of the last cond clause is normalized in tail position: a loop that recurs "
     "from an earlier clause (the usual (cond ((more?) (loop ...)) (else done)) shape) grows "
     "the non-tail depth until the recursion limit",
     "(define (count n acc)\n"
     "  (cond ((> n 0) (count (- n 1) (+ acc 1)))\n"
     "        (else acc)))\n"
     "(count 20000 0)")
def _cond_tail_last_clause_only() -> None:
    # Realistic: the tail flag of a clause body was written the way `and` and a body's
    # sequence pass it on, `tail and i == len(...) - 1`, as if the clauses were evaluated one
    # after the other; but every clause body of a cond is in the cond's tail position.
    edit_function(_derived_class(), "cond_chain",
                  "self.seq(items[1:], cur, tail, c.span), c.span))",
                  "self.seq(items[1:], cur, tail and i == len(clauses) - 1, c.span), c.span))")


@bug("blind8-seq-resumes-callee-env", "tree", "tree back end", "scoping/set!",
     "the frame that resumes a sequence (a body or a begin) after a non-final expression "
     "restores the expression to run next but not the environment, so after a non-tail call "
     "of a closure the rest of the sequence reads its variables in the callee's frame",
     "(define (show x y) (display x) (display y))\n"
     "(define (f a b)\n"
     "  (show b a)\n"
     "  (list a b))\n"
     "(f 1 2)")
def _seq_resumes_callee_env() -> None:
    from implementations.tree import machine

    # Realistic: the callee's body leaves its own frame in the `env` register when it returns,
    # and every frame that resumes evaluation must put its own back (F_ARGS, F_IF and F_LET
    # do). A primitive call or a leaf leaves `env` untouched, so the slip only shows after a
    # closure call made for its effect in the middle of a body.
    edit_function(machine.Machine, "run",
                  "node, env, i = fr[1], fr[2], fr[3]\n"
                  "                            exprs = node.exprs\n",
                  "node, i = fr[1], fr[3]\n"
                  "                            exprs = node.exprs\n")


@bug("blind8-downcase-per-character", "tree", "kernel primitives", "strings/chars",
     "string-downcase lowers the string one character at a time, so a capital sigma at the end "
     "of a word becomes σ instead of the final form ς that the full Unicode lowercasing gives",
     '(list (string-downcase "ΟΔΟΣ") (string-downcase "ΣΑΣ ΚΑΙ ΣΑΣ") (string-downcase "AbC"))')
def _downcase_per_character() -> None:
    from implementations.lispex.values import Str

    # Realistic: a string case mapping written as a map of the character mapping over the
    # string (as string-map would do it). Python's str.lower() on the whole string applies
    # Unicode's context-sensitive Final_Sigma rule; per character there is no context.
    def make(real: Any) -> Any:
        def string_downcase(s: Any) -> Any:
            if type(s) is not Str:
                return real(s)  # the E312 of the real primitive
            return Str("".join(ch.lower() for ch in s.s))
        return string_downcase
    patch_primitive("tree", "string-downcase", make)


# -- vm -----------------------------------------------------------------------------------------


@bug("blind8-linker-constants-forms-only", "vm", "vm back end", "scoping/set!",
     "the linker decides which globals still hold their primitive by looking for define and "
     "set! in the top-level forms' code only, not in the procedures' code, so a primitive's "
     "name reassigned from inside a procedure is still called inline as the primitive",
     "(define (swap-car!) (set! car cdr))\n"
     "(swap-car!)\n"
     "(list (car '(1 2 3)) (map car '((4 5))))")
def _linker_constants_forms_only() -> None:
    from implementations.vm import link

    # Realistic: "the program" taken to be its top-level forms (Compiled.forms), the list the
    # machine runs, instead of every code object, lambdas included.
    edit_function(link, "constant_globals",
                  "for code in compiled.codes for ins in code.instrs",
                  "for i in compiled.forms for ins in compiled.codes[i].instrs")


@bug("blind8-leave-scope-defers-closure", "vm", "vm back end", "closures",
     "leaving a let or letrec scope in a non-tail position keeps a pending lambda (the value of "
     "the let's body) symbolic like a constant, so the closure is made after the scope is left "
     "and captures the enclosing frame instead of the let's",
     "(define (make a)\n"
     "  (list (let ((b (* a 10))) (lambda () b))))\n"
     "((car (make 4)))")
def _leave_scope_defers_closure() -> None:
    from implementations.vm import link

    # Realistic: the linker's own notion of what may stay symbolic across an instruction
    # (`deferrable`: constants and closure creation, "unobservable") reused for leave-scope,
    # where a closure is not unobservable: the frame it captures is the one being left.
    edit_function(link.CodeLinker, "op_leave_scope",
                  'if top.real or top.node[0] != "const":',
                  "if top.real or not top.deferrable:")


@bug("blind8-do-loop-takes-do-tail", "vm", "kernel normalizer", "tail calls",
     "the recursive call that runs the next iteration of a do loop is given the tail flag of "
     "the do form itself, so a do loop that is not in tail position (followed by more of its "
     "body, or an argument) grows the non-tail depth with every iteration",
     "(define (sum-below n)\n"
     "  (let ((total 0))\n"
     "    (do ((i 0 (+ i 1))) ((= i n)) (set! total (+ total i)))\n"
     "    total))\n"
     "(sum-below 20000)")
def _do_loop_takes_do_tail() -> None:
    # Realistic: every other application the expansion makes (the loop's first call) is given
    # the `tail` the form was normalized with, and the step call was written the same way; but
    # it sits in the tail of the loop lambda's own body, whatever surrounds the do.
    edit_function(_derived_class(), "form_do",
                  "again = ir.App(ir.Local(1, 0, str(loop), True, d.span), steps, d.span, True)",
                  "again = ir.App(ir.Local(1, 0, str(loop), True, d.span), steps, d.span, tail)")


# -- topaz-tree ---------------------------------------------------------------------------------


@bug("blind8-callcc-receiver-tail", "topaz-tree", "topaz-tree back end", "call/cc",
     "call/cc in tail position applies its receiver as a pending tail call, which runs only "
     "after call/cc has returned and deactivated the continuation, so calling the continuation "
     "from inside the receiver (an early exit from a for-each, say) is E340",
     "(define (first-negative lst)\n"
     "  (call/cc\n"
     "    (lambda (return)\n"
     "      (for-each (lambda (x) (if (< x 0) (return x) #f)) lst)\n"
     "      #f)))\n"
     "(list (first-negative '(3 -2 5)) (first-negative '(1 2)))")
def _callcc_receiver_tail() -> None:
    from implementations.topaz.tree import control

    # Realistic: apply and call-with-values hand their procedure the tail flag they were
    # called with (rt.apply(..., tail)), and call/cc was written the same way; but its receiver
    # must run inside the try that keeps the continuation active.
    edit_function(control, "p_call_cc", "return rt.call(args[0], [k])",
                  "return rt.apply(args[0], [k], tail)")
    control.BACKEND["call-with-current-continuation"] = control.p_call_cc


@bug("blind8-single-valued-if-else-only", "topaz-tree", "topaz-tree analysis",
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


@bug("blind8-exact-nearest-fraction", "topaz-tree", "kernel numbers", "numerics",
     "exact (and inexact->exact) of a non-integral float gives the simplest nearby fraction "
     "(Fraction.limit_denominator) instead of the float's exact binary value: (exact 0.1) is "
     "1/10, not 3602879701896397/36028797018963968",
     "(list (exact 0.1) (exact 2.5) (inexact->exact 0.3333333333333333) (exact 4.0))")
def _exact_nearest_fraction() -> None:
    from fractions import Fraction

    # Realistic: "0.1 should become 1/10" is what most people expect of exact, and
    # limit_denominator() is the usual Python answer to Fraction(0.1) looking odd.
    def make(real: Any) -> Any:
        def exact(x: Any) -> Any:
            if type(x) is float and not x.is_integer():
                q = Fraction(x).limit_denominator()
                return q.numerator if q.denominator == 1 else q
            return real(x)
        return exact
    patch_primitive("topaz-tree", "exact", make)


# -- topaz-vm -----------------------------------------------------------------------------------


@bug("blind8-stable-global-ignores-set", "topaz-vm", "topaz-vm analysis", "scoping/set!",
     "a global defined once is taken to be bound for good even when a set! reassigns it later, "
     "so a non-tail call of a procedure global goes straight to its first definition after the "
     "global has been set! to another procedure (a tail call, which reads the global, does not)",
     "(define (greet) 'hello)\n"
     "(define (run) (greet))\n"
     "(set! greet (lambda () 'bye))\n"
     "(list (run) (greet))")
def _stable_global_ignores_set() -> None:
    from implementations.topaz.vm import analysis

    # Realistic: "defined exactly once" was the whole test for a global whose procedure is
    # known; the set! count, kept beside it, was forgotten.
    edit_function(analysis.Analysis, "stable_global",
                  "if g is None or g.defines != 1 or g.sets != 0:",
                  "if g is None or g.defines != 1:")


@bug("blind8-int-flag-stale-after-set", "topaz-vm", "topaz-vm code generator", "numerics",
     "the cached `type(v) is int` flag of a variable used in several arithmetic operations is "
     "computed once on entry even for a variable that set! reassigns, so after it is set to a "
     "float or a boolean the inline integer paths still run: (modulo 1.5 2) gives 1.5 instead "
     "of E312",
     "(define (f x)\n"
     "  (set! x (* x 1.5))\n"
     "  (list (+ x 1) (modulo x 2)))\n"
     "(f 1)")
def _int_flag_stale_after_set() -> None:
    from implementations.topaz.vm import codegen

    # Realistic: a cached type test is only valid while the variable keeps its value; the
    # mutable-variable exclusion that every other cached fact here has was left out.
    edit_function(codegen.Gen, "bind_flags",
                  ">= 2 and key not in self.a.mutable:",
                  ">= 2:")


@bug("blind8-rest-one-tuple", "topaz-vm", "topaz-vm code generator", "apply/rest args",
     "a direct call of a known procedure with a rest parameter packs the extra arguments into "
     "the Python text `_list((a, b))`, which for exactly one extra argument is `_list((a))`: "
     "not a one-element tuple, so the argument itself is taken for the sequence of rest items",
     "(define (tag label . items) (cons label items))\n"
     "(list (tag 'a 1 2) (tag 'b) (tag 'c 3))")
def _rest_one_tuple() -> None:
    from implementations.topaz.vm import calls

    # Realistic: Python's one-element tuple needs a trailing comma; `", ".join(...)` inside
    # parentheses looks right and works for zero (not generated here) or two and more items.
    edit_function(calls.Calls, "pack",
                  "f\"_list(({''.join(a + ', ' for a in rest)}))\"",
                  "f\"_list(({', '.join(rest)}))\"")
