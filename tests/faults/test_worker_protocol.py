"""The worker protocol's schema (docs/schemas/court-worker-v1.schema.json) and the court's own
check of replies (court/workers/protocol.py) say the same about good and bad replies."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import jsonschema
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from court.workers import protocol as worker_protocol
from court.workers.protocol import check_hello, check_observation, check_run_reply

ROOT = Path(__file__).resolve().parents[2]
SCHEMA = json.loads((ROOT / "docs" / "schemas" / "court-worker-v1.schema.json").read_text())


def validator(definition: str) -> jsonschema.Draft202012Validator:
    sub = {"$ref": f"#/$defs/{definition}", "$defs": SCHEMA["$defs"]}
    return jsonschema.Draft202012Validator(sub)


RUN_REPLY = {"anyOf": [{"$ref": "#/$defs/run_reply"}, {"$ref": "#/$defs/error_reply"}],
             "$defs": SCHEMA["$defs"]}

OBS = {"schema": "lispex.court-observation/v1", "implementation": "x",
       "semantic": {"status": "runtime-error", "values": [], "stdout": "a", "exit_status": 1,
                    "diagnostics": [{"code": "E302", "severity": "error", "phase": "runtime",
                                     "message": "m", "irritants": ["1"],
                                     "span": {"file": "p", "line": 1, "column": 2, "start": 0,
                                              "end": 3}}],
                    "warnings": [], "resource_outcome": {"status": "within-limits"}},
       "resources": {"usage": {}}, "products": {"product_id": "ab"}}
GOOD = {"id": 3, "ok": True, "observation": OBS}


def edited(path: str, value, base=GOOD):
    """``base`` with the field at ``path`` (dot separated) set to ``value`` (or deleted)."""
    doc = copy.deepcopy(base)
    *parents, last = path.split(".")
    node = doc
    for p in parents:
        node = node[int(p)] if isinstance(node, list) else node[p]
    if value is DELETE:
        del node[int(last) if isinstance(node, list) else last]
    elif isinstance(node, list):
        node[int(last)] = value
    else:
        node[last] = value
    return doc


DELETE = object()

RUN_REPLIES = {
    "good": GOOD,
    "good-error": {"id": 3, "ok": False, "error": {"kind": "input-error", "message": "bad"}},
    "good-minimal": {"id": 1, "ok": True, "observation": {"semantic": {
        "status": "ok", "values": ["1"], "stdout": "", "exit_status": 0, "diagnostics": [],
        "warnings": []}}},
    "good-resource-no-span": edited("observation.semantic.diagnostics.0.span", None),
    "null": None,
    "list": [3, True],
    "string": "ok",
    "no-id": edited("id", DELETE),
    "id-string": edited("id", "3"),
    "id-bool": edited("id", True),
    "no-ok": edited("ok", DELETE),
    "ok-string": edited("ok", "yes"),
    "no-observation": edited("observation", DELETE),
    "observation-null": edited("observation", None),
    "observation-list": edited("observation", []),
    "no-semantic": edited("observation.semantic", DELETE),
    "status-unknown": edited("observation.semantic.status", "fine"),
    "status-infrastructure": edited("observation.semantic.status", "infrastructure-error"),
    "values-null": edited("observation.semantic.values", None),
    "values-string": edited("observation.semantic.values", "7"),
    "values-of-numbers": edited("observation.semantic.values", [7]),
    "stdout-null": edited("observation.semantic.stdout", None),
    "exit-string": edited("observation.semantic.exit_status", "1"),
    "exit-3": edited("observation.semantic.exit_status", 3),
    "exit-true": edited("observation.semantic.exit_status", True),
    "no-warnings": edited("observation.semantic.warnings", DELETE),
    "two-diagnostics": edited("observation.semantic.diagnostics",
                              OBS["semantic"]["diagnostics"] * 2),
    "diagnostic-no-code": edited("observation.semantic.diagnostics.0.code", DELETE),
    "diagnostic-no-phase": edited("observation.semantic.diagnostics.0.phase", DELETE),
    "diagnostic-bad-phase": edited("observation.semantic.diagnostics.0.phase", "linker"),
    "span-no-line": edited("observation.semantic.diagnostics.0.span.line", DELETE),
    "span-line-0": edited("observation.semantic.diagnostics.0.span.line", 0),
    "irritant-number": edited("observation.semantic.diagnostics.0.irritants", [1]),
    "outcome-bad": edited("observation.semantic.resource_outcome", {"status": "maybe"}),
    "schema-other": edited("observation.schema", "other/v9"),
    "products-list": edited("observation.products", []),
    "product-id-number": edited("observation.products.product_id", 5),
    "error-no-message": {"id": 3, "ok": False, "error": {"kind": "bad-request"}},
    "error-unknown-kind": {"id": 3, "ok": False, "error": {"kind": "oops", "message": "m"}},
    "error-null": {"id": 3, "ok": False, "error": None},
}


@pytest.mark.parametrize("name", sorted(RUN_REPLIES))
def test_the_schema_and_the_court_agree_on_run_replies(name: str) -> None:
    reply = RUN_REPLIES[name]
    schema_ok = jsonschema.Draft202012Validator(RUN_REPLY).is_valid(reply)
    problem = check_run_reply(reply)
    assert schema_ok == (problem is None), problem
    assert schema_ok == name.startswith("good"), name


HELLOS = {
    "good": {"id": 1, "ok": True, "schema": "lispex.court-worker/v1", "product_id": "ab",
             "rss_method": "psutil-sampling", "pid": 7},
    "good-minimal": {"ok": True, "product_id": None},
    "null": None,
    "no-product-id": {"ok": True},
    "not-ok": {"ok": "true", "product_id": "ab"},
    "pid-string": {"ok": True, "product_id": "ab", "pid": "7"},
    "other-schema": {"ok": True, "product_id": "ab", "schema": "lispex.court-worker/v2"},
}


@pytest.mark.parametrize("name", sorted(HELLOS))
def test_the_schema_and_the_court_agree_on_hello_replies(name: str) -> None:
    reply = HELLOS[name]
    schema_ok = validator("hello_reply").is_valid(reply)
    assert schema_ok == (check_hello(reply) is None)
    assert schema_ok == name.startswith("good")


def test_observations_printed_by_one_shot_products_follow_the_same_rules() -> None:
    for name, reply in RUN_REPLIES.items():
        if isinstance(reply, dict) and reply.get("ok") is True and "observation" in reply:
            obs = reply["observation"]
            assert validator("observation").is_valid(obs) == (check_observation(obs) is None), \
                name


def test_a_problem_names_the_field() -> None:
    assert check_run_reply(RUN_REPLIES["values-string"]) == \
        "the reply.observation.semantic.values must be a list of strings, not a string"
    assert check_run_reply(None) == "the reply must be an object, not null"


def test_the_court_requests_follow_the_schema() -> None:
    request = validator("request")
    assert request.is_valid({"op": "hello"})
    assert request.is_valid({"op": "run", "id": 1, "source": "(+ 1 2)", "filename": "p.lspx",
                             "input": None, "profile": None, "limits": {"token": 5}})
    assert request.is_valid({"op": "shutdown"})
    assert not request.is_valid({"op": "run", "id": 1, "filename": "p.lspx", "input": None,
                                 "profile": None, "limits": {}})


# The usual reply is recognised on a fast path (worker_protocol._good_run); it must never pass a
# reply the field-by-field check rejects, and must be the path a good reply takes.
def _slow(reply) -> str | None:
    return worker_protocol._checked(worker_protocol._run, reply, "the reply")


def test_the_fast_path_takes_the_good_replies_and_no_bad_one() -> None:
    for name, reply in RUN_REPLIES.items():
        if isinstance(reply, dict) and reply.get("ok") is True:
            fast = worker_protocol._good_run(reply)
            assert fast == name.startswith("good"), name
            assert not fast or _slow(reply) is None, name


JSON = st.recursive(st.none() | st.booleans() | st.integers(-3, 3) | st.floats(allow_nan=False)
                    | st.sampled_from(["", "ok", "error", "runtime", "within-limits", "x"]),
                    lambda c: st.lists(c, max_size=3) | st.dictionaries(
                        st.sampled_from(["line", "column", "code", "phase", "status", "x"]), c,
                        max_size=3), max_leaves=6)
PATHS = [k for k in RUN_REPLIES if k.startswith("good")]


def _paths(doc, prefix=""):
    if isinstance(doc, dict):
        for k, v in doc.items():
            yield prefix + k
            yield from _paths(v, prefix + k + ".")
    elif isinstance(doc, list):
        for i, v in enumerate(doc):
            yield prefix + str(i)
            yield from _paths(v, prefix + str(i) + ".")


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(PATHS), st.data(), JSON | st.just(DELETE))
def test_the_fast_path_never_passes_what_the_field_check_rejects(base, data, value) -> None:
    doc = RUN_REPLIES[base]
    path = data.draw(st.sampled_from(sorted(_paths(doc))))
    reply = edited(path, value, doc)
    if isinstance(reply, dict) and reply.get("ok") is True and worker_protocol._good_run(reply):
        assert _slow(reply) is None
        assert check_run_reply(reply) is None
    assert (check_run_reply(reply) is None) == (_slow(reply) is None)
