"""Reading Python source files by Python's own rules (PEP 263, ``tokenize.open``).

A UTF-8 byte order mark or a ``# -*- coding: NAME -*-`` comment in the first two lines names
the encoding; UTF-8 is the default. ``\\r\\n`` and ``\\r`` end lines as ``\\n`` does. What
``--fix`` writes back keeps the file's own line endings, byte order mark and encoding.
"""

from __future__ import annotations

import codecs
import errno
import io
import os
import re
import stat
import tokenize
from dataclasses import dataclass
from pathlib import Path

BOM = "\ufeff"
LINE_END = re.compile(r"\r\n|\r|\n")


def with_newlines(text: str) -> str:
    """``text`` with every line ending (``\\r\\n``, ``\\r``) made ``\\n``, as the parser counts lines (a
    form feed ends none). Most files have only ``\\n``: those are returned as they are, not rewritten."""
    return LINE_END.sub("\n", text) if "\r" in text else text


class UndecodableSource(UnicodeDecodeError):
    """A file whose bytes are not text in the encoding it declares (or UTF-8); the message
    says where and why, in one line. ``start`` is the offset of the first bad byte (0 for a
    coding comment that names no usable encoding)."""

    @property
    def line(self) -> int:
        return self.object[: self.start].count(b"\n") + 1

    @property
    def column(self) -> int:
        """The 1-based byte column of the bad byte, as diagnostics count columns (after a byte order mark)."""
        line_start = self.object.rfind(b"\n", 0, self.start) + 1
        if line_start == 0 and self.object.startswith(codecs.BOM_UTF8):
            line_start = len(codecs.BOM_UTF8)
        return self.start - line_start + 1

    def __str__(self) -> str:
        return f"line {self.line}: {self.reason}" if self.end > self.start else self.reason


@dataclass(frozen=True)
class Source:
    written: str
    """The text as written: its own line endings, without the byte order mark."""
    encoding: str
    """The codec that decoded the bytes; ``utf-8-sig`` writes the byte order mark back."""

    @property
    def text(self) -> str:
        """The text Python compiles: every line ends with ``\\n``."""
        return with_newlines(self.written)

    def encode(self, written: str) -> bytes:
        """``written`` (with line endings of its own) in this file's encoding."""
        return written.encode(self.encoding)


def read_source(path: Path) -> Source:
    return decode_source(read_regular_file(path))


def read_regular_file(path: Path, limit: int | None = None) -> bytes:
    """The bytes of ``path``; OSError where it is not a regular file (a FIFO named ``*.py``
    blocks the read until something writes to it, and ``/dev/zero`` never ends) or is larger
    than ``limit`` bytes. The file is opened without waiting for a FIFO's writer, and what was
    opened is what is tested."""
    descriptor = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    with os.fdopen(descriptor, "rb") as stream:
        if not stat.S_ISREG(os.fstat(descriptor).st_mode):
            raise OSError(errno.EINVAL, "not a regular file", str(path))
        content = stream.read() if limit is None else stream.read(limit + 1)
    if limit is not None and len(content) > limit:
        raise OSError(errno.EFBIG, f"larger than {limit} bytes", str(path))
    return content


def source_text(path: Path) -> str:
    """The text of a Python file as Python reads it (``tokenize.open``)."""
    return read_source(path).text


def decode_source(content: bytes) -> Source:
    try:
        encoding = tokenize.detect_encoding(io.BytesIO(content).readline)[0]
    except SyntaxError as error:
        # The first two lines are not UTF-8 (say where), or the coding comment is wrong.
        _decode(content, "utf-8-sig" if content.startswith(codecs.BOM_UTF8) else "utf-8")
        raise UndecodableSource("utf-8", content, 0, 0, f"bad coding comment: {error.msg}") from None
    return Source(_decode(content, encoding), encoding)


def _decode(content: bytes, encoding: str) -> str:
    try:
        return content.decode(encoding)
    except UnicodeDecodeError as error:
        skipped = len(content) - len(error.object)  # utf-8-sig reports places behind the byte order mark
        start, end = error.start + skipped, error.end + skipped
        advice = ", and no coding comment (PEP 263) names another encoding" if encoding == "utf-8" else ""
        byte = content[start : start + 1].hex()
        reason = f"byte 0x{byte} at offset {start} is not valid {encoding.removesuffix('-sig')}{advice}"
        raise UndecodableSource(encoding, content, start, end, reason) from None
    except LookupError:  # rot13, hex, base64: codecs of bytes to bytes or text to text
        raise UndecodableSource(encoding, content, 0, 0, f"coding comment: {encoding} is not a text encoding") from None
    except UnicodeError as error:  # a codec that fails without a position (undefined, punycode)
        raise UndecodableSource(encoding, content, 0, 0, f"not valid {encoding}: {error}") from None


def split_lines(written: str) -> list[str]:
    """The lines of ``written`` as Python counts them, each with its own ending
    (unlike ``str.splitlines``, a form feed or ``\\x1c`` ends no line)."""
    lines, start = [], 0
    for end in LINE_END.finditer(written):
        lines.append(written[start : end.end()])
        start = end.end()
    if start < len(written):
        lines.append(written[start:])
    return lines
