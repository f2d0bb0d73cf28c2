"""Seeded bugs written blind, batch fourteen: by a session that did not read the fuzzer
(court/fuzz/) first, so that they measure what the generator reaches rather than what it was
written beside (see bugs.py). This batch is about the back ends' own optimisations and calling
conventions, the mistakes made in making an interpreter fast: fast paths guarded too loosely
(floats let into the vm's inline arithmetic, a big-integer product into the tree's two-integer
path), an arity check left out of an in-place primitive call, a primitive still called inline
after a set! of its name, a constant commuted to the right of a comparison without mirroring
it, a tail flag passed on to a nested application (a call/cc receiver), the non-tail depth of a
pending tail call or of a library callback counted one level short, a rest list shared with the
list apply spread or sharing its frame slot with a body's bindings, closures over the
parameters of a procedure run as a loop, and let inits read after a later init has assigned
them. Three bugs per implementation."""

from __future__ import annotations

from bench.seeded_bugs.bugs import bug, edit_function

# -- tree ---------------------------------------------------------------------------------------


@bug("blind14-callcc-receiver-inherits-tail", "tree", "tree back end", "tail calls",
     "a call/cc in tail position applies its receiver as a tail call (the receiver inherits the "
     "call's tail flag, as apply's procedure and the call-with-values consumer do), so the "
     "receiver's application does not count toward the non-tail depth: a recursion through "
     "call/cc in tail position never reaches the recursion limit",
     "(define (walk n acc)\n"
     "  (if (= n 0)\n"
     "      acc\n"
     "      (call/cc (lambda (k) (walk (- n 1) (+ acc 1))))))\n"
     "(walk 10500 0)")
def _callcc_receiver_inherits_tail() -> None:
    from implementations.tree import control

    # Realistic: apply and call-with-values hand their tail flag on, and call/cc looked like
    # one more of them ("the receiver's value is call/cc's value"). But the receiver runs above
    # call/cc's own frame, which the continuation needs, so it is a nested call: the vm (and the
    # tree interpreter's own frame path) count it one level deeper.
    edit_function(control.Control, "special",
                  "return APPLY, None, [args[0], cont], False, handlers, None",
                  "return APPLY, None, [args[0], cont], tail, handlers, None")


@bug("blind14-int-product-unbounded", "tree", "tree back end", "numerics",
     "the machine's two-exact-integer fast path also answers *, with Python's own product, so "
     "the kernel's bound on the size of an exact product is skipped: squaring a 600,000-bit "
     "integer gives the 1,200,000-bit result instead of E311 (three or more factors, and any "
     "inexact or rational factor, still go to the kernel)",
     "(define big (expt 2 600000))\n"
     "(define (square-of x) (* x x))\n"
     "(list (square-of 12) (> (square-of big) big))")
def _int_product_unbounded() -> None:
    import operator

    from implementations.lispex.primitives import numeric
    from implementations.tree import intops

    # Realistic: Python integers cannot overflow, so a product of two ints looked as safe to
    # answer in place as a sum; the size bound lives inside the kernel's `*`, which the fast
    # path exists to skip (topaz-tree's and topaz-vm's tables say "Not `*`" for this reason).
    intops._INT2["*"] = (numeric.times, operator.mul)


@bug("blind14-operand-prim-arity-unchecked", "tree", "tree back end", "diagnostics and spans",
     "a primitive applied to leaves as an operand of another call, which the machine evaluates "
     "in place, is called without its argument count check, so (< x) there is #t and (max) or "
     "(car) fail inside the host instead of E302; the same call anywhere else is still checked",
     "(define (probe x)\n"
     "  (list (< x) (= x) (string-append) (+ x)))\n"
     "(probe 5)")
def _operand_prim_arity_unchecked() -> None:
    from implementations.tree import machine

    # Realistic: the in-place operand path was written for arithmetic on leaves, where the
    # normalizer's shapes always have the right count; the check was taken for one that the
    # application path (APPLY) makes anyway, which this path never reaches.
    ind = " " * 40
    edit_function(machine.Machine, "run",
                  ind + "na = len(iv) - 1\n"
                  + ind + "if not (na >= fn.min_args\n"
                  + ind + "        and (fn.max_args < 0 or na <= fn.max_args)):\n"
                  + ind + "    raise prim_arity_error(fn, na)\n",
                  ind + "na = len(iv) - 1\n")


# -- vm -----------------------------------------------------------------------------------------


@bug("blind14-vm-float-inline-arith", "vm", "vm back end", "numerics",
     "the inline evaluators' arithmetic and comparison fast path admits floats as well as exact "
     "integers (type(x) in (int, float)), so + and - of floats are Python's own and a result "
     "that overflows is an infinity instead of E314 (comparisons and in-range sums are right)",
     "(define (total a b) (+ a b))\n"
     "(define big 1.5e308)\n"
     "(list (total 0.5 0.25) (total 1 2.5) (< (total big big) 0.0) (- 3.5 1))")
def _vm_float_inline_arith() -> None:
    from implementations.vm import treegen

    # Realistic: Python's float arithmetic is IEEE, and the kernel's + of two floats is the
    # same Python +, so floats were let into the fast path; what the kernel adds is the check
    # that the result is finite (Lispex has no infinities), which the inline text leaves out.
    edit_function(treegen.TreeGen, "call",
                  'f"type({x}) is int"',
                  'f"type({x}) in (int, float)"')


@bug("blind14-vm-apply-shares-rest-list", "vm", "vm back end", "apply/rest args",
     "apply of a procedure whose rest parameter takes exactly the spread list (the arguments "
     "before the list fill its required parameters) binds the rest parameter to the list apply "
     "was given instead of a newly allocated copy, so (eq? lst (apply f lst)) is #t for "
     "(define (f . xs) xs)",
     "(define (collect . xs) xs)\n"
     "(define (tail-of first . more) more)\n"
     "(define items (list 1 2 3))\n"
     "(list (eq? items (apply collect items))\n"
     "      (equal? items (apply collect items))\n"
     "      (eq? (cdr items) (apply tail-of 1 (cdr items)))\n"
     "      (eq? items (collect 1 2 3)))")
def _vm_apply_shares_rest_list() -> None:
    from implementations.vm import control

    # Realistic: a fast path for the common (apply f args) of a variadic procedure: Lispex has
    # no set-car!/set-cdr!, so passing the spread list through instead of converting it to
    # Python and back looked unobservable; eq? still sees that the rest list is not fresh.
    edit_function(control.Control, "apply",
                  "                fn, args = args[0], [*args[1:-1], *spread]\n",
                  "                f0 = args[0]\n"
                  "                if type(f0) is Closure and f0.np == -1 - (n - 2):\n"
                  "                    self.tick()\n"
                  "                    e = [f0.env, *args[1:-1], args[-1]]\n"
                  "                    if mode != TAIL:\n"
                  "                        if mode == CALLER:\n"
                  "                            frames.append((code, pc, env, depth))\n"
                  "                        depth += 1\n"
                  "                        if depth > RECURSION_LIMIT:\n"
                  "                            raise ResourceExhausted(\n"
                  "                                \"recursion-limit\",\n"
                  "                                f\"non-tail call depth passed "
                  "{RECURSION_LIMIT}\")\n"
                  "                    return f0.ins, 0, e, depth, handlers\n"
                  "                fn, args = args[0], [*args[1:-1], *spread]\n")


@bug("blind14-vm-set-primitive-still-inline", "vm", "vm back end", "scoping/set!",
     "the linker takes a global for a constant primitive when no define of it exists, "
     "overlooking set!, so after (set! abs ...) calls of abs (in procedures and at top level) "
     "still run the primitive inline",
     "(define (magnitude x) (abs x))\n"
     "(set! abs (lambda (x) (* x 10)))\n"
     "(list (magnitude -4) (abs -2) (max 1 2))")
def _vm_set_primitive_still_inline() -> None:
    from implementations.vm import link

    # Realistic: "set! can only change a binding the program already made" was read as "a
    # primitive's slot is rebound only by define"; but a primitive's name is a bound global,
    # and set! of it is legal.
    edit_function(link, "constant_globals",
                  'if ins[0] in ("set-global", "define-global")}',
                  'if ins[0] == "define-global"}')


# -- topaz-tree ---------------------------------------------------------------------------------


@bug("blind14-tt-bounce-at-caller-depth", "topaz-tree", "topaz-tree back end", "tail calls",
     "a non-tail call of a one-argument procedure gives its unit of non-tail depth back as soon "
     "as the callee's body returns, before running the tail call the body handed back, so that "
     "tail call (and everything it calls) runs one level too shallow: a recursion that goes "
     "through a one-argument procedure tail-calling another never reaches the recursion limit",
     "(define (down n) (if (= n 0) 0 (+ 1 (step n))))\n"
     "(define (step n) (down (- n 1)))\n"
     "(down 10200)")
def _tt_bounce_at_caller_depth() -> None:
    from implementations.topaz import tree
    from implementations.topaz.tree import compiler

    # Realistic: "the callee has returned, so its level is over" -- but a pending tail call
    # replaces the callee, not the caller, and must run at the callee's depth. The other arity
    # paths bounce first and give the depth back after.
    edit_function(compiler, "compile_program",
                  "r = f.body([f.env, x])\n"
                  "                    if type(r) is tuple:\n"
                  "                        r = bounce(r)\n"
                  "                    depth -= 1\n",
                  "r = f.body([f.env, x])\n"
                  "                    depth -= 1\n"
                  "                    if type(r) is tuple:\n"
                  "                        r = bounce(r)\n")
    tree.compile_program = compiler.compile_program


@bug("blind14-tt-rest-slot-shared", "topaz-tree", "topaz-tree back end", "apply/rest args",
     "the frame layout of a procedure with a rest parameter counts its fixed parameters only, "
     "so the first let, letrec, internal define or guard variable of its body gets the rest "
     "list's slot and overwrites it",
     "(define (tagged tag . items)\n"
     "  (let ((n (length items)))\n"
     "    (list tag n items)))\n"
     "(define (average . nums)\n"
     "  (define total (apply + nums))\n"
     "  (/ total (length nums)))\n"
     "(list (tagged 'a 1 2) (tagged 'b) (average 1 2 3 6))")
def _tt_rest_slot_shared() -> None:
    from implementations.topaz.tree import nodes

    # Realistic: every other count around it is of parameters (nparams), and the rest list is a
    # parameter in the source; the frame does hold it (bind appends it), so only the body's own
    # bindings, placed after "the parameters", collide with it.
    edit_function(nodes.NodeCompiler, "lambda_",
                  "inner = sc.procedure(nparams + rest)",
                  "inner = sc.procedure(nparams)")


@bug("blind14-tt-constant-left-not-mirrored", "topaz-tree", "topaz-tree back end",
     "control flow",
     "an if whose test compares an integer constant with a local variable, (< 0 n), swaps the "
     "operands so that the local-and-constant fast path serves it, without mirroring the "
     "comparison: (< 0 n) is decided as (< n 0) (only = and the tests with the constant on the "
     "right are right)",
     "(define (sign n)\n"
     "  (if (< 0 n) 'positive (if (> 0 n) 'negative 'zero)))\n"
     "(define (at-least-ten? n) (if (>= n 10) #t #f))\n"
     "(list (map sign '(5 -3 0 2.5)) (at-least-ten? 12) (if (= 3 (+ 1 2)) 'eq 'ne))")
def _tt_constant_left_not_mirrored() -> None:
    from implementations.topaz import tree
    from implementations.topaz.tree import compiler

    # Realistic: "put the constant on the right" is a standard canonicalisation, and it is right
    # as it stands for = (and + and *); for < <= > >= it needs the mirrored operator too.
    edit_function(compiler, "compile_program",
                  "        x, y = t.args\n"
                  "        i = here(x, sc)\n",
                  "        x, y = t.args\n"
                  "        if type(x) is ir.Const and type(x.value) is int and here(y, sc):\n"
                  "            x, y = y, x  # the constant on the right, as the fast path wants\n"
                  "        i = here(x, sc)\n")
    tree.compile_program = compiler.compile_program


# -- topaz-vm -----------------------------------------------------------------------------------


@bug("blind14-tv-callback-at-caller-depth", "topaz-vm", "topaz-vm runtime", "meters/limits",
     "a closure the runtime calls on behalf of a primitive (a map, for-each, filter or fold "
     "callback, a dynamic-wind thunk, a non-tail call-with-values consumer) runs at the depth "
     "of the primitive's caller instead of one level deeper when its arity fits, so a "
     "recursion through map counts half its depth and passes the recursion limit",
     "(define (nest n)\n"
     "  (if (= n 0)\n"
     "      0\n"
     "      (car (map (lambda (x) (+ x (nest (- n 1)))) '(1)))))\n"
     "(nest 6000)")
def _tv_callback_at_caller_depth() -> None:
    from implementations.topaz.vm import runtime

    # Realistic: call_at's fast path was copied from tramp's, where a callee does run at the
    # depth it is given (a tail call); here the depth given is the primitive caller's.
    edit_function(runtime.Runtime, "call_at",
                  "r = f.fn(d + 1, *args)",
                  "r = f.fn(d, *args)")


@bug("blind14-tv-self-loop-shares-params", "topaz-vm", "topaz-vm analysis", "closures",
     "a procedure that calls itself in tail position is run as a while loop over its own "
     "parameters even when its body makes closures over them, so every closure made in one "
     "call of it sees the parameters' last values",
     "(define (make-thunks i acc)\n"
     "  (if (= i 3)\n"
     "      acc\n"
     "      (make-thunks (+ i 1) (cons (lambda () (* i 10)) acc))))\n"
     "(map (lambda (f) (f)) (make-thunks 0 '()))")
def _tv_self_loop_shares_params() -> None:
    from implementations.topaz.vm import analysis

    # Realistic: the inner-lambda flag was thought to concern only the inline named-let loops
    # (which test it themselves); but Python closures capture the variable, not its value, and
    # the loop rebinds the same variables on every iteration.
    edit_function(analysis._Tails, "run",
                  "info.loop = not info.inner_lambda and info.self_calls > 0",
                  "info.loop = info.self_calls > 0")


@bug("blind14-tv-let-inits-read-late", "topaz-vm", "topaz-vm back end", "scoping/set!",
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
