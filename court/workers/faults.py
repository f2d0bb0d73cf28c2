"""How a member fails the court: :class:`Fault`, an infrastructure failure of one member for one
case, and the evidence that tells an out-of-memory death from a crash."""

from __future__ import annotations

import re

# What a process's standard error says when it ran out of memory under RLIMIT_AS: CPython, Rust,
# C++, glibc/strerror, Go, the JVM. Evidence for a `memory-limit` fault instead of a crash.
OUT_OF_MEMORY = re.compile(r"MemoryError|memory allocation of \d+ bytes failed|out of memory|"
                           r"bad_alloc|Cannot allocate memory|OutOfMemoryError", re.I)


class Fault(Exception):
    """An infrastructure failure of one member: kind is build, timeout, crash (killed by a
    signal), exit (exited with a status its protocol does not allow), protocol, memory-limit or
    cleanup."""

    def __init__(self, kind: str, message: str) -> None:
        super().__init__(f"{kind}: {message}")
        self.kind = kind
        self.message = message

    def to_json(self) -> dict[str, str]:
        return {"kind": self.kind, "message": self.message}
