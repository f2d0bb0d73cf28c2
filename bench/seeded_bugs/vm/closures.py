"""Seeded bugs in vm, family "closures"."""

from __future__ import annotations

from bench.seeded_bugs.seeding import bug, edit_function, patch_primitive


@bug("procedure-closures", "vm", "kernel primitives", "closures",
     "procedure? recognises primitives only, not closures",
     "(define (adder n) (lambda (x) (+ x n)))\n(list (procedure? car) (procedure? (adder 1)))")
def _procedure_closures() -> None:
    from implementations.lispex.values import Primitive

    patch_primitive("vm", "procedure?", lambda real: lambda x: type(x) is Primitive)


@bug("leave-scope-defers-closure", "vm", "vm back end", "closures",
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


@bug("self-tail-call-reuses-frame", "vm", "vm back end", "closures",
     "a self tail call whose operator and operands the linker evaluates in place (the step of a "
     "do loop or named let) overwrites the running frame with the new arguments instead of "
     "making a fresh one, so closures made in earlier iterations see the loop variables' later "
     "values",
     "(define thunks '())\n"
     "(do ((i 0 (+ i 1))) ((= i 3))\n"
     "  (set! thunks (cons (lambda () i) thunks)))\n"
     "(map (lambda (t) (t)) thunks)")
def _self_tail_call_reuses_frame() -> None:
    from implementations.vm import machine

    # Realistic: frame reuse on a self tail call is the classic loop optimisation of a VM; its
    # guard checks that the running frame is the callee's own parameter frame (not a let's),
    # but not that no closure has captured it.
    edit_function(machine.Machine, "run",
                  "f = evf(env)\n",
                  "f = evf(env)\n"
                  + " " * 24 + "if tail and type(f) is Closure and f.np == n and f.ins is code "
                  "and env[0] is f.env \\\n"
                  + " " * 32 + "and len(env) == n + 1:\n"
                  + " " * 28 + "nv = [e(env) for e in evs]\n"
                  + " " * 28 + "env[1:] = nv  # a self tail call: reuse the frame\n"
                  + " " * 28 + "st.site = span\n"
                  + " " * 28 + "pc = 0\n"
                  + " " * 28 + "continue\n")


@bug("vm-self-tail-reuses-frame", "vm", "vm back end", "closures",
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
