"""`court eval` end to end: the real command in a subprocess, as a user runs it.

What is checked: standard output holds the program's explicit output and then the values of the
last form, one per line; standard error holds warnings and then the diagnostic, one line each in
the `CODE file:line:col message irritants` form; the exit status is 0 (ok), 1 (source or runtime
error) or 2 (resource outcome, or a usage error, which prints one line starting with `court` and
never a traceback); `--json` prints exactly one observation object and still exits with the
program's status.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import jsonschema
import pytest

from implementations import registry

ROOT = Path(__file__).resolve().parent.parent

# One diagnostic line: CODE file:line:col message [irritants].
DIAGNOSTIC_LINE = re.compile(r"(?P<code>[A-Za-z0-9-]+) (?P<file>\S+):(?P<line>\d+):(?P<col>\d+) "
                             r"(?P<rest>\S.*)")

SPIN = '(display "started")\n(define (spin n) (spin (+ n 1)))\n(spin 0)\n'


class Run:
    def __init__(self, done: subprocess.CompletedProcess) -> None:
        self.status = done.returncode
        self.out_bytes = done.stdout
        self.out = done.stdout.decode("utf-8")  # strict: output must be UTF-8
        self.err = done.stderr.decode("utf-8")

    @property
    def err_lines(self) -> list[str]:
        assert self.err == "" or self.err.endswith("\n"), repr(self.err)
        return self.err.splitlines()


def court(tmp_path: Path, *argv: str, env: dict[str, str] | None = None) -> Run:
    """Run `court eval ARGV...` in ``tmp_path`` (so a program's file label is its bare name)."""
    full_env = dict(os.environ, PYTHONPATH=str(ROOT))
    full_env.pop("COURT_DEBUG", None)
    full_env.update(env or {})
    done = subprocess.run([sys.executable, "-m", "court.cli", "eval", *argv], cwd=tmp_path,
                          capture_output=True, env=full_env, timeout=120)
    return Run(done)


def write(tmp_path: Path, text: str | bytes, name: str = "p.lspx") -> str:
    data = text.encode("utf-8") if isinstance(text, str) else text
    (tmp_path / name).write_bytes(data)
    return name


def diagnostic(line: str) -> dict[str, str]:
    m = DIAGNOSTIC_LINE.fullmatch(line)
    assert m, line
    return m.groupdict()


def assert_usage_error(r: Run, *needles: str) -> None:
    """Exit 2, nothing on stdout, one line on stderr that starts with `court`."""
    assert r.status == 2, (r.out, r.err)
    assert r.out == ""
    assert len(r.err_lines) == 1, r.err
    assert r.err.startswith("court") and "Traceback" not in r.err
    for needle in needles:
        assert needle in r.err, r.err


# --- output format -------------------------------------------------------------------------


def test_explicit_output_then_the_values_one_per_line(tmp_path: Path) -> None:
    p = write(tmp_path, '(display "hi")\n(newline)\n(write "q")\n(values 1 "two" #\\a \'sym)\n')
    r = court(tmp_path, p)
    assert (r.status, r.err) == (0, "")
    # The values start right after the output: nothing is inserted between them.
    assert r.out == 'hi\n"q"1\n"two"\n#\\a\nsym\n'


@pytest.mark.parametrize("src,out", [
    ("1\n2\n(+ 1 2)", "3\n"),
    ("(define x 5)", ""),
    ("(values)", ""),
    ('(display "only output")', "only output"),
    ("(define x 5)\nx", "5\n"),
    ("'(a \"b\" #\\c 1.5 -0.0 1/3 #(1) #u8(255))", '(a "b" #\\c 1.5 -0.0 1/3 #(1) #u8(255))\n'),
])
def test_only_the_last_forms_values_are_printed(tmp_path: Path, src: str, out: str) -> None:
    r = court(tmp_path, write(tmp_path, src))
    assert (r.status, r.out, r.err) == (0, out, "")


def test_output_is_utf8(tmp_path: Path) -> None:
    r = court(tmp_path, write(tmp_path, '(display "λ😀")\n"é\\t"'))
    assert r.status == 0
    assert r.out_bytes == 'λ😀"é\\t"\n'.encode()


def test_warnings_go_to_stderr_and_do_not_change_the_status(tmp_path: Path) -> None:
    r = court(tmp_path, write(tmp_path, "(list (% 17 5) (list-first '(a b c)))\n"))
    assert (r.status, r.out) == (0, "(2 a)\n")
    w330, w331 = (diagnostic(line) for line in r.err_lines)
    assert (w330["code"], w330["file"], w330["line"], w330["col"]) == ("W330", "p.lspx", "1", "7")
    assert (w331["code"], w331["line"], w331["col"]) == ("W331", "1", "16")


@pytest.mark.skipif(len(registry.ids()) < 2, reason="one implementation")
@pytest.mark.parametrize("impl", registry.ids())
def test_every_implementation_prints_the_same(tmp_path: Path, impl: str) -> None:
    src = "(define (f n) (if (= n 0) '() (cons n (f (- n 1)))))\n(display (f 3))\n(values 1 (f 2))"
    r = court(tmp_path, write(tmp_path, src), "--impl", impl)
    assert (r.status, r.out, r.err) == (0, "(3 2 1)1\n(2 1)\n", "")


# --- diagnostics and exit statuses ---------------------------------------------------------


def test_source_error_exits_1_and_runs_nothing(tmp_path: Path) -> None:
    r = court(tmp_path, write(tmp_path, '(display "never")\n\n  (if 1 2)\n'))
    assert (r.status, r.out) == (1, "")
    (line,) = r.err_lines
    d = diagnostic(line)
    assert (d["code"], d["file"], d["line"], d["col"]) == ("E130", "p.lspx", "3", "3")


@pytest.mark.parametrize("src,code,where", [
    ("(1 . )", "E140", ("1", "4")),
    ('"\\q"', "E150", ("1", "2")),  # at the bad escape
    ("#;(x) 1", "E120", ("1", "1")),
    ("(let ((if 1)) if)", "E110", ("1", "8")),
    (b"(display \"\xff\")", "E100", ("1", "11")),
])
def test_reader_and_normalizer_errors(tmp_path: Path, src: str | bytes, code: str,
                                      where: tuple[str, str]) -> None:
    r = court(tmp_path, write(tmp_path, src))
    assert (r.status, r.out) == (1, "")
    (line,) = r.err_lines
    d = diagnostic(line)
    assert (d["code"], d["file"], (d["line"], d["col"])) == (code, "p.lspx", where)


def test_runtime_error_keeps_the_output_and_prints_no_values(tmp_path: Path) -> None:
    r = court(tmp_path, write(tmp_path, '(display "before")\n(car 5)\n'))
    assert (r.status, r.out) == (1, "before")
    assert r.err == "E310 p.lspx:2:1 car: expected a pair 5\n"


def test_irritants_are_written(tmp_path: Path) -> None:
    r = court(tmp_path, write(tmp_path, '(error "boom" "str" \'sym 1.5 #\\a \'(1 "x"))'))
    assert r.status == 1
    assert r.err == 'E330 p.lspx:1:1 boom "str" sym 1.5 #\\a (1 "x")\n'


def test_uncaught_raise_is_E331(tmp_path: Path) -> None:
    r = court(tmp_path, write(tmp_path, "(raise 'oops)"))
    assert r.status == 1
    d = diagnostic(r.err_lines[0])
    assert d["code"] == "E331" and d["rest"].endswith(" oops")


def test_the_file_label_is_the_path_as_given(tmp_path: Path) -> None:
    (tmp_path / "sub").mkdir()
    write(tmp_path, "(car 1)", "sub/q.lspx")
    r = court(tmp_path, "sub/q.lspx")
    assert r.err.startswith("E310 sub/q.lspx:1:1 ")
    r = court(tmp_path, str(tmp_path / "sub" / "q.lspx"))
    assert r.err.startswith(f"E310 {tmp_path / 'sub' / 'q.lspx'}:1:1 ")


def test_machine_transition_limit_exits_2_with_empty_stdout(tmp_path: Path) -> None:
    r = court(tmp_path, write(tmp_path, SPIN), "--limit", "machine-transition=100")
    assert (r.status, r.out) == (2, "")  # even "started", written before the limit, is dropped
    assert r.err == "machine-transition-limit p.lspx:0:0 machine-transition limit of 100 exceeded\n"


@pytest.mark.parametrize("src,argv,code", [
    ('(display "hello")', ["--limit", "output-byte=3"], "output-limit"),
    ("(f (g (h 1)))", ["--limit", "normalization-step=2"], "normalization-limit"),
    ("(list 1 2 3)", ["--limit", "token=3"], "token-limit"),
    ("(define (d n) (if (= n 0) 0 (+ 1 (d (- n 1))))) (display 1) (d 100000)", [],
     "recursion-limit"),
    (SPIN, ["--profile", "lispex-generated-11088/v1"], "machine-transition-limit"),
])
def test_every_resource_outcome_exits_2(tmp_path: Path, src: str, argv: list[str],
                                       code: str) -> None:
    r = court(tmp_path, write(tmp_path, src), *argv)
    assert (r.status, r.out) == (2, "")
    (line,) = r.err_lines
    d = diagnostic(line)
    assert (d["code"], d["line"], d["col"]) == (code, "0", "0")


def test_a_limit_override_keeps_the_rest_of_the_profile(tmp_path: Path) -> None:
    p = write(tmp_path, "(display 1)")
    r = court(tmp_path, p, "--json", "--profile", "lispex-product-web/v1",
              "--limit", "token=50", "--limit", "output-byte=7")
    resources = json.loads(r.out)["resources"]
    assert resources["profile"] == "lispex-product-web/v1"
    assert resources["limits"] == {
        "frontend-transition-limit": 5000000, "token-limit": 50,
        "normalization-step-limit": 5000000, "machine-transition-limit": 20000000,
        "output-byte-limit": 7}


# --- --json --------------------------------------------------------------------------------

HEX64 = {"type": "string", "pattern": "^[0-9a-f]{64}$"}
SPAN = {
    "type": "object", "additionalProperties": False,
    "required": ["file", "line", "column", "start", "end"],
    "properties": {"file": {"type": "string"}, "line": {"type": "integer", "minimum": 1},
                   "column": {"type": "integer", "minimum": 1},
                   "start": {"type": "integer", "minimum": 0},
                   "end": {"type": "integer", "minimum": 0}},
}
DIAGNOSTIC = {
    "type": "object", "additionalProperties": False,
    "required": ["code", "severity", "phase", "message", "irritants", "span"],
    "properties": {
        "code": {"type": "string"}, "severity": {"enum": ["error", "warning"]},
        "phase": {"enum": ["reader", "normalizer", "runtime", "resource"]},
        "message": {"type": "string"}, "irritants": {"type": "array", "items": {"type": "string"}},
        "span": {"oneOf": [{"type": "null"}, SPAN]},
    },
}
AXES = ["frontend-transition", "token", "normalization-step", "machine-transition", "output-byte"]
USAGE = ["frontend_transitions", "tokens", "normalization_steps", "machine_transitions",
         "output_bytes"]
OBSERVATION_SCHEMA = {
    "type": "object", "additionalProperties": False,
    "required": ["schema", "implementation", "semantic", "resources", "products"],
    "properties": {
        "schema": {"const": "lispex.court-observation/v1"},
        "implementation": {"type": "string"},
        "semantic": {
            "type": "object", "additionalProperties": False,
            "required": ["status", "values", "stdout", "exit_status", "diagnostics", "warnings",
                         "resource_outcome"],
            "properties": {
                "status": {"enum": ["ok", "source-error", "runtime-error", "resource"]},
                "values": {"type": "array", "items": {"type": "string"}},
                "stdout": {"type": "string"},
                "exit_status": {"enum": [0, 1, 2]},
                "diagnostics": {"type": "array", "maxItems": 1, "items": DIAGNOSTIC},
                "warnings": {"type": "array", "items": DIAGNOSTIC},
                "resource_outcome": {"oneOf": [
                    {"type": "object", "additionalProperties": False, "required": ["status"],
                     "properties": {"status": {"const": "within-limits"}}},
                    {"type": "object", "additionalProperties": False,
                     "required": ["status", "limit", "code"],
                     "properties": {"status": {"const": "limit-exceeded"},
                                    "limit": {"enum": [*AXES, "recursion-limit"]},
                                    "code": {"type": "string"}}},
                ]},
            },
        },
        "resources": {
            "type": "object", "required": ["usage", "limits", "profile"],
            "properties": {
                "usage": {"type": "object", "required": USAGE, "additionalProperties": False,
                          "properties": {k: {"type": "integer", "minimum": 0} for k in USAGE}},
                "limits": {"type": "object", "additionalProperties": False,
                           "required": [f"{a}-limit" for a in AXES],
                           "properties": {f"{a}-limit": {"type": "integer"} for a in AXES}},
                "profile": {"type": "string"},
            },
        },
        "products": {"type": "object", "required": ["product_id"],
                     "properties": {"product_id": HEX64, "core_ir_id": HEX64}},
    },
}

JSON_CASES = {
    "ok": ('(display "out")\n(values 1 "λ")', 0, "ok"),
    "warning": ("(% 7 2)", 0, "ok"),
    "source-error": ("(if 1)", 1, "source-error"),
    "runtime-error": ('(display "x")\n(vector-ref (vector) 0)', 1, "runtime-error"),
    "resource": (SPIN, 2, "resource"),
}


@pytest.mark.parametrize("case", sorted(JSON_CASES))
def test_json_prints_one_observation_and_keeps_the_exit_status(tmp_path: Path, case: str) -> None:
    src, status, semantic_status = JSON_CASES[case]
    p = write(tmp_path, src)
    r = court(tmp_path, p, "--json", "--limit", "machine-transition=5000")
    assert r.status == status and r.err == ""
    assert r.out.endswith("\n") and r.out.count("\n") == 1  # one line: one object
    obs = json.loads(r.out)
    jsonschema.validate(obs, OBSERVATION_SCHEMA)
    s = obs["semantic"]
    assert (s["status"], s["exit_status"]) == (semantic_status, status)
    assert obs["implementation"] == "tree"
    # The plain run prints exactly what the observation holds.
    plain = court(tmp_path, p, "--limit", "machine-transition=5000")
    assert plain.status == status
    assert plain.out == s["stdout"] + "".join(v + "\n" for v in s["values"])
    wanted = [*s["warnings"], *s["diagnostics"]]
    assert [diagnostic(line)["code"] for line in plain.err_lines] == [d["code"] for d in wanted]


def test_json_is_utf8_not_ascii_escaped(tmp_path: Path) -> None:
    r = court(tmp_path, write(tmp_path, '"λ"'), "--json")
    assert '"\\"λ\\""' in r.out


def test_json_spans_and_resource_outcome(tmp_path: Path) -> None:
    r = court(tmp_path, write(tmp_path, "(define x 1)\n  (car x)"), "--json")
    (d,) = json.loads(r.out)["semantic"]["diagnostics"]
    assert d["span"] == {"file": "p.lspx", "line": 2, "column": 3, "start": 15, "end": 22}
    assert (d["code"], d["phase"], d["irritants"]) == ("E310", "runtime", ["1"])
    r = court(tmp_path, write(tmp_path, SPIN), "--json", "--limit", "machine-transition=100")
    s = json.loads(r.out)["semantic"]
    assert s["resource_outcome"] == {"status": "limit-exceeded", "limit": "machine-transition",
                                     "code": "machine-transition-limit"}
    assert (s["stdout"], s["values"], s["diagnostics"][0]["span"]) == ("", [], None)


# --- input ---------------------------------------------------------------------------------


def test_input_is_bound_unevaluated(tmp_path: Path) -> None:
    p = write(tmp_path, "(list input (car input))")
    r = court(tmp_path, p, "--input", '((age 19) "λ" #\\x)')
    assert (r.status, r.out, r.err) == (0, '(((age 19) "λ" #\\x) (age 19))\n', "")
    r = court(tmp_path, write(tmp_path, "input"), "--input", "(car x)")
    assert r.out == "(car x)\n"


def test_input_file(tmp_path: Path) -> None:
    (tmp_path / "in.txt").write_text("; a comment\n(1 2 3)\n", encoding="utf-8")
    r = court(tmp_path, write(tmp_path, "(apply + input)"), "--input-file", "in.txt")
    assert (r.status, r.out) == (0, "6\n")


def test_without_input_reading_it_is_E300(tmp_path: Path) -> None:
    r = court(tmp_path, write(tmp_path, "input"))
    assert r.status == 1 and r.err.startswith("E300 p.lspx:1:1 ")


@pytest.mark.parametrize("text", ["(age", "1 2", "", "#;x 1", "(1 . )", '"\\q"'])
def test_a_malformed_input_datum_is_a_usage_error(tmp_path: Path, text: str) -> None:
    p = write(tmp_path, '(display "ran")\ninput')
    assert_usage_error(court(tmp_path, p, "--input", text), "invalid input datum")
    assert_usage_error(court(tmp_path, p, "--json", "--input", text))


def test_input_and_input_file_together_are_refused(tmp_path: Path) -> None:
    (tmp_path / "in.txt").write_text("1", encoding="utf-8")
    assert_usage_error(court(tmp_path, write(tmp_path, "1"), "--input", "1",
                             "--input-file", "in.txt"))


@pytest.mark.parametrize("name,data", [("missing.txt", None), ("latin1.txt", b"\"caf\xe9\"")])
def test_unreadable_input_file_is_a_usage_error(tmp_path: Path, name: str,
                                                data: bytes | None) -> None:
    if data is not None:
        (tmp_path / name).write_bytes(data)
    assert_usage_error(court(tmp_path, write(tmp_path, "input"), "--input-file", name), name)


# --- usage errors --------------------------------------------------------------------------


@pytest.mark.parametrize("argv,needle", [
    (["p.lspx", "--bogus"], "--bogus"),
    (["missing.lspx"], "missing.lspx"),
    (["."], "."),
    (["p.lspx", "--profile", "nope/v1"], "nope/v1"),
    (["p.lspx", "--limit", "steps=10"], "steps"),
    (["p.lspx", "--limit", "machine-transition"], "machine-transition"),
    (["p.lspx", "--limit", "machine-transition=-5"], "machine-transition=-5"),
    (["p.lspx", "--impl", "nope"], "nope"),
    ([], "program"),
])
def test_usage_errors_exit_2_with_one_line(tmp_path: Path, argv: list[str], needle: str) -> None:
    write(tmp_path, '(display "ran")')
    assert_usage_error(court(tmp_path, *argv), needle)


def test_court_without_a_command_exits_2(tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, "-m", "court.cli"], cwd=tmp_path, capture_output=True,
                          env=dict(os.environ, PYTHONPATH=str(ROOT)), timeout=120)
    assert done.returncode == 2 and b"Traceback" not in done.stderr


def test_the_installed_script_behaves_the_same(tmp_path: Path) -> None:
    exe = Path(sys.executable).with_name("court")
    if not exe.exists():
        pytest.skip("the court script is not installed next to this Python")
    write(tmp_path, "(car 1)")
    done = subprocess.run([str(exe), "eval", "p.lspx"], cwd=tmp_path, capture_output=True,
                          timeout=120)
    assert (done.returncode, done.stdout, done.stderr) == (
        1, b"", b"E310 p.lspx:1:1 car: expected a pair 1\n")


def test_output_is_utf8_whatever_the_locale(tmp_path: Path) -> None:
    r = court(tmp_path, write(tmp_path, '(display "λ")'), env={"PYTHONIOENCODING": "latin-1"})
    assert (r.status, r.out_bytes) == (0, "λ".encode())
