"""Reading the files a user hands the court: regular files only, and never more than a cap.

A FIFO would block the court forever, a device (``/dev/zero``) would fill its memory, and a huge
file would make the court itself the resource hog (checking a 50 MB input once took 2.27 GiB).
So every program, input, expectation, court.toml and report is opened without blocking, checked
to be a regular file, and read up to its cap plus one byte: one byte more than the cap means the
file is refused, whatever its true size.
"""

from __future__ import annotations

import errno
import os
import stat

MiB = 1 << 20
# Programs and input data: the largest bundled program is 2 KiB; 1 MiB leaves room for generated
# stress programs (100,000-deep nesting is 200 KB). Memory grows with the datum, not the bytes:
# checking and running a 7.8 MB input (a list of 2 million numbers) peaked at 724 MiB, a
# 1 MiB one at 115 MiB.
MAX_PROGRAM_BYTES = 1 * MiB
MAX_INPUT_BYTES = 1 * MiB
# court.toml, expectations: small text.
MAX_CONFIG_BYTES = 1 * MiB
# court-report.json: a full-corpus report with every observation is a few MiB.
MAX_REPORT_BYTES = 512 * MiB


class FileRefused(OSError):
    """Not a regular file, or larger than its cap. ``str()`` is one line naming the file."""

    def __init__(self, path: str | os.PathLike, reason: str) -> None:
        super().__init__(errno.EINVAL, reason, os.fspath(path))
        self.path = os.fspath(path)
        self.reason = reason

    def __str__(self) -> str:
        return f"{self.path}: {self.reason}"


def _kind(mode: int) -> str:
    if stat.S_ISDIR(mode):
        return "a directory"
    if stat.S_ISFIFO(mode):
        return "a FIFO"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a regular file"


def read_bounded(path: str | os.PathLike, cap: int, what: str = "file") -> bytes:
    """The bytes of a regular file of at most ``cap`` bytes. Raises FileRefused (an OSError) for
    anything else, and OSError when the file cannot be opened."""
    # O_NONBLOCK: opening a FIFO for reading would otherwise wait for a writer.
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    try:
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):
            raise FileRefused(path, f"the {what} is {_kind(mode)}, not a regular file")
        os.set_blocking(fd, True)
        chunks: list[bytes] = []
        left = cap + 1
        while left > 0:
            chunk = os.read(fd, min(left, MiB))
            if not chunk:
                break
            chunks.append(chunk)
            left -= len(chunk)
        data = b"".join(chunks)
        if len(data) > cap:
            raise FileRefused(path, f"the {what} is larger than the court's cap of "
                                    f"{_size(cap)}")
        return data
    finally:
        os.close(fd)


def read_text_bounded(path: str | os.PathLike, cap: int, what: str = "file") -> str:
    """As :func:`read_bounded`, decoded as UTF-8 (UnicodeDecodeError when it is not)."""
    return read_bounded(path, cap, what).decode("utf-8")


def _size(n: int) -> str:
    return f"{n // MiB} MiB" if n % MiB == 0 else f"{n} bytes"


def safe_text(text: str | os.PathLike) -> str:
    """A path (or a name taken from one) as text that encodes as UTF-8: bytes of a file name that
    are not UTF-8 (held as surrogate escapes) become ``\\xNN``."""
    raw = os.fsencode(text) if isinstance(text, os.PathLike) else \
        text.encode("utf-8", "surrogateescape")
    return raw.decode("utf-8", "backslashreplace")
