"""The report views with hostile values: summary.md and annotations escape Markdown and HTML and
truncate; report.html escapes, colours each outcome kind, shows output diffs as lines, keeps
infrastructure errors apart, and renders in a real browser (headless Chromium)."""

from __future__ import annotations

import json
import re
import shutil
import struct
import subprocess
import zlib
from pathlib import Path
from xml.etree import ElementTree as ET

import pytest

from court.cli import main
from court.report import html, junit, markdown, svg, text

HOSTILE = '<img src=x onerror=alert(1)> **bold** | `tick` [link](u) # head\\n- item'


@pytest.fixture
def report(tmp_path, capsys, court_toml):
    """A real run on a court with a seeded bug and a crashing member, over hostile output."""
    text = court_toml.read_text() + '\n[courts.mixed]\nmembers = ["tree", "buggy", "fake"]\n'
    config = tmp_path / "court.toml"
    config.write_text(text)
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    (corpus / "hostile.lspx").write_text(
        f'(display "{HOSTILE}") (newline) (display "{"x" * 3000}") (newline)'
        " (display (quotient -7 2)) (newline) (display \"same\") 1")
    (corpus / "die.lspx").write_text("(display 'die-now) 1")
    for i in range(3):
        (corpus / f"ok{i}.lspx").write_text(f"(* {i} {i})")
    rep = tmp_path / "rep"
    assert main(["run", str(corpus), "--court", "mixed", "--config", str(config),
                 "--report-dir", str(rep), "--plain"]) == 1
    capsys.readouterr()
    return rep


def test_summary_escapes_and_truncates(report):
    md = (report / "summary.md").read_text()
    line = next(x for x in md.splitlines() if "hostile" in x)
    assert "<img" not in md
    assert "…" in line and len(line) < 1000  # 3000 x's cut short, around the difference
    # Hostile text at the place where values differ is shown, and inert.
    near = markdown.one_line({"outcome": "disagree", "divergence": {
        "axis": "stdout", "values": {"a": HOSTILE + "1", "b": HOSTILE + "2"}}}, text.md, mark="**")
    assert "<img" not in near and "&lt;img" in near
    assert "**bold**" not in near and r"\*\*bold\*\*" in near
    assert "`tick`" not in near and "[link](u)" not in near


def test_annotations_escape_and_stay_one_line(report):
    rep = json.loads((report / "court-report.json").read_text())
    notes = markdown.annotations(rep)
    assert len(notes) == 2
    hostile = next(n for n in notes if "hostile" in n)
    assert "\n" not in hostile and "<img" not in hostile
    assert len(hostile) < 1000
    assert hostile.startswith("::error file=") and ",line=1,title=court%3A disagree::" in hostile


def test_html_escapes_and_shows_output_lines(report):
    page = (report / "report.html").read_text()
    assert "<img" not in page and "&lt;img src=x" in page
    assert page.count("<script>") == 1  # ours, inline; a value never opens one
    # The stdout diff is line by line: only the differing line is marked on each side.
    assert '<span class="del">--3</span>' in page and '<span class="add">+-4</span>' in page
    assert '<span class="">' in page and " same</span>" in page
    assert "court compare " in page and "--court mixed" in page


def test_infrastructure_errors_have_their_own_table_without_factions(report):
    page = (report / "report.html").read_text()
    infra = page[page.index("<h2>Faults (1)"):]
    table = infra[:infra.index("</table>")]
    assert "factions" not in table and "fake: crash:" in table
    assert "court compare " in table


def test_each_outcome_kind_has_a_colour_and_unknown_kinds_a_default(report):
    rep = json.loads((report / "court-report.json").read_text())
    ok = next(c for c in rep["cases"] if c["outcome"] == "agree")
    ok["outcome"] = "one-sided-limit"
    nc = next(c for c in rep["cases"] if c["outcome"] == "agree" and c is not ok)
    nc["outcome"] = "a-kind-from-the-future"
    page = html.render(rep)
    styles = page[page.index("<style>"):page.index("</style>")]
    for kind in ("disagree", "expectation-broken", "infrastructure-error", "not-comparable",
                 "one-sided-limit", "member-fault", "a-kind-from-the-future"):
        assert f".o-{kind}{{color:" in styles
    assert 'class="outcome o o-a-kind-from-the-future"' in page
    colours = {html.OUTCOME_COLORS[k] for k in ("disagree", "expectation-broken",
                                                 "infrastructure-error", "not-comparable")}
    assert len(colours) == 4


def test_junit_names_the_file_the_axis_and_both_values(report):
    rep = json.loads((report / "court-report.json").read_text())
    root = ET.fromstring(junit.render(rep))
    suite = root.find("testsuite")
    assert float(suite.get("time")) == pytest.approx(rep["run"]["duration_seconds"], abs=1e-5)
    cases = {tc.get("name"): tc for tc in suite.iter("testcase")}
    assert cases["hostile"].get("file").endswith("corpus/hostile.lspx")
    msg = cases["hostile"].find("failure").get("message")
    assert msg == 'stdout differs at line 4: tree "-3" vs buggy "-4"'

    assert "fake: crash:" in cases["die"].find("error").get("message")


def test_ratio_chart_labels_stay_apart():
    chart = svg.ratio_curves({"b / a": [2 ** e for e in range(-12, 13)]}, "t")
    ys = sorted(float(y) for y in re.findall(r'<text x="\d+" y="([\d.]+)" font-size="10" '
                                       r'text-anchor="end">', chart))
    assert len(ys) >= 3
    assert min(b - a for a, b in zip(ys, ys[1:], strict=False)) >= svg.MIN_TICK_GAP - 0.01


def png_pixels(path: Path) -> tuple[int, int, list[bytes]]:
    """Width, height and the unfiltered rows of an 8-bit RGB/RGBA PNG (enough for a screenshot)."""
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    pos, idat, width = 8, b"", 0
    while pos < len(data):
        n, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        if kind == b"IHDR":
            width, height, depth, colour = struct.unpack(">IIBB", body[:10])
            assert depth == 8 and colour in (2, 6)
            bpp = 3 if colour == 2 else 4
        elif kind == b"IDAT":
            idat += body
        pos += 12 + n
    raw = zlib.decompress(idat)
    stride = width * bpp
    rows, prev = [], bytearray(stride)
    for r in range(height):
        f = raw[r * (stride + 1)]
        line = bytearray(raw[r * (stride + 1) + 1:(r + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b, c = prev[i], prev[i - bpp] if i >= bpp else 0
            if f == 1:
                line[i] = (line[i] + a) & 255
            elif f == 2:
                line[i] = (line[i] + b) & 255
            elif f == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(bytes(line))
        prev = line
    return width, height, rows


CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")


def chromium(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu",
                           "--no-first-run", *args], capture_output=True, text=True, timeout=180)


@pytest.mark.skipif(CHROMIUM is None, reason="chromium is not installed: the browser check of "
                    "report.html needs it (apt-get install chromium)")
def test_report_renders_in_headless_chromium(report, tmp_path):
    page = (report / "report.html").resolve().as_uri()
    shot = tmp_path / "report.png"
    proc = chromium(f"--screenshot={shot}", "--window-size=1280,2000", page)
    assert shot.exists(), proc.stderr[-2000:]
    width, height, rows = png_pixels(shot)
    assert (width, height) == (1280, 2000)
    # Non-blank: many pixels are not the white background, in the top half and the bottom half
    # (the tables and the charts).
    def inked(rs):
        return sum(1 for row in rs[::4] for i in range(0, len(row), 4 * 3)
                   if row[i:i + 3] != b"\xff\xff\xff")
    assert inked(rows[:1000]) > 2000 and inked(rows[1000:]) > 200
    # The inline script ran: by default the case table hides the agreeing cases.
    dom = chromium("--dump-dom", "--virtual-time-budget=5000", page).stdout
    agree_rows = [x for x in dom.split("<tr ") if x.startswith("data-outcome=\"agree\"")]
    assert agree_rows and all('style="display: none;"' in x.split(">")[0] for x in agree_rows)


LONG_VALUE = ("(list 'symbol-one 'symbol-two 'symbol-three 'symbol-four 'symbol-five 'symbol-six "
              "'symbol-seven 'symbol-eight 'symbol-nine 'symbol-ten \"and more symbols\" "
              "(quotient -7 2))")


@pytest.fixture
def long_report(tmp_path, capsys, court_toml):
    """A run of two cases on tree and a seeded bug: one whose long value differs in its last
    characters, one that agrees."""
    text = court_toml.read_text() + '\n[courts.pair]\nmembers = ["tree", "buggy"]\n'
    config = tmp_path / "court.toml"
    config.write_text(text)
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    (corpus / "long.lspx").write_text(LONG_VALUE)
    (corpus / "ok.lspx").write_text("(* 6 7)")
    rep = tmp_path / "rep"
    assert main(["run", str(corpus), "--court", "pair", "--config", str(config),
                 "--report-dir", str(rep), "--plain"]) == 1
    capsys.readouterr()
    return rep


def test_every_report_shows_where_a_long_value_differs(long_report):
    md = (long_report / "summary.md").read_text()
    line = next(x for x in md.splitlines() if "`long`" in x)
    assert "-**3**)" in line and "-**4**)" in line, line  # the differing characters in bold
    case = ET.parse(long_report / "junit.xml").getroot().find(".//testcase[@name='long']")
    message = case.find("failure").get("message")
    assert 'symbols\\" -3)' in message and 'symbols\\" -4)' in message, message
    page = (long_report / "report.html").read_text()
    assert "1 of 2 cases disagreed." in page
    assert "<mark>3</mark>" in page and "<mark>4</mark>" in page


def test_the_headline_names_what_failed():
    assert html.headline(1066, {"agree": 1065, "expectation-broken": 1}) == \
        "1 of 1,066 cases broke its expectation."
    assert html.headline(3, {"agree": 3}) == "All 3 cases agreed."
    assert html.headline(10, {"agree": 7, "disagree": 2, "infrastructure-error": 1}) == \
        "2 of 10 cases disagreed; 1 could not be judged."


MARK_RGB = b"\xff\xd5\x4f"  # the <mark> background of report.html


@pytest.mark.skipif(CHROMIUM is None, reason="chromium is not installed: the browser check of "
                    "report.html needs it (apt-get install chromium)")
def test_the_headline_and_the_marked_span_render_in_headless_chromium(long_report, tmp_path):
    page = (long_report / "report.html").resolve().as_uri()
    dom = chromium("--dump-dom", "--virtual-time-budget=5000", page).stdout
    assert "1 of 2 cases disagreed." in dom
    assert re.search(r"<mark>3</mark>", dom) and re.search(r"<mark>4</mark>", dom)
    shot = tmp_path / "report.png"
    proc = chromium(f"--screenshot={shot}", "--window-size=1600,1400", page)
    assert shot.exists(), proc.stderr[-2000:]
    width, _, rows = png_pixels(shot)
    bpp = len(rows[0]) // width
    marked = sum(1 for row in rows for i in range(0, len(row), bpp) if row[i:i + 3] == MARK_RGB)
    assert marked > 20, "no pixel of the mark's colour: the differing span is not highlighted"
