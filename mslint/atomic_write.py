"""Every file mslint writes (fixes, cache, baseline, report) is written whole or not at all.

The new content goes to a file beside the target, is flushed to disk, and takes the target's
name in one ``rename``: a full disk, a crash or a SIGKILL leaves the old file as it was. On
Linux the new content lives in an unnamed file (``O_TMPFILE``) until it is complete, so a
process killed while writing leaves no stray file either. Where the caller read the file
before, the write is refused if the file changed since (an editor saved it meanwhile): the
new content was computed from the old text and would garble the new one.

The replacement keeps the file's owner and group (run as root on a user's file, it stays the
user's). Where a rename cannot keep the file as it is, the content is written through the
file instead, after the same check of its content: a file with other hard links (a rename
would leave them the old text), in a folder the process cannot write, or owned by someone
the process cannot give a file to. A process killed between naming its new file and the
rename leaves that file behind: the next write beside it removes the files of processes that
no longer run.

An output the user names may be a stream (``-o /dev/stdout``, a pipe): it is written in place.
A file of mslint's own (a cache, its key) is never opened in place: a FIFO put where it lives
would block every run, so it is replaced like any other file.
"""

from __future__ import annotations

import contextlib
import errno
import hashlib
import os
import stat
from pathlib import Path
from typing import BinaryIO

from mslint.source import read_regular_file


class FileChanged(OSError):
    """The file is no longer the text the new content was computed from."""


def digest(content: bytes) -> str:
    return hashlib.sha256(content).hexdigest()


def write_atomically(
    path: Path,
    content: bytes,
    expected_digest: str | None = None,
    mode: int | None = None,
    *,
    streams: bool = True,
) -> None:
    """Replace ``path`` by ``content``, keeping its permissions (or giving it ``mode``); with
    ``expected_digest``, only if the file still holds the bytes of that digest. With ``streams``
    (an output the user named), a path that is not a regular file is written in place; without
    (a file of mslint's own), it is replaced too. Raises :class:`OSError` with the file untouched."""
    special = _is_special(path)
    if special and streams:  # /dev/stdout, a pipe: there is nothing to replace, only a stream to write
        with open(path, "wb") as stream:
            stream.write(content)
        return
    status = None if special else _status_of(path)
    if status is not None and not _replaceable(path, status):
        _write_through(path, content, expected_digest)
        return
    mode = _mode_of(path) if mode is None else mode
    owner = None if status is None else (status.st_uid, status.st_gid)
    if not special:
        refuse_unwritable(path)
    _remove_leftovers(path)
    written = _write_unnamed(path, content, mode, owner) or _write_named(path, content, mode, owner)
    try:
        if expected_digest is not None and digest(_read_or_empty(path)) != expected_digest:
            raise FileChanged(f"{path} changed since it was read")
        os.replace(written, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(written)
        raise
    _sync_folder(path.parent)


def _write_unnamed(path: Path, content: bytes, mode: int, owner: tuple[int, int] | None) -> Path | None:
    """The content in a new file beside ``path``, named only once complete; None where the
    system has no unnamed files (or cannot name one through ``/proc``)."""
    temporary_file = getattr(os, "O_TMPFILE", 0)
    if not temporary_file:
        return None
    try:
        descriptor = os.open(path.parent, temporary_file | os.O_WRONLY, 0o600)
    except OSError:
        return None
    with open(descriptor, "wb") as stream:
        _fill(stream, content, mode, owner)
        named = _unique_name(path)
        try:
            os.link(f"/proc/self/fd/{stream.fileno()}", named, follow_symlinks=True)
        except OSError:
            return None
    return named


def _write_named(path: Path, content: bytes, mode: int, owner: tuple[int, int] | None) -> Path:
    named = _unique_name(path)
    try:
        with open(os.open(named, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600), "wb") as stream:
            _fill(stream, content, mode, owner)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(named)
        raise
    return named


def _fill(stream: BinaryIO, content: bytes, mode: int, owner: tuple[int, int] | None) -> None:
    stream.write(content)
    stream.flush()
    if owner is not None and owner != (os.fstat(stream.fileno()).st_uid, os.fstat(stream.fileno()).st_gid):
        os.fchown(stream.fileno(), *owner)  # before the mode: a change of owner clears set-id bits
    os.fchmod(stream.fileno(), mode)
    os.fsync(stream.fileno())


def _status_of(path: Path) -> os.stat_result | None:
    try:
        return path.stat()
    except OSError:
        return None


def _replaceable(path: Path, status: os.stat_result) -> bool:
    """Whether a new file renamed over ``path`` is the same file to everyone who had it."""
    if status.st_nlink > 1 or not os.access(path.parent, os.W_OK | os.X_OK):
        return False
    if os.geteuid() == 0:
        return True
    return status.st_uid == os.geteuid() and status.st_gid in {os.getegid(), *os.getgroups()}


def _write_through(path: Path, content: bytes, expected_digest: str | None) -> None:
    """Write ``content`` into the file itself, only if it still holds the bytes of ``expected_digest``."""
    with open(os.open(path, os.O_RDWR | os.O_NONBLOCK), "r+b") as stream:
        if not stat.S_ISREG(os.fstat(stream.fileno()).st_mode):
            raise OSError(errno.EINVAL, "not a regular file", str(path))
        if expected_digest is not None and digest(stream.read()) != expected_digest:
            raise FileChanged(f"{path} changed since it was read")
        stream.seek(0)
        stream.write(content)
        stream.truncate()
        stream.flush()
        os.fsync(stream.fileno())


def _remove_leftovers(path: Path) -> None:
    """The new files of ``path`` that processes killed before their rename left (best effort)."""
    prefix, suffix = f".{path.name}.", ".mslint-tmp"
    with contextlib.suppress(OSError):
        for entry in os.scandir(path.parent):
            if not (entry.name.startswith(prefix) and entry.name.endswith(suffix)):
                continue
            pid = entry.name[len(prefix) : -len(suffix)].split(".")[0]
            if pid.isdigit() and not _runs(int(pid)):
                with contextlib.suppress(OSError):
                    os.unlink(entry.path)


def _runs(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # another user's process: it runs
        return True
    return True


def _unique_name(path: Path) -> Path:
    return path.with_name(f".{path.name}.{os.getpid()}.{os.urandom(4).hex()}.mslint-tmp")


def _is_special(path: Path) -> bool:
    try:
        return not stat.S_ISREG(path.stat().st_mode)
    except OSError:
        return False


def refuse_unwritable(path: Path) -> None:
    """Raise what writing into ``path`` in place would raise: a rename would replace a file the
    user made read-only."""
    try:
        descriptor = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_NONBLOCK)
    except FileNotFoundError:
        return
    os.close(descriptor)


def _mode_of(path: Path) -> int:
    """A regular target's permission bits, or those a new file gets under the process's umask."""
    try:
        status = path.stat()
        if not stat.S_ISREG(status.st_mode):
            raise OSError("not a regular file")
        return status.st_mode & 0o7777
    except OSError:
        umask = os.umask(0)
        os.umask(umask)
        return 0o666 & ~umask


def _read_or_empty(path: Path) -> bytes:
    try:
        return read_regular_file(path)
    except FileNotFoundError:
        return b""


def _sync_folder(folder: Path) -> None:
    """Make the rename itself durable (best effort: some systems cannot open a folder)."""
    with contextlib.suppress(OSError):
        descriptor = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(descriptor)
        finally:
            os.close(descriptor)
