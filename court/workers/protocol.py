"""The shape of `lispex.court-worker/v1` replies and of observations, checked before any use.

The rules are those of ``docs/schemas/court-worker-v1.schema.json``, written out by hand because
jsonschema is not a runtime dependency (a test keeps the two in agreement on good and bad
replies). Each check returns ``None`` for a well-formed document, or one sentence naming the
first field that is wrong: a reply that breaks the protocol is a `protocol` fault for its case and
member, never an exception in a slot thread.
"""

from __future__ import annotations

from typing import Any

STATUSES = ("ok", "source-error", "runtime-error", "resource")
PHASES = ("reader", "normalizer", "runtime", "resource", None)
ERROR_KINDS = ("input-error", "bad-request", "memory-limit")
OUTCOMES = ("within-limits", "limit-exceeded")


class Malformed(Exception):
    """Raised inside the checks; turned into the returned sentence at the entry points."""


def _type(x: Any) -> str:
    if x is None:
        return "null"
    if isinstance(x, bool):
        return "a boolean"
    if isinstance(x, int):
        return "an integer"
    if isinstance(x, float):
        return "a number"
    if isinstance(x, str):
        return "a string"
    if isinstance(x, list):
        return "a list"
    if isinstance(x, dict):
        return "an object"
    return type(x).__name__


def _is_int(x: Any) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


def _obj(x: Any, where: str) -> dict[str, Any]:
    if not isinstance(x, dict):
        raise Malformed(f"{where} must be an object, not {_type(x)}")
    return x


def _need(d: dict[str, Any], key: str, where: str) -> Any:
    if key not in d:
        raise Malformed(f"{where} has no {key!r}")
    return d[key]


def _str(x: Any, where: str, nullable: bool = False) -> None:
    if not (isinstance(x, str) or (nullable and x is None)):
        raise Malformed(f"{where} must be a string{' or null' if nullable else ''}, "
                        f"not {_type(x)}")


def _int(x: Any, where: str, nullable: bool = False, minimum: int | None = None) -> None:
    if nullable and x is None:
        return
    if not _is_int(x):
        raise Malformed(f"{where} must be an integer{' or null' if nullable else ''}, "
                        f"not {_type(x)}")
    if minimum is not None and x < minimum:
        raise Malformed(f"{where} must be at least {minimum}, not {x}")


def _one_of(x: Any, allowed: tuple, where: str) -> None:
    # `True in (0, 1, 2)` is true in Python; a JSON boolean is never a status or a code.
    if isinstance(x, bool) or x not in allowed or (isinstance(x, float)):
        shown = ", ".join("null" if a is None else repr(a) for a in allowed)
        raise Malformed(f"{where} must be one of {shown}, not {x!r}")


def _strings(x: Any, where: str) -> None:
    if not isinstance(x, list):
        raise Malformed(f"{where} must be a list of strings, not {_type(x)}")
    for i, item in enumerate(x):
        if not isinstance(item, str):
            raise Malformed(f"{where}[{i}] must be a string, not {_type(item)}")


def _span(x: Any, where: str) -> None:
    if x is None:
        return
    span = _obj(x, where)
    _int(_need(span, "line", where), f"{where}.line", minimum=1)
    _int(_need(span, "column", where), f"{where}.column", minimum=1)
    if "file" in span:
        _str(span["file"], f"{where}.file")
    for key in ("start", "end"):
        if key in span:
            _int(span[key], f"{where}.{key}", nullable=True)


def _diagnostic(x: Any, where: str) -> None:
    d = _obj(x, where)
    _str(_need(d, "code", where), f"{where}.code")
    _one_of(_need(d, "phase", where), PHASES, f"{where}.phase")
    if "severity" in d:
        _one_of(d["severity"], ("error", "warning"), f"{where}.severity")
    if "message" in d:
        _str(d["message"], f"{where}.message")
    if "irritants" in d:
        _strings(d["irritants"], f"{where}.irritants")
    if "span" in d:
        _span(d["span"], f"{where}.span")


def _diagnostics(x: Any, where: str, at_most: int | None = None) -> None:
    if not isinstance(x, list):
        raise Malformed(f"{where} must be a list, not {_type(x)}")
    if at_most is not None and len(x) > at_most:
        raise Malformed(f"{where} holds {len(x)} diagnostics; at most {at_most} is allowed")
    for i, item in enumerate(x):
        _diagnostic(item, f"{where}[{i}]")


def _semantic(x: Any, where: str) -> None:
    sem = _obj(x, where)
    _one_of(_need(sem, "status", where), STATUSES, f"{where}.status")
    _strings(_need(sem, "values", where), f"{where}.values")
    _str(_need(sem, "stdout", where), f"{where}.stdout")
    _one_of(_need(sem, "exit_status", where), (0, 1, 2), f"{where}.exit_status")
    _diagnostics(_need(sem, "diagnostics", where), f"{where}.diagnostics", at_most=1)
    _diagnostics(_need(sem, "warnings", where), f"{where}.warnings")
    if "resource_outcome" in sem:
        ro = _obj(sem["resource_outcome"], f"{where}.resource_outcome")
        _one_of(_need(ro, "status", f"{where}.resource_outcome"), OUTCOMES,
                f"{where}.resource_outcome.status")
        for key in ("limit", "code"):
            if key in ro:
                _str(ro[key], f"{where}.resource_outcome.{key}")


def _observation(x: Any, where: str) -> None:
    obs = _obj(x, where)
    if "schema" in obs and obs["schema"] != "lispex.court-observation/v1":
        raise Malformed(f"{where}.schema must be 'lispex.court-observation/v1', "
                        f"not {obs['schema']!r}")
    if "implementation" in obs:
        _str(obs["implementation"], f"{where}.implementation")
    _semantic(_need(obs, "semantic", where), f"{where}.semantic")
    if "resources" in obs:
        _obj(obs["resources"], f"{where}.resources")
    if "products" in obs:
        products = _obj(obs["products"], f"{where}.products")
        for key in ("product_id", "core_ir_id"):
            if key in products:
                _str(products[key], f"{where}.products.{key}")


def _checked(fn: Any, x: Any, where: str) -> str | None:
    try:
        fn(x, where)
    except Malformed as e:
        return str(e)
    return None


def check_observation(obs: Any, where: str = "the observation") -> str | None:
    """An observation as a worker's run reply carries it or an observation-json product prints
    it (`#/$defs/observation`)."""
    return _checked(_observation, obs, where)


def _hello(x: Any, where: str) -> None:
    r = _obj(x, where)
    if "id" in r:
        _int(r["id"], f"{where}.id", nullable=True)
    if _need(r, "ok", where) is not True:
        raise Malformed(f"{where}.ok must be true")
    _str(_need(r, "product_id", where), f"{where}.product_id", nullable=True)
    if "schema" in r and r["schema"] != "lispex.court-worker/v1":
        raise Malformed(f"{where}.schema must be 'lispex.court-worker/v1', not {r['schema']!r}")
    if "implementation" in r:
        _str(r["implementation"], f"{where}.implementation")
    if "rss_method" in r:
        _str(r["rss_method"], f"{where}.rss_method", nullable=True)
    if "pid" in r:
        _int(r["pid"], f"{where}.pid")


def check_hello(reply: Any) -> str | None:
    """The answer to ``{"op": "hello"}`` (`#/$defs/hello_reply`)."""
    return _checked(_hello, reply, "the hello reply")


def _run(x: Any, where: str) -> None:
    r = _obj(x, where)
    ok = _need(r, "ok", where)
    if ok is True:
        _int(_need(r, "id", where), f"{where}.id")
        _observation(_need(r, "observation", where), f"{where}.observation")
    elif ok is False:
        _int(_need(r, "id", where), f"{where}.id", nullable=True)
        err = _obj(_need(r, "error", where), f"{where}.error")
        _one_of(_need(err, "kind", f"{where}.error"), ERROR_KINDS, f"{where}.error.kind")
        _str(_need(err, "message", f"{where}.error"), f"{where}.error.message")
    else:
        raise Malformed(f"{where}.ok must be true or false, not {ok!r}")


def check_run_reply(reply: Any) -> str | None:
    """The answer to a ``run`` request: `#/$defs/run_reply` or `#/$defs/error_reply`."""
    if type(reply) is dict and reply.get("ok") is True and _good_run(reply):
        return None
    return _checked(_run, reply, "the reply")


# The usual reply, recognised without naming fields: the checks above build each field's name
# before they look at it, which cost more per case than the rest of the court's bookkeeping. Only
# ever stricter than `_run` (exact types, required shapes); whatever it does not accept goes
# through `_run`, which decides and names the field.
_STATUS_SET = frozenset(STATUSES)
_PHASE_SET = frozenset(p for p in PHASES if p is not None)
_OUTCOME_SET = frozenset(OUTCOMES)


def _good_strings(x: Any) -> bool:
    return type(x) is list and all(type(i) is str for i in x)


def _good_diagnostic(d: Any) -> bool:
    if type(d) is not dict or type(d.get("code")) is not str:
        return False
    phase = d.get("phase", 0)
    if phase is not None and (type(phase) is not str or phase not in _PHASE_SET):
        return False
    if "severity" in d and d["severity"] not in ("error", "warning"):
        return False
    if "message" in d and type(d["message"]) is not str:
        return False
    if "irritants" in d and not _good_strings(d["irritants"]):
        return False
    span = d.get("span")
    if span is None:
        return True
    if type(span) is not dict:
        return False
    line, column = span.get("line"), span.get("column")
    if type(line) is not int or type(column) is not int or line < 1 or column < 1:
        return False
    if "file" in span and type(span["file"]) is not str:
        return False
    start, end = span.get("start"), span.get("end")
    return (start is None or type(start) is int) and (end is None or type(end) is int)


def _good_run(r: dict) -> bool:
    obs = r.get("observation")
    if type(r.get("id")) is not int or type(obs) is not dict:
        return False
    if obs.get("schema", "lispex.court-observation/v1") != "lispex.court-observation/v1":
        return False
    if "implementation" in obs and type(obs["implementation"]) is not str:
        return False
    if "resources" in obs and type(obs["resources"]) is not dict:
        return False
    if "products" in obs:
        products = obs["products"]
        if type(products) is not dict:
            return False
        for key in ("product_id", "core_ir_id"):
            if key in products and type(products[key]) is not str:
                return False
    sem = obs.get("semantic")
    if type(sem) is not dict:
        return False
    status, exit_status = sem.get("status"), sem.get("exit_status")
    if type(status) is not str or status not in _STATUS_SET:
        return False
    if type(exit_status) is not int or exit_status not in (0, 1, 2):
        return False
    if not _good_strings(sem.get("values")) or type(sem.get("stdout")) is not str:
        return False
    diagnostics, warnings = sem.get("diagnostics"), sem.get("warnings")
    if type(diagnostics) is not list or len(diagnostics) > 1 or type(warnings) is not list:
        return False
    if not all(_good_diagnostic(d) for d in diagnostics) or \
            not all(_good_diagnostic(d) for d in warnings):
        return False
    if "resource_outcome" in sem:
        ro = sem["resource_outcome"]
        if type(ro) is not dict or type(ro.get("status")) is not str or \
                ro["status"] not in _OUTCOME_SET:
            return False
        for key in ("limit", "code"):
            if key in ro and type(ro[key]) is not str:
                return False
    return True


def fill_defaults(obs: dict[str, Any]) -> dict[str, Any]:
    """A well-formed observation with what the protocol lets a product leave out filled in, so
    that everything downstream (verdict, reports) sees one complete shape. Modifies ``obs``."""
    sem = obs["semantic"]
    for key, severity in (("diagnostics", "error"), ("warnings", "warning")):
        for d in sem[key]:
            d.setdefault("severity", severity)
            d.setdefault("message", "")
            d.setdefault("irritants", [])
            d.setdefault("span", None)
    if "resource_outcome" not in sem:
        sem["resource_outcome"] = ({"status": "limit-exceeded"} if sem["status"] == "resource"
                                   else {"status": "within-limits"})
    obs.setdefault("resources", {})
    obs.setdefault("products", {})
    return obs
