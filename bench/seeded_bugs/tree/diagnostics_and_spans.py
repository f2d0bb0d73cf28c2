"""Seeded bugs in tree, family "diagnostics and spans"."""

from __future__ import annotations

from bench.seeded_bugs.seeding import bug, edit_function, lispex_error, patch_primitive


@bug("vector-index-code", "tree", "kernel primitives", "diagnostics and spans",
     "vector-ref out of range reports a type error (E310) instead of its own code",
     "(vector-ref (vector 1 2 3) 3)")
def _vector_index_code() -> None:
    from implementations.lispex.errors import LispexError

    def make(real):
        def vector_ref(v, i):
            try:
                return real(v, i)
            except LispexError as e:
                if e.code != "E310":
                    raise lispex_error("E310", e.message, v, i) from None
                raise
        return vector_ref
    patch_primitive("tree", "vector-ref", make)


@bug("string-newline-lines", "tree", "kernel reader", "diagnostics and spans",
     "the reader counts line breaks only between tokens, so after a string literal that spans "
     "lines every span is reported on too low a line (and column)",
     '(define s "one\ntwo")\n(car s)')
def _string_newline_lines() -> None:
    from implementations.lispex import reader

    # Realistic: the line scan restarts at the end of the previous token, skipping its body.
    edit_function(reader, "_parse", "        last = s\n", "        last = e\n")


@bug("column-byte-offset", "tree", "kernel reader", "diagnostics and spans",
     "a datum's column is computed from its UTF-8 byte offset minus the line start's character "
     "index, so after any non-ASCII character earlier in the source columns are too far right",
     '(define s "naïve")\n(display s)\n(car s)')
def _column_byte_offset() -> None:
    from implementations.lispex import reader

    # Realistic: two units mixed up; `b` (bytes) and `s` (str index) are equal on ASCII text,
    # which is all most tests contain.
    edit_function(reader, "_parse", "        col = s - line_start + 1\n",
               "        col = b - line_start + 1\n")


@bug("library-fault-callback-site", "tree", "tree back end", "diagnostics and spans",
     "a fault raised by a guest-calling library primitive after a callback has returned (a "
     "callback result of the wrong type or of several values) is reported at the last "
     "application made inside the callback instead of at the primitive's call",
     "(define (code c)\n  (char->integer c))\n(string-map code \"ab\")")
def _library_fault_callback_site() -> None:
    from implementations.tree import machine

    # Realistic: the F_GEN return path was written like an ordinary return, so the fault falls
    # back to the machine's `site` register, which the callback's own calls have moved.
    edit_function(machine.Machine, "run",
                  "                                if e.span is None:\n"
                  "                                    e.span = fr[2].span\n"
                  "                                raise\n",
                  "                                raise\n")


@bug("operand-prim-arity-unchecked", "tree", "tree back end", "diagnostics and spans",
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
                  "\n" + ind + "elif not (na >= fn.min_args\n"
                  + ind + "          and (fn.max_args < 0 or na <= fn.max_args)):\n"
                  + ind + "    raise prim_arity_error(fn, na)\n",
                  "\n")


@bug("assoc-skips-non-pairs", "tree", "kernel primitives", "diagnostics and spans",
     "assq, assv and assoc step over an element of the association list that is not a pair "
     "(as several Schemes do) instead of failing with E310 when the search reaches it, so a "
     "malformed list finds a later entry (or gives #f)",
     "(define table '((a . 1) b (c . 3)))\n"
     "(define (lookup k)\n"
     "  (guard (e ((error-object? e) (list 'bad k (error-object-irritants e))))\n"
     "    (assq k table)))\n"
     "(list (lookup 'a) (lookup 'c) (assv 2 '((1 . one) (2 . two))) "
     "(assoc \"x\" '((\"x\" . 1) 5)))")
def _assoc_skips_non_pairs() -> None:
    from implementations.lispex.primitives import pairs

    # Realistic: the pair test and the key test were folded into one condition, "an entry
    # matches when it is a pair whose car is the key", which makes a non-pair a mere miss.
    edit_function(pairs, "_assoc",
                  "        if type(entry) is not Pair:\n"
                  "            pair_expected(name, entry)\n"
                  "        if same(key, entry.car):\n",
                  "        if type(entry) is Pair and same(key, entry.car):\n")


@bug("uncaught-reraise-span", "tree", "kernel run", "diagnostics and spans",
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
