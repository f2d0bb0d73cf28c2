"""DSSE envelopes, canonical JSON and keys: the published vector, and reading that fails
closed (duplicate keys, unknown payload types, oversize fields, non-canonical payloads)."""

from __future__ import annotations

import base64
import hashlib
import json
import os
import stat

import pytest
from cryptography.hazmat.primitives import serialization
from voucher_support import codes, resign

from court.vouchers.canonical import VoucherError, canonical, exact, strict_loads
from court.vouchers.envelope import PAYLOAD_TYPE, pae, read_envelope, sign_envelope
from court.vouchers.keys import KeyFileError, generate, load_signing_key
from court.vouchers.statement import read_payload
from court.vouchers.verify import verify


def test_pae_matches_the_published_dsse_vector():
    # secure-systems-lab/dsse, protocol.md, "Test Vectors".
    assert pae("http://example.com/HelloWorld", b"hello world") == \
        b"DSSEv1 29 http://example.com/HelloWorld 11 hello world"


def test_pae_counts_bytes_not_characters():
    assert pae("t", "é".encode()) == "DSSEv1 1 t 2 é".encode()


def test_canonical_json_is_rfc8785():
    assert canonical({"b": [1, "x"], "a": {"d": True, "c": None}}) == \
        b'{"a":{"c":null,"d":true},"b":[1,"x"]}'
    assert canonical("\u20ac\n") == '"\u20ac\\n"'.encode()


def test_exact_turns_unsafe_numbers_into_text():
    assert exact({"n": 2 ** 60, "small": 7, "t": 0.25, "ok": True}) == \
        {"n": str(2 ** 60), "small": 7, "t": "0.25", "ok": True}


def test_key_pair_files_and_id(tmp_path):
    private, public, kid = generate(tmp_path / "k")
    assert stat.S_IMODE(os.stat(private).st_mode) == 0o600
    key = load_signing_key(private)
    raw = key.key.public_key().public_bytes(serialization.Encoding.Raw,
                                            serialization.PublicFormat.Raw)
    assert kid == key.id == hashlib.sha256(raw).hexdigest()
    with pytest.raises(KeyFileError, match="exists"):
        generate(tmp_path / "k")
    os.chmod(private, 0o644)
    with pytest.raises(KeyFileError, match="readable by others"):
        load_signing_key(private)


def test_a_signed_envelope_reads_back(keys):
    key, pub = keys
    env = sign_envelope(key, {"x": "1"})
    got = read_envelope(canonical(env))
    assert got.payload_type == PAYLOAD_TYPE and got.payload == b'{"x":"1"}'
    assert pub.verifies(got.signatures[0].sig, pae(PAYLOAD_TYPE, got.payload))
    assert not pub.verifies(got.signatures[0].sig, pae(PAYLOAD_TYPE, b'{"x":"2"}'))


@pytest.mark.parametrize("text,message", [
    (b'{"payload":"","payload":"","payloadType":"t","signatures":[]}', "duplicate key"),
    (b'{"payload":"e30=","payloadType":"t","signatures":[{"sig":"AA=="}],"extra":1}',
     "unknown envelope field"),
    (b'{"payload":"e30","payloadType":"t","signatures":[{"sig":"AA=="}]}', "base64"),
    (b'{"payload":"e30=","payloadType":"t","signatures":[]}', "no signature"),
    (b'{"payload":"e30=","payloadType":"t","signatures":[{"sig":"' + b"A" * 600 + b'"}]}',
     "more than the 512 allowed"),
    (b'{"payload":"e30=","payloadType":"t","signatures":[{"sig":"AA==","keyid":"'
     + b"k" * 300 + b'"}]}', "longer than 256"),
    (b'[1, 2]', "not a JSON object"),
    (b'{"payload": NaN}', "NaN is not JSON"),
    (b'\xff\xfe', "not UTF-8"),
    (b'{"payload":"e30=", ', "not JSON"),
])
def test_reading_an_envelope_fails_closed(text, message):
    with pytest.raises(VoucherError, match=message) as e:
        read_envelope(text)
    assert e.value.code == "V100"


def test_an_oversize_string_is_refused():
    with pytest.raises(VoucherError, match="more than the"):
        strict_loads(json.dumps({"v": "x" * ((1 << 20) + 1)}).encode(), "V130", "payload",
                     8 << 20)


def test_a_payload_that_is_not_canonical_is_refused():
    with pytest.raises(VoucherError) as e:
        read_payload(b'{"b": 1, "a": 2}')
    assert e.value.code == "V130"
    with pytest.raises(VoucherError, match="duplicate key") as e:
        read_payload(b'{"a":1,"a":2}')
    assert e.value.code == "V130"


def test_unknown_payload_type_and_non_canonical_payload_give_their_codes(keys):
    key, pub = keys
    statement = {"_type": "https://in-toto.io/Statement/v1"}
    other = resign(key, dict(statement), payload_type="application/vnd.in-toto+json",
                   digests=False)
    v = verify(other, keys=[pub])
    assert codes(v) == {"V120"} and v.exit_status == 1
    loose = resign(key, {}, payload=b'{ "_type": "x" }', digests=False)
    v = verify(loose, keys=[pub])
    assert codes(v) == {"V130"} and v.exit_status == 1
    assert [c.status for c in v.ordered()][-1] == "not-performed"


def test_an_unreadable_receipt_or_no_key_cannot_be_verified(keys):
    _, pub = keys
    v = verify(b'{"payload":', keys=[pub])
    assert v.exit_status == 2 and codes(v, "unable") == {"V100"}
    v = verify(b"{}", keys=[])
    assert v.exit_status == 2 and codes(v, "unable") == {"V110"}
    # Every check is listed, performed or not.
    assert len(v.checks) == 12


def test_a_changed_byte_breaks_the_signature(keys):
    key, pub = keys
    env = sign_envelope(key, {"a": "1"})
    env["payload"] = base64.b64encode(b'{"a":"2"}').decode()
    v = verify(canonical(env), keys=[pub])
    assert codes(v) == {"V110"}


def test_a_receipt_the_reader_would_refuse_is_never_issued(keys):
    with pytest.raises(VoucherError, match="more than the"):
        sign_envelope(keys[0], {"values": ["x" * ((1 << 20) + 1)]})


@pytest.mark.parametrize("statement,message", [
    ({"_type": "https://in-toto.io/Statement/v1"}, "predicateType"),
    ({"_type": "https://in-toto.io/Statement/v1", "predicateType":
      "https://lispex.dev/court-receipt/v1", "subject": [{"digest": {}}], "predicate": {}},
     "subject[0].name"),
    ({"_type": "https://in-toto.io/Statement/v1", "predicateType":
      "https://lispex.dev/court-receipt/v1", "subject": [{"name": "x", "digest": {"sha256": ""}}],
      "predicate": {"request": {}, "extra": {}}}, "unknown part"),
    (["not", "an", "object"], "not a JSON object"),
])
def test_a_statement_of_another_shape_fails_the_statement_check(keys, statement, message):
    key, pub = keys
    v = verify(resign(key, statement, digests=False), keys=[pub])
    assert codes(v) == {"V140"}
    failed = next(c for c in v.checks if c.code == "V140")
    assert message in failed.detail
