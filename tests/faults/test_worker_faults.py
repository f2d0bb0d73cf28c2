"""Every fault a member can commit, through `court run` over 50 cases with one faulty member.

For each: the report holds every case; only the faulty member is marked, only on the cases that
triggered the fault, with the fault kind that says what happened; the other member's results are
untouched; the exit status is the documented one; and no process is left (the fixture checks).
"""

from __future__ import annotations

import json
import sys

import pytest
from fault_support import FAULTY, N_CASES, PRODUCTS, oneshot_toml, worker_toml

# A member that fails while the others answer is a `member-fault` finding: exit 1. A member
# that answered but left processes behind (`cleanup`) has its answer set aside: the case is
# `not-comparable`, which these runs' --strict fails: exit 1 too (docs/court.md, exit codes).
EXIT_FAIL = 1
MEMBER_FAULT_KINDS = ("crash", "protocol", "build", "memory-limit", "timeout", "exit")

WORKER_FAULTS = {
    "null": ("protocol", "not a reply object"),
    "list": ("protocol", "not a reply object"),
    "no-observation": ("protocol", "has no 'observation'"),
    "wrong-types": ("protocol", "values must be a list of strings"),
    "wrong-id": ("protocol", "answered id"),
    "killed-mid-write": ("crash", "killed by SIGKILL"),
    "exit3": ("exit", "exited with status 3"),
    "segv": ("crash", "killed by SIGSEGV"),
    "relay-segv": ("crash", "the process it drives was killed by SIGSEGV"),
    "memory": ("memory-limit", "ran out of memory"),
    "setsid": ("cleanup", "left its process group"),
    "double-fork": ("cleanup", "left behind"),
}

ONESHOT_FAULTS = {
    "exit3": ("exit", "exited with status 3"),
    "values-none": ("protocol", "values must be a list of strings"),
    "null": ("protocol", "must be an object"),
    "killed": ("crash", "killed by SIGKILL"),
    "relay-segv": ("crash", "the process it drives was killed by SIGSEGV"),
    "memory": ("memory-limit", "ran out of memory"),
    "setsid": ("cleanup", "left behind"),
    "double-fork": ("cleanup", "left behind"),
}


def assert_only_faulty_marked(run, kind: str, words: str) -> None:
    report = run.report
    assert report["summary"]["cases"] == N_CASES == len(report["cases"])
    assert report["run"]["complete"] is True
    for c in report["cases"]:
        obs = c["observations"]
        assert obs["tree"]["semantic"]["status"] == "ok", c["id"]
        i = int(c["id"][1:])
        if i in FAULTY:
            want = "member-fault" if kind in MEMBER_FAULT_KINDS else "not-comparable"
            assert c["outcome"] == want, c
            faulty = obs["faulty"]
            assert faulty["semantic"]["status"] == "infrastructure-error"
            kinds = [f["kind"] for f in faulty["faults"]]
            assert kinds[0] == kind, faulty["faults"]
            assert words in faulty["faults"][0]["message"], faulty["faults"]
        else:
            assert c["outcome"] == "agree", c
            assert obs["faulty"]["semantic"]["values"] == [str(i + 1)]
    o = report["summary"]["outcomes"]
    marked = o["member-fault"] if kind in MEMBER_FAULT_KINDS else o["not-comparable"]
    assert marked == len(FAULTY) and o["agree"] == N_CASES - len(FAULTY)
    assert o.get("infrastructure-error", 0) == 0, o
    assert run.status == EXIT_FAIL, run.err[-2000:]
    assert "Traceback" not in run.err, run.err[-2000:]


@pytest.mark.parametrize("mode", sorted(WORKER_FAULTS))
def test_a_faulty_worker_is_marked_on_its_cases_only(court_run, mode: str) -> None:
    kind, words = WORKER_FAULTS[mode]
    extra = ("--memory-limit", "512") if mode == "memory" else ()
    run = court_run(worker_toml(mode), "tree,faulty", "--strict", *extra)
    assert_only_faulty_marked(run, kind, words)


@pytest.mark.parametrize("mode", sorted(ONESHOT_FAULTS))
def test_a_faulty_one_shot_product_is_marked_on_its_cases_only(court_run, mode: str) -> None:
    kind, words = ONESHOT_FAULTS[mode]
    extra = ("--memory-limit", "512") if mode == "memory" else ()
    run = court_run(oneshot_toml(mode), "tree,faulty", "--strict", *extra)
    assert_only_faulty_marked(run, kind, words)


def test_a_member_killed_once_from_outside_is_not_a_finding(court_run, tmp_path,
                                                            monkeypatch) -> None:
    """A crash is re-run before it counts, like a disagreement: a worker killed once (the OOM
    killer, a user's kill) is no finding. The case is judged on the re-run (against its blessed
    expectations here), and its verdict says the divergence did not reproduce."""
    marker = tmp_path / "killed"
    monkeypatch.setenv("FAULTY_ONCE_FILE", str(marker))
    run = court_run(worker_toml("killed-once"), "tree,faulty")
    assert marker.exists()
    o = run.report["summary"]["outcomes"]
    assert o.get("member-fault", 0) == 0 and o["agree"] == N_CASES, o
    assert len(run.report["cases"]) == N_CASES
    odd = [c for c in run.report["cases"] if c["verdict"] != "agree"]
    assert [int(c["id"][1:]) for c in odd] == [FAULTY[0]], odd
    assert odd[0]["verdict"] == "not-comparable"
    assert any("did not reproduce" in r for r in odd[0]["reasons"]), odd[0]["reasons"]
    assert run.status == 0, run.err[-2000:]


def test_a_huge_correct_reply_is_a_correct_reply(court_run) -> None:
    # 8 MiB of evidence in a reply: read in full, not a timeout, not a protocol fault.
    run = court_run(worker_toml("huge-reply"), "tree,faulty", "--strict")
    assert run.report["summary"]["outcomes"]["agree"] == N_CASES, run.err[-2000:]
    assert run.status == 0


def test_a_lispex_cli_member_is_held_to_blessed_expectations(court_run) -> None:
    # `lispex-cli` leaves values and stdout unknown (null): every case is still judged, through
    # the transcript the expectation implies, and a wrong transcript breaks the expectation.
    run = court_run(oneshot_toml("cli", "lispex-cli"), "tree,faulty", "--strict")
    report = run.report
    assert report["summary"]["cases"] == N_CASES
    for c in report["cases"]:
        i = int(c["id"][1:])
        assert c["observations"]["faulty"]["semantic"]["values"] is None
        if i in FAULTY:
            assert c["outcome"] in ("disagree", "expectation-broken"), c
            diffs = c["expectation"]["differences"]
            assert {d["member"] for d in diffs} == {"faulty"}
            assert [d["axis"] for d in diffs] == ["transcript"]
            assert diffs[0]["expected"] == f"{i + 1}\n" and diffs[0]["got"] == "wrong\n"
        else:
            assert c["outcome"] == "agree", c
    assert run.status == EXIT_FAIL
    assert "Traceback" not in run.err and "TypeError" not in run.err


def test_one_shot_products_get_the_profile_limits_and_label(court_run) -> None:
    products = (f'[products.faulty]\nprotocol = "observation-json"\n'
                f'command = ["{sys.executable}", "-S", "{PRODUCTS / "faulty_oneshot.py"}", '
                '"settings", "{file}", "{profile}", "{label}", "{limits_json}"]\n'
                'limit = ["--limit", "{axis}={value}"]\n')
    run = court_run(products, "tree,faulty", "--limit", "token=5000")
    seen = json.loads(run.case(3)["observations"]["faulty"]["semantic"]["values"][0])
    assert seen["argv"] == ["lispex-product-native/v1", "c003.lspx", '{"token": 5000}',
                            "--limit", "token=5000"]
    assert seen["profile"] == "lispex-product-native/v1"
    assert json.loads(seen["limits"]) == {"token": 5000}
    assert seen["filename"] == "c003.lspx" and seen["file"] == "c003.lspx"
