"""What the court keeps of a member's answer, and what a relay's last words say of a death by
signal: the bounds every byte a member sends is counted against before it is kept."""

from __future__ import annotations

import re
import signal
from typing import Any

from .faults import Fault
from .limits import Limits

# What a relay (a worker that drives another process, as the witness workers drive their Scheme)
# says on its standard error when that process died by a signal: "killed by SIGSEGV", or the
# status Python's subprocess gives a child killed by signal N ("exited (status -11)").
RELAYED_SIGNAL = re.compile(r"\b(?:killed by|terminated by) (SIG[A-Z0-9]+)\b|"
                            r"\bstatus -([1-9][0-9]?)\b")
# What the court keeps of one answer (a reply line, a one-shot product's standard output): the
# program's output, at most the output-byte limit, which JSON escaping can make up to four times
# longer (six for the rare control characters, \u0001), and this much beside it for the values
# and the rest. A member that sends more gets a `protocol` fault as soon as the cap is passed:
# the court holds at most about twice the cap per member at a time (the text, then parsed).
ANSWER_BASE_BYTES = 16 << 20
ESCAPED = 4
DEFAULT_OUTPUT_LIMIT = 16 << 20
# Bytes read from a member's pipe at a time.
CHUNK = 1 << 16


def signal_name(number: int) -> str:
    try:
        return signal.Signals(number).name
    except ValueError:
        return f"signal {number}"


def relayed_signal(stderr_lines: list[str]) -> str | None:
    """The signal a relay's last lines of standard error say the process it drives died by."""
    for line in reversed(stderr_lines[-5:]):
        m = RELAYED_SIGNAL.search(line)
        if m:
            return m[1] or signal_name(int(m[2]))
    return None


def output_limit(limits: Limits) -> int:
    """The most output a member may report under ``limits``: the output-byte limit it was sent
    (``--limit output-byte=N``, a case's own), else 16 MiB, the default profile's, or its
    profile's when that allows more. (A member is sent the profile's id, not its figures; the
    witness relays apply 16 MiB unless told otherwise.)"""
    own = (limits.meter_limits or {}).get("output-byte")
    if own is not None:
        return own
    from implementations.lispex.meters import profiles

    profile = profiles().get(limits.profile) if limits.profile else None
    of_profile = profile.limit_map().get("output-byte", 0) if profile else 0
    return max(of_profile, DEFAULT_OUTPUT_LIMIT)


def answer_cap(limits: Limits) -> int:
    """The most bytes the court keeps of one member's answer under ``limits``."""
    return ANSWER_BASE_BYTES + ESCAPED * output_limit(limits)


def too_long(who: str, what: str, cap: int) -> Fault:
    return Fault("protocol", f"{who} wrote {what} longer than {cap >> 20} MiB, the most the court "
                             "keeps of one answer (the output limit, escaped, and the values); "
                             "it was killed")


def check_output(obs: dict[str, Any], who: str, limits: Limits) -> None:
    """The output limit holds for every member: an observation whose `stdout` is longer is not
    one the member could have produced under its limits (a `protocol` fault)."""
    stdout = (obs.get("semantic") or {}).get("stdout")
    if not isinstance(stdout, str):
        return
    limit = output_limit(limits)
    # A str holds at most 4 UTF-8 bytes a character: encode only what could pass the limit.
    if len(stdout) * 4 > limit:
        n = len(stdout.encode("utf-8", "surrogatepass"))
        if n > limit:
            raise Fault("protocol", f"{who} reported {n} bytes of output, more than the output "
                                    f"limit of {limit} bytes it ran under")
