"""Every bound field of a receipt, changed one at a time, gives exactly that field's check code.

Changed without re-signing, any field breaks the signature (V110). Changed and signed again by
the trusted key (a buggy or dishonest signer), the check that binds that field fails, and only
it: the verifier names which binding broke."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from voucher_support import codes, receipt, resign, statement_of

from court.vouchers.canonical import canonical
from court.vouchers.policy import load_policy
from court.vouchers.verify import Request, verify

SOURCE = "(define (decide x) (if (> (cadr x) 17) '(decision allow) '(decision deny)))\n" \
         "(decide input)\n"
INPUT = "(age 19)"


@pytest.fixture(scope="module")
def signed(keys):
    return receipt(keys[0], SOURCE, INPUT)


def request() -> Request:
    return Request(SOURCE.encode(), INPUT, True)


def tampered(signed: bytes, key, change, **kw) -> bytes:
    st = statement_of(signed)
    change(st["predicate"], st)
    return resign(key, st, **kw)


def _subject(pred, st):
    st["subject"][0]["digest"]["sha256"] = "0" * 64


def _set(path: str, value):
    def change(pred, st):
        *parents, last = path.split(".")
        node = pred
        for p in parents:
            node = node[p]
        node[last] = value
    return change


FIELDS = [
    # (field, change, check code, needs re-execution)
    ("subject digest", _subject, "V140", False),
    ("request.source.digest", _set("request.source.digest", {"sha256": "1" * 64}), "V160", False),
    ("request.source.size", _set("request.source.size", 3), "V160", False),
    ("request.input.digest", _set("request.input.digest", {"sha256": "2" * 64}), "V160", False),
    ("request.input.datum_digest", _set("request.input.datum_digest", {"sha256": "3" * 64}),
     "V160", False),
    ("request.court.members", _set("request.court.members", ["vm", "tree"]), "V170", False),
    ("products.vm.product_id", _set("products.vm.product_id", "4" * 64), "V180", False),
    ("results.members.vm.values", _set("results.members.vm.values", ["(decision deny)"]),
     "V190", True),
    ("results.members.tree.output", _set("results.members.tree.output",
                                         {"digest": {"sha256": "5" * 64}, "size": 0, "text": ""}),
     "V190", True),
    ("products.tree.core_ir_id", _set("products.tree.core_ir_id", "6" * 64), "V190", True),
    ("results.verdict.kind", _set("results.verdict.kind", "not-comparable"), "V199", True),
    ("results.verdict.factions", _set("results.verdict.factions", [["tree"], ["vm"]]),
     "V199", False),
]


def test_the_untouched_receipt_verifies(signed, keys):
    v = verify(signed, keys=[keys[1]], request=request())
    assert v.verified, v.lines()
    assert codes(v) == set() and codes(v, "passed") >= {"V160", "V170", "V180", "V190", "V199"}


@pytest.mark.parametrize("field,change,code,reexec", FIELDS, ids=[f[0] for f in FIELDS])
def test_a_changed_field_fails_its_own_check(signed, keys, field, change, code, reexec):
    key, pub = keys
    data = tampered(signed, key, change, digests=change is not _subject)
    v = verify(data, keys=[pub], request=request(), reexec=reexec)
    assert codes(v) == {code}, "\n".join(v.lines())
    assert v.exit_status == 1
    unsigned = json.loads(data)
    unsigned["signatures"] = json.loads(signed)["signatures"]
    v = verify(canonical(unsigned), keys=[pub], request=request(), reexec=False)
    assert codes(v) == {"V110"}


def test_a_changed_payload_type_fails_the_payload_type_check(signed, keys):
    key, pub = keys
    data = tampered(signed, key, lambda p, st: None, payload_type="application/json")
    assert codes(verify(data, keys=[pub], request=request())) == {"V120"}


def test_a_changed_part_digest_fails_the_statement_check(signed, keys):
    key, pub = keys
    st = statement_of(signed)
    st["predicate"]["digests"]["results"] = "7" * 64
    v = verify(resign(key, st, digests=False), keys=[pub], request=request())
    assert codes(v) == {"V140"}


def test_a_non_canonical_payload_fails_the_canonical_check(signed, keys):
    key, pub = keys
    st = statement_of(signed)
    loose = json.dumps(st, indent=1).encode()
    v = verify(resign(key, st, payload=loose, digests=False), keys=[pub], request=request())
    assert codes(v) == {"V130"}


def _policy(tmp_path: Path, pub_path: Path, **over) -> Path:
    rules = {"courts": '["tree-rust"]', "profiles": '["lispex-product-native/v1"]',
             "product_ids": '"any"', "oldest_court_version": '"0.1.0"'}
    rules.update(over)
    body = "\n".join(f"{k} = {v}" for k, v in rules.items())
    path = tmp_path / "policy.toml"
    path.write_text(f'[[key]]\npublic_key = "{pub_path}"\n{body}\n')
    return path


@pytest.mark.parametrize("field,value,rule", [
    ("request.court_version", "0.0.9", "oldest_court_version"),
    ("request.profile", "lispex-product-web/v1", "profiles"),
])
def test_a_changed_field_the_policy_binds_fails_the_policy_check(signed, keys, tmp_path, field,
                                                                 value, rule):
    key, pub = keys
    policy = load_policy(_policy(tmp_path, Path(pub.origin)))
    assert verify(signed, policy=policy, request=request(), reexec=False).verified
    v = verify(tampered(signed, key, _set(field, value)), policy=policy, request=request())
    assert codes(v) == {"V150"}
    policy_check = next(c for c in v.checks if c.code == "V150")
    assert [f.what for f in policy_check.findings] == [f"rule {rule}"]


def test_the_same_datum_spelled_otherwise_is_named_but_not_the_exact_request(signed, keys):
    v = verify(signed, keys=[keys[1]], request=Request(SOURCE.encode(), "( age  19 )", True),
               reexec=False)
    assert codes(v) == {"V160"}
    req = next(c for c in v.checks if c.code == "V160")
    bad = {f.what: f for f in req.findings if not f.ok}
    assert "input datum sha256 (canonical)" not in bad
    assert "spelled differently" in bad["input sha256"].why


def test_observations_are_outside_every_digest_and_their_drift_is_a_warning(signed, keys):
    key, pub = keys
    st = statement_of(signed)
    before = dict(st["subject"][0]["digest"]), dict(st["predicate"]["digests"])
    usage = st["predicate"]["observations"]["members"]["vm"]["resources"]["usage"]
    usage["machine_transitions"] += 1
    st["predicate"]["observations"]["host"]["system"] = "elsewhere"
    data = resign(key, st)
    after = statement_of(data)
    assert (after["subject"][0]["digest"], after["predicate"]["digests"]) == before
    v = verify(data, keys=[pub], request=request())
    assert v.verified and v.exit_status == 0
    assert codes(v, "warning") == {"V191"}
    drift = next(c for c in v.checks if c.code == "V191").findings
    assert [f.what for f in drift] == ["vm meter figures"]
