"""Seeded bugs in `vm` and its copy of the kernel (see bugs.py)."""

from __future__ import annotations

from bench.seeded_bugs.bugs import _derived_class, _prims, bug, patch_primitive


@bug("expt-negative", "vm", "kernel numbers", "numerics",
     "expt with a negative exact exponent floors to an integer", "(expt 2 -2)")
def _expt_negative() -> None:
    def make(real):
        def expt(a, b):
            if type(a) is int and type(b) is int and b < 0 and a != 0:
                return 1 // (a ** -b)
            return real(a, b)
        return expt
    patch_primitive("vm", "expt", make)


@bug("string-less-prefix", "vm", "kernel primitives", "strings/chars",
     "string<? is false when the first string is a proper prefix of the second",
     '(list (string<? "ab" "abc") (string<? "abc" "ab"))')
def _string_less_prefix() -> None:
    def make(real):
        def less(*args):
            texts = [a.s for a in args if hasattr(a, "s")]
            if len(texts) == len(args) and any(b.startswith(a) and a != b
                                               for a, b in zip(texts, texts[1:], strict=False)):
                return False
            return real(*args)
        return less
    patch_primitive("vm", "string<?", make)


@bug("assoc-eqv", "vm", "kernel primitives", "control flow",
     "assoc compares keys with eqv?, so string keys never match",
     "(assoc \"b\" (list (cons \"a\" 1) (cons \"b\" 2)))")
def _assoc_eqv() -> None:
    prims = _prims("vm")
    assv = prims["assv"].fn
    patch_primitive("vm", "assoc", lambda real: lambda key, alist: assv(key, alist))


@bug("char-name-nul", "vm", "kernel printer", "printing",
     "the character U+0000 is written #\\nul instead of #\\null", "(write (integer->char 0))")
def _char_name_nul() -> None:
    from implementations.lispex import printer

    printer._CHAR_NAMES[0x00] = "nul"


@bug("fast-less-equal", "vm", "vm code generator", "control flow",
     "the inline fast path of <= on two integers compiles to <",
     "(define (f a b) (if (<= a b) 'yes 'no))\n(list (f 2 2) (f 1 2))")
def _fast_less_equal() -> None:
    from implementations.vm import treegen

    n, template, _ = treegen.FAST["<="]
    treegen.FAST["<="] = (n, template, "<")


@bug("eqv-identity", "vm", "vm code generator", "numerics",
     "the inline eqv? compares by identity only, so equal big integers are not eqv?",
     "(define (sq n) (* n n))\n(eqv? (sq 100000) (sq 100000))")
def _eqv_identity() -> None:
    from implementations.vm import treegen

    treegen.FAST["eqv?"] = (2, "{r} = {a} is {b}", "")


@bug("letrec-no-init-check", "vm", "vm code generator", "scoping/set!",
     "reading a letrec variable before its initialisation is not an error",
     "(define (f)\n  (define a (+ b 1))\n  (define b 2)\n  a)\n(f)")
def _letrec_no_init_check() -> None:
    from implementations.vm import treegen

    treegen._e321 = lambda name, span: None


@bug("handler-sees-itself", "vm", "vm control", "handlers",
     "a handler runs with itself still installed, so a raise inside it comes back to it",
     "(with-exception-handler (lambda (e) 100)\n"
     "  (lambda () (with-exception-handler\n"
     "               (lambda (e) (if (eq? e 'x) (+ 1 (raise-continuable 'inner)) 7))\n"
     "               (lambda () (raise-continuable 'x)))))")
def _handler_sees_itself() -> None:
    from implementations.vm import control

    def signal(self, payload, continuable, span, depth, handlers):
        if handlers is None:
            raise control.Raised(payload, span)
        h, outer = handlers
        if type(h) is control.GuardHandler:
            return self.unwind(h.index, ("guard", payload, continuable, span), depth, handlers)
        self.frames.append((control.K_CODES[control.K_RAISE], 0,
                            (continuable, payload, handlers, span), depth))
        self.tick()
        # The bug: the handler should run with the outer handlers.
        return self.apply(h, [payload], control.NESTED, None, 0, None, depth, handlers)
    control.Control.signal = signal


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


@bug("vector-list-end", "vm", "kernel primitives", "vectors",
     "vector->list ignores its end index", "(vector->list (vector 1 2 3 4) 1 3)")
def _vector_list_end() -> None:
    def make(real):
        return lambda v, *args: real(v, *args[:1])
    patch_primitive("vm", "vector->list", make)


@bug("procedure-closures", "vm", "kernel primitives", "closures",
     "procedure? recognises primitives only, not closures",
     "(define (adder n) (lambda (x) (+ x n)))\n(list (procedure? car) (procedure? (adder 1)))")
def _procedure_closures() -> None:
    from implementations.lispex.values import Primitive

    patch_primitive("vm", "procedure?", lambda real: lambda x: type(x) is Primitive)


@bug("when-false-value", "vm", "kernel normalizer", "control flow",
     "(when #f ...) yields #f instead of no value",
     "(define x 0)\n(list (when (> x 1) 'big))")
def _when_false_value() -> None:
    from implementations.lispex import core_ir as ir

    cls = _derived_class()
    real = cls.form_when

    def form_when(self, d, scope, tail):
        node = real(self, d, scope, tail)
        return ir.If(node.test, node.then, ir.Const(False, d.span), d.span) \
            if type(node) is ir.If else node
    cls.form_when = form_when


@bug("unary-minus-identity", "vm", "kernel primitives", "numerics",
     "- with one argument returns it unchanged instead of negating it",
     "(list (- 5) (- -2.5) (- 1 3))")
def _unary_minus_identity() -> None:
    patch_primitive("vm", "-", lambda real: lambda *args: args[0] if len(args) == 1 else real(*args))


@bug("string-length-bytes", "vm", "kernel primitives", "strings/chars",
     "string-length counts UTF-8 bytes, not characters",
     '(list (string-length "héllo") (string-length "abc"))')
def _string_length_bytes() -> None:
    def make(real):
        def length(s):
            text = getattr(s, "s", None)
            return len(text.encode("utf-8")) if type(text) is str else real(s)
        return length
    patch_primitive("vm", "string-length", make)


@bug("block-comment-not-nested", "vm", "kernel reader", "reader and layout",
     "a block comment ends at the first |#, even inside a nested #| ... |#",
     "(list 1 #| a #| b |# c |# 2)")
def _block_comment_not_nested() -> None:
    from implementations.lispex import reader

    def skip(text, file, pos):
        end = text.find("|#", pos + 2)
        return end + 2 if end >= 0 else len(text)
    reader._skip_block_comment = skip


@bug("let-star-outer-scope", "vm", "kernel normalizer", "scoping/set!",
     "let* compiles every init in the scope outside the let*, so an init that names an outer "
     "variable reads whatever binding now sits at its depth",
     "(define (f a) (let* ((b 10) (c (+ a 1))) (list a b c)))\n(f 5)")
def _let_star_outer_scope() -> None:
    from implementations.lispex import core_ir as ir
    from implementations.lispex.scopes import Scope

    cls = _derived_class()

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


@bug("string-number-prefix", "vm", "kernel primitives", "numerics",
     "string->number reads the leading digits of a string and ignores the rest",
     '(list (string->number "12abc") (string->number "7 8"))')
def _string_number_prefix() -> None:
    import re as _re

    def make(real):
        def parse(s, *radix):
            text = getattr(s, "s", None)
            m = _re.match(r"-?[0-9]+", text) if type(text) is str and not radix else None
            if m and m.end() < len(text):
                return int(m.group())
            return real(s, *radix)
        return parse
    patch_primitive("vm", "string->number", make)
