"""Verification on this machine: the products, re-execution against a changed member, exact
numbers, keys and the trust policy."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from voucher_support import ROOT, check, codes, receipt, statement_of

from court.vouchers.policy import PolicyError, load_policy
from court.vouchers.verify import Request, verify

sys.path.insert(0, str(ROOT / "tests"))
from seeded_products import seeded_config  # noqa: E402

QUOTIENT = "(list (quotient -7 2) (quotient 7 2))\n"


def test_a_changed_member_fails_re_execution_naming_member_and_axis(keys, tmp_path):
    key, pub = keys
    (tmp_path / "honest").mkdir()
    honest = seeded_config(tmp_path / "honest", "none")
    signed = receipt(key, QUOTIENT, court="buggy", config=honest)
    st = statement_of(signed)
    assert st["predicate"]["results"]["verdict"]["kind"] == "agree"
    ok = verify(signed, keys=[pub], request=Request(QUOTIENT.encode()), config_path=honest)
    assert ok.verified, ok.lines()
    (tmp_path / "changed").mkdir()
    changed = seeded_config(tmp_path / "changed", "quotient")
    v = verify(signed, keys=[pub], request=Request(QUOTIENT.encode()), config_path=changed)
    # The seeded worker reports tree's product id: the build looks the same, the results do not.
    assert check(v, "products").status == "passed"
    assert codes(v) == {"V190", "V199"}, v.lines()
    failed = [f.what for f in check(v, "re-execution").findings if not f.ok]
    assert failed == ["seeded: values"]
    verdict = {f.what: (f.expected, f.got) for f in check(v, "verdict").findings}
    assert verdict["kind"] == ("agree", "disagree")
    assert verdict["axis"] == (None, "values")


def test_a_different_build_is_named_as_such_not_as_a_wrong_result(keys, tmp_path):
    key, pub = keys

    def court(impl: str) -> Path:
        path = tmp_path / f"court-{impl}.toml"
        path.write_text(f"""
[products.second]
command = ["{sys.executable}", "-m", "implementations.worker", "--impl", "{impl}"]
protocol = "court-worker/v1"
[courts.pair]
members = ["tree", "second"]
""")
        return path

    source = "(* 6 7)"
    signed = receipt(key, source, court="pair", config=court("tree"))
    v = verify(signed, keys=[pub], request=Request(source.encode()), config_path=court("vm"))
    assert codes(v) == {"V180"}, v.lines()
    products = check(v, "products")
    assert "a different build of second" in products.detail
    assert [f.what for f in products.findings if not f.ok] == ["second product id"]
    assert check(v, "re-execution").status == "not-performed"
    assert "other builds" in check(v, "re-execution").detail


def test_bignums_and_rationals_travel_as_datum_text_and_round_trip(keys):
    key, pub = keys
    source = "(list (expt 2 100) (/ 1 3) (/ input -4) (exact->inexact 1/3) (- (expt 10 30)))"
    big = "123456789012345678901234567890"
    signed = receipt(key, source, big)
    st = statement_of(signed)
    values = st["predicate"]["results"]["members"]["tree"]["values"]
    assert values == ["(1267650600228229401496703205376 1/3 -61728394506172839450617283945/2 "
                      "0.3333333333333333 -1000000000000000000000000000000)"]
    assert st["predicate"]["results"]["members"]["vm"]["values"] == values
    assert all(isinstance(v, str) for v in st["predicate"]["request"]["limits"]
               ["meter_limits"].values())
    v = verify(signed, keys=[pub], request=Request(source.encode(), big, True))
    assert v.verified, v.lines()


def test_a_wrong_key_lists_each_key_tried(keys, other_keys):
    signed = receipt(keys[0], "(+ 1 2)")
    v = verify(signed, keys=[other_keys[1]], reexec=False)
    assert codes(v) == {"V110"} and v.exit_status == 1
    tried = check(v, "signature").findings
    assert len(tried) == 1 and "another key id" in tried[0].why
    assert all(c.status == "not-performed" for c in v.checks if c.code > "V110")
    v = verify(signed, keys=[other_keys[1], keys[1]], reexec=False)
    assert v.verified and v.key_id == keys[1].id


def _policy(tmp_path: Path, pub: Path, courts: str = '["tree-rust"]',
            products: str = '"any"') -> Path:
    path = tmp_path / "policy.toml"
    path.write_text(f"""[[key]]
public_key = "{pub}"
courts = {courts}
profiles = ["lispex-product-native/v1"]
product_ids = {products}
oldest_court_version = "0.1.0"
""")
    return path


def test_an_untrusted_court_under_the_policy_names_the_rule(keys, tmp_path):
    key, pub = keys
    signed = receipt(key, "(+ 1 2)", court="rust-topaz")
    policy = load_policy(_policy(tmp_path, Path(pub.origin)))
    v = verify(signed, policy=policy, reexec=False)
    assert codes(v) == {"V150"} and v.exit_status == 1
    rule = check(v, "policy").findings[0]
    assert (rule.what, rule.expected, rule.got) == ("rule courts", ["tree-rust"], "rust-topaz")
    assert v.policy_digest == policy.digest


def test_product_ids_under_the_policy(keys, tmp_path):
    key, pub = keys
    signed = receipt(key, "(+ 1 2)")
    products = statement_of(signed)["predicate"]["products"]
    only_tree = f'["{products["tree"]["product_id"]}"]'
    v = verify(signed, policy=load_policy(_policy(tmp_path, Path(pub.origin),
                                                  products=only_tree)), reexec=False)
    assert [f.what for f in check(v, "policy").findings] == ["rule product_ids (vm)"]


@pytest.mark.parametrize("body,message", [
    ("", "trusts nobody"),
    ('[[key]]\npublic_key = "missing.pub"\n', "cannot read it"),
    ('[keys]\n', "unknown table"),
])
def test_a_policy_that_cannot_be_used_is_an_error(tmp_path, body, message):
    path = tmp_path / "p.toml"
    path.write_text(body)
    with pytest.raises(PolicyError, match=message):
        load_policy(path)


def test_a_policy_entry_must_state_every_rule(keys, tmp_path):
    path = tmp_path / "p.toml"
    path.write_text(f'[[key]]\npublic_key = "{keys[1].origin}"\ncourts = ["tree-rust"]\n')
    with pytest.raises(PolicyError, match="profiles"):
        load_policy(path)


def test_re_execution_needs_the_source(keys):
    signed = receipt(keys[0], "(+ 1 2)")
    v = verify(signed, keys=[keys[1]])
    assert v.exit_status == 2 and codes(v, "unable") == {"V190"}
    assert "--source" in check(v, "re-execution").detail


def test_a_member_unavailable_here_cannot_be_verified(keys, tmp_path):
    key, pub = keys

    def court(command: str) -> Path:
        path = tmp_path / f"{Path(command).name}.toml"
        path.write_text(f"""
[products.second]
command = ["{command}", "-m", "implementations.worker", "--impl", "tree"]
protocol = "court-worker/v1"
[courts.pair]
members = ["tree", "second"]
""")
        return path

    signed = receipt(key, "(+ 1 2)", court="pair", config=court(sys.executable))
    v = verify(signed, keys=[pub], request=Request(b"(+ 1 2)"),
               config_path=court(str(tmp_path / "no-such-python")))
    assert v.exit_status == 2 and codes(v, "unable") == {"V170"}, v.lines()
    assert "unavailable here: missing second" in check(v, "court").detail
    assert {c.name: c.status for c in v.checks}["re-execution"] == "not-performed"
    assert len(v.checks) == 12 and check(v, "verdict").status == "passed"
    # A court this machine does not define at all.
    v = verify(signed, keys=[pub], request=Request(b"(+ 1 2)"), reexec=False)
    assert v.exit_status == 2 and "not defined here" in check(v, "court").detail


def test_a_receipt_of_a_disagreement_verifies_when_it_reproduces(keys, tmp_path):
    key, pub = keys
    buggy = seeded_config(tmp_path, "quotient")
    signed = receipt(key, QUOTIENT, court="buggy", config=buggy)
    verdict = statement_of(signed)["predicate"]["results"]["verdict"]
    assert (verdict["kind"], verdict["axis"]) == ("disagree", "values")
    v = verify(signed, keys=[pub], request=Request(QUOTIENT.encode()), config_path=buggy)
    assert v.verified, v.lines()
    assert check(v, "verdict").detail == "disagree, as the re-run found"
