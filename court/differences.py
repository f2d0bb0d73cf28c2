"""Known differences: where a witness product and Lispex differ on purpose, as named data.

A product's manifest may name a file (``known_differences``) of entries like

    [[difference]]
    id = "no-infinities"
    side = "lispex"          # whose departure from R7RS it is: lispex or the witness
    title = "Lispex has no infinities or NaN"
    explain = "..."
    lispex_codes = ["E313", "E314"]   # the built-ins' diagnostic code is one of these
    witness = '[+-](inf|nan)\\.0'     # a regular expression the witness's answer matches
    uses = ["/", "expt"]              # the program uses one of these names
    source = 'regex'                  # the program's text matches
    cases = ["conformance/reader/*"]  # the case id matches one of these globs
    fuzz_avoid = true                 # the fuzzer generates no program that uses `uses`

Every criterion given must hold (each list: any of its items); an entry with none is refused.
A file may begin with ``include = ["other.toml"]`` (paths relative to it): the entries every
witness shares, Lispex's own deliberate rules, are written once and included by each witness's
file; an id may appear once in all of them.
A disagreement between the witness and the other members that an entry covers is a **known
difference**, reported with the entry's id; any other disagreement is a finding.

``timeouts = true`` lets an entry cover a witness that ran out of time where the Lispex members
reached a resource outcome (a meter the witness has no counterpart for).
"""

from __future__ import annotations

import fnmatch
import json
import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

SIDES = ("lispex", "witness")
KEYS = {"id", "side", "title", "explain", "lispex_codes", "lispex_status", "witness", "uses",
        "source", "cases", "fuzz_avoid", "timeouts"}
# What a symbol is, loosely, for `uses`: a run of characters that are not delimiters.
TOKEN = re.compile(r"[^\s()\[\]{}\"';`,]+")


class DifferencesError(Exception):
    """A malformed known-differences file."""


@dataclass
class Difference:
    id: str
    side: str
    title: str
    explain: str
    lispex_codes: list[str] = field(default_factory=list)
    lispex_status: list[str] = field(default_factory=list)
    witness: re.Pattern | None = None
    uses: list[str] = field(default_factory=list)
    source: re.Pattern | None = None
    cases: list[str] = field(default_factory=list)
    fuzz_avoid: bool = False
    timeouts: bool = False

    def static_match(self, source: str) -> bool:
        """Whether the program text alone shows the feature (``uses``/``source``), for entries
        that have such criteria."""
        if self.uses and not uses_any(source, self.uses):
            return False
        if self.source is not None and not self.source.search(source):
            return False
        return bool(self.uses or self.source is not None)


def uses_any(source: str, names: list[str]) -> bool:
    tokens = set(TOKEN.findall(strip_comments(source)))
    return any(n in tokens for n in names)


def strip_comments(source: str) -> str:
    return re.sub(r";[^\n]*", "", source)


def _patterns(value: Any, where: str) -> re.Pattern | None:
    if value is None:
        return None
    if not isinstance(value, str):
        raise DifferencesError(f"{where}: must be a regular expression string")
    try:
        return re.compile(value)
    except re.error as e:
        raise DifferencesError(f"{where}: {e}") from None


def _strings(value: Any, where: str) -> list[str]:
    if value is None:
        return []
    if not isinstance(value, list) or not all(isinstance(x, str) and x for x in value):
        raise DifferencesError(f"{where}: must be a list of strings")
    return list(value)


def load(path: Path, _including: tuple[Path, ...] = ()) -> list[Difference]:
    try:
        data = tomllib.loads(path.read_text("utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as e:
        raise DifferencesError(f"{path}: {e}") from None
    out: list[Difference] = []
    includes = data.get("include", [])
    if not isinstance(includes, list) or not all(isinstance(x, str) and x for x in includes):
        raise DifferencesError(f"{path}: include must be a list of paths")
    for name in includes:
        other = (path.parent / name).resolve()
        if other in _including or other == path.resolve():
            raise DifferencesError(f"{path}: include {name} includes itself")
        out.extend(load(other, (*_including, path.resolve())))
    seen: set[str] = {d.id for d in out}
    for i, entry in enumerate(data.get("difference", [])):
        where = f"{path}: difference #{i + 1}"
        if not isinstance(entry, dict):
            raise DifferencesError(f"{where}: must be a table")
        unknown = set(entry) - KEYS
        if unknown:
            raise DifferencesError(f"{where}: unknown keys {sorted(unknown)}")
        did = entry.get("id")
        if not isinstance(did, str) or not did or did in seen:
            raise DifferencesError(f"{where}: needs a unique id")
        seen.add(did)
        side = entry.get("side")
        if side not in SIDES:
            raise DifferencesError(f"{where} ({did}): side must be one of {', '.join(SIDES)}")
        for k in ("title", "explain"):
            if not isinstance(entry.get(k), str) or not entry[k].strip():
                raise DifferencesError(f"{where} ({did}): needs a {k}")
        d = Difference(
            id=did, side=side, title=entry["title"], explain=entry["explain"].strip(),
            lispex_codes=_strings(entry.get("lispex_codes"), f"{where} ({did}).lispex_codes"),
            lispex_status=_strings(entry.get("lispex_status"), f"{where} ({did}).lispex_status"),
            witness=_patterns(entry.get("witness"), f"{where} ({did}).witness"),
            uses=_strings(entry.get("uses"), f"{where} ({did}).uses"),
            source=_patterns(entry.get("source"), f"{where} ({did}).source"),
            cases=_strings(entry.get("cases"), f"{where} ({did}).cases"),
            fuzz_avoid=bool(entry.get("fuzz_avoid", False)),
            timeouts=bool(entry.get("timeouts", False)))
        if not (d.lispex_codes or d.lispex_status or d.witness or d.uses or d.source or d.cases):
            raise DifferencesError(f"{where} ({did}): needs at least one criterion")
        out.append(d)
    unknown_top = set(data) - {"difference", "schema", "include"}
    if unknown_top:
        raise DifferencesError(f"{path}: unknown tables {sorted(unknown_top)}")
    return out


def _answer(obs: dict[str, Any]) -> str:
    """The witness's normative answer as one text, for the ``witness`` pattern."""
    sem = obs["semantic"]
    return json.dumps({"status": sem["status"], "values": sem.get("values"),
                       "stdout": sem.get("stdout")}, ensure_ascii=False)


def covers(d: Difference, witness: str, observations: dict[str, dict[str, Any]],
           source: str, case_id: str | None, lispex: list[str] | None = None) -> bool:
    """Whether ``d`` explains ``witness``'s answer against the Lispex side: the members named in
    ``lispex`` (by default every other member)."""
    others = [o for m, o in observations.items()
              if m != witness and (lispex is None or m in lispex)]
    if witness not in observations or not others:
        return False
    if d.cases and not (case_id and any(fnmatch.fnmatchcase(case_id, g) for g in d.cases)):
        return False
    if d.uses and not uses_any(source, d.uses):
        return False
    if d.source is not None and not d.source.search(source):
        return False
    if d.lispex_codes:
        codes = {((o["semantic"].get("diagnostics") or [{}])[0]).get("code") for o in others}
        if not codes & set(d.lispex_codes):
            return False
    if d.lispex_status:
        if not {o["semantic"]["status"] for o in others} & set(d.lispex_status):
            return False
    if d.witness is not None and not d.witness.search(_answer(observations[witness])):
        return False
    return True


@dataclass
class KnownDifferences:
    """Every known difference of a court's members, by the member it belongs to."""

    by_member: dict[str, list[Difference]]

    @classmethod
    def for_products(cls, products: dict[str, Any]) -> KnownDifferences:
        out = {}
        for m, p in products.items():
            path = getattr(p, "known_differences", None)
            if path is not None:
                out[m] = load(Path(path))
        return cls(out)

    def __bool__(self) -> bool:
        return any(self.by_member.values())

    def _lispex_side(self, observations: dict[str, dict[str, Any]]) -> list[str]:
        """The members with no known-differences file: the Lispex implementations."""
        return [m for m in observations if m not in self.by_member]

    def match(self, observations: dict[str, dict[str, Any]], factions: list[list[str]],
              source: str, case_id: str | None = None) -> Difference | None:
        """The entry that explains this disagreement, if one does: the Lispex members stand
        together, and every witness that stands apart from them has an entry of its own file
        that covers its answer (one witness alone, or several, each for its own reason). With
        no Lispex member in the court, a witness alone in its faction is matched."""
        lispex = self._lispex_side(observations)
        home = [f for f in factions if set(f) & set(lispex)]
        if not lispex:
            for member, entries in self.by_member.items():
                if [member] in factions:
                    for d in entries:
                        if covers(d, member, observations, source, case_id):
                            return d
            return None
        if len(home) != 1 or not set(lispex) <= set(home[0]):
            return None  # the Lispex members disagree among themselves: no list excuses that
        odd = [m for m in self.by_member if m in observations and m not in home[0]]
        found: Difference | None = None
        for member in odd:
            d = next((d for d in self.by_member[member]
                      if covers(d, member, observations, source, case_id, lispex)), None)
            if d is None:
                return None
            found = found or d
        return found

    def match_resource(self, observations: dict[str, dict[str, Any]], source: str,
                       case_id: str | None = None) -> Difference | None:
        """An entry (``timeouts = true``) that covers each witness running on, to an answer or
        to the deadline, where every Lispex member reached a resource limit (meters and a
        recursion limit the witnesses have no counterpart for)."""
        lispex = self._lispex_side(observations)
        if not lispex or any(observations[m]["semantic"]["status"] != "resource"
                             for m in lispex):
            return None
        found: Difference | None = None
        for member, entries in self.by_member.items():
            obs = observations.get(member)
            if obs is None or obs["semantic"]["status"] == "resource":
                continue
            if obs["semantic"]["status"] == "infrastructure-error" and \
                    [f.get("kind") for f in obs.get("faults", [])] != ["timeout"]:
                return None
            d = next((d for d in entries if d.timeouts and
                      covers(d, member, observations, source, case_id, lispex)), None)
            if d is None:
                return None
            found = found or d
        return found

    def avoided_names(self) -> set[str]:
        return {n for entries in self.by_member.values() for d in entries if d.fuzz_avoid
                for n in d.uses}

    def static_entries(self) -> list[Difference]:
        return [d for entries in self.by_member.values() for d in entries
                if d.fuzz_avoid and (d.uses or d.source is not None)]
