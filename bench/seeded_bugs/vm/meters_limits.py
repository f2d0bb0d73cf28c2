"""Seeded bugs in vm, family "meters/limits"."""

from __future__ import annotations

from bench.seeded_bugs.seeding import bug, edit_function


@bug("dynamic-wind-free", "vm", "vm control", "meters/limits",
     "dynamic-wind charges no machine transition for entering its frame",
     "(dynamic-wind (lambda () 1) (lambda () 2) (lambda () 3))")
def _dynamic_wind_free() -> None:
    from implementations.lispex.meters import MACHINE
    from implementations.vm import control

    real = control.Control.special

    def special(self, name, fn, args, *rest):
        out = real(self, name, fn, args, *rest)
        if name == "dynamic-wind":
            self.meter.used[MACHINE] -= 1
        return out
    control.Control.special = special


@bug("recursion-limit-early", "vm", "vm machine", "meters/limits",
     "the recursion limit counts the top-level frame: depth 10,000 is already too deep",
     "(define (f n) (if (= n 0) 0 (+ 1 (f (- n 1)))))\n(f 9999)")
def _recursion_limit_early() -> None:
    from implementations.vm import control, machine

    control.RECURSION_LIMIT = 9_998
    machine.RECURSION_LIMIT = 9_998


@bug("values-leaf-unpaid", "vm", "vm compiler", "meters/limits",
     "the operands of values that are leaves (constants, variables) are read in place like an "
     "application's, without the machine transition the tree interpreter charges for each",
     "(call-with-values (lambda () (values 1 2)) +)")
def _values_leaf_unpaid() -> None:
    from implementations.vm import compiler

    # Realistic: the ValuesNode branch copied from the App branch, leaf shortcut included.
    edit_function(compiler.Compiler, "expr",
               "        for a in node.args:\n"
               "            self.one(em, a)\n",
               "        for a in node.args:\n"
               "            if isinstance(a, LEAVES):\n"
               "                self.expr(em, a, False, False)\n"
               "            else:\n"
               "                self.one(em, a)\n")


@bug("nested-calls-not-deep", "vm", "vm back end", "meters/limits",
     "a closure the machine applies from a control frame of its own (a map or fold callback, a "
     "handler, a dynamic-wind thunk, a call/cc receiver) does not count toward the non-tail "
     "depth, so recursion through map passes the recursion limit",
     "(define (f n) (if (= n 0) 0 (+ 1 (car (map f (list (- n 1)))))))\n(f 10001)")
def _nested_calls_not_deep() -> None:
    from implementations.vm import control

    # Realistic: one level of indentation: the depth increment went under `if mode == CALLER`
    # with the frame push it sits beside.
    edit_function(control.Control, "apply",
                  "                    frames.append((code, pc, env, depth))\n"
                  "                depth += 1\n",
                  "                    frames.append((code, pc, env, depth))\n"
                  "                    depth += 1\n")


@bug("discarded-constant-unpaid", "vm", "vm back end", "meters/limits",
     "the linker drops a constant or lambda whose value a sequence discards without paying its "
     "machine transition, so a body that starts with a documentation string (or holds any "
     "discarded constant) counts fewer transitions than the tree interpreter each time it runs",
     "(define (square x)\n  \"the square of x\"\n  (* x x))\n"
     "(list (square 3) (square 4) (begin 'ignored (lambda (y) y) 5))")
def _discarded_constant_unpaid() -> None:
    from implementations.vm import link

    # Realistic: a dropped item is never evaluated, so only the discard's own weight was carried
    # to the next instruction; the item's weight (the unit the tree interpreter pays for entering
    # the constant) went with it.
    edit_function(link.CodeLinker, "op_discard", 'self.carry += led + [(w, None, ("pop",))]',
                  'self.carry += [(w, None, ("pop",))]')


@bug("cwv-consumer-unpaid", "vm", "vm back end", "meters/limits",
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


@bug("vm-lambda-operand-unpaid", "vm", "vm compiler", "meters/limits",
     "a lambda expression used as an operand is compiled like a leaf operand (read in place, "
     "no unit of its own), so making the closure costs no machine transition and every "
     "(map (lambda ...) ...) counts one transition fewer than the tree interpreter",
     "(define (squares lst) (map (lambda (x) (* x x)) lst))\n"
     "(list (squares '(1 2 3)) (apply (lambda args (length args)) '(a b)))")
def _vm_lambda_operand_unpaid() -> None:
    from implementations.lispex import core_ir as ir
    from implementations.vm import compiler

    # Realistic: a lambda needs no call and no stack of its own, like a constant; but the tree
    # interpreter enters the lambda node to close over it, and that entry is a transition.
    compiler.LEAVES = (*compiler.LEAVES, ir.Lambda)


@bug("vm-handler-call-unpaid", "vm", "vm back end", "meters/limits",
     "the application of an exception handler that the machine makes when a condition is "
     "signalled charges no machine transition, so every raise-continuable (or primitive fault) "
     "a with-exception-handler handles counts one transition fewer than in the tree "
     "interpreter; values and output are unchanged",
     "(define (safe-div a b)\n"
     "  (with-exception-handler\n"
     "    (lambda (c) 0)\n"
     "    (lambda () (if (= b 0) (raise-continuable 'div-by-zero) (quotient a b)))))\n"
     "(list (safe-div 10 2) (safe-div 1 0) (safe-div 9 3))")
def _vm_handler_call_unpaid() -> None:
    from implementations.vm import control

    # Realistic: the handler is called in place, as part of the raise that was already paid
    # for; the tree interpreter applies it as an application of its own, which is a transition.
    edit_function(control.Control, "signal",
                  "(continuable, payload, handlers, span), depth))\n"
                  "    self.tick()\n",
                  "(continuable, payload, handlers, span), depth))\n")


@bug("vm-first-callback-paid-only", "vm", "vm back end", "meters/limits",
     "a guest-calling primitive (map, for-each, filter, the folds, vector-map, ...) charges a "
     "machine transition for its first callback only, so every such call with n elements "
     "counts n - 1 transitions fewer than the tree interpreter; values and output are unchanged",
     "(define (squares lst) (map (lambda (x) (* x x)) lst))\n"
     "(list (squares '(1 2 3 4)) (filter odd? '(1 2 3)) (fold-left + 0 '(5 6)))")
def _vm_first_callback_paid_only() -> None:
    from implementations.vm import control

    # Realistic: the tick was taken for the primitive starting its walk (the first resume),
    # where the tree interpreter pays one transition for every callback it applies.
    edit_function(control.Control, "resume",
                  "depth))\n    self.tick()\n",
                  "depth))\n    if first:\n        self.tick()\n")


@bug("vm-guard-body-unpaid", "vm", "vm compiler", "meters/limits",
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
