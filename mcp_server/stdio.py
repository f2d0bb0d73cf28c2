"""Framing on stdin/stdout: bounded line reading and serialised, compact JSON writing."""

from __future__ import annotations

import json
import os
import select
import threading
from collections.abc import Iterator
from typing import Any

CHUNK = 1 << 16
PREFIX_KEPT = 4096  # of an oversized line, kept to find its id


class Oversized:
    """A line longer than the limit; only its first bytes were kept."""

    def __init__(self, prefix: bytes) -> None:
        self.prefix = prefix


def read_lines(fd: int, limit: int, wake: int = -1) -> Iterator[bytes | Oversized]:
    """Lines of ``fd`` without their newline; a line over ``limit`` bytes is never held whole:
    past the limit its bytes are dropped until the next newline and an Oversized stands for it.

    ``wake``, if given, is the read end of the signal wakeup pipe (``signal.set_wakeup_fd``):
    the wait for input also ends when a signal arrives, so that its Python handler runs. The
    kernel may deliver a signal to any of the server's threads, and a ``read`` blocked in the
    main thread is then not interrupted: SIGTERM used to leave the server waiting for input
    (about one stop in twelve, in the test that stops it so)."""
    buf = bytearray()
    scan = 0  # bytes of buf already searched for a newline
    skipping: bytes | None = None  # the prefix of the oversized line being skipped
    while True:
        if wake >= 0:
            ready, _, _ = select.select([fd, wake], [], [])
            if wake in ready:
                try:
                    os.read(wake, 512)  # the handler itself runs on the next bytecode
                except BlockingIOError:
                    pass
            if fd not in ready:
                continue
        chunk = os.read(fd, CHUNK)
        if not chunk:
            if skipping is not None:
                yield Oversized(skipping)
            elif buf:
                yield bytes(buf)
            return
        if skipping is not None:
            i = chunk.find(b"\n")
            if i < 0:
                continue
            yield Oversized(skipping)
            skipping = None
            chunk = chunk[i + 1:]
        buf += chunk
        while True:
            i = buf.find(b"\n", scan)
            if i < 0:
                if len(buf) > limit:
                    skipping = bytes(buf[:PREFIX_KEPT])
                    buf.clear()
                    scan = 0
                else:
                    scan = len(buf)
                break
            line = bytes(buf[:i])
            del buf[:i + 1]
            scan = 0
            yield Oversized(line[:PREFIX_KEPT]) if len(line) > limit else line


def sniff_id(prefix: bytes) -> Any:
    """The top-level ``"id"`` of a JSON object whose text starts with ``prefix``, when it can be
    read there (so an oversized request still gets its error under its own id); else None."""
    try:
        text = prefix.decode("utf-8", "ignore")
    except ValueError:
        return None
    decoder = json.JSONDecoder()
    depth, i, n = 0, 0, len(text)
    expect_key = False
    while i < n:
        c = text[i]
        if c == '"':
            try:
                value, end = decoder.raw_decode(text, i)
            except ValueError:
                return None
            if depth == 1 and expect_key and value == "id":
                j = end
                while j < n and text[j] in " \t\r\n":
                    j += 1
                if j < n and text[j] == ":":
                    try:
                        rid, _ = decoder.raw_decode(text, j + 1 + _ws(text, j + 1))
                    except ValueError:
                        return None
                    return rid if isinstance(rid, str | int) and not isinstance(rid, bool) \
                        else None
            expect_key = False
            i = end
            continue
        if c in "{[":
            depth += 1
            expect_key = c == "{" and depth == 1
        elif c in "}]":
            depth -= 1
        elif c == "," and depth == 1:
            expect_key = True
        i += 1
    return None


def _ws(text: str, i: int) -> int:
    j = i
    while j < len(text) and text[j] in " \t\r\n":
        j += 1
    return j - i


class Writer:
    """One compact JSON message per line, whole lines only, from any thread."""

    def __init__(self, fd: int) -> None:
        self.fd = fd
        self.lock = threading.Lock()
        self.closed = False

    def send(self, message: dict[str, Any]) -> None:
        try:
            text = json.dumps(message, ensure_ascii=False, separators=(",", ":"))
            data = text.encode("utf-8")
        except UnicodeEncodeError:  # a lone surrogate in a string: escape everything
            data = json.dumps(message, separators=(",", ":")).encode("ascii")
        data += b"\n"
        with self.lock:
            if self.closed:
                return
            try:
                view = memoryview(data)
                while view:
                    written = os.write(self.fd, view)
                    view = view[written:]
            except OSError:  # the client went away; the reader will see EOF
                self.closed = True
