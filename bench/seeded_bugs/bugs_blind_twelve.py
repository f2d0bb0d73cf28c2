"""Seeded bugs written blind, batch twelve: by a session that did not read the fuzzer
(court/fuzz/) first, so that they measure what the generator reaches rather than what it was
written beside (see bugs.py). This batch is about scoping, binding and control: which frame a
set! writes (the frame of the procedure its value called, a let name that aliases the variable
it was initialised from), which frame later code reads (a guard clause frame left in place, a
variable two procedures out read one procedure out, a self tail call that overwrites the frame
closures of earlier iterations captured), the scope of a guard's else clause, the value of a do
loop without result expressions, the extent of an escape continuation (still callable after its
call/cc returned), dynamic-wind's after thunk on an uncaught error, the span of a guard's
re-raise, the recursion limit on a general application, and the names `write` gives characters.
Three bugs per implementation."""

from __future__ import annotations

from bench.seeded_bugs.bugs import bug, edit_function

# -- tree ---------------------------------------------------------------------------------------


@bug("blind12-set-local-callee-env", "tree", "tree back end", "scoping/set!",
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


@bug("blind12-callcc-extent-not-ended", "tree", "tree back end", "call/cc",
     "a continuation is deactivated only when it is invoked (or escaped past), not when its "
     "call/cc returns normally, so calling a saved continuation after its extent has ended is "
     "not E340: it unwinds to whatever call/cc frame now sits at the same stack position and "
     "returns the value there",
     "(define saved #f)\n"
     "(define (probe tag)\n"
     "  (call/cc (lambda (k)\n"
     "             (if saved (saved tag) (begin (set! saved k) 'first)))))\n"
     "(list (probe 'one) (probe 'two))")
def _callcc_extent_not_ended() -> None:
    from implementations.tree import control

    # Realistic: "one-shot" read as "may be invoked once": the deliver path of an escape
    # deactivates the continuation, and the frame's normal return was taken to need nothing.
    edit_function(control.Control, "control",
                  "    if tag == F_CC:\n        fr[1].active = False\n",
                  "    if tag == F_CC:\n")


@bug("blind12-guard-else-outer-scope", "tree", "kernel normalizer", "handlers",
     "the else clause of a guard is normalized in the scope outside the guard, not in the scope "
     "of the guard's variable: the condition's name is a global there (E300), and other local "
     "variables are addressed one frame off",
     "(define (safe-div a b)\n"
     "  (guard (e ((string? e) 'bad-input)\n"
     "            (else (list 'caught e)))\n"
     "    (if (= b 0) (raise 'divide-by-zero) (quotient a b))))\n"
     "(list (safe-div 10 2) (safe-div 1 0))")
def _guard_else_outer_scope() -> None:
    from implementations.lispex import normalizer

    # Realistic: the else clause is handled apart from the other clauses, next to the body,
    # which is normalized in the outer scope; the else line took the body's `scope`.
    edit_function(normalizer.Normalizer, "form_guard",
                  "else_body = self.seq(parts[1:], inner, tail, c.span)",
                  "else_body = self.seq(parts[1:], scope, tail, c.span)")


# -- vm -----------------------------------------------------------------------------------------


@bug("blind12-vm-self-tail-reuses-frame", "vm", "vm back end", "closures",
     "a self tail call whose operands are all evaluated in place (a named let or do loop "
     "stepping its variables) overwrites the running frame with the new arguments instead of "
     "making a new one, so closures made in earlier iterations see the variables' later values",
     "(define procs\n"
     "  (do ((i 0 (+ i 1)) (acc '() (cons (lambda () i) acc)))\n"
     "      ((= i 3) acc)))\n"
     "(map (lambda (p) (p)) procs)")
def _vm_self_tail_reuses_frame() -> None:
    from implementations.vm import machine

    # Realistic: reusing the frame of a self tail call is a textbook loop optimisation; it
    # needs the guard topaz-vm's analysis has (no closure captured the frame), which was left
    # out. Loops without closures over their variables run exactly as before.
    edit_function(machine.Machine, "run",
                  "\n                        for e in evs:\n"
                  "                            a.append(e(env))\n"
                  "                        st.site = span\n"
                  "                        if type(f) is Closure and f.np == n:\n",
                  "\n                        for e in evs:\n"
                  "                            a.append(e(env))\n"
                  "                        st.site = span\n"
                  "                        if type(f) is Closure and f.np == n:\n"
                  "                            if tail and f.ins is code and env is not None \\\n"
                  "                                    and env[0] is f.env:\n"
                  "                                env[1:] = a[1:]  # a self tail call: reuse it\n"
                  "                                a = env\n")


@bug("blind12-vm-test-clause-keeps-guard-frame", "vm", "vm back end", "handlers",
     "in a guard that is not in tail position, a clause with a test and no body jumps to the "
     "end of the guard past the leave-scope the other clauses run, so the clause frame (the "
     "condition) stays the environment: the code after the guard reads its local variables "
     "one frame off",
     "(define (lookup key alist)\n"
     "  (let ((hit (guard (e ((assq key e))) (raise alist))))\n"
     "    (list key hit)))\n"
     "(lookup 'b '((a . 1) (b . 2)))")
def _vm_test_clause_keeps_guard_frame() -> None:
    from implementations.vm import compiler

    # Realistic: a test-only clause yields a value straight away, like the guard's body, and
    # its exit jump was filed with the body's (which skip the leave-scope: the body runs in
    # the guard's own frame) instead of with the clauses'.
    edit_function(compiler.Compiler, "guard",
                  'out_jumps.append(em.emit(("jump", None), test.span))',
                  'end_jumps.append(em.emit(("jump", None), test.span))')


@bug("blind12-vm-do-yields-test", "vm", "kernel normalizer", "control flow",
     "a do loop whose test clause has no result expressions yields the value of its test (as "
     "a cond clause with only a test does) instead of no values",
     "(define (count-down n)\n"
     "  (do ((i n (- i 1))) ((= i 0))))\n"
     "(call-with-values (lambda () (count-down 3)) list)")
def _vm_do_yields_test() -> None:
    from implementations.lispex import derived

    # Realistic: `(do specs (test))` read like the cond clause `(test)`, whose value is the
    # test's; R7RS leaves it unspecified and Lispex makes it zero values.
    edit_function(derived.DerivedForms, "form_do",
                  "else ir.ValuesNode([], test_clause.span))",
                  "else test)")


# -- topaz-tree ---------------------------------------------------------------------------------


@bug("blind12-tt-apply-limit-inclusive", "topaz-tree", "topaz-tree back end", "meters/limits",
     "the general application path (more than three arguments, a rest parameter, apply, a "
     "callback) checks the non-tail depth with >= instead of >, so a recursion through it that "
     "reaches exactly the limit (10,000) is a recursion-limit outcome; the arity-specialised "
     "call paths still allow it",
     "(define (deep n a b c)\n"
     "  (if (= n 0) (list a b c) (cons n (cdr (deep (- n 1) a b c)))))\n"
     "(deep 10000 'x 'y 'z)")
def _tt_apply_limit_inclusive() -> None:
    import implementations.topaz.tree as topaz_tree
    from implementations.topaz.tree import compiler

    # Realistic: the same check is written out in five places (apply and the four call
    # fast paths); the one in apply was typed as "at the limit", an off-by-one only a
    # recursion exactly at the boundary shows.
    edit_function(compiler, "compile_program",
                  "            if depth > RECURSION_LIMIT:\n"
                  "                raise too_deep()\n"
                  "            r = f.body(frame)\n",
                  "            if depth >= RECURSION_LIMIT:\n"
                  "                raise too_deep()\n"
                  "            r = f.body(frame)\n")
    topaz_tree.compile_program = compiler.compile_program


@bug("blind12-tt-two-hop-read", "topaz-tree", "topaz-tree back end", "closures",
     "the specialised reader of a variable two procedure activations out follows one parent "
     "link instead of two, so a lambda inside a lambda reading a parameter of the outermost "
     "procedure gets the slot of that index in the middle procedure's frame",
     "(define (add3 a) (lambda (b) (lambda (c) (list a b c))))\n"
     "(define (scale-all k xs) (map (lambda (x) (list x k)) xs))\n"
     "(list (((add3 1) 2) 3) (scale-all 10 '(1 2)))")
def _tt_two_hop_read() -> None:
    from implementations.topaz.tree import nodes

    # Realistic: a copy-paste slip in the unrolled readers (hops 0, 1, 2, then a loop); lets
    # live in their procedure's frame, so only nested lambdas reach two hops, and a read in
    # set! or a letrec slot takes the general path.
    edit_function(nodes, "local_reader",
                  "    if hops == 2:\n        return lambda e: e[0][0][i]\n",
                  "    if hops == 2:\n        return lambda e: e[0][i]\n")


@bug("blind12-tt-reraise-at-last-site", "topaz-tree", "topaz-tree back end",
     "diagnostics and spans",
     "a guard none of whose clauses matches raises the condition again from the last "
     "application made (the last clause test) instead of from the original raise, so a "
     "re-raised object nothing catches is reported (E331) at that clause test's span",
     "(define (classify x)\n"
     "  (guard (e ((string? e) 'string)\n"
     "            ((number? e) 'number))\n"
     "    (raise x)))\n"
     "(classify 'sym)")
def _tt_reraise_at_last_site() -> None:
    from implementations.topaz.tree import compiler, guard

    # Realistic: the re-raise was written like p_raise, which takes the span of the
    # application being made; the GuardUnwind carries the raise's own span for this.
    edit_function(guard, "compile_guard",
                  "return control.signal(rt, g.payload, g.continuable, g.span)",
                  "return control.signal(rt, g.payload, g.continuable, rt.get_site())")
    compiler.compile_guard = guard.compile_guard


# -- topaz-vm -----------------------------------------------------------------------------------


@bug("blind12-tv-let-aliases-variable", "topaz-vm", "topaz-vm back end", "scoping/set!",
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


@bug("blind12-tv-char-names-last-alias", "topaz-vm", "topaz-vm printer", "printing",
     "write names characters from the reader's table inverted, where the alias listed last "
     "wins: #\\newline is written #\\linefeed, #\\null #\\nul, #\\delete #\\rubout, #\\escape "
     "#\\esc, and U+000C #\\page instead of #\\x0c",
     "(write (list #\\newline #\\x0 #\\delete #\\escape #\\space #\\xc #\\a))\n"
     "(newline)\n"
     "(write (string->list \"a\\nb\"))")
def _tv_char_names_last_alias() -> None:
    from implementations.lispex import reader
    from implementations.topaz.vm import printer

    # Realistic: one table for both directions, made by inverting the reader's; the reader
    # lists each canonical name before its alias, so the dict comprehension keeps the alias.
    printer.CHAR_NAMES = {code: name for name, code in reader._CHAR_NAMES.items()}


@bug("blind12-tv-wind-after-on-uncaught", "topaz-vm", "topaz-vm back end", "dynamic-wind",
     "dynamic-wind runs its after thunk for any Python exception leaving the body, not only "
     "for escapes, so an uncaught raise or error (which ends the run, running nothing on the "
     "way out) still runs the after thunk and its output is kept",
     "(define (note s) (display s))\n"
     "(dynamic-wind\n"
     "  (lambda () (note \"[in]\"))\n"
     "  (lambda () (note \"[body]\") (car '()))\n"
     "  (lambda () (note \"[out]\")))")
def _tv_wind_after_on_uncaught() -> None:
    from implementations.topaz.vm import runtime

    # Realistic: dynamic-wind as try/except around the body, with "everything that unwinds"
    # taken to be every exception; the uncaught condition (Raised) is one too.
    edit_function(runtime.Runtime, "p_dynamic_wind",
                  "    except ESCAPES:\n",
                  "    except Exception:\n")
