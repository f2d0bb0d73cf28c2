"""``lispex_reference``: the language's tables, looked up by topic and name.

Every list comes from the kernel's own data (the primitive table, the diagnostic catalog, the
profiles, the normalizer's word lists) or the court's products module, so this tool can never
disagree with what the implementations do. The one list written here is ``ABSENT``: names a
Lispex author may expect from Scheme that the language deliberately leaves out.
"""

from __future__ import annotations

import difflib
from functools import cache
from typing import Any

TOPICS: dict[str, str] = {
    "procedures": "the primitive procedures (name, family, arity, alias, deprecation) and "
                  "notable Scheme procedures that Lispex leaves out",
    "forms": "core and derived special forms, and the forbidden extension forms",
    "reserved": "reserved words (never bindable) and forbidden words (E120 anywhere)",
    "diagnostics": "the diagnostic catalog: every error, warning and meter code",
    "profiles": "the resource profiles and their meter limits",
    "courts": "the courts this server offers and their members",
}

# name -> why it is absent. Calling one is an unbound variable (E300) at run time.
ABSENT: dict[str, str] = {
    "eval": "programs cannot evaluate data as code",
    "assert": "use (error message irritant ...) or guard",
    "set-car!": "pairs are immutable",
    "set-cdr!": "pairs are immutable",
    "string-set!": "strings are immutable",
    "string-fill!": "strings are immutable",
    "vector-fill!": "only vector-set! mutates a vector",
    "bytevector-u8-set!": "bytevectors are immutable",
    "sqrt": "no transcendental functions; exact-integer-sqrt and square are present",
    "exp": "no transcendental functions",
    "log": "no transcendental functions",
    "sin": "no transcendental functions",
    "cos": "no transcendental functions",
    "tan": "no transcendental functions",
    "atan": "no transcendental functions",
    "numerator": "not in the primitive table",
    "denominator": "not in the primitive table",
    "read": "no ports: the input datum is bound to the global `input`",
    "load": "programs never read files",
    "make-hash-table": "no hash tables; use association lists (assoc, assq, assv)",
}


def _procedures() -> list[dict[str, Any]]:
    from implementations.lispex.primitives.table import rows

    out = []
    for r in rows():
        disposition = "alias" if r.alias_of else "deprecated" if r.warning else "present"
        entry: dict[str, Any] = {"name": r.name, "disposition": disposition, "family": r.family,
                                 "arity": r.arity, "min": r.min,
                                 "max": None if r.max < 0 else r.max,
                                 "guest_calling": r.guest}
        if r.alias_of:
            entry["alias_of"] = r.alias_of
        if r.warning:
            entry["warning"] = r.warning
        out.append(entry)
    for name, why in ABSENT.items():
        out.append({"name": name, "disposition": "absent", "reason": why,
                    "diagnostic": "E300"})
    return out


def _forbidden() -> list[dict[str, Any]]:
    from implementations.lispex.forms import FORBIDDEN

    return [{"name": w, "disposition": "forbidden", "kind": "forbidden-extension",
             "diagnostic": "E120"} for w in sorted(FORBIDDEN)]


def _forms() -> list[dict[str, Any]]:
    from implementations.lispex.forms import CORE_FORMS, DERIVED_FORMS

    out = [{"name": f, "disposition": "present", "kind": "core"} for f in CORE_FORMS]
    out += [{"name": f, "disposition": "present", "kind": "derived"} for f in DERIVED_FORMS]
    return out + _forbidden()


def _reserved() -> list[dict[str, Any]]:
    from implementations.lispex.forms import PROCEDURE_KEYWORDS, RESERVED

    out = []
    for w in sorted(RESERVED):
        procedure = w in PROCEDURE_KEYWORDS
        out.append({"name": w, "disposition": "reserved",
                    "kind": "procedure-keyword" if procedure else "syntactic-keyword",
                    "usable_as_value": procedure, "bindable": False, "diagnostic": "E110"})
    return out + _forbidden()


def _diagnostics() -> list[dict[str, Any]]:
    from implementations.lispex.errors import catalog

    return [diagnostic_entry(e) for e in catalog().values()]


def diagnostic_entry(e: Any) -> dict[str, Any]:
    return {"name": e.code, "code": e.code, "disposition": "present", "severity": e.severity,
            "phase": e.phase, "family": e.family, "exit_status": e.exit_status,
            "raising_condition": e.title}


def _profiles(server_default: str) -> list[dict[str, Any]]:
    from implementations.lispex.meters import profiles

    return [{"name": p.id, "disposition": "present", "purpose": p.purpose,
             "public_selectable": p.public_selectable, "kernel_default": p.default,
             "server_default": p.id == server_default, "limits": p.limit_map()}
            for p in profiles().values()]


def _courts(config: Any) -> list[dict[str, Any]]:
    from court.catalog import DEFAULT_COURT, FIXED_COURTS, resolve

    out = []
    for name in config.courts:
        res = resolve(config, name, name_unknown_routes=False)
        out.append({"name": name, "disposition": "present" if res.available else "unavailable",
                    "members": list(res.members), "fixed": name in FIXED_COURTS,
                    "default": name == DEFAULT_COURT, "missing_prerequisites": res.missing,
                    "attempted_routes": res.attempted_routes})
    return out


class Reference:
    def __init__(self, config: Any, server_default_profile: str) -> None:
        self.config = config
        self.server_default_profile = server_default_profile

    @cache  # noqa: B019 - one Reference per server process; the tables never change
    def entries(self, topic: str) -> tuple[dict[str, Any], ...]:
        if topic == "procedures":
            return tuple(_procedures())
        if topic == "forms":
            return tuple(_forms())
        if topic == "reserved":
            return tuple(_reserved())
        if topic == "diagnostics":
            return tuple(_diagnostics())
        if topic == "profiles":
            return tuple(_profiles(self.server_default_profile))
        if topic == "courts":
            return tuple(_courts(self.config))
        raise KeyError(topic)

    def lookup(self, topic: str | None, name: str | None) -> dict[str, Any]:
        if topic is None and name is None:
            return {"topics": [{"topic": t, "description": d, "count": len(self.entries(t))}
                               for t, d in TOPICS.items()]}
        if name is None:
            assert topic is not None
            return {"topic": topic, "entries": list(self.entries(topic))}
        searched = [topic] if topic else list(TOPICS)
        for t in searched:
            for entry in self.entries(t):
                if entry["name"] == name:
                    # The entry's own fields at the top, as lispex_diagnostic answers.
                    return {"topic": t, "known": True, **entry}
        names = [e["name"] for t in searched for e in self.entries(t)]
        return {"topic": topic, "known": False, "name": name,
                "suggestions": difflib.get_close_matches(name, names, n=5, cutoff=0.6)}
