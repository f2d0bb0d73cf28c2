"""The VM's compiled form: canonical text, bytecode_id and the disassembler."""

from __future__ import annotations

from implementations.lispex.normalizer import normalize
from implementations.lispex.reader import read_source
from implementations.vm import VmBackend
from implementations.vm.code import BYTECODE_HASH_DOMAIN, OPERANDS
from implementations.vm.compiler import compile_program
from implementations.vm.disasm import disassemble


def compiled(src: str):
    return compile_program(normalize(read_source(src.encode(), "t.lspx").datums, "t.lspx"))


FIB = "(define (fib n) (if (< n 2) n (+ (fib (- n 1)) (fib (- n 2)))))\n(fib 10)\n"


def test_bytecode_id_ignores_layout_and_names_meaning() -> None:
    a = compiled(FIB)
    b = compiled("(define (fib k)\n  (if (< k 2) k\n      (+ (fib (- k 1)) (fib (- k 2)))))\n"
                 "(fib 10)")
    c = compiled(FIB.replace("(fib 10)", "(fib 11)"))
    assert a.bytecode_id() == b.bytecode_id()
    assert a.bytecode_id() != c.bytecode_id()
    assert len(a.bytecode_id()) == 64
    assert BYTECODE_HASH_DOMAIN == b"lispex/bytecode-hash/v0\x00"


def test_canonical_text_lists_every_code_object() -> None:
    text = compiled(FIB).canonical_text()
    assert text.startswith("lispex.bytecode.canonical/v0\n")
    assert "code 1 lambda fib 1 #f" in text
    assert "load-global fib" in text


def test_prepare_reports_the_bytecode_id() -> None:
    c = compiled(FIB)
    program = normalize(read_source(FIB.encode(), "t.lspx").datums, "t.lspx")
    prepared = VmBackend().prepare(program)
    assert prepared.identities == {"bytecode_id": c.bytecode_id()}


def test_disassembly_shows_source_positions() -> None:
    text = disassemble(compiled(FIB))
    assert "code 0: top-level form 1" in text
    assert "code 1: lambda fib (1 parameter(s))" in text
    lines = [ln for ln in text.splitlines() if "jump-if-false" in ln]
    assert lines and lines[0].rstrip().endswith("; 1:17")
    assert "(n)" in text  # local names are shown to the reader, not hashed


def test_only_documented_operations_are_emitted() -> None:
    src = """
    (define (f . xs) (let loop ((x xs) (n 0)) (if (null? x) n (loop (cdr x) (+ n 1)))))
    (define g (guard (e ((string? e) e) ((symbol? e))) (raise 'x)))
    (set! g (values 1 2))
    (letrec ((a (lambda () b)) (b 1)) (begin (a) (when #f 1)))
    """
    ops = {ins[0] for code in compiled(src).codes for ins in code.instrs}
    assert ops <= set(OPERANDS)
    assert {"guard", "leave-guard", "reraise", "jump-if-false-else-keep", "make-values",
            "enter-recursive-scope", "initialize-lexical", "set-global"} <= ops
