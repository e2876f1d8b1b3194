"""The cache is a hint, never an authority: what a run reads back is what a run of this user wrote.

A cache folder can come from elsewhere: committed into a repository by a pull request, restored
by a CI job from a shared store. Its findings would then be shown as the project's, and its
fixes applied to the source. Each cache file is therefore signed with a secret of the user's
(HMAC-SHA256, a key kept outside every project); a file that is not signed with it is ignored,
as a missing cache is. Where no key can be kept, nothing is cached.
"""

from __future__ import annotations

import hashlib
import hmac
import os
from pathlib import Path

from mslint.atomic_write import write_atomically
from mslint.source import read_regular_file

_KEY_BYTES = 32


def key_file() -> Path:
    cache_home = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(cache_home, "mslint", "cache-key")


def signing_key() -> bytes | None:
    """The user's key, made on first use; None where it can be neither read nor made."""
    path = key_file()
    try:
        key = read_regular_file(path, limit=_KEY_BYTES)
        if len(key) == _KEY_BYTES:
            return key
    except OSError:
        pass
    key = os.urandom(_KEY_BYTES)
    try:
        path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        write_atomically(path, key, mode=0o600, streams=False)
    except OSError:
        return None
    return key


def sign(payload: bytes, key: bytes) -> bytes:
    """The payload behind a first line holding its signature."""
    return hmac.new(key, payload, hashlib.sha256).hexdigest().encode() + b"\n" + payload


def signed_payload(content: bytes, key: bytes) -> bytes | None:
    """The payload of :func:`sign`'s output, or None where the signature is not the key's."""
    signature, _, payload = content.partition(b"\n")
    expected = hmac.new(key, payload, hashlib.sha256).hexdigest().encode()
    return payload if hmac.compare_digest(signature, expected) else None
