"""Seeded bugs in the topaz kernel, family "reader and layout"."""

from __future__ import annotations

from bench.seeded_bugs.seeding import bug, edit_function


@bug("tk-block-comment-flat", "topaz-kernel", "kernel reader", "reader and layout",
     "a block comment ends at the first |#: an inner #| is not counted as nesting",
     "#| a #| b |# c |# (list 1 2)")
def _block_comment_flat() -> None:
    from implementations.topaz.kernel.reader import Scanner

    edit_function(Scanner, "block_comment", "depth += 1", "depth += 0")
