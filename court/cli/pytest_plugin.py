"""The court inside pytest: every Lispex corpus case (a ``.lspx`` file with its blessed
``.expect.toml`` beside it) is a test item, judged by the court as ``court run`` judges it.

    pytest corpus/examples --court all-four -q
    pytest corpus -k 'age-gate and not germany' -x --junitxml=court.xml
    pytest corpus --lf -n 2            # pytest-xdist: each worker process has its own court

The plugin is registered as a ``pytest11`` entry point when the package is installed, and is
active only for Lispex files: a ``.lspx`` file without an expectation beside it, and every other
file, is left to pytest and its other plugins. A failing case's report is the court's own
account (the first differing axis around the place where the members differ, the broken
expectation, the fault) and the command that shows it again. The ``lispex_court`` fixture gives
property tests (see ``court.fuzz.strategies``) the same court.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

import pytest

from .. import corpus as corpus_files
from ..report.difference import as_text

OPTION_COURT = "--court"
# Outcomes that pass; a case not comparable (a member met a resource limit or a timeout) is
# skipped with the reason, as `court run` warns about it without failing.
PASSING = ("agree", "known-difference")


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("lispex", "Lispex Court (corpus cases as test items)")
    group.addoption(OPTION_COURT, dest="lispex_court", default=None, metavar="NAME",
                    help="the court that judges Lispex cases (default tree-rust)")
    group.addoption("--court-impl", dest="lispex_impl", default=None, metavar="A,B",
                    help="an ad-hoc panel of product ids instead of a court")
    group.addoption("--court-config", dest="lispex_config", default=None, metavar="FILE",
                    help="a court.toml (default: the nearest one from the current folder up)")
    group.addoption("--court-profile", dest="lispex_profile", default=None, metavar="ID",
                    help="resource profile id")
    group.addoption("--court-timeout", dest="lispex_timeout", default=None, type=float,
                    metavar="SECONDS", help="wall-clock safety net per member per case")


def pytest_collect_file(file_path: Path, parent: pytest.Collector) -> pytest.Collector | None:
    if file_path.suffix != ".lspx":
        return None
    if not file_path.with_name(file_path.stem + ".expect.toml").is_file():
        return None
    return LispexFile.from_parent(parent, path=file_path)


class LispexFile(pytest.File):
    def collect(self):  # type: ignore[override]
        try:
            [case] = corpus_files.discover([self.path])
        except corpus_files.CaseError as e:
            raise self.CollectError(f"malformed Lispex case: {e}") from None
        yield LispexCase.from_parent(self, name=self.path.stem, case=case)


class CaseFailed(Exception):
    """A case the court did not pass: ``args[0]`` is its report entry (``case_json``)."""


class LispexCase(pytest.Item):
    def __init__(self, *, case: Any, **kw: Any) -> None:
        super().__init__(**kw)
        self.case = case

    def runtest(self) -> None:
        court = court_of(self.config)
        record = court.judge(self.case)
        if record.outcome in PASSING:
            return
        entry = court.entry(record)
        if record.outcome == "not-comparable":
            pytest.skip("not comparable: " + "; ".join(entry.get("reasons") or [])
                        or "a member met a resource limit or a timeout")
        raise CaseFailed(entry)

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException],
                     style: Any = None) -> str:
        if isinstance(excinfo.value, CaseFailed):
            return failure_text(excinfo.value.args[0])
        if isinstance(excinfo.value, CourtUnusable):
            return str(excinfo.value)
        return super().repr_failure(excinfo)

    def reportinfo(self) -> tuple[Path, int, str]:
        return self.path, 0, f"lispex case {self.case.id}"


def failure_text(entry: dict[str, Any], width: int = 100) -> str:
    """The court's account of a failing case, as `court run`'s FAILURES section gives it."""
    from .failures import case_lines

    lines = [f"{entry['id']}: {entry['outcome']}"]
    lines += [t.plain for t in case_lines(entry, width, plain=True)]
    if entry.get("reproduce"):
        import shlex

        lines += ["reproduce:", "  " + shlex.join(entry["reproduce"])]
    return "\n".join(lines)


class CourtUnusable(Exception):
    """The court named on the command line cannot judge anything (unknown, or unavailable)."""


class PytestCourt:
    """One warm court per pytest process (an xdist worker has its own), opened at the first
    case and closed when pytest ends; between cases nothing is kept but the warm workers, which
    start every case from a fresh global environment."""

    def __init__(self, config: pytest.Config) -> None:
        opt = config.option
        self.args = argparse.Namespace(
            court=opt.lispex_court, impl=opt.lispex_impl, config=opt.lispex_config,
            profile=opt.lispex_profile, limit=[], timeout=opt.lispex_timeout,
            memory_limit=2048, jobs=None)
        self.session: Any = None
        self.res: Any = None
        self.known: Any = None
        self.limits: Any = None

    def open(self) -> None:
        from ..differences import KnownDifferences
        from ..session import CourtSession
        from .compare import limits_from, resolution
        from .usage import UsageError

        try:
            self.limits = limits_from(self.args)
            self.res = resolution(self.args)
        except UsageError as e:
            raise CourtUnusable(str(e)) from None
        if not self.res.available:
            raise CourtUnusable(f"court {self.res.court} is unavailable: missing "
                                f"{', '.join(self.res.missing)}; looked at: "
                                f"{'; '.join(self.res.attempted_routes)}")
        self.known = KnownDifferences.for_products(self.res.products)
        self.session = CourtSession(self.res, self.limits, jobs=min(2, len(self.res.members)))

    def judge(self, case: Any) -> Any:
        from ..runner import run_one

        if self.session is None:
            self.open()
        return run_one(self.session, case, self.limits, self.known)

    def entry(self, record: Any) -> dict[str, Any]:
        from ..report.model import case_json
        from .failures import reproduce_argv

        return case_json(record, reproduce_argv(record.case, self.res, self.args, record.outcome))

    def compare(self, source: str | bytes, input_text: str | None = None,
                filename: str = "program.lspx") -> Any:
        """One program on this court: the case result (``.verdict.kind``, ``.observations``),
        for property tests. A malformed input datum raises ``court.session.InputRejected``."""
        if self.session is None:
            self.open()
        data = source.encode("utf-8") if isinstance(source, str) else source
        return self.session.run_case(data, input_text, filename)

    def close(self) -> None:
        if self.session is not None:
            self.session.close()
            self.session = None


def court_of(config: pytest.Config) -> PytestCourt:
    court = getattr(config, "_lispex_court", None)
    if court is None:
        court = PytestCourt(config)
        config._lispex_court = court  # type: ignore[attr-defined]
        config.add_cleanup(court.close)
    return court


@pytest.fixture(scope="session")
def lispex_court(request: pytest.FixtureRequest) -> PytestCourt:
    """The court of the command line (``--court``, ``--court-impl``, ``--court-config``), warm
    for the whole session: ``lispex_court.compare(source, input)`` judges one program."""
    return court_of(request.config)


def verdict_summary(result: Any) -> str:
    """A case result in one line, for an assertion message."""
    v = result.verdict
    values = {m: as_text(o["semantic"].get("values")) for m, o in result.observations.items()}
    return f"{v.kind}: " + " | ".join(f"{m} {t}" for m, t in values.items())
