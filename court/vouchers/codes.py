"""The checks of `court verify`, in the order they run, each with a stable code.

A receipt's verification lists every one of them: performed (passed, failed, a warning) or not
performed (and why). The codes are part of the interface: scripts and policies may rely on them.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class CheckKind:
    code: str
    name: str
    proves: str


CHECKS: tuple[CheckKind, ...] = (
    CheckKind("V100", "envelope", "the receipt is one DSSE envelope: JSON without duplicate keys, "
              "every field of the expected type and within its size bound"),
    CheckKind("V110", "signature", "a signature by a trusted key verifies over DSSE's "
              "pre-authentication encoding of the payload type and payload"),
    CheckKind("V120", "payload-type", "the payload type is the court receipt's (the only "
              "one this verifier knows)"),
    CheckKind("V130", "canonical", "the payload is RFC 8785 canonical JSON"),
    CheckKind("V140", "statement", "the payload is an in-toto Statement v1 of a court receipt; "
              "its subject is the digest of its request, its part digests match"),
    CheckKind("V150", "policy", "the trust policy lets this key vouch for this payload type, "
              "court, profile, these products and this court version"),
    CheckKind("V160", "request", "the source and input given are the receipt's (digests, size "
              "and the canonical input datum)"),
    CheckKind("V170", "court", "the receipt's court resolves here to the same members, each "
              "available"),
    CheckKind("V180", "products", "each member here has the receipt's product id (the same "
              "build)"),
    CheckKind("V190", "re-execution", "the same request run again gives every member's "
              "semantic result, Core IR id and bytecode id of the receipt"),
    CheckKind("V191", "observations", "the re-run's meter figures are the receipt's (drift is "
              "a warning: observations are information, not evidence)"),
    CheckKind("V199", "verdict", "the verdict (kind, factions, axis) is the re-execution's, and "
              "it is consistent with the receipt's own results"),
)
BY_NAME = {c.name: c for c in CHECKS}
BY_CODE = {c.code: c for c in CHECKS}

# Statuses of one check. `failed` means the receipt differs (exit 1); `unable` that it could
# not be checked here (exit 2); `not-performed` is listed with its reason, never left out.
PASSED, FAILED, UNABLE, NOT_PERFORMED, WARNING = (
    "passed", "failed", "unable", "not-performed", "warning")


def code(name: str) -> str:
    return BY_NAME[name].code
