"""What a person reads: `court compare`, `court run` and `court fuzz` at 80 and 200 columns, styled
and plain; the failure section's reproduction command runs and shows the same divergence."""

from __future__ import annotations

import json
import re
import shlex
import sys
from pathlib import Path

import pytest

from court.cli import main

FAKES = Path(__file__).resolve().parent / "fakes"
ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")
# Redraws of a live line are separated by erase-line and carriage returns, not newlines.
REDRAW = re.compile(r"\x1b\[2K|\r")
MODES = [("plain", 80), ("plain", 200), ("styled", 80), ("styled", 200)]

EXPECT = """schema = "lispex.court-expectation/v1"
status = "ok"
values = [{value}]
stdout = ""
exit_status = 0
warnings = []
"""


def lines_of(text: str) -> list[str]:
    return [ANSI.sub("", part) for line in text.split("\n") for part in REDRAW.split(line)]


def unbreakable(line: str) -> bool:
    """A shell line that is one token (a long absolute path) and its continuation: it cannot
    be split without breaking the command."""
    return len(line.replace(" \\", "").split()) == 1


def assert_fits(text: str, width: int) -> None:
    long = [line for line in lines_of(text) if len(line) > width and not unbreakable(line)]
    assert not long, f"{len(long)} lines wider than {width}:\n" + "\n".join(long)


def set_mode(monkeypatch, mode: str, width: int) -> None:
    monkeypatch.setenv("COLUMNS", str(width))
    monkeypatch.delenv("GITHUB_ACTIONS", raising=False)
    monkeypatch.delenv("NO_COLOR", raising=False)
    if mode == "styled":
        monkeypatch.setenv("FORCE_COLOR", "1")
    else:
        monkeypatch.delenv("FORCE_COLOR", raising=False)


@pytest.fixture
def workspace(tmp_path, monkeypatch, court_toml):
    """A folder with a court.toml (court `mixed`: tree, a buggy product, a crashing worker) and a
    corpus holding one case of each kind of failure; the current folder for the test."""
    text = court_toml.read_text() + '\n[courts.mixed]\nmembers = ["tree", "buggy", "fake"]\n'
    (tmp_path / "court.toml").write_text(text)
    corpus = tmp_path / "corpus"
    (corpus / "a").mkdir(parents=True)
    (corpus / "b").mkdir()
    (corpus / "a" / "square.lspx").write_text("(* 3 3)")
    (corpus / "a" / "square.expect.toml").write_text(EXPECT.format(value='"9"'))
    (corpus / "a" / "wrong.lspx").write_text("(* 2 2)")
    (corpus / "a" / "wrong.expect.toml").write_text(EXPECT.format(value='"5"'))
    (corpus / "b" / "quot.lspx").write_text(
        '(display (quotient -7 2)) (newline) (display "' + "a long line " * 30 + '")'
        " (quotient 7 2)")
    (corpus / "b" / "die.lspx").write_text("(display 'die-now) 1")
    (corpus / "b" / "pair.lspx").write_text("(quotient (car input) (cadr input))")
    (corpus / "b" / "pair.input").write_text("(-9 2)")
    monkeypatch.chdir(tmp_path)
    return tmp_path


@pytest.mark.parametrize("mode,width", MODES)
def test_compare_fits_the_width(workspace, capsys, monkeypatch, mode, width):
    set_mode(monkeypatch, mode, width)
    code = main(["compare", "corpus/b/quot.lspx", "--court", "mixed"])
    out = capsys.readouterr().out
    assert code == 1, out
    assert_fits(out, width)
    text = "\n".join(lines_of(out))
    assert "first divergence on stdout" in text
    assert "…" in text  # the long output line is elided, not wrapped over many lines
    if mode == "plain":
        assert not ANSI.search(out)
        assert "tree: ok, exit 0" in text
    else:
        header = next(line for line in lines_of(out) if "member" in line and "status" in line)
        for col in ("member", "status", "values", "exit", "diagnostic"):
            assert re.search(rf"\b{col}\b", header), header  # never split mid-word
        assert ("peak rss" in header) == (width >= 120)


def test_wide_adds_resources_and_still_fits(workspace, capsys, monkeypatch):
    set_mode(monkeypatch, "styled", 80)
    assert main(["compare", "corpus/b/quot.lspx", "--court", "mixed", "--wide"]) == 1
    out = capsys.readouterr().out
    assert_fits(out, 80)
    assert "wall" in "\n".join(lines_of(out))


def test_no_color_keeps_styles_off_and_force_color_turns_them_on(workspace, capsys, monkeypatch):
    set_mode(monkeypatch, "styled", 100)
    main(["compare", "corpus/b/quot.lspx", "--court", "mixed"])
    coloured = capsys.readouterr().out
    assert re.search(r"\x1b\[[0-9;]*3[1-7]m", coloured)  # red/green... in a pipe, forced
    monkeypatch.setenv("NO_COLOR", "1")
    main(["compare", "corpus/b/quot.lspx", "--court", "mixed"])
    assert not re.search(r"\x1b\[[0-9;]*3[0-7]m", capsys.readouterr().out)
    monkeypatch.delenv("FORCE_COLOR")
    main(["compare", "corpus/b/quot.lspx", "--court", "mixed", "--plain"])
    assert not ANSI.search(capsys.readouterr().out)


def failure_section(out: str, n: int = 4) -> str:
    text = "\n".join(lines_of(out))
    assert f"FAILURES ({n})" in text, text
    return text[text.index("FAILURES"):]


def reproduction(section: str, case_id: str) -> list[str]:
    """The reproduction command under a case's heading, continuation lines joined."""
    part = section[section.index(f" {case_id}: "):]
    lines = part.split("reproduce:\n", 1)[1].splitlines()
    cmd = []
    for line in lines:
        cmd.append(line.rstrip(" \\").strip())
        if not line.endswith("\\"):
            break
    return shlex.split(" ".join(cmd))


@pytest.mark.parametrize("mode,width", MODES)
def test_run_ends_with_a_failure_section_that_reproduces(workspace, capsys, monkeypatch, mode,
                                                         width):
    set_mode(monkeypatch, mode, width)
    code = main(["run", "corpus", "--court", "mixed", "--report-dir", "rep"])
    out = capsys.readouterr().out
    assert code == 1, out
    assert_fits(out, width)
    section = failure_section(out)
    assert "b/quot: disagree" in section and "a/wrong: expectation-broken" in section
    # one member crashed while the others answered: a finding of its own kind
    assert "b/die: member-fault" in section
    assert "reason: fake: crash:" in section
    assert "expectation broken on values (tree, buggy, fake):" in section
    die = reproduction(section, "b/die")
    assert die[:3] == ["court", "compare", str(workspace / "corpus/b/die.lspx")], die
    assert die[die.index("--court") + 1] == "mixed"
    report = json.loads((workspace / "rep" / "court-report.json").read_text())
    axes = {c["id"]: c["divergence"]["axis"] for c in report["cases"] if c.get("divergence")}
    for case_id in ("b/quot", "b/pair"):
        argv = reproduction(section, case_id)
        assert argv[:2] == ["court", "compare"], argv
        if case_id == "b/pair":
            assert argv[argv.index("--input-file") + 1] == str(workspace / "corpus/b/pair.input")
        assert main(argv[1:] + ["--json"]) == 1
        result = json.loads(capsys.readouterr().out)
        assert result["verdict"] == "disagree"
        assert result["divergence"]["axis"] == axes[case_id]


def test_the_reproduction_carries_the_case_limits(workspace, capsys, monkeypatch):
    set_mode(monkeypatch, "plain", 120)
    case = workspace / "corpus" / "b" / "quot"
    case.with_suffix(".expect.toml").write_text(
        EXPECT.format(value='"5"') + "[run]\nlimits = { machine-transition = 100000 }\n")
    assert main(["run", "corpus/b/quot.lspx", "--court", "mixed", "--report-dir", "rep",
                 "--timeout", "30"]) == 1
    section = failure_section(capsys.readouterr().out, 1)
    argv = reproduction(section, "quot")  # ids are relative to the folder given
    assert argv[:2] == ["court", "compare"]  # a disagreement: compare shows it
    assert argv[argv.index("--limit") + 1] == "machine-transition=100000"
    assert argv[argv.index("--timeout") + 1] == "30"
    assert "--profile" not in argv  # the default profile is not repeated
    # A broken expectation is reproduced by `court run` of the case, which reads its limits
    # from the case's own files.
    wrong = workspace / "corpus" / "a" / "wrong"
    wrong.with_suffix(".expect.toml").write_text(
        EXPECT.format(value='"5"') + "[run]\nlimits = { machine-transition = 100000 }\n")
    assert main(["run", "corpus/a", "--court", "mixed", "--report-dir", "rep",
                 "--timeout", "30"]) == 1
    argv = reproduction(failure_section(capsys.readouterr().out, 1), "wrong")
    assert argv[:3] == ["court", "run", str(wrong.with_suffix(".lspx"))]
    assert argv[argv.index("--timeout") + 1] == "30"


def test_github_actions_gets_groups_and_annotations(workspace, capsys, monkeypatch):
    set_mode(monkeypatch, "plain", 100)
    monkeypatch.setenv("GITHUB_ACTIONS", "true")
    assert main(["run", "corpus", "--court", "mixed", "--report-dir", "rep"]) == 1
    out = capsys.readouterr().out
    assert out.count("::group::") == out.count("::endgroup::") == 1
    errors = [line for line in out.splitlines() if line.startswith("::error ")]
    assert len(errors) == 4
    assert any("file=corpus/b/quot.lspx" in e for e in errors)


def test_a_terminal_gets_a_progress_bar_with_rate_and_eta(workspace, capsys, monkeypatch):
    set_mode(monkeypatch, "styled", 120)
    assert main(["run", "corpus/a", "--court", "mixed", "--report-dir", "rep"]) == 1
    raw = capsys.readouterr().out
    assert "cases/s" in raw and re.search(r"\d+/2", ANSI.sub("", raw))


def seeded_config(tmp_path: Path) -> Path:
    path = tmp_path / "fuzz.toml"
    path.write_text(f"""
[products.seeded]
command = ["{sys.executable}", "{FAKES / 'seeded_worker.py'}", "--bug", "quotient"]
protocol = "court-worker/v1"
[courts.buggy]
members = ["tree", "seeded"]
""")
    return path


def fuzz(capsys, tmp_path: Path, *extra: str) -> tuple[int, str]:
    # Relative paths, so that the printed command fits 80 columns.
    code = main(["fuzz", "--court", "buggy", "--config", seeded_config(tmp_path).name,
                 "--seconds", "120", "--safe-only", "--max-findings", "1",
                 "--reduce-seconds", "20", "--save-dir", "found", "--quarantine", "none.toml",
                 *extra])
    return code, capsys.readouterr().out


def test_fuzz_prints_a_random_seed_that_reproduces_the_run(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    set_mode(monkeypatch, "plain", 80)
    code, first = fuzz(capsys, tmp_path)
    assert code == 1, first
    assert_fits(first, 80)
    seed = re.search(r"seed (\d+) \(reproduce with --seed \1\)", first)
    assert seed, first
    # A finding is the minimised program and the two values, then the command to see it again.
    section = first[first.index("finding "):]
    assert "(quotient" in section and "first divergence on" in section
    assert "'codes'" not in first and "{" not in section.split("reproduce:")[0]
    argv = reproduction(section.replace("finding ", " finding: ", 1), "finding")
    assert "--timeout" in argv  # the campaign's own limits come along
    # ... but the wall clock is the machine's: on a loaded machine the seeded worker (a fresh
    # interpreter, not a forked one) can miss the campaign's 5 s, which says nothing of the bug.
    assert main(argv[1:] + ["--json", "--timeout", "120"]) == 1
    # The same kind of finding as the campaign's: with a random seed it is a disagreement, or a
    # member fault when the seeded quotient meets a non-number and its worker crashes.
    record = json.loads(next((tmp_path / "found").glob("*.finding.json")).read_text())
    assert record["signature"]["kind"] in ("disagree", "member-fault")
    assert json.loads(capsys.readouterr().out)["verdict"] == record["signature"]["kind"]

    set_mode(monkeypatch, "styled", 200)
    again_dir = tmp_path / "again"
    again_dir.mkdir()
    monkeypatch.chdir(again_dir)
    code, second = fuzz(capsys, again_dir, "--seed", seed.group(1))
    assert code == 1, second
    assert_fits(second, 200)
    assert f"seed {seed.group(1)} (reproduce with" in ANSI.sub("", second)

    # The seed given is the seed used, and each saved finding records it. (Hypothesis adapts
    # its search to timing, so a seed fixes where a run starts, not every program it makes.)
    for folder in (tmp_path, again_dir):
        record = json.loads(next((folder / "found").glob("*.finding.json")).read_text())
        assert record["seed"] == int(seed.group(1))


def test_two_runs_without_a_seed_get_different_seeds(tmp_path, capsys, monkeypatch):
    set_mode(monkeypatch, "plain", 100)
    seeds = set()
    for _ in range(2):
        assert main(["fuzz", "--impl", "tree", "--examples", "3", "--no-save",
                     "--quarantine", str(tmp_path / "none.toml")]) == 0
        seeds.add(re.search(r"seed (\d+)", capsys.readouterr().out).group(1))
    assert len(seeds) == 2


def test_every_printed_reproduction_fails_the_same_way_from_another_folder(workspace, capsys,
                                                                           monkeypatch):
    """disagree, member-fault and expectation-broken cases of a court defined in ./court.toml:
    each printed command, run from an unrelated folder, fails with the same outcome."""
    set_mode(monkeypatch, "plain", 100)
    assert main(["run", "corpus", "--court", "mixed", "--report-dir", "rep"]) == 1
    section = failure_section(capsys.readouterr().out)
    report = json.loads((workspace / "rep" / "court-report.json").read_text())
    outcomes = {c["id"]: c["outcome"] for c in report["cases"]}
    elsewhere = workspace.parent / (workspace.name + "-elsewhere")
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    for case_id in ("b/quot", "b/die", "a/wrong"):
        argv = reproduction(section, case_id)
        assert "--config" in argv and Path(argv[argv.index("--config") + 1]).is_absolute()
        if outcomes[case_id] == "expectation-broken":
            assert argv[:2] == ["court", "run"], argv
            assert main(argv[1:] + ["--report-dir", str(elsewhere / "rep")]) == 1
            again = json.loads((elsewhere / "rep" / "court-report.json").read_text())
            assert [c["outcome"] for c in again["cases"]] == ["expectation-broken"]
        else:
            assert argv[:2] == ["court", "compare"], argv
            code = main(argv[1:] + ["--json"])
            result = json.loads(capsys.readouterr().out)
            assert code == 1 and result["verdict"] == outcomes[case_id], result


LONG_VALUE = ("(list 'symbol-one 'symbol-two 'symbol-three 'symbol-four 'symbol-five 'symbol-six "
              "'symbol-seven 'symbol-eight 'symbol-nine 'symbol-ten \"and more symbols\" "
              "(quotient -7 2))")


@pytest.mark.parametrize("mode,width", MODES)
def test_a_long_value_that_differs_near_its_end_shows_the_difference(workspace, capsys,
                                                                      monkeypatch, mode, width):
    set_mode(monkeypatch, mode, width)
    (workspace / "corpus" / "b" / "long.lspx").write_text(LONG_VALUE)
    assert main(["compare", "corpus/b/long.lspx", "--court", "mixed"]) == 1
    text = "\n".join(lines_of(capsys.readouterr().out))
    assert_fits(text, width)
    divergence = text[text.index("first divergence"):]
    assert 'symbols" -3)' in divergence and 'symbols" -4)' in divergence, divergence
    if mode == "plain":
        assert "^" in divergence  # the differing span is marked under the values
    assert main(["run", "corpus/b/long.lspx", "--court", "mixed", "--report-dir", "rep"]) == 1
    section = failure_section(capsys.readouterr().out, 1)
    assert 'symbols" -3)' in section and 'symbols" -4)' in section, section


def test_a_one_sided_limit_reproduces_from_another_folder(tmp_path, capsys, monkeypatch):
    """A member that loops where the other finishes far within the limit: `court run` prints a
    compare command that, from an unrelated folder, gives the same one-sided-limit verdict."""
    set_mode(monkeypatch, "plain", 100)
    py = sys.executable
    (tmp_path / "court.toml").write_text(
        f'[products.looper]\ncommand = ["{py}", "{FAKES / "meter_worker.py"}", "--mode", '
        '"loop"]\n[courts.looping]\nmembers = ["tree", "looper"]\n')
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    (corpus / "spin.lspx").write_text("(define (spin-here) 42)\n(spin-here)\n")
    monkeypatch.chdir(tmp_path)
    assert main(["run", "corpus", "--court", "looping", "--report-dir", "rep",
                 "--limit", "machine-transition=20000"]) == 1
    section = failure_section(capsys.readouterr().out, 1)
    assert "spin: one-sided-limit" in section
    argv = reproduction(section, "spin")
    elsewhere = tmp_path.parent / (tmp_path.name + "-elsewhere")
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    assert main(argv[1:] + ["--json"]) == 1
    assert json.loads(capsys.readouterr().out)["verdict"] == "one-sided-limit"
