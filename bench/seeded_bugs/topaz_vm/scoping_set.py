"""Seeded bugs in topaz-vm, family "scoping/set!"."""

from __future__ import annotations

from bench.seeded_bugs.seeding import bug, edit_function


@bug("tv-closure-set-not-mutable", "topaz-vm", "topaz-vm analysis", "scoping/set!",
     "a set! made from inside a closure does not mark the variable as assigned, so an earlier "
     "operand reading it is not saved before a later operand calls the closure",
     "(define (probe)\n  (let ((n 0))\n    (define (bump!) (set! n (+ n 1)) n)\n"
     "    (list n (bump!) n)))\n(probe)")
def _tv_closure_set_not_mutable() -> None:
    from implementations.topaz.kernel import core_ir as ir
    from implementations.topaz.vm import analysis

    real = analysis._Walker.walk

    def walk(self, node, frames):
        if type(node) is ir.SetLocal and node.depth > 0 and \
                any(type(f) is ir.Lambda for f in frames[len(frames) - node.depth:]):
            # Realistic: "assigned" was recorded only for a set! in the binding's own procedure.
            self.free(frames[-1 - node.depth], frames)
            self.walk(node.value, frames)
            return
        real(self, node, frames)
    analysis._Walker.walk = walk


@bug("stable-global-ignores-set", "topaz-vm", "topaz-vm analysis", "scoping/set!",
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


@bug("tv-let-aliases-variable", "topaz-vm", "topaz-vm back end", "scoping/set!",
     "a let binding whose init is a plain read of a local variable is bound to that variable's "
     "Python name instead of a copy, so a later set! of either one changes both",
     "(define (bump-and-report x)\n"
     "  (let ((old x))\n"
     "    (set! x (+ x 1))\n"
     "    (list old x)))\n"
     "(bump-and-report 5)")
def _tv_let_aliases_variable() -> None:
    from implementations.topaz.vm import codegen

    # Realistic: copy propagation, "no need to copy a variable into another", without the
    # stability test (the variable is never assigned) the rest of the generator makes before
    # treating a read as a value that cannot change.
    edit_function(codegen.Gen, "let_frame",
                  "    for x in values:\n"
                  "        v = self.fresh(\"v\")\n",
                  "    for x in values:\n"
                  "        if x.text[:1] == \"v\" and x.text[1:].isdigit():\n"
                  "            names.append(x.text)  # already a variable: no copy\n"
                  "            continue\n"
                  "        v = self.fresh(\"v\")\n")


@bug("tv-let-inits-read-late", "topaz-vm", "topaz-vm back end", "scoping/set!",
     "the inits of a let with several bindings are evaluated without keeping a plain variable "
     "read in a temporary, so when a later init assigns that variable (a set!, a procedure "
     "that set!s a global) the earlier binding gets the new value",
     "(define counter 0)\n"
     "(define (bump!) (set! counter (+ counter 1)) counter)\n"
     "(define (swap-in x)\n"
     "  (let ((old x) (new (begin (set! x (* x 2)) x)))\n"
     "    (list old new)))\n"
     "(list (let ((before counter) (after (bump!))) (list before after))\n"
     "      (swap-in 3))")
def _tv_let_inits_read_late() -> None:
    from implementations.topaz.vm import codegen

    # Realistic: each init gets a variable of its own, so temporaries looked unnecessary; but
    # the variables are assigned after all the inits have run, and a read of an assigned
    # variable is left as text until then (an application's operands keep it in a temporary).
    edit_function(codegen.Gen, "let_frame",
                  "values = [self.single(x) for x in node.inits] if len(node.inits) < 2 else \\\n"
                  "        [X(t, True) for t in self.operands(node.inits)]",
                  "values = [self.single(x) for x in node.inits]")


@bug("tv-own-definition-unchecked", "topaz-vm", "topaz-vm code generator",
     "scoping/set!",
     "a global defined once is taken to be bound from its defining top-level form on rather "
     "than after it, so a read of the global inside its own definition's value (not inside a "
     "procedure) is not checked: (define limit (if (number? limit) limit 100)) gives 100 "
     "instead of E300",
     "(define limit (if (number? limit) limit 100))\n"
     "(list limit)")
def _tv_own_definition_unchecked() -> None:
    from implementations.topaz.vm.codegen import Gen

    # Realistic: an off-by-one in "defined in an earlier form"; the defining form itself only
    # binds the global once its value has been computed.
    edit_function(Gen, "global_known_bound",
                  "return self.form > g.first_form", "return self.form >= g.first_form")


@bug("tv-set-letrec-lambda-still-direct", "topaz-vm", "topaz-vm analysis",
     "scoping/set!",
     "an internal definition (or letrec binding) of a procedure is taken to hold that "
     "procedure for good even when a set! in the body replaces it, so a non-tail call of it is "
     "still a direct call of the first definition: after (set! step (lambda ...)), (step 2) "
     "runs the old step, and a helper calling (step (step n)) mixes the old and the new one "
     "(a tail call, and reading step as a value, see the new procedure)",
     "(define (run)\n"
     "  (define (step n) (+ n 1))\n"
     "  (define (twice n) (step (step n)))\n"
     "  (define before (twice 1))\n"
     "  (set! step (lambda (n) (* n 10)))\n"
     "  (list before (twice 1) (step 2)))\n"
     "(run)")
def _tv_set_letrec_lambda_still_direct() -> None:
    from implementations.topaz.vm import analysis

    # Realistic: the letrec slots that hold a lambda are collected in the first pass, before
    # the assigned slots are all known, and the step of the second pass that forgets the
    # assigned ones was left out ("a definition is not assigned"; set! of one is rare).
    edit_function(analysis._Tails, "run", "    drop_mutable_letrec_lambdas(a)\n", "")


@bug("tv-hoisted-procedure-always-bound", "topaz-vm", "topaz-vm code generator",
     "scoping/set!",
     "a global defined once by a procedure definition is taken to be bound everywhere, since its "
     "closure is made before any form runs, so a top-level form before the definition calls it "
     "instead of failing with E300 (a global whose value is not a lambda, or a procedure "
     "defined twice, is still checked)",
     "(define (report label value) (display label) (display value) (newline))\n"
     "(report \"early: \" (scale 2))\n"
     "(define (scale x) (* x 10))\n"
     "(report \"late: \" (scale 3))")
def _tv_hoisted_procedure_always_bound() -> None:
    from implementations.topaz.vm.codegen import Gen

    # Realistic: hoisting makes the procedure's def and closure up front, which was read as the
    # global being bound up front; the global itself is only assigned where its define stands.
    edit_function(Gen, "global_known_bound",
                  "or (g.lam is not None and g.lam in self.lams)",
                  "or g.lam is not None")


@bug("tv-set-closure-no-nonlocal", "topaz-vm", "topaz-vm code generator",
     "scoping/set!",
     "a set! of a local variable is generated without noting that the variable lives in an "
     "enclosing Python function, so no nonlocal declaration is written and the assignment made "
     "inside a closure binds a new Python local: a setter closure leaves the variable the "
     "other closures see unchanged (a closure that also reads the variable fails with a Python "
     "UnboundLocalError; set! in the variable's own procedure is right)",
     "(define (make-box initial)\n"
     "  (define value initial)\n"
     "  (define (get) value)\n"
     "  (define (put! v) (set! value v))\n"
     "  (list get put!))\n"
     "(define box (make-box 1))\n"
     "((cadr box) 42)\n"
     "(display ((car box)))\n"
     "(newline)\n"
     "(define (make-flag)\n"
     "  (let ((on #f))\n"
     "    (cons (lambda () on) (lambda () (set! on #t)))))\n"
     "(define flag (make-flag))\n"
     "((cdr flag))\n"
     "((car flag))")
def _tv_set_closure_no_nonlocal() -> None:
    from implementations.topaz.vm.codegen import Gen

    # Realistic: the classic Python closure pitfall; the assignment text was emitted and the
    # bookkeeping that makes the enclosing def's variable `nonlocal` was left out (the global
    # case, which calls assign_global, kept it).
    edit_function(Gen, "assignment",
                  "        self.fn.emit(f\"{name} = {x.text}\")\n"
                  "        self.fn.assign(name, fr.owner)\n",
                  "        self.fn.emit(f\"{name} = {x.text}\")\n")
