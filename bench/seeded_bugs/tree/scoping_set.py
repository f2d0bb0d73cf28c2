"""Seeded bugs in tree, family "scoping/set!"."""

from __future__ import annotations

from bench.seeded_bugs.seeding import bug, derived_class, edit_function


@bug("let-star-duplicate", "tree", "kernel normalizer", "scoping/set!",
     "let* rejects a name bound twice (E130 duplicate binding) as let does, although each "
     "let* binding opens a scope of its own and may shadow an earlier one",
     "(let* ((x 1) (x (+ x 1))) (* x 10))")
def _let_star_duplicate() -> None:
    # Realistic: the binding list of let* was parsed with the same helper as let's, which also
    # checks the names are distinct.
    edit_function(derived_class(), "form_let_star", 'pairs = self.bindings(d.items[1], "let*")\n',
          'pairs = self.bindings(d.items[1], "let*")\n'
          '    self.binders([a for a, _ in pairs], "binding of")\n')


@bug("seq-resumes-callee-env", "tree", "tree back end", "scoping/set!",
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


@bug("set-unbound-before-value", "tree", "tree back end", "scoping/set!",
     "a set! of a global that was never defined is refused (E303) before its value expression "
     "is evaluated instead of after, so the value's output is lost and a fault of the value "
     "(E310, E300, ...) is reported as the E303",
     "(define (note x) (display x) x)\n"
     "(guard (e (#t (display (error-object-message e)) (newline) 'caught))\n"
     "  (set! missing (car '())))\n"
     "(set! missing (note 2))")
def _set_unbound_before_value() -> None:
    from implementations.tree import machine

    # Realistic: "fail fast" -- the bound check was hoisted to where the set! is entered, which
    # looks harmless because the variable does not depend on the value; Lispex (like the other
    # members) evaluates the value first and checks the variable when it stores.
    edit_function(machine.Machine, "run",
                  "k.append((F_SETG, node))",
                  "if gv[node.slot] is UNBOUND:\n"
                  + " " * 32 + "raise LispexError(\"E303\", f\"set! of unbound variable "
                  "{node.name}\", (), node.span)\n"
                  + " " * 28 + "k.append((F_SETG, node))")


@bug("set-local-callee-env", "tree", "tree back end", "scoping/set!",
     "the frame that finishes a set! of a local variable writes through the machine's current "
     "environment register instead of the environment saved in the frame, so when the value "
     "expression called a procedure the assignment lands in that procedure's frame and the "
     "variable keeps its old value",
     "(define (double y) (* 2 y))\n"
     "(define (grow x)\n"
     "  (set! x (double x))\n"
     "  (set! x (+ x 1))\n"
     "  x)\n"
     "(list (grow 20) (grow 1))")
def _set_local_callee_env() -> None:
    from implementations.tree import machine

    # Realistic: the target of a set! is "here", so `env` looked right; every other resuming
    # frame (F_IF, F_LET, F_SEQ) restores env from the frame, and this one must too. A value
    # computed by a primitive (the common (set! n (+ n 1))) leaves env untouched, so only a
    # value that called a closure shows it.
    edit_function(machine.Machine, "run",
                  "node, e = fr[1], fr[2]",
                  "node, e = fr[1], env")


@bug("internal-defines-sequential", "tree", "kernel normalizer", "scoping/set!",
     "the value of each internal definition is normalized in a scope holding only that "
     "definition and the ones before it (as let* would), not all of the body's definitions, so "
     "a procedure that calls a helper defined after it reaches a global of that name instead: "
     "the primitive when the helper shadows one (a local square), E300 otherwise (mutually "
     "recursive helpers)",
     "(define (area r)\n"
     "  (define (scaled x) (* 3 (square x)))\n"
     "  (define (square x) (+ x x))\n"
     "  (scaled r))\n"
     "(define (parity n)\n"
     "  (define (ev? k) (if (= k 0) #t (od? (- k 1))))\n"
     "  (define (od? k) (if (= k 0) #f (ev? (- k 1))))\n"
     "  (ev? n))\n"
     "(display (area 5))\n"
     "(newline)\n"
     "(parity 7)")
def _internal_defines_sequential() -> None:
    from implementations.lispex.normalizer import Normalizer

    # Realistic: internal definitions were normalized one by one as the body is read, each
    # seeing itself (so recursion works) and what came before, which is how a REPL treats
    # top-level definitions; a body's definitions are one letrec*, all in scope at once.
    edit_function(Normalizer, "body",
                  "inits = [self.define_value(dd, inner) for dd in defs]",
                  "inits = [self.define_value(dd, Scope(keys[:i + 1], scope, letrec=True))\n"
                  "                 for i, dd in enumerate(defs)]")


@bug("qq-splice-captures-append", "tree", "kernel normalizer", "scoping/set!",
     "the append an unquote-splicing expands into is looked up as an ordinary name in the "
     "template's scope instead of being the hidden intrinsic, so a local variable (or a global "
     "definition) named append captures it: with a parameter append bound to #f, `(a ,@xs) is "
     "an E301 (cons, list->vector and case's eqv? are still hidden)",
     "(define (command name args append)\n"
     "  (if append `(,name ,@args append) `(,name ,@args)))\n"
     "(list (command 'ls '(-l -a) #f) (command 'echo '(hi) #t))")
def _qq_splice_captures_append() -> None:
    # Realistic: the expansion was written as R7RS describes it, (append x rest), and the
    # operator resolved like any other name; the other three hidden operators were made
    # intrinsics, this one was not.
    edit_function(derived_class(), "_qq",
                  'ir.App(ir.Intrinsic("append", item.span), [spliced, result],',
                  'ir.App(self.ref("append", scope, item.span), [spliced, result],')
