"""Unit tests for the Lispex reader (implementations/lispex/reader.py) and number grammar."""

from __future__ import annotations

import gc
import time
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from implementations.lispex.errors import LispexError, ResourceExhausted
from implementations.lispex.meters import AXIS_IDS, FRONTEND, TOKEN, Meter
from implementations.lispex.numparse import parse_number
from implementations.lispex.reader import ReadResult, read_datum_text, read_source
from implementations.lispex.span import Span
from implementations.lispex.syntax import SAtom, SList, SVector, to_value
from implementations.lispex.values import Bytevector, Char, Pair, Str, Symbol, sym

# --- helpers -------------------------------------------------------------------------------


def plain(node: Any) -> Any:
    """A syntax tree as comparable Python data (recursive: only for small test inputs)."""
    if type(node) is SAtom:
        v = node.value
        if type(v) is Str:
            return ("str", v.s)
        if type(v) is Bytevector:
            return ("bv", v.data)
        if type(v) is Symbol:
            return v.name
        return v
    if type(node) is SVector:
        return ("vec", [plain(x) for x in node.items])
    items = [plain(x) for x in node.items]
    return items if node.tail is None else ("dot", items, plain(node.tail))


def read(src: str) -> list:
    return [plain(d) for d in read_source(src.encode("utf-8"), "t.lspx").datums]


def read1(src: str) -> Any:
    (datum,) = read(src)
    return datum


def fails(src: str | bytes, code: str) -> LispexError:
    data = src.encode("utf-8") if isinstance(src, str) else src
    with pytest.raises(LispexError) as info:
        read_source(data, "t.lspx")
    err = info.value
    assert err.code == code, (src, err.code, err.message)
    assert err.phase == "reader"
    assert isinstance(err.span, Span) and err.span.file == "t.lspx"
    assert err.message and not err.message[0].isupper()  # messages are lower case
    return err


def meter(**limits: int) -> Meter:
    full = {a: 10**9 for a in AXIS_IDS}
    full.update({k.replace("_", "-"): v for k, v in limits.items()})
    return Meter(full)


# --- whitespace, comments, pragmas ---------------------------------------------------------


def test_whitespace_is_space_tab_cr_lf() -> None:
    assert read(" \t\r\na\r\n\tb \n") == ["a", "b"]


@pytest.mark.parametrize("ch", ["\u00a0", "\u2028", "\x0c", "\x0b", "\u3000"])
def test_other_unicode_whitespace_is_e100(ch: str) -> None:
    err = fails(f"a{ch}b", "E100")
    assert err.span.column == 2
    fails(f"{ch}", "E100")


def test_line_comments() -> None:
    assert read("a ; comment (b\n c ;; another\n") == ["a", "c"]
    assert read("; only a comment") == []


def test_block_comments_nest() -> None:
    assert read("a #| one #| two |# still |# b") == ["a", "b"]
    assert read("#||# x") == ["x"]
    assert read("(a #| in a list |# b)") == [["a", "b"]]


@pytest.mark.parametrize("src", ["#| open", "#| a #| b |# c", "#|#", "x #| |"])
def test_unterminated_block_comment_is_e100(src: str) -> None:
    err = fails(src, "E100")
    assert "block comment" in err.message


def test_header_pragmas_are_recorded_not_acted_on() -> None:
    src = ";! lispex 1.5\r\n;!compat: r5rs\n; plain\n#| block |#\n;!  compat r5rs  \n(a)\n;! late\n"
    result = read_source(src.encode(), "t.lspx")
    assert isinstance(result, ReadResult)
    assert result.pragmas == ["lispex 1.5", "compat: r5rs", "compat r5rs"]
    assert [plain(d) for d in result.datums] == [["a"]]


def test_empty_source_reads_zero_datums() -> None:
    for src in ["", "   \n", "; c\n#| b |#"]:
        result = read_source(src.encode(), "t.lspx")
        assert result.datums == [] and result.pragmas == []


# --- booleans, numbers, symbols --------------------------------------------------------------


def test_booleans() -> None:
    assert read("#t #f #true #false") == [True, False, True, False]
    assert all(type(x) is bool for x in read("#t #false"))


@pytest.mark.parametrize("src", ["#tru", "#fals", "#truex", "#t1", "#foo", "#T", "#F"])
def test_other_hash_t_and_f_are_e100(src: str) -> None:
    fails(src, "E100")


NUMBERS = [
    ("0", 0, int), ("42", 42, int), ("-17", -17, int),
    ("123456789012345678901234567890", 123456789012345678901234567890, int),
    ("1/2", Fraction(1, 2), Fraction), ("-6/4", Fraction(-3, 2), Fraction), ("4/2", 2, int),
    ("0/5", 0, int), ("0.5", 0.5, float), ("-2.25", -2.25, float), ("1e3", 1000.0, float),
    ("1E-2", 0.01, float), ("2.5e+1", 25.0, float), ("00.5", 0.5, float), ("007.0", 7.0, float),
    ("-0.0", -0.0, float), ("1e-9999", 0.0, float),
]


@pytest.mark.parametrize(("src", "value", "typ"), NUMBERS)
def test_numbers(src: str, value: Any, typ: type) -> None:
    got = read1(src)
    assert type(got) is typ and got == value
    assert parse_number(src) == value and type(parse_number(src)) is typ


@pytest.mark.parametrize("src", ["007", "1.", "1/0", "-5x", "12abc", "-0", "01", "1/-2", "1/02",
                                 "-1/0", "1.5/2", "1e", "1e+", "1.e5", "0x10", "1_000", "2/3/4",
                                 "-0/1", "1#"])
def test_malformed_numbers_are_e100(src: str) -> None:
    err = fails(src, "E100")
    assert err.irritants and err.irritants[0].s == src
    assert parse_number(src) is None


@pytest.mark.parametrize("src", ["+5", "-", "->", "...", ".foo", "-a", "+", ".5", "+.5", "-.5",
                                 "a1", "x->y", "--1"])
def test_number_lookalikes_are_symbols(src: str) -> None:
    assert read1(src) == src


def test_parse_number_rejects_non_numbers() -> None:
    for text in ["", " 1", "1 ", "abc", "+1", "#x10", "١٢", "1\n", "inf", "nan", "+inf.0"]:
        assert parse_number(text) is None


def test_parse_number_huge_integers_beyond_python_digit_limit() -> None:
    digits = "9" * 10_000
    assert parse_number(digits) == 10**10_000 - 1
    assert parse_number("-" + digits) == -(10**10_000 - 1)
    assert parse_number("1" + "0" * 9000 + "/2") == 5 * 10**8999


def test_nonfinite_real_literal_is_e314_in_reader_phase() -> None:
    err = fails("(a 1e9999)", "E314")
    assert err.span == Span("t.lspx", 1, 4, 3, 9)
    assert err.irritants[0].s == "1e9999"
    with pytest.raises(LispexError) as info:
        parse_number("-1e400")
    assert info.value.code == "E314" and info.value.span is None


def test_symbols_are_case_sensitive_and_unicode() -> None:
    a, b, c = read_source("abc ABC λ→μ".encode(), "t").datums
    assert a.value is sym("abc") and b.value is sym("ABC") and a.value is not b.value
    assert c.value is sym("λ→μ")


def test_symbol_constituents_and_delimiters() -> None:
    assert read("a#b |x| a|#") == ["a#b", "|x|", "a|#"]
    assert read("a#|b") == ["a#|b"]  # `#|` only opens a comment at the start of a token
    assert read("a(b)c") == ["a", ["b"], "c"]
    assert read("a'b") == ["a", ["quote", "b"]]
    assert read('a"s"b') == ["a", ("str", "s"), "b"]
    assert read("a;c\nd") == ["a", "d"]
    assert read("a,b`c") == ["a", ["unquote", "b"], ["quasiquote", "c"]]
    assert read("\\ x\\y") == ["\\", "x\\y"]


def test_leading_bom_is_an_ordinary_scalar() -> None:
    assert read("\ufeff(a)") == ["\ufeff", ["a"]]
    assert read("\ufeff42") == ["\ufeff42"]  # a symbol: it does not start with a digit
    result = read_source("\ufeffa".encode(), "t")
    assert result.datums[0].span == Span("t", 1, 1, 0, 4)


# --- # syntax -------------------------------------------------------------------------------


@pytest.mark.parametrize("src", ["#x10", "#e1", "#i1.5", "#b101", "#o17", "#d10", "#xFF",
                                 "#e#x10"])
def test_radix_and_exactness_prefixes_are_not_supported(src: str) -> None:
    err = fails(src, "E100")
    assert "not supported" in err.message


@pytest.mark.parametrize("src", ["#;", "#;(a b)", "(a #; b)", "#lang racket", "a\n#lang x"])
def test_datum_comment_and_lang_are_e120(src: str) -> None:
    fails(src, "E120")


@pytest.mark.parametrize("src", ["#", "# a", "#!/bin/lispex", "#:key", "##", "#u16(1)", "#U8(1)",
                                 "#u8 (1)", "#u8", "#eof", "#<x>"])
def test_unknown_hash_syntax_is_e100(src: str) -> None:
    fails(src, "E100")


# --- structure ------------------------------------------------------------------------------


def test_lists_vectors_and_bytevectors() -> None:
    assert read("() (a (b c) d) #() #(1 #(2)) #u8() #u8(0 1 255)") == [
        [], ["a", ["b", "c"], "d"], ("vec", []), ("vec", [1, ("vec", [2])]),
        ("bv", b""), ("bv", b"\x00\x01\xff")]


def test_dotted_lists() -> None:
    # A list after the dot is spliced: `(a b . (c))` is the datum `(a b c)` (R7RS).
    assert read("(a . b) (a b . (c)) (1 . 2) (1 . (2 . 3)) (1 . ())") == [
        ("dot", ["a"], "b"), ["a", "b", "c"], ("dot", [1], 2), ("dot", [1, 2], 3), [1]]


@pytest.mark.parametrize("src", ["[a]", "(a]", "{a}", "]", "}", "(a [b])"])
def test_brackets_are_e100(src: str) -> None:
    err = fails(src, "E100")
    assert "( ... )" in err.message


@pytest.mark.parametrize(("src", "col"), [(")", 1), ("(a))", 4), ("a )", 3)])
def test_stray_close_paren_is_e100(src: str, col: int) -> None:
    assert fails(src, "E100").span.column == col


@pytest.mark.parametrize("src", [".", "a . b", "'.", "(a '. b)", "#(a . b)", "#(. a)",
                                 "#u8(1 . 2)"])
def test_misplaced_dot_is_e100(src: str) -> None:
    fails(src, "E100")


@pytest.mark.parametrize(("src", "col"), [("( . a)", 3), ("(a .)", 4), ("(a . b c)", 8),
                                          ("(a . b . c)", 8), ("(a . . b)", 6),
                                          ("(a . b (c))", 8), ("(a . b 'c)", 8)])
def test_dotted_list_shape_errors_are_e140(src: str, col: int) -> None:
    assert fails(src, "E140").span.column == col


@pytest.mark.parametrize(("src", "what"), [("(a", "list"), ("((a)", "list"), ("#(1", "vector"),
                                           ("#u8(1", "bytevector"), ("(a . b", "list")])
def test_unterminated_lists_are_e100(src: str, what: str) -> None:
    err = fails(src, "E100")
    assert what in err.message


def test_unterminated_list_points_at_innermost_open_paren() -> None:
    err = fails("(define (f x)\n  (g x)", "E100")
    assert (err.span.line, err.span.column) == (1, 1)
    err = fails("(a (b\n(c)", "E100")
    assert (err.span.line, err.span.column) == (1, 4)


@pytest.mark.parametrize("src", ["'", "(')", "`", ",@", "(a ,)", "''"])
def test_quote_mark_without_datum_is_e100(src: str) -> None:
    fails(src, "E100")


@pytest.mark.parametrize("src", ["#u8(256)", "#u8(-1)", "#u8(4/2)", "#u8(1.0)", "#u8(a)",
                                 "#u8(#t)", "#u8((1))", "#u8('1)", '#u8("a")', "#u8(#\\a)"])
def test_bytevector_elements_must_be_literal_bytes(src: str) -> None:
    fails(src, "E100")


def test_quote_shorthands_and_their_spans() -> None:
    assert read("'a `(b ,c ,@d)") == [
        ["quote", "a"],
        ["quasiquote", ["b", ["unquote", "c"], ["unquote-splicing", "d"]]]]
    (q,) = read_source(b"  ,@ (x)", "t").datums
    assert type(q) is SList and q.tail is None
    head, body = q.items
    assert head.value is sym("unquote-splicing")
    assert head.span == Span("t", 1, 3, 2, 4)
    assert body.span == Span("t", 1, 6, 5, 8)
    assert q.span == Span("t", 1, 3, 2, 8)
    assert read("''a") == [["quote", ["quote", "a"]]]


# --- characters and strings -----------------------------------------------------------------

CHARS = [
    ("#\\a", "a"), ("#\\A", "A"), ("#\\λ", "λ"), ("#\\x", "x"), ("#\\x03B1", "α"),
    ("#\\x41", "A"), ("#\\x10FFFF", "\U0010ffff"), ("#\\space", " "), ("#\\newline", "\n"),
    ("#\\linefeed", "\n"), ("#\\tab", "\t"), ("#\\return", "\r"), ("#\\null", "\0"),
    ("#\\nul", "\0"), ("#\\delete", "\x7f"), ("#\\rubout", "\x7f"), ("#\\escape", "\x1b"),
    ("#\\esc", "\x1b"), ("#\\backspace", "\b"), ("#\\alarm", "\a"), ("#\\page", "\x0c"),
    ("#\\(", "("), ("#\\)", ")"), ("#\\;", ";"), ("#\\\"", '"'), ("#\\ ", " "), ("#\\#", "#"),
    ("#\\\\", "\\"), ("#\\|", "|"),
]


@pytest.mark.parametrize(("src", "ch"), CHARS)
def test_character_literals(src: str, ch: str) -> None:
    assert read1(src) == Char(ord(ch))


def test_character_literal_delimiters() -> None:
    assert read("(#\\a)") == [[Char(97)]]
    assert read("#\\((a)") == [Char(40), ["a"]]
    assert read("#\\a|b") == [Char(97), "|b"]  # `|` ends a character literal
    assert read("#\\a;c") == [Char(97)]


@pytest.mark.parametrize("src", ["#\\", "(#\\", "#\\foo", "#\\Space", "#\\12", "#\\ab", "#\\(a",
                                 "#\\xD800", "#\\xDFFF", "#\\x110000", "#\\xZZ", "#\\x12g",
                                 "#\\X41", "#\\αβ"])
def test_bad_character_literals_are_e150(src: str) -> None:
    fails(src, "E150")


STRINGS = [
    ('""', ""), ('"abc"', "abc"), ('"a\\"b"', 'a"b'), ('"a\\\\b"', "a\\b"),
    ('"\\n\\t\\r"', "\n\t\r"), ('"\\x41;"', "A"), ('"\\X3bb;"', "λ"), ('"\\x0000041;b"', "Ab"),
    ('"\\x10FFFF;"', "\U0010ffff"), ('"line\nbreak"', "line\nbreak"), ('"λ ; #| x"', "λ ; #| x"),
    ('"(("', "(("),
]


@pytest.mark.parametrize(("src", "value"), STRINGS)
def test_string_literals(src: str, value: str) -> None:
    assert read1(src) == ("str", value)


@pytest.mark.parametrize(("src", "col"), [('"\\x;"', 2), ('"ab\\x41"', 4), ('"\\xZZ;"', 2),
                                          ('"\\xD800;"', 2), ('"\\x110000;"', 2), ('"\\q"', 2),
                                          ('"\\a"', 2), ('"a\\\nb"', 3), ('"\\ "', 2)])
def test_bad_string_escapes_are_e150(src: str, col: int) -> None:
    assert fails(src, "E150").span.column == col


@pytest.mark.parametrize("src", ['"abc', '"abc\\"', '(a "b)', '"\\'])
def test_unterminated_string_is_e100(src: str) -> None:
    assert "unterminated string" in fails(src, "E100").message


# --- spans and UTF-8 ------------------------------------------------------------------------


def test_spans_ascii() -> None:
    (lst,) = read_source(b"(ab\n  (c . d) #(1))", "f.lspx").datums
    assert lst.span == Span("f.lspx", 1, 1, 0, 19)
    ab, inner, vec = lst.items
    assert ab.span == Span("f.lspx", 1, 2, 1, 3)
    assert inner.span == Span("f.lspx", 2, 3, 6, 13)
    assert inner.tail.span == Span("f.lspx", 2, 8, 11, 12)
    assert vec.span == Span("f.lspx", 2, 11, 14, 18)


def test_spans_count_scalars_for_columns_and_bytes_for_offsets() -> None:
    src = "(λ \"é€\" 𝕏)\n  #\\α x"
    datums = read_source(src.encode(), "u").datums
    lam, s, big = datums[0].items
    assert lam.span == Span("u", 1, 2, 1, 3)
    assert s.span == Span("u", 1, 4, 4, 11)
    assert big.span == Span("u", 1, 9, 12, 16)
    assert datums[0].span == Span("u", 1, 1, 0, 17)
    assert datums[1].span == Span("u", 2, 3, 20, 24)
    assert datums[2].span == Span("u", 2, 7, 25, 26)


def test_crlf_counts_one_line_and_lone_cr_none() -> None:
    a, b, c = read_source(b"a\r\nb\rc", "t").datums
    assert (b.span.line, b.span.column) == (2, 1)
    assert (c.span.line, c.span.column) == (2, 3)


def test_error_spans_with_non_ascii_prefix() -> None:
    err = fails('(λ "x" 007)', "E100")
    assert err.span == Span("t.lspx", 1, 8, 8, 11)
    err = fails("é\n  )", "E100")
    assert err.span == Span("t.lspx", 2, 3, 5, 6)


@pytest.mark.parametrize(("data", "line", "col", "start"), [
    (b"\xff", 1, 1, 0), (b"(a \x80)", 1, 4, 3), (b"x\n\xce\xbb \xc3(", 2, 3, 5),
    (b"\xed\xa0\x80", 1, 1, 0), (b"ab\xe2\x82", 1, 3, 2), (b"\xc0\xaf", 1, 1, 0),
    (b"\xf4\x90\x80\x80", 1, 1, 0)])
def test_invalid_utf8_is_e100_at_the_offending_byte(data: bytes, line: int, col: int,
                                                    start: int) -> None:
    err = fails(data, "E100")
    assert (err.span.line, err.span.column, err.span.start) == (line, col, start)
    assert err.span.end > err.span.start
    assert "UTF-8" in err.message


def test_invalid_utf8_wins_over_earlier_reader_errors() -> None:
    assert fails(b") (a . b c) \xff", "E100").span.start == 12


def test_lexical_errors_win_over_earlier_structural_errors() -> None:
    assert fails('(a . b c) "open', "E100").span.column == 11
    fails("(a . b c) #\\bad", "E150")


# --- depth, size, meters --------------------------------------------------------------------


def test_deep_nesting_reads_without_recursion() -> None:
    n = 100_000
    (d,) = read_source(b"(" * n + b"x" + b")" * n, "deep").datums
    assert d.span == Span("deep", 1, 1, 0, 2 * n + 1)
    depth = 0
    while type(d) is SList:
        depth += 1
        d = d.items[0] if d.items else None
    assert depth == n and d.value is sym("x")
    (v,) = read_source(b"#(" * n + b")" * n, "deep").datums
    assert type(v) is SVector
    (q,) = read_source(b"'" * n + b"a", "deep").datums
    value = to_value(q)
    assert type(value) is Pair and value.car is sym("quote")


def test_deep_unclosed_nesting_is_a_diagnostic() -> None:
    err = fails("(" * 100_000, "E100")
    assert err.span.column == 100_000


def test_one_megabyte_source_reads_fast() -> None:
    unit = b'(define (f n) (if (= n 0) 1 (* n (f (- n 1))))) ; c\n(display "h\xc3\xa9llo") #(1 2.5)\n'
    data = unit * (1_000_000 // len(unit))
    line = data.replace(b"\n", b" ").replace(b"; c", b"   ")  # one very long line
    for src in (data, line):
        # CPU time, not wall time, so that a loaded machine does not fail it; the bound is
        # generous (about 2 s of CPU on a slow host): it catches quadratic behaviour.
        start = time.process_time()
        result = read_source(src, "big")
        assert time.process_time() - start < 10
        assert len(result.datums) == 3 * (1_000_000 // len(unit))


def test_gc_state_is_restored() -> None:
    assert gc.isenabled()
    read_source(b"(a)", "t")
    assert gc.isenabled()
    gc.disable()
    try:
        read_source(b"(a)", "t")
        with pytest.raises(LispexError):
            read_source(b"(a", "t")
        assert not gc.isenabled()
    finally:
        gc.enable()


def test_meters_count_scalars_and_tokens() -> None:
    m = meter()
    read_source("'(λ . \"b\") ; c\n#(1)".encode(), "t", m)
    assert m.used[FRONTEND] == len("'(λ . \"b\") ; c\n#(1)")
    assert m.used[TOKEN] == 6 + 3  # ' ( λ . "b" )  #( 1 )


def test_token_limit_raises_resource_exhausted() -> None:
    m = meter(token=3)
    with pytest.raises(ResourceExhausted) as info:
        read_source(b"(a b c)", "t", m)
    assert info.value.code == "token-limit"
    assert m.used[TOKEN] == 3
    m = meter(token=4)
    read_source(b"(a b)", "t", m)
    assert m.used[TOKEN] == 4


def test_token_limit_before_a_later_lexical_error() -> None:
    with pytest.raises(ResourceExhausted):
        read_source(b"a b c #\\bad", "t", meter(token=2))
    m = meter(token=10)
    with pytest.raises(LispexError):
        read_source(b"a b c #\\bad", "t", m)
    assert m.used[TOKEN] == 3  # admitted work before the fault is reported


def test_frontend_limit_raises_resource_exhausted() -> None:
    m = meter(frontend_transition=4)
    with pytest.raises(ResourceExhausted) as info:
        read_source("(λλλ)".encode(), "t", m)
    assert info.value.code == "frontend-transition-limit"
    assert m.used[FRONTEND] == 4
    m = meter(frontend_transition=5)
    read_source("(λλλ)".encode(), "t", m)
    assert m.used[FRONTEND] == 5


def test_frontend_limit_versus_invalid_utf8() -> None:
    with pytest.raises(ResourceExhausted):
        read_source(b"abc\xff", "t", meter(frontend_transition=3))
    m = meter(frontend_transition=4)
    with pytest.raises(LispexError):
        read_source(b"abc\xff", "t", m)
    assert m.used[FRONTEND] == 4


# --- read_datum_text ------------------------------------------------------------------------


def test_read_datum_text_reads_exactly_one_datum() -> None:
    d = read_datum_text("(age 17)")
    assert plain(d) == ["age", 17] and d.span.file == "<input>"
    assert plain(read_datum_text("  41 ; note\n", "in")) == 41
    with pytest.raises(LispexError) as info:
        read_datum_text("  ")
    assert info.value.code == "E100" and "none" in info.value.message
    with pytest.raises(LispexError) as info:
        read_datum_text("1 2", "in")
    assert info.value.code == "E100" and info.value.span == Span("in", 1, 3, 2, 3)
    with pytest.raises(LispexError) as info:
        read_datum_text("\ud800")
    assert info.value.code == "E100"


# --- properties -----------------------------------------------------------------------------

ALPHABET = st.sampled_from(list("()[]{}#|\\;'`,@.\"-+/0123456789eExu8abtf \n\r\tλé𝕏\u00a0"))


def _read_anything(data: bytes) -> None:
    try:
        result = read_source(data, "p", meter(token=200))
    except (LispexError, ResourceExhausted) as err:
        if isinstance(err, LispexError):
            assert err.span is not None and err.phase == "reader"
            assert 0 <= err.span.start <= err.span.end <= len(data)
        return
    for d in result.datums:
        assert 0 <= d.span.start < d.span.end <= len(data)


@settings(max_examples=300, deadline=None)
@given(st.text())
def test_any_text_reads_or_fails_cleanly(text: str) -> None:
    _read_anything(text.encode("utf-8", "surrogatepass"))


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=ALPHABET, max_size=40))
def test_lispex_like_text_reads_or_fails_cleanly(text: str) -> None:
    _read_anything(text.encode("utf-8"))


def _walk(nodes: list) -> list:
    out, todo = [], list(nodes)
    while todo:
        n = todo.pop()
        out.append(n)
        if type(n) is not SAtom:
            todo.extend(n.items)
            if type(n) is SList and n.tail is not None:
                todo.append(n.tail)
    return out


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(["a", "λ", "é€", "𝕏y", '"s"', '"λ\\x3bb;"', "#\\α", "#\\x41",
                                 "12", "1/2", "(", ")", "#(", "'", ";é\n", "#|𝕏|#", "\n", " ",
                                 "\r\n", "\t"]), max_size=30))
def test_spans_agree_with_a_brute_force_count(parts: list[str]) -> None:
    data = " ".join(parts).encode()
    try:
        result = read_source(data, "p")
    except LispexError:
        return
    for node in _walk(result.datums):
        sp = node.span
        prefix = data[:sp.start].decode()
        assert sp.line == prefix.count("\n") + 1
        assert sp.column == len(prefix) - prefix.rfind("\n")
        piece = data[sp.start:sp.end].decode()  # both ends on scalar boundaries
        if type(node) is SAtom and type(node.value) is Symbol and piece not in "'`,@":
            assert piece == node.value.name


@settings(max_examples=300, deadline=None)
@given(st.binary())
def test_any_bytes_read_or_fail_cleanly(data: bytes) -> None:
    _read_anything(data)
