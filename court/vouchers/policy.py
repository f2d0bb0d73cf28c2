"""The receiving side's trust policy: which keys it trusts, and for what.

    # policy.toml
    [[key]]
    public_key = "court-signing.pub"      # a PEM file, relative to this policy
    payload_types = ["application/vnd.lispex.court-receipt.v1+json"]
    courts = ["tree-rust"]
    profiles = ["lispex-product-native/v1"]
    product_ids = "any"                   # or a list of product ids
    oldest_court_version = "0.1.0"

Every field is required (``payload_types`` defaults to the receipt's one type): an admission
rule is written once and on purpose, and a receipt outside it fails naming the rule it broke.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .canonical import sha256
from .envelope import PAYLOAD_TYPE
from .keys import KeyFileError, PublicKey, load_public_key

FIELDS = ("public_key", "id", "payload_types", "courts", "profiles", "product_ids",
          "oldest_court_version")
MAX_POLICY_BYTES = 1 << 20


class PolicyError(Exception):
    """A policy file that cannot be used."""


def version_tuple(text: str) -> tuple[int, ...] | None:
    parts = text.split(".")
    if not parts or not all(p.isdigit() and len(p) < 10 for p in parts):
        return None
    return tuple(int(p) for p in parts)


@dataclass(frozen=True)
class TrustedKey:
    public: PublicKey
    payload_types: tuple[str, ...]
    courts: tuple[str, ...]
    profiles: tuple[str, ...]
    product_ids: tuple[str, ...] | None  # None: any product
    oldest_court_version: str

    def broken_rules(self, payload_type: str, request: dict[str, Any],
                     products: dict[str, Any]) -> list[tuple[str, Any, Any]]:
        """The rules this receipt breaks, as (rule, what the policy allows, what it has)."""
        broken = []
        if payload_type not in self.payload_types:
            broken.append(("payload_types", list(self.payload_types), payload_type))
        court = (request.get("court") or {}).get("name")
        if court not in self.courts:
            broken.append(("courts", list(self.courts), court))
        if request.get("profile") not in self.profiles:
            broken.append(("profiles", list(self.profiles), request.get("profile")))
        if self.product_ids is not None:
            for m, p in sorted(products.items()):
                if p.get("product_id") not in self.product_ids:
                    broken.append((f"product_ids ({m})", list(self.product_ids),
                                   p.get("product_id")))
        got = version_tuple(str(request.get("court_version")))
        if got is None or got < version_tuple(self.oldest_court_version):  # type: ignore[operator]
            broken.append(("oldest_court_version", self.oldest_court_version,
                           request.get("court_version")))
        return broken


@dataclass(frozen=True)
class Policy:
    keys: dict[str, TrustedKey]  # by key id
    digest: str
    origin: str


def _strings(entry: dict[str, Any], name: str, where: str, hint: str = "") -> tuple[str, ...]:
    value = entry.get(name)
    if not isinstance(value, list) or not value or not all(isinstance(v, str) for v in value):
        raise PolicyError(f"{where}: {name} must be a non-empty list of strings{hint}")
    return tuple(value)


def load_policy(path: Path) -> Policy:
    try:
        data = path.read_bytes()
    except OSError as e:
        raise PolicyError(f"policy {path}: cannot read it: {e.strerror}") from None
    if len(data) > MAX_POLICY_BYTES:
        raise PolicyError(f"policy {path}: larger than {MAX_POLICY_BYTES} bytes")
    try:
        doc = tomllib.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, tomllib.TOMLDecodeError) as e:
        raise PolicyError(f"policy {path}: {e}") from None
    if set(doc) - {"key"}:
        raise PolicyError(f"policy {path}: unknown table(s) {', '.join(sorted(set(doc) - {'key'}))}"
                          " (expected [[key]] entries)")
    entries = doc.get("key")
    if not isinstance(entries, list) or not entries:
        raise PolicyError(f"policy {path}: no [[key]] entry; a policy that trusts nobody "
                          "admits no receipt")
    keys: dict[str, TrustedKey] = {}
    for i, entry in enumerate(entries):
        where = f"policy {path}: key {i + 1}"
        unknown = sorted(set(entry) - set(FIELDS))
        if unknown:
            raise PolicyError(f"{where}: unknown field(s) {', '.join(unknown)}")
        pub = entry.get("public_key")
        if not isinstance(pub, str) or not pub:
            raise PolicyError(f"{where}: public_key must name a PEM file")
        try:
            public = load_public_key(path.parent / pub)
        except KeyFileError as e:
            raise PolicyError(f"{where}: {e}") from None
        if "id" in entry and entry["id"] != public.id:
            raise PolicyError(f"{where}: id {entry['id']} is not the id of {pub} ({public.id})")
        courts = _strings(entry, "courts", where)
        profiles = _strings(entry, "profiles", where)
        products = entry.get("product_ids")
        if products != "any":
            products = _strings(entry, "product_ids", where, ' (or "any")')
        oldest = entry.get("oldest_court_version")
        if not isinstance(oldest, str) or version_tuple(oldest) is None:
            raise PolicyError(f"{where}: oldest_court_version must be a version such as "
                              "\"0.1.0\"")
        types = _strings(entry, "payload_types", where) if "payload_types" in entry \
            else (PAYLOAD_TYPE,)
        if public.id in keys:
            raise PolicyError(f"{where}: key {public.id} is listed twice")
        keys[public.id] = TrustedKey(public, types, courts, profiles,
                                     None if products == "any" else products, oldest)
    return Policy(keys, sha256(data), str(path))
