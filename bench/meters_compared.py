"""Whether a corpus run compared the meters of a meter model on every case.

    python bench/meters_compared.py [REPORT_DIR]      # default: reports

Reads the `court-report.json` a `court run` wrote (e.g. `court run corpus --court tree-rust`)
and prints, over the members of each meter model in it: the cases, how many agree, how many
have a member that disowned its count (`resources.meter_exact: false`) and how many have every
member's machine-transition count and equal usage. Exits 1 unless every case agrees and every
case's members of one model report the same usage with none disowning it.
"""

from __future__ import annotations

import json
import sys
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from court.catalog import load_config, resolve  # noqa: E402


def main(argv: list[str]) -> int:
    folder = Path(argv[0]) if argv else Path("reports")
    try:
        report = json.loads((folder / "court-report.json").read_text("utf-8"))
    except (OSError, ValueError) as e:
        print(f"meters_compared: cannot read {folder / 'court-report.json'}: {e}; run "
              "`court run corpus --court tree-rust` first", file=sys.stderr)
        return 2
    court = report["run"]["court"]
    config = load_config(search_cwd=False)
    res = resolve(config, impls=court.split("+")) if court not in config.courts else \
        resolve(config, court)
    models = res.meter_models()
    groups: dict[str, list[str]] = defaultdict(list)
    for member, model in models.items():
        if model:
            groups[model].append(member)
    cases = report["cases"]
    agree = sum(1 for c in cases if c["outcome"] == "agree")
    ok = True
    print(f"{court}: {len(cases)} cases, {agree} agree")
    ok &= agree == len(cases)
    for model, members in sorted(groups.items()):
        if len(members) < 2:
            continue
        disowned = compared = 0
        for c in cases:
            res = [(c.get("observations") or {}).get(m, {}).get("resources") or {}
                   for m in members]
            if any(r.get("meter_exact") is False for r in res):
                disowned += 1
            usages = [r.get("usage") for r in res]
            if all(u and isinstance(u.get("machine_transitions"), int) for u in usages) and \
                    all(u == usages[0] for u in usages):
                compared += 1
        print(f"  {model} ({', '.join(members)}): meter_exact false on {disowned} cases; "
              f"the same usage, machine transitions included, on {compared} of {len(cases)}")
        ok &= disowned == 0 and compared == len(cases)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
