"""Property: the command line keeps its contract over generated trees (issue 28).

Files of any name (spaces, newlines, backticks, bytes that are not UTF-8) and any content
(examples with edits, byte order marks, coding comments of every kind, bytes that are no text),
beside a pyproject.toml that may be right, wrong, not UTF-8 or nested too deep: whatever the
command, it exits with 0, 1 or 2, prints no traceback and no internal error, and changes
nothing in the tree. Seeded and bounded, to run in well under a minute."""

from __future__ import annotations

import codecs
import os
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from mslint.cli import main
from tests.test_never_crashes import mutated_examples

NAMES = st.sampled_from(
    [
        "net.py",
        "with space.py",
        "tab\there.py",
        "new\nline.py",
        "::error file=x::forged.py",
        "a`<b>`.py",
        "-starts-with-dash.py",
        "é.py",
        os.fsdecode(b"latin\xe9.py"),
        os.fsdecode(b"\xff\xfe.py"),
        "pkg/__init__.py",
        "pkg/mod.py",
        os.fsdecode(b"pkg\xff/mod.py"),
        "notes.txt",
        "pyproject.py",
    ]
)
COOKIES = st.sampled_from(
    [b""] * 6 + [b"# -*- coding: latin-1 -*-\n", b"# coding: rot13\n", b"# coding: hex\n", b"# coding: bogus\n"]
)
PREFIXES = st.sampled_from([b""] * 6 + [codecs.BOM_UTF8, b"\xff\xfe"])
CONFIG_KEYS = st.sampled_from(
    [
        'select = ["ALL"]',
        'select = ["MS101"]',
        "select = []",
        'ignore = ["ALL"]',
        'ignore = ["MS1"]',
        'select = ["NOPE"]',
        'syntax-level = "strict"',
        'syntax-level = "fast"',
        'target = "cpu"',
        "target = 3",
        'fail-on = "info"',
        'per-file-ignores = { "*.py" = ["MS101"] }',
        'exclude = ["pkg"]',
        'mindspore-version = "2.9"',
        'mindspore-version = "9.9"',
        "unknown = 1",
    ]
)


@st.composite
def source_bytes(draw: st.DrawFn) -> bytes:
    text = draw(mutated_examples())
    if draw(st.booleans()):
        text = text.replace("\n", "\r\n")
    body = text.encode("utf-8", errors="surrogatepass")
    if draw(st.integers(0, 9)) == 0:
        body = draw(st.binary(max_size=200))
    return draw(PREFIXES) + draw(COOKIES) + body


@st.composite
def configs(draw: st.DrawFn) -> bytes | None:
    kind = draw(st.sampled_from(["none"] * 4 + ["keys"] * 4 + ["not-utf8", "deep", "not-toml"]))
    if kind == "none":
        return None
    if kind == "not-utf8":
        return b'[tool.mslint]\nselect = ["ALL"]  # \xff\n'
    if kind == "deep":
        return b"[tool.mslint]\nx = " + b"[" * 3000 + b"]" * 3000 + b"\n"
    if kind == "not-toml":
        return b"[tool.mslint\n"
    keys = draw(st.lists(CONFIG_KEYS, max_size=3, unique_by=lambda k: k.split("=")[0]))
    return ("[tool.mslint]\n" + "\n".join(keys) + "\n").encode()


COMMANDS = st.sampled_from(
    [
        ["check"],
        ["check", "--no-cache", "--format", "json"],
        ["check", "--jobs", "2", "--format", "github"],
        ["check", "--format", "sarif", "--statistics"],
        ["check", "--diff"],
        ["check", "--ignore", "ALL"],
        ["check", "--select", "MS1", "--fail-on", "info"],
        ["report", "--format", "json"],
        ["report", "--format", "markdown"],
        ["report", "--format", "html"],
        ["baseline", "-o", "{outside}/baseline.json"],
        ["check", "--baseline", "{outside}/baseline.json"],
    ]
)
"""Commands run on the tree; ``{outside}`` is a folder beside it."""


def snapshot(root: Path) -> dict[str, tuple[bytes | None, int]]:
    """Every path under ``root`` with its content (None for a folder) and modification time."""
    found: dict[str, tuple[bytes | None, int]] = {}
    for folder, folders, files in os.walk(root):
        for name in folders + files:
            path = Path(folder, name)
            found[str(path)] = (None if path.is_dir() else path.read_bytes(), path.stat().st_mtime_ns)
    return found


@settings(
    max_examples=150,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(
    files=st.dictionaries(NAMES, source_bytes(), min_size=1, max_size=4),
    config=configs(),
    command=COMMANDS,
)
def test_the_cli_keeps_its_contract_on_generated_trees(
    capfd: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    files: dict[str, bytes],
    config: bytes | None,
    command: list[str],
) -> None:
    with tempfile.TemporaryDirectory() as scratch:
        root, cache = Path(scratch, "tree"), Path(scratch, "cache")
        monkeypatch.setenv("MSLINT_CACHE_DIR", str(cache))
        for name, content in files.items():
            path = root / name
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(content)
        if config is not None:
            (root / "pyproject.toml").write_bytes(config)
        before = snapshot(root)
        code = main([*(part.format(outside=scratch) for part in command), str(root)])
        captured = capfd.readouterr()
        event(f"{' '.join(command)}: exit {code}")  # --hypothesis-show-statistics shows what ran
        assert code in (0, 1, 2), (code, captured.err)
        assert "Traceback" not in captured.err and "internal error" not in captured.err, captured.err
        assert snapshot(root) == before, "nothing in the tree changes"
