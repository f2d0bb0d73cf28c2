"""A receiving application: act on a loan pre-check decision only if its receipt verifies.

    python docs/examples/receive_decision.py RECEIPT --policy POLICY --rule RULE --applicant INPUT

The application knows the rule it asked for and the applicant it asked about; it trusts the keys
and courts its policy names. It verifies the receipt against all three (signature, policy,
binding to exactly this rule and applicant, re-execution here), and only then reads the decision
from the receipt and acts on it. Anything else is refused, with the check that failed.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from court.vouchers.policy import PolicyError, load_policy
from court.vouchers.verify import Request, verify


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("receipt")
    p.add_argument("--policy", required=True)
    p.add_argument("--rule", required=True, help="the decision rule (.lspx) we asked for")
    p.add_argument("--applicant", required=True, help="the input datum we asked about")
    args = p.parse_args()
    try:
        policy = load_policy(Path(args.policy))
        receipt = Path(args.receipt).read_bytes()
        request = Request(Path(args.rule).read_bytes(),
                          Path(args.applicant).read_text("utf-8"), input_given=True)
    except (OSError, UnicodeDecodeError, PolicyError) as e:
        print(f"refused: cannot read what to check: {e}")
        return 2
    v = verify(receipt, policy=policy, request=request)
    if not v.verified:
        for c in v.ordered():
            if c.status in ("failed", "unable"):
                print(f"refused: {c.code} {c.name} {c.status}: {c.detail}")
        return 1
    results = v.statement["predicate"]["results"]  # type: ignore[index]
    if results["verdict"]["kind"] != "agree":
        print(f"refused: the implementations did not agree ({results['verdict']['kind']})")
        return 1
    # Every member agrees, so any member's value is the decision.
    decision = next(iter(results["members"].values()))["values"]
    print(f"verified: receipt sha256:{v.receipt_digest[:16]}... by key {v.key_id[:16]}...")
    if decision == ["(decision allow)"]:
        print("acting: the applicant is invited to the full loan application")
    else:
        print(f"acting: the applicant is told no: {' '.join(decision)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
