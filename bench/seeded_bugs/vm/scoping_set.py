"""Seeded bugs in vm, family "scoping/set!"."""

from __future__ import annotations

from bench.seeded_bugs.seeding import bug, derived_class, edit_function


@bug("letrec-no-init-check", "vm", "vm code generator", "scoping/set!",
     "reading a letrec variable before its initialisation is not an error",
     "(define (f)\n  (define a (+ b 1))\n  (define b 2)\n  a)\n(f)")
def _letrec_no_init_check() -> None:
    from implementations.vm import treegen

    treegen._e321 = lambda name, span: None


@bug("let-star-outer-scope", "vm", "kernel normalizer", "scoping/set!",
     "let* compiles every init in the scope outside the let*, so an init that names an outer "
     "variable reads whatever binding now sits at its depth",
     "(define (f a) (let* ((b 10) (c (+ a 1))) (list a b c)))\n(f 5)")
def _let_star_outer_scope() -> None:
    from implementations.lispex import core_ir as ir
    from implementations.lispex.scopes import Scope

    cls = derived_class()

    def form_let_star(self, d, scope, tail):
        pairs = self.bindings(d.items[1], "let*") if len(d.items) >= 3 else None
        if not pairs:
            return real(self, d, scope, tail)
        inits, cur = [], scope
        for atom, v in pairs:
            name = self.binder(atom)
            inits.append(self.named_expr(v, scope, name))  # the bug: scope, not cur
            cur = Scope([name], cur)
        node = self.body(d.items[2:], cur, tail, d.span)
        for init in reversed(inits):
            node = ir.Let([init], node, d.span)
        return node
    real = cls.form_let_star
    cls.form_let_star = form_let_star


@bug("linker-defers-locals", "vm", "vm linker", "scoping/set!",
     "the linker treats reading a local variable as unobservable and may evaluate it after a "
     "later operand has assigned that variable",
     "(define (f)\n  (let ((n 0))\n    (define (bump!) (set! n (+ n 1)) n)\n"
     "    (list n (bump!) n)))\n(f)")
def _linker_defers_locals() -> None:
    from implementations.vm import link

    def deferrable(self) -> bool:
        # Realistic: locals lumped in with constants and closure creation as "pure".
        return not self.real and self.node[0] in ("const", "closure", "local")
    link.Item.deferrable = property(deferrable)


@bug("linker-constants-forms-only", "vm", "vm back end", "scoping/set!",
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


@bug("vm-set-primitive-still-inline", "vm", "vm back end", "scoping/set!",
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
