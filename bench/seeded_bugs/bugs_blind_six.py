"""Seeded bugs written blind, batch six: by a session that did not read the fuzzer
(court/fuzz/) first, so that they measure what the generator reaches rather than what it was
written beside (see bugs.py). This batch is about the back ends' control machinery and binding:
letrec and loop variables, tail calls, escapes, handlers and re-raises, dynamic-wind, multiple
values, the list library and quasiquote."""

from __future__ import annotations

from typing import Any

from bench.seeded_bugs.bugs import _derived_class, bug, edit_function, patch_primitive

# -- tree ---------------------------------------------------------------------------------------


@bug("blind6-dw-thunk-one-value", "tree", "tree back end", "multiple values",
     "the frame that receives the result of a dynamic-wind thunk demands exactly one value "
     "(E320), so a thunk returning several values or none fails instead of passing them on "
     "through the after thunk",
     "(call-with-values\n"
     "  (lambda () (dynamic-wind (lambda () #f) (lambda () (values 1 2)) (lambda () #f)))\n"
     "  list)")
def _dw_thunk_one_value() -> None:
    from implementations.tree import control

    # Realistic: the F_DW return path was written beside F_LET and F_LETREC, whose slots hold
    # one value, and the one-value check was copied along with their shape. The thunk's result
    # only passes through the frame, so any outcome (zero or several values) must be kept.
    edit_function(control.Control, "control",
                  "    if tag == F_DW:\n        k.append((F_DW_DONE, val))\n",
                  "    if tag == F_DW:\n        if type(val) is Values:\n"
                  "            raise mv_error(fr[3].span, val)\n"
                  "        k.append((F_DW_DONE, val))\n")


@bug("blind6-before-escape-runs-after", "tree", "tree back end", "dynamic-wind",
     "an escape out of a dynamic-wind before thunk (a raise caught outside, a continuation "
     "call) runs the after thunk, although the dynamic extent was never entered",
     "(guard (e (#t (list 'caught e)))\n"
     "  (dynamic-wind (lambda () (display \"before \") (raise 'b))\n"
     "                (lambda () (display \"thunk \"))\n"
     "                (lambda () (display \"after \"))))")
def _before_escape_runs_after() -> None:
    from implementations.tree import control

    # Realistic: the unwinder treats both frames a dynamic-wind pushes as "inside the wind",
    # taking the extent to start at the dynamic-wind call rather than when before returns.
    edit_function(control.Control, "unwind",
                  "        elif tag == F_DW:\n",
                  "        elif tag == F_DW_BEFORE:\n"
                  "            k.append((F_UNWIND, target, action))\n"
                  "            return APPLY, None, [fr[2]], fr[3], depth, fr[4], None, None\n"
                  "        elif tag == F_DW:\n")


@bug("blind6-list-copy-drops-tail", "tree", "kernel primitives", "vectors",
     "list-copy of an improper list ends the copy with '() instead of the original final tail, "
     "and list-copy of a non-list gives '() instead of the object itself",
     "(list (list-copy '(1 2 . 3)) (list-copy (cons 'a 'b)) (list-copy '(x y)) (list-copy 5))")
def _list_copy_drops_tail() -> None:
    from implementations.lispex.primitives.errors_util import list_expected
    from implementations.lispex.values import Pair, list_from

    # Realistic: the copy was built with list_from(items), the helper every proper-list
    # primitive uses, and its optional tail argument (the last cdr reached) was left out.
    def make(real: Any) -> Any:
        def list_copy(lst: Any) -> Any:
            items = []
            fast = slow = lst
            while type(fast) is Pair:
                items.append(fast.car)
                fast = fast.cdr
                if type(fast) is not Pair:
                    break
                items.append(fast.car)
                fast = fast.cdr
                slow = slow.cdr
                if fast is slow:
                    list_expected("list-copy", lst)
            return list_from(items)
        return list_copy
    patch_primitive("tree", "list-copy", make)


# -- vm -----------------------------------------------------------------------------------------


@bug("blind6-escape-keeps-operands", "vm", "vm back end", "call/cc",
     "an escape continuation does not cut the value stack back to its height at the call/cc, so "
     "operands pushed inside the escaped computation stay behind and a pending call outside "
     "takes them for its own",
     "(define (f) 'inner)\n(define (g) 'outer)\n"
     "(list (g) (call/cc (lambda (k) (list (f) (k 3)))))")
def _escape_keeps_operands() -> None:
    from implementations.vm import control

    # Realistic: the guard path of the unwinder truncates the stack to the height it saved; the
    # continuation path, which also saved one, pushes the delivered value without truncating
    # (a receiver that escapes at once leaves nothing behind, which is what the tests did).
    edit_function(control.Control, "unwind", "del self.stack[fr[2][2]:]", "pass")


@bug("blind6-reraise-skips-leave-scope", "vm", "vm back end", "handlers",
     "in a guard that is not in tail position, a re-raise (no clause matched) that an outer "
     "handler resumes from continues after the guard without leaving the clause scope, so the "
     "code after the guard reads its local variables one frame off",
     "(define (f x)\n"
     "  (let ((y (+ 1 (guard (e ((string? e) 0)) (raise-continuable 'a)))))\n"
     "    (list x y)))\n"
     "(with-exception-handler (lambda (e) 10) (lambda () (f 5)))")
def _reraise_skips_leave_scope() -> None:
    from implementations.vm import compiler

    # Realistic: the re-raise was pointed at the guard's end label, where the body's normal
    # exit goes, as if resuming after a re-raise were the same as leaving the guard; but the
    # clauses run in a frame of their own ([env, condition]) that only `leave-scope` pops.
    edit_function(compiler.Compiler, "guard",
                  "    if reraise is not None:\n"
                  "        em.patch(reraise, out)"
                  "  # a continuable re-raise resumes at `leave-scope`\n"
                  "    em.emit((\"leave-scope\",), node.span)\n"
                  "    end = em.here()\n",
                  "    em.emit((\"leave-scope\",), node.span)\n"
                  "    end = em.here()\n"
                  "    if reraise is not None:\n"
                  "        em.patch(reraise, end)\n")


@bug("blind6-qq-dotted-unquote", "vm", "kernel normalizer", "control flow",
     "an unquote in the dotted tail of a quasiquote template, `(a . ,x), is kept as data: the "
     "reader folds (a . (unquote x)) into the list (a unquote x), which the expansion does not "
     "recognise",
     "(define x 5)\n(define ys '(2 3))\n(list `(1 . ,x) `(0 1 . ,ys) `(a ,x))")
def _qq_dotted_unquote() -> None:
    # Realistic: the dotted-tail case was written for a template the reader leaves dotted
    # (tail is not None), so its test can never hold for the folded form it is there for.
    edit_function(_derived_class(), "_qq",
                  "if tail is None and len(items) >= 3 and is_symbol(items[-2])",
                  "if tail is not None and len(items) >= 3 and is_symbol(items[-2])")


# -- topaz-tree ---------------------------------------------------------------------------------


@bug("blind6-letrec-inits-first", "topaz-tree", "topaz-tree back end", "scoping/set!",
     "a letrec (and a body's internal definitions) evaluates all its inits before it fills any "
     "slot (R7RS letrec, not letrec*), so an init that reads or calls an earlier binding fails "
     "with E321",
     "(define (area r)\n"
     "  (define pi 3)\n"
     "  (define (square x) (* x x))\n"
     "  (define a (* pi (square r)))\n"
     "  a)\n"
     "(area 2)")
def _letrec_inits_first() -> None:
    from implementations.topaz.tree import nodes

    # Realistic: the let code path (evaluate the inits, then store them) was reused for letrec;
    # R7RS's letrec allows it, but Lispex's letrec and internal definitions are letrec*.
    edit_function(nodes.NodeCompiler, "letrec",
                  "        for i, c in inits:\n            e[i] = c(e)\n",
                  "        vals = [c(e) for _, c in inits]\n"
                  "        for (i, _), v in zip(inits, vals):\n            e[i] = v\n")


@bug("blind6-wide-call-not-tail", "topaz-tree", "topaz-tree back end", "tail calls",
     "a call with more than three arguments is never a tail call, so a loop whose procedure "
     "(or named let, or do loop) has four or more variables grows the non-tail depth until the "
     "recursion limit",
     "(do ((i 0 (+ i 1)) (a 0 (+ a i)) (b 0 (- b 1)) (c 'x c))\n"
     "    ((= i 20000) (list a b c)))")
def _wide_call_not_tail() -> None:
    import implementations.topaz.tree as topaz_tree
    from implementations.topaz.tree import compiler

    # Realistic: calls of up to three arguments have hand-written tail and non-tail variants;
    # the general path for wider calls was written once, as a plain (non-tail) application.
    edit_function(compiler, "compile_program", "return apply(f, vals, tail)",
                  "return apply(f, vals, False)")
    topaz_tree.compile_program = compiler.compile_program


@bug("blind6-qq-final-splice-shared", "topaz-tree", "kernel normalizer", "diagnostics and spans",
     "an unquote-splicing at the end of a quasiquote list becomes the list's tail as it is, "
     "without the hidden append, so a spliced non-list is accepted as a dotted tail instead of "
     "failing with E310 (and a spliced list is shared, not copied)",
     "(define (wrap body) `(begin ,@body))\n(list (wrap '(1 2)) (wrap 'oops))")
def _qq_final_splice_shared() -> None:
    # Realistic: (append xs '()) looked like xs, so a splice in the last position was
    # "optimised" into the tail itself; append is what checks that xs is a proper list (and
    # copies it).
    edit_function(_derived_class(), "_qq",
                  'result = ir.App(ir.Intrinsic("append", item.span), [spliced, result],',
                  "result = spliced if type(result) is ir.Const and result.value is NIL else "
                  'ir.App(ir.Intrinsic("append", item.span), [spliced, result],')


# -- topaz-vm -----------------------------------------------------------------------------------


@bug("blind6-loop-rebind-sequential", "topaz-vm", "topaz-vm back end", "control flow",
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


@bug("blind6-effect-guard-swallows", "topaz-vm", "topaz-vm back end", "handlers",
     "a guard whose value is discarded (not the last expression of a body or begin) and none "
     "of whose clauses matches drops the condition instead of raising it again",
     "(define log '())\n"
     "(define (note x) (set! log (cons x log)))\n"
     "(guard (e (#t (list 'outer e (reverse log))))\n"
     "  (guard (e ((string? e) (note 'inner)))\n"
     "    (note 'body)\n"
     "    (raise 'sym))\n"
     "  (note 'after)\n"
     "  'done)")
def _effect_guard_swallows() -> None:
    from implementations.topaz.vm import blocks

    # Realistic: with a discarding sink there is "no value to deliver", and the re-raise was
    # taken for the delivery of one rather than for an effect of its own.
    edit_function(blocks.Blocks, "clauses", 'fn.emit(f"_reraise(d, {x})")',
                  "pass  # the value is discarded")


@bug("blind6-truncate-div-dividend-sign", "topaz-vm", "kernel primitives", "multiple values",
     "truncate/ corrects the floor division only when the dividend is negative, not when the "
     "signs differ, so with a negative divisor both of its values are wrong",
     "(define (td a b) (call-with-values (lambda () (truncate/ a b)) list))\n"
     "(list (td -7 2) (td 7 -2) (td -7 -2) (td 7 2))")
def _truncate_div_dividend_sign() -> None:
    from implementations.lispex.primitives import numeric_division as nd
    from implementations.lispex.values import Values

    # Realistic: "truncation and flooring differ for negative numbers" remembered as "for a
    # negative dividend"; they differ when the quotient is negative, i.e. the signs differ.
    def make(real: Any) -> Any:
        def truncate_div(a: Any, b: Any) -> Any:
            n, d, inexact = nd._operands("truncate/", a, b)
            q, r = divmod(n, d)
            if r and n < 0:
                q += 1
                r -= d
            return Values((nd._result("truncate/", q, inexact),
                           nd._result("truncate/", r, inexact)))
        return truncate_div
    patch_primitive("topaz-vm", "truncate/", make)
