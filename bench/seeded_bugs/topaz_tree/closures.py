"""Seeded bugs in topaz-tree, family "closures"."""

from __future__ import annotations

from bench.seeded_bugs.seeding import bug, edit_function


@bug("tt-two-hop-read", "topaz-tree", "topaz-tree back end", "closures",
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
