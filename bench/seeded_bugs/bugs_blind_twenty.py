"""Seeded bugs written blind, batch twenty: by a session that did not read the fuzzer
(court/fuzz/) first, so that they measure what the generator reaches rather than what it was
written beside (see bugs.py). Two bugs in each of six families (control flow, scoping, numerics,
printing, diagnostics, meters and limits), three per implementation (kernel bugs count toward
tree), on code paths earlier batches touched little: an expt size bound taken from the upper
estimate of the result's size, a written character that names the C1 controls in hex, an
uncaught re-raised error object reported where it was re-raised; in the VM a
with-exception-handler thunk applied outside the new handler's reach, an inline zero? that is
Python's == 0, and a guard body entered without its transition; in topaz-tree a #\\page in the
printer's character names, a known primitive's arity fault raised before its arguments run,
and a set! that creates the global it cannot find; in topaz-vm a set! from a closure written
without its nonlocal declaration, a constant pool keyed by value, and an all? that calls its
predicate on every element (Python's all([...]))."""

from __future__ import annotations

from bench.seeded_bugs.bugs import bug, edit_function

# -- tree ---------------------------------------------------------------------------------------


@bug("blind20-expt-bound-upper-estimate", "tree", "kernel primitives", "meters/limits",
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


@bug("blind20-write-char-c1-controls", "tree", "kernel printer", "printing",
     "write of a character decides whether to give it a hex name with unicodedata's category "
     "Cc, which also holds the C1 controls U+0080..U+009F, so (write (integer->char 133)) is "
     "#\\x85 instead of #\\ and the raw character (the C0 controls, DEL, the named "
     "characters, display and written strings are right)",
     "(define (show c) (write c) (newline))\n"
     "(show (integer->char 133))\n"
     "(show (integer->char 159))\n"
     "(show (integer->char 160))\n"
     "(show (integer->char 7))\n"
     "(show (integer->char 1))\n"
     "(display (integer->char 133))\n"
     "(newline)\n"
     "(write (list #\\a (integer->char 150)))")
def _write_char_c1_controls() -> None:
    import unicodedata

    from implementations.lispex import printer

    # Realistic: "control characters are written #\xHH" was implemented with Unicode's
    # general category, the Python way to ask "is this a control character"; Lispex means the
    # ASCII controls (below U+0020, and U+007F) only, as its string escapes do.
    printer.unicodedata = unicodedata  # the import that came with the edit
    edit_function(printer, "write_char",
                  "if code < 0x20 or code == 0x7F:",
                  'if unicodedata.category(chr(code)) == "Cc":')


@bug("blind20-uncaught-reraise-span", "tree", "kernel run", "diagnostics and spans",
     "an error object that is raised again and reaches the top level uncaught is reported at "
     "the span of the raise that last raised it instead of its own span (where the fault "
     "happened), so catching a condition, keeping it and re-raising it later moves the "
     "diagnostic to the re-raise (a fault never caught, and a raised non-condition's E331, "
     "are right)",
     "(define (attempt thunk)\n"
     "  (guard (e (#t e))\n"
     "    (thunk)))\n"
     "(define failure (attempt (lambda () (vector-ref (vector 1 2 3) 7))))\n"
     "(display (error-object? failure))\n"
     "(newline)\n"
     "(raise failure)")
def _uncaught_reraise_span() -> None:
    from implementations.lispex import run

    # Realistic: both branches of the uncaught report were written with the span the Raised
    # exception carries (the raise's), which is the right one for E331 only; an error object
    # has a span of its own, the fault's, and keeps it wherever it is raised again.
    edit_function(run, "_uncaught", "irritants, p.span)", "irritants, r.span)")


# -- vm -----------------------------------------------------------------------------------------


@bug("blind20-vm-thunk-fault-skips-handler", "vm", "vm back end", "control flow",
     "with-exception-handler applies its thunk as the other control primitives apply theirs, "
     "so a fault of that application itself (a thunk that takes an argument, or is not a "
     "procedure) goes to the handlers outside instead of the handler just installed: with no "
     "handler outside it is an uncaught E302 instead of the handler running and then E332 "
     "(faults inside the thunk's body are right)",
     "(define (safely thunk)\n"
     "  (with-exception-handler\n"
     "    (lambda (c) (display \"handled\") (newline) 'recovered)\n"
     "    thunk))\n"
     "(display \"start\")\n"
     "(newline)\n"
     "(safely (lambda (x) x))")
def _vm_thunk_fault_skips_handler() -> None:
    from implementations.vm import control

    # Realistic: call-with-values, call/cc and dynamic-wind apply their procedure with plain
    # apply in NESTED mode, and the thunk was written the same way; but a fault raised by apply
    # itself reaches the machine loop, which only knows the handlers in force before the call.
    edit_function(control.Control, "special",
                  "return self.call_under(thunk, [], depth, (handler, handlers))",
                  "return self.apply(thunk, [], NESTED, None, 0, None, depth,\n"
                  "                              (handler, handlers))")


@bug("blind20-vm-inline-zero-untyped", "vm", "vm back end", "numerics",
     "the evaluator generator inlines zero? as Python's x == 0 with no exact-integer test in "
     "front of it (== is right for every Lispex number, 0.0 and -0.0 included), so an argument "
     "that is not a number is no error: (zero? #f) is #t, since False == 0 in Python, and "
     "(zero? 'a) is #f, instead of E312 (zero? through a procedure value is right)",
     "(define (blank? x) (zero? x))\n"
     "(display (list (blank? 0) (blank? 0.0) (blank? 1/2) (blank? -0.0) (blank? 7)))\n"
     "(newline)\n"
     "(blank? #f)")
def _vm_inline_zero_untyped() -> None:
    from implementations.vm import treegen

    # Realistic: the type test was thought to guard only the arithmetic fast paths; Python's
    # == compares ints, floats and fractions with 0 exactly as zero? does, but it is no type
    # check, and bool is an int.
    treegen.FAST["zero?"] = (1, "{r} = {a} == 0", "")


@bug("blind20-vm-guard-body-unpaid", "vm", "vm compiler", "meters/limits",
     "the compiler emits a guard's body as part of the guard node, without the machine "
     "transition the tree interpreter pays for entering the body, so every guard whose body "
     "finishes without raising counts one transition fewer than on the tree interpreter; "
     "values and output are unchanged",
     "(define (safe-car x) (guard (e (#t 'none)) (car x)))\n"
     "(list (safe-car '(1 2)) (safe-car '(3)))")
def _vm_guard_body_unpaid() -> None:
    from implementations.vm.compiler import Compiler

    # Realistic: the guard instruction carries the guard node's unit and was taken to pay for
    # its body too, as if the body were a leaf of the guard; the tree interpreter enters the
    # guard and then its body, one transition each.
    edit_function(Compiler, "guard",
                  "self.expr(em, node.body, False, True)",
                  "self.expr(em, node.body, False, False)")


# -- topaz-tree ---------------------------------------------------------------------------------


@bug("blind20-tt-char-name-page", "topaz-tree", "topaz-tree printer", "printing",
     "the printer's table of character names holds page for U+000C, as the reader's does, so "
     "write gives #\\page instead of #\\x0c for a form feed (the reader accepts #\\page, but "
     "Lispex writes only the nine names of the reference; display and the string escape "
     "\\x0c; are right)",
     "(define (show c) (write c) (newline))\n"
     "(show #\\page)\n"
     "(show (integer->char 12))\n"
     "(show #\\tab)\n"
     "(display (list #\\a (integer->char 12) \"a\\x0c;b\"))\n"
     "(newline)\n"
     "(write (list #\\a (integer->char 12) \"a\\x0c;b\"))")
def _tt_char_name_page() -> None:
    from implementations.topaz.tree import printer

    # Realistic: the printer's names were taken from the reader's table (one name per code, the
    # first alias kept), which knows page as well; the written names are the reference's nine.
    printer.CHAR_NAMES[0x0C] = "page"


@bug("blind20-tt-arity-before-operands", "topaz-tree", "topaz-tree back end",
     "diagnostics and spans",
     "a call of a primitive known at compile time with the wrong number of arguments fails with "
     "E302 as soon as it is reached, before its arguments are evaluated, so their output is "
     "lost and a fault among them is reported as the E302 instead (the span, the call's, is "
     "right; a procedure called with the wrong count evaluates its arguments first)",
     "(define (show x) (display x) (newline) x)\n"
     "(show 'before)\n"
     "(cons (show 'a) (show 'b) (show 'c))")
def _tt_arity_before_operands() -> None:
    from implementations.topaz import tree
    from implementations.topaz.tree import compiler

    # Realistic: a call whose argument count is wrong is known to fail at compile time, and
    # the arguments were taken to be wasted work; R7RS evaluates the operands before the
    # application, whose arity fault comes after their effects.
    edit_function(compiler, "compile_program",
                  "                nonlocal site\n"
                  "                for a in args:\n"
                  "                    a(e)\n"
                  "                site = span\n"
                  "                raise prim_arity_error(p, k)\n",
                  "                nonlocal site\n"
                  "                site = span\n"
                  "                raise prim_arity_error(p, k)\n")
    tree.compile_program = compiler.compile_program


@bug("blind20-tt-set-unbound-creates", "topaz-tree", "topaz-tree back end", "scoping/set!",
     "a set! of a global that no definition has bound stores the value instead of failing "
     "with E303, as setq does at a Lisp top level, so the global is created by the assignment "
     "and later reads of it succeed (a set! of a defined global, or of a local, is right)",
     "(define (remember! x) (set! last-seen x) x)\n"
     "(display (remember! 5))\n"
     "(newline)\n"
     "(display last-seen)")
def _tt_set_unbound_creates() -> None:
    from implementations.topaz.tree.nodes import NodeCompiler

    # Realistic: the global's slot exists (every name the program mentions has one), so the
    # assignment was written as a plain store; R7RS makes set! of an unbound variable an error.
    edit_function(NodeCompiler, "set_global",
                  "        if gv[slot] is UNBOUND:\n"
                  "            raise LispexError(\"E303\", f\"set! of unbound variable "
                  "{name}\", (), span)\n",
                  "")


# -- topaz-vm -----------------------------------------------------------------------------------


@bug("blind20-tv-set-closure-no-nonlocal", "topaz-vm", "topaz-vm code generator",
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


@bug("blind20-tv-constant-pool-by-value", "topaz-vm", "topaz-vm code generator", "numerics",
     "the pool of constants the generated code names is keyed by the constant's value instead "
     "of its identity, and Python's == (with its matching hash) equates numbers across "
     "exactness and the sign of zero, so later constants take the pooled earlier one: in "
     "(list 1/2 0.5 -0.0 0.0) the 0.5 is 1/2 and the 0.0 is -0.0 (small exact integers, "
     "written as literals, are right)",
     "(define (constants) (list 1/2 0.5 -0.0 0.0 (exact? 0.5)))\n"
     "(display (constants))\n"
     "(newline)\n"
     "(list 3/4 0.75 (eqv? 0.0 -0.0))")
def _tv_constant_pool_by_value() -> None:
    from implementations.topaz.vm.emit import Pools

    # Realistic: deduplicating constants through a dict keyed by the value is the obvious
    # Python; for numbers, dict keys follow ==, under which 0.5 == 1/2 and 0.0 == -0.0.
    edit_function(Pools, "const", "key = id(value)", "key = value")


@bug("blind20-tv-all-evaluates-every", "topaz-vm", "topaz-vm guest library", "control flow",
     "all? is Python's all() over a list comprehension, which calls the predicate on every "
     "element before all() looks at the first result, so the walk does not stop at the first "
     "#f: the predicate's output for the later elements appears and a fault on a later "
     "element is an error (the result itself is right)",
     "(define (check x) (display x) (display \" \") (< x 10))\n"
     "(display (all? check '(1 20 3 4)))\n"
     "(newline)\n"
     "(display (all? number? '(1 a 2)))\n"
     "(newline)\n"
     "(all? (lambda (x) (> x 0)) '(-1 oops))")
def _tv_all_evaluates_every() -> None:
    from implementations.topaz.vm.guest import GuestPrimitives

    # Realistic: all([...]) instead of all(...): square brackets build the whole list first,
    # a Python slip that no test with a side-effect-free predicate notices.
    edit_function(GuestPrimitives, "g_all",
                  "    for x in self._elements(d, \"all?\", lst, span):\n"
                  "        if self._one(d, \"all?\", self.call_at(d, site, f, (x,)), span) "
                  "is False:\n"
                  "            return False\n"
                  "    return True\n",
                  "    return all([self._one(d, \"all?\", self.call_at(d, site, f, (x,)), span)\n"
                  "                is not False for x in self._elements(d, \"all?\", lst, span)])\n")
