"""The fuzzer's layout and reducer: re-laid-out programs mean what they meant, and the reducer
keeps what a divergence needs."""

from __future__ import annotations

import random

from fuzz_support import BACKENDS, assert_agree, observe

from court.fuzz.generate import generate
from implementations.lispex.run import evaluate


def test_layout_moves_spans_and_nothing_else():
    """Re-laid-out programs (line breaks, tabs, CRLF, line, block and nested comments, header
    pragmas) mean what they meant: same outcome, values, output and diagnostic codes on every
    member; only spans move."""
    from court.fuzz.layout import relayout

    rng, lr = random.Random("layout"), random.Random("relayout")
    moved = checked = 0
    tags: set[str] = set()
    while checked < 40:
        case = generate(rng)
        if "layout" in case.features:
            continue
        text, used = relayout(case.source, lr, share=60)
        tags |= used
        before = observe(case.source, case.input)
        after = assert_agree(text, case.input)
        for m in BACKENDS:
            a, b = before[m]["semantic"], after[m]["semantic"]
            for key in ("status", "values", "stdout", "exit_status"):
                assert a.get(key) == b.get(key), (m, key, case.source, text)
            codes = [[d["code"] for d in s.get("diagnostics", [])] for s in (a, b)]
            assert codes[0] == codes[1], (m, case.source, text)
            moved += a.get("diagnostics") != b.get("diagnostics")
        checked += 1
    assert moved, "some diagnostic moved"
    assert {"crlf", "tab", "nested", "block-lines", "line-comment"} <= tags, tags


def test_layout_leaves_literals_and_comments_alone():
    from court.fuzz.layout import gaps, relayout

    text = '(display "a ( b ; c") #\\( #\\space ; x ( y\n#| p ( q |# (f #\\;)\n'
    for seed in range(30):
        out, _ = relayout(text, random.Random(seed), share=100)
        for literal in ('"a ( b ; c"', "#\\(", "#\\space", "#\\;"):
            assert literal in out, (literal, out)
    inside = [text[s:e] for s, e in gaps(text)]
    assert all(set(g) <= set(" \t\r\n") for g in inside), inside
    # no gap falls inside the string, the comments or after a character's own parenthesis
    string = (text.index('"'), text.index('")'))
    line_comment = (text.index("; x"), text.index("\n"))
    block = (text.index("#|"), text.index("|#") + 1)
    for s, e in gaps(text):
        for lo, hi in (string, line_comment, block):
            assert not lo < s <= hi, (s, lo, hi)
        assert s < e or text[s - 3:s] != "#\\(", s  # no "inside" of a character literal


def test_reducer_keeps_the_layout_a_divergence_needs():
    """A divergence that lives in the layout (here: a CRLF before a nested block comment) is
    reduced as text, and one in an unreadable program too; neither is lost to re-rendering."""
    from court.fuzz.reduce import reduce

    source = "(define a 1)\r\n(define b 2)\n#| x #| y |# z |#\n(display a)\n(car b)\n"

    def needs(text: str) -> bool:
        return "\r\n" in text and "#| y |#" in text and "(car b)" in text

    small, tests = reduce(source, needs, max_tests=500)
    assert needs(small) and len(small) < len(source), small
    assert "(display a)" not in small and tests > 0

    unreadable = "(define a 1)\n(list 1 2))\n(display a)\n"
    small, _ = reduce(unreadable, lambda t: "2))" in t, max_tests=500)
    assert small.strip() == "(list 1 2))", small


def test_reducer_makes_a_part_of_an_earlier_form_the_last_one():
    """A wrong value assigned by an earlier form and shown by the last one reduces to the
    expression itself: no single drop or hoist gets there through smaller programs."""
    from court.fuzz.reduce import reduce

    source = "(define g 7)\n(define (get) g)\n(set! g (quotient -3 10))\n(get)\n"
    tree = BACKENDS["tree"]

    def values(text: str) -> list:
        return evaluate(text.encode(), tree, filename="r.lspx").to_json()["semantic"]["values"]

    def diverges(text: str) -> bool:  # from a member whose quotient floors
        return "(quotient -3 10)" in text and \
            values(text) != values(text.replace("quotient", "floor-quotient"))

    small, _ = reduce(source, diverges, max_tests=500)
    assert small.strip() == "(quotient -3 10)", small
