"""The language server's input, bounded and resynchronised: no message can stop it.

pygls reads a ``Content-Length`` header line, then that many bytes, from whatever offers
``readline()`` and ``read(n)``. Taken as they come, a length of 10**12 makes it allocate
until it dies, and a wrong one leaves it reading the next messages from their middle for
good. :class:`Frames` stands between it and stdin: header lines have a bounded length, a
message over :data:`MESSAGE_LIMIT` is dropped (its bytes then come as lines that are no
header, a bounded piece at a time, which pygls skips), a length too long gives back what
follows the message's JSON, and a header found after other bytes (what a length too short
left of its message) starts a line.
"""

from __future__ import annotations

import json
import logging
from typing import BinaryIO

MESSAGE_LIMIT = 64 << 20
"""Bytes of one message: a document's text ten times larger than any source file in practice."""
DROPPED = b'{"dropped": "mslint"}'
"""What a dropped message reads as: an object without ``jsonrpc``, which the server ignores."""
_LINE_LIMIT = 8192
_HEADER = b"Content-Length:"
_DECODER = json.JSONDecoder()
logger = logging.getLogger(__name__)


class Frames:
    """The byte stream of LSP messages, as pygls reads it (see the module's documentation)."""

    def __init__(self, stream: BinaryIO) -> None:
        self._stream = stream
        self._pending = b""
        """Bytes read and not given yet: the messages that followed a message whose length was too long."""

    def readline(self) -> bytes:
        """The next line, at most ``_LINE_LIMIT`` bytes; starting at the header, where one
        follows other bytes (what a length too short left of its message)."""
        line = self._line()
        header = line.find(_HEADER)
        return line[header:] if header > 0 else line

    def read(self, count: int) -> bytes:
        """The message body of ``count`` bytes; :data:`DROPPED` for a message over the limit."""
        if count > MESSAGE_LIMIT:
            logger.error("a message of %d bytes is over the limit of %d bytes: dropped", count, MESSAGE_LIMIT)
            return DROPPED
        body = self._take(count)
        if _HEADER in body:  # the length was too long: the next message's header is inside
            end = _json_end(body)
            if end is not None:
                self._pending = body[end:] + self._pending
                body = body[:end]
        return body

    def _line(self) -> bytes:
        newline = self._pending.find(b"\n")
        if newline >= 0:
            line, self._pending = self._pending[: newline + 1], self._pending[newline + 1 :]
            return line
        line = self._pending + self._stream.readline(_LINE_LIMIT)
        self._pending = b""
        if not line.endswith(b"\n") and len(line) > len(_HEADER):
            # a part of a long line: its end may be the start of a header, read with what follows
            line, self._pending = line[: -len(_HEADER)], line[-len(_HEADER) :]
        return line

    def _take(self, count: int) -> bytes:
        body, self._pending = self._pending[:count], self._pending[count:]
        return body + self._stream.read(count - len(body)) if len(body) < count else body


def _json_end(body: bytes) -> int | None:
    """The offset just past the JSON value ``body`` starts with, where it starts with one."""
    text = body.decode("utf-8", errors="surrogateescape")
    start = len(text) - len(text.lstrip())
    try:
        _, end = _DECODER.raw_decode(text, start)
    except ValueError:
        return None
    return len(text[:end].encode("utf-8", errors="surrogateescape"))
