"""Seeded bugs in topaz-vm, family "control flow"."""

from __future__ import annotations

from typing import Any

from bench.seeded_bugs.seeding import bug, edit_function


@bug("loop-rebind-sequential", "topaz-vm", "topaz-vm back end", "control flow",
     "a named let, do loop or self-recursive procedure run as a while loop assigns its new "
     "variable values one after the other instead of all at once, so a step that reads another "
     "loop variable sees that variable's new value",
     "(define (gaps lst)\n"
     "  (let loop ((xs lst) (cur 0) (prev 0) (acc '()))\n"
     "    (if (null? xs) (reverse acc)\n"
     "        (loop (cdr xs) (car xs) cur (cons (- cur prev) acc)))))\n"
     "(list (gaps '(1 4 9 16)) (do ((i 0 (+ i 1)) (prev -1 i)) ((= i 3) (list i prev))))")
def _loop_rebind_sequential() -> None:
    from implementations.topaz.vm import blocks

    # Realistic: one assignment per loop variable is the obvious way to write the rebinding;
    # only the tuple assignment makes the new values independent of each other, as the call's
    # fresh frame would.
    edit_function(blocks.Blocks, "rebind",
                  "        self.fn.emit(f\"{pad}{', '.join(params)}, = {', '.join(values)},\")\n",
                  "        for p, v in zip(params, values, strict=True):\n"
                  "            self.fn.emit(f\"{pad}{p} = {v}\")\n")


@bug("inline-not-truthy", "topaz-vm", "topaz-vm back end", "control flow",
     "the inline not of a variable is Python's `not`, so (not x) is #t when x is 0 or 0.0, in a "
     "test as well as for its value (a literal operand still goes to the kernel primitive)",
     "(define (none? x) (not x))\n"
     "(define (sign x) (if (not x) 'missing x))\n"
     "(list (none? 0) (none? #f) (none? '()) (sign 0) (sign 0.0) (not 0))")
def _inline_not_truthy() -> None:
    from implementations.topaz.vm import calls

    # Realistic: Lispex `not` written as the Python operator of the same name; the kernel's
    # `not`, and every other inline test here, compare with `is False`.
    edit_function(calls.Calls, "inline", 'return f"({a} is False)"', 'return f"(not {a})"')


@bug("fold-right-forward", "topaz-vm", "topaz-vm back end", "control flow",
     "fold-right walks the list from the front, like fold-left, only with the arguments in "
     "fold-right's order (f element accumulator), so (fold-right cons '() '(1 2 3)) is "
     "(3 2 1); on the reference's own example, (fold-right - 0 '(1 2 3)), both orders give 2",
     "(list (fold-right - 0 '(1 2 3)) (fold-right cons '() '(1 2 3))\n"
     "      (fold-right list 'z '(a b)) (fold-left list 'z '(a b)))")
def _fold_right_forward() -> None:
    from implementations.topaz.vm import guest

    # Realistic: g_fold_right was made from a copy of g_fold_left, changing the order of the
    # callback's arguments and forgetting the reversed() of the walk.
    edit_function(guest.GuestPrimitives, "g_fold_right",
                  'for x in reversed(self._elements(d, "fold-right", lst, span)):',
                  'for x in self._elements(d, "fold-right", lst, span):')


@bug("tv-map-back-to-front", "topaz-vm", "topaz-vm guest library", "control flow",
     "map calls its procedure on the elements from the last to the first (building the result "
     "by consing onto it), so a procedure with an effect (output, a set!, a counter) sees the "
     "elements in reverse order; the result list is in the right order",
     "(define count 0)\n"
     "(define (tag x) (set! count (+ count 1)) (display x) (cons x count))\n"
     "(map tag '(a b c))")
def _tv_map_back_to_front() -> None:
    from implementations.lispex.values import NIL, Pair, Values
    from implementations.topaz.vm import guest

    # Realistic: the classic way to build a list without reversing it at the end; R7RS leaves
    # map's order unspecified, but Lispex (and the other three members) call front to back.
    def g_map(self: Any, d: int, tail: bool, f: Any, lst: Any) -> Any:
        site = self.site_get()
        span = self.sites[site]
        result: Any = NIL
        for x in reversed(self._elements(d, "map", lst, span)):
            v = self.call_at(d, site, f, (x,))
            if type(v) is Values:
                self._one(d, "map", v, span)
            result = Pair(v, result)
        return result

    guest.GuestPrimitives.g_map = g_map


@bug("tv-handler-runs-unguarded", "topaz-vm", "topaz-vm runtime", "control flow",
     "a handler is applied with the handler chain emptied instead of cut back to the handlers "
     "outside it, so a condition raised inside a handler (a handler that wraps and re-raises "
     "what it was given), or the E332 of a handler returning from a raise, goes uncaught even "
     "when a guard or handler outside would take it (a handler that returns from "
     "raise-continuable is right)",
     "(define (wrap thunk)\n"
     "  (guard (e (#t (list 'outer-caught e)))\n"
     "    (with-exception-handler\n"
     "      (lambda (c) (if (symbol? c) (raise (list 'wrapped c)) 0))\n"
     "      thunk)))\n"
     "(list (wrap (lambda () 'fine))\n"
     "      (wrap (lambda () (+ 1 (raise-continuable 5))))\n"
     "      (wrap (lambda () (raise 'inner))))")
def _tv_handler_runs_unguarded() -> None:
    from implementations.topaz.vm.runtime import Runtime

    # Realistic: "the current handler is suppressed while it runs" read as "no handler is in
    # force while a handler runs"; R7RS has the handler run with the handlers that were in
    # force when it was installed, the outer ones.
    edit_function(Runtime, "signal",
                  "self.h = outer  # a handler runs with itself removed",
                  "self.h = None  # a handler runs with itself removed")


@bug("tv-all-evaluates-every", "topaz-vm", "topaz-vm guest library", "control flow",
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
