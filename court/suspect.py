"""The suspect: a labelled guess at who is wrong in a disagreement, counting lineages.

Members of one lineage share a kernel (reader, normalizer, values, numeric tower, primitives), so
on what they share they are one voice, however many they are. The guess is never certain and
is made only where one side has a majority of independent voices:

- a member alone against its siblings and every other lineage is the suspect (its lineage sides
  with the others, so the fault is in what it does not share: its back end);
- where the split follows lineage lines, lineages count one each: the side with fewer lineages
  is the suspect (a member, or a whole lineage: a kernel suspect); when the built-ins (the
  members that are not witnesses) stand together against every witness that answered, the
  built-ins are the odd ones; a witness alone against everything else is the suspect, and the
  case is a candidate known difference of that witness rather than a finding;
- two sides with as many lineages each (lineage against lineage, a built-in against one witness)
  get no guess: ``withheld`` says so and names the lineages, until an independent voice (a
  witness, a third lineage) is present.

A witness is a product that speaks another language mapped onto Lispex through a prelude, with
a file of known differences (Product.known_differences).
"""

from __future__ import annotations

from typing import Any


def guess(factions: list[list[str]], lineages: dict[str, str] | None = None,
          witnesses: set[str] | frozenset[str] = frozenset(),
          axis: str | None = None) -> dict[str, Any] | None:
    """The guess over ``factions`` of the members that answered (None where nothing can be said:
    fewer than three members, or more than two factions)."""
    lineages = lineages or {}
    members = [m for f in factions for m in f]
    n = len(members)
    if n < 3 or len(factions) != 2:
        return None
    majority, minority = sorted(factions, key=lambda f: -len(f))

    def lineage(m: str) -> str:
        return lineages.get(m, m)

    ours, theirs = {lineage(m) for m in majority}, {lineage(m) for m in minority}
    on = f" on {axis}" if axis else ""
    if ours & theirs:
        return _within_lineage(majority, minority, ours & theirs, lineage, n)
    by_lineage = {lin: sorted(m for m in members if lineage(m) == lin)
                  for lin in sorted(ours | theirs)}
    answered_witnesses = set(members) & set(witnesses)
    for side, other in ((majority, minority), (minority, majority)):
        if len(answered_witnesses) > 1 and set(side) == answered_witnesses:
            # Witnesses that agree with each other are independent readings of what the
            # built-ins share (the language reference): against all of them, the built-ins are
            # the odd ones, whatever the count of lineages.
            mine = sorted({lineage(m) for m in other})
            return {"member": other[0] if len(other) == 1 else None,
                    "members": sorted(other), "certain": False, "odd": "built-ins",
                    "lineages": mine,
                    "basis": f"the built-ins ({', '.join(sorted(other))}; lineage(s) "
                             f"{', '.join(mine)}) stand against every witness that answered "
                             f"({', '.join(side)}){on}: a kernel suspect"}
    if len(ours) == len(theirs):
        return _withheld(majority, minority, ours, theirs, by_lineage, on)
    if len(ours) < len(theirs):
        majority, minority, ours, theirs = minority, majority, theirs, ours
    basis = (f"alone against a majority of {len(ours)} of {len(ours) + len(theirs)} independent "
             f"lineages ({', '.join(sorted(ours))}; members {', '.join(majority)})")
    out: dict[str, Any] = {"member": minority[0] if len(minority) == 1 else None,
                           "members": sorted(minority), "certain": False,
                           "lineages": sorted(theirs), "basis": basis}
    if len(minority) == 1 and minority[0] in witnesses:
        out["odd"] = "witness"
        out["candidate_known_difference"] = True
        out["basis"] = (f"the witness {minority[0]} stands alone against {len(ours)} "
                        f"independent lineages ({', '.join(sorted(ours))}){on}: a candidate "
                        "known difference of that witness, not a finding")
    elif len(minority) > 1:
        out["odd"] = "lineage"
        out["basis"] = (f"the lineage(s) {', '.join(sorted(theirs))} ({', '.join(minority)}) "
                        f"against a majority of {len(ours)} of {len(ours) + len(theirs)} "
                        f"independent lineages ({', '.join(sorted(ours))}){on}: a kernel suspect")
    else:
        out["odd"] = "member"
    return out


def _within_lineage(majority: list[str], minority: list[str], shared: set[str], lineage,
                    n: int) -> dict[str, Any] | None:
    """A lineage on both sides: its members disagree on what they do not share."""
    if len(minority) != 1:
        return None  # several members against several, a lineage on both sides: no one voice
    loner = minority[0]
    others = {lineage(m) for m in majority} - {lineage(loner)}
    if others:
        return {"member": loner, "members": [loner], "certain": False, "odd": "member",
                "lineages": [lineage(loner)],
                "basis": f"alone against its own lineage ({lineage(loner)}) and every other "
                         f"lineage ({', '.join(sorted(others))}; members {', '.join(majority)})"}
    if len(majority) * 2 > n:
        return {"member": loner, "members": [loner], "certain": False, "odd": "member",
                "lineages": [lineage(loner)],
                "basis": f"alone against a majority of {len(majority)} of {n} members "
                         f"({', '.join(majority)})"}
    return None


def _withheld(majority: list[str], minority: list[str], ours: set[str], theirs: set[str],
              by_lineage: dict[str, list[str]], on: str) -> dict[str, Any]:
    if all(len(by_lineage[lin]) > 1 for lin in ours | theirs):
        sides = " against ".join(
            ", ".join(f"{lin} ({', '.join(by_lineage[lin])})" for lin in sorted(side))
            for side in (ours, theirs))
        basis = (f"lineage against lineage{on}: {sides}; each lineage shares a kernel, so "
                 "this is one voice against one until an independent voice (a witness, a "
                 "third lineage) is present")
    else:
        basis = (f"no majority{on}: {len(majority)} member(s) of {len(ours)} lineage(s) "
                 f"({', '.join(sorted(ours))}: {', '.join(majority)}) against "
                 f"{', '.join(minority)} (lineage(s) {', '.join(sorted(theirs))}) is "
                 f"{_count(len(ours))} voice(s) against {_count(len(theirs))}; members of one "
                 "lineage share a kernel, so they count once")
    return {"member": None, "members": [], "certain": False, "withheld": True,
            "lineages": {lin: by_lineage[lin] for lin in sorted(ours | theirs)},
            "basis": basis}


def _count(k: int) -> str:
    return "one" if k == 1 else str(k)
