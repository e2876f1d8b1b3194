"""Source files are read as Python reads them (byte order mark, PEP 263 coding comment), and
``--fix`` writes back only the fixed text: every other byte, line ending, the byte order mark
and the encoding stay as they were. ``python -m mslint`` never runs the user's files."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from mslint import atomic_write
from mslint.diagnostics import Edit, Fix
from mslint.fixes import apply_fixes, unified_diff
from mslint.pylint_plugin import diagnostics_for
from tests.test_pylint_plugin import pylint_messages

Run = Callable[..., tuple[int, str, str]]
BOM = b"\xef\xbb\xbf"

# Two findings: an unknown operator on line 1 (its column is checked) and numpy on line 7.
CODE = """\
import mindspore.ops as ops; resize = ops.ResizeBilinear((2, 2))
import numpy as np
from mindspore import nn


class Net(nn.Cell):
    def construct(self, x):
        return np.maximum(x, 0)
"""
FOUND = [(1, 39, "unknown-mindspore-api"), (8, 16, "third-party-call-in-graph")]

LATIN_1 = b"""\
# -*- coding: latin-1 -*-
import numpy as np
from mindspore import nn

NAME = "caf\xe9"


class Net(nn.Cell):
    def construct(self, x):
        return np.maximum(x, 0)
"""

LATIN_1_BASE = b"# coding: latin-1\nfrom mindspore import nn\n\n\nclass Base(nn.Cell):\n    NAME = 'caf\xe9'\n"
SUBCLASS = """\
import numpy as np
from base import Base


class Net(Base):
    def construct(self, x):
        return np.tanh(x)
"""
CALLER = b"""\
from helpers import squash
from mindspore import nn


class Net(nn.Cell):
    def construct(self, x):
        return squash(x)
"""

CONTAINER = [
    "from mindspore import nn",
    "",
    "",
    "class Net(nn.Cell):",
    "    def __init__(self):",
    "        super().__init__()",
    '        self.name = "caf\xe9"',
    "        self.layers = [nn.Dense(4, 4), nn.Dense(4, 4)]",
    "",
    "    def construct(self, x):",
    "        return x",
]
CONTAINER_FIXED = "        self.layers = nn.CellList([nn.Dense(4, 4), nn.Dense(4, 4)])"


def found(run: Run, *paths: Path) -> list[tuple[str, int, int, str]]:
    _, out, err = run("check", *map(str, paths), "--format", "json", "--no-cache")
    assert "Traceback" not in err
    return [(Path(d["path"]).name, d["line"], d["column"], d["symbol"]) for d in json.loads(out)]


def test_a_file_with_a_byte_order_mark_gives_its_findings_at_their_columns(tmp_path: Path, run: Run) -> None:
    path = tmp_path / "net.py"
    path.write_bytes(BOM + CODE.encode())
    assert found(run, path) == [("net.py", *f) for f in FOUND]


def test_a_latin_1_file_with_a_coding_comment_gives_its_findings(tmp_path: Path, run: Run) -> None:
    path = tmp_path / "net.py"
    path.write_bytes(LATIN_1)
    assert found(run, path) == [("net.py", 10, 16, "third-party-call-in-graph")]


def test_a_base_class_in_a_latin_1_file_makes_a_cell(tmp_path: Path, run: Run) -> None:
    """Files read to resolve names (not checked themselves) are decoded by the same rules."""
    (tmp_path / "base.py").write_bytes(LATIN_1_BASE)
    net = tmp_path / "net.py"
    net.write_text(SUBCLASS)
    assert found(run, net) == [("net.py", 7, 16, "third-party-call-in-graph")]


GBK_CONFIG = "# 训练配置\nBATCH = 32\nNAME = '中文'\n".encode("gbk")


@pytest.mark.parametrize(
    ("content", "place", "reason"),
    [
        (
            b"import os\nNAME = 'caf\xe9'\n",
            (2, 12),
            "byte 0xe9 at offset 21 is not valid utf-8, and no coding comment (PEP 263) names another encoding",
        ),
        (
            GBK_CONFIG,
            (1, 5),
            "byte 0xc1 at offset 4 is not valid utf-8, and no coding comment (PEP 263) names another encoding",
        ),
        (BOM + b"import os\n\n\nNAME = 'caf\xe9'\n", (4, 12), "byte 0xe9 at offset 26 is not valid utf-8"),
        (b"# -*- coding: klingon -*-\nimport os\n", (1, 1), "bad coding comment: unknown encoding: klingon"),
    ],
    ids=["undeclared latin-1", "undeclared gbk", "latin-1 after a byte order mark", "unknown encoding"],
)
def test_an_undecodable_file_is_a_finding_and_the_other_files_are_checked(
    tmp_path: Path, run: Run, content: bytes, place: tuple[int, int], reason: str
) -> None:
    """Python cannot parse such a file (SyntaxError at import): a syntax-error finding of that
    file at the bad byte, as ruff reports E902 and goes on; one such file in a corpus must not
    stop the run with the internal-error code."""
    (tmp_path / "config.py").write_bytes(content)
    (tmp_path / "net.py").write_text(CODE)
    code, out, err = run("check", str(tmp_path), "--format", "json", "--no-cache")
    assert (code, err) == (1, "")
    config = [d for d in json.loads(out) if d["path"].endswith("config.py")]
    assert [(d["line"], d["column"], d["symbol"], d["message"]) for d in config] == [
        (*place, "syntax-error", f"cannot decode: {reason}")
    ]
    assert found(run, tmp_path / "net.py") == [("net.py", *f) for f in FOUND]


def test_an_undecodable_file_is_one_line_of_text(tmp_path: Path, run: Run) -> None:
    (tmp_path / "config.py").write_bytes(GBK_CONFIG)
    code, out, _ = run("check", str(tmp_path / "config.py"), "--no-cache")
    assert code == 1
    assert out.splitlines()[0] == (
        f"{tmp_path / 'config.py'}:1:5: MS001 syntax-error cannot decode: byte 0xc1 at offset 4 is not valid utf-8, "
        "and no coding comment (PEP 263) names another encoding"
    )


def test_the_plugin_checks_the_files_beside_an_undecodable_one(tmp_path: Path) -> None:
    """pylint reports the undecodable file itself (E0001); mslint's findings of the others stay."""
    (tmp_path / "config.py").write_bytes(GBK_CONFIG)
    (tmp_path / "net.py").write_text(CODE)
    messages = {(Path(str(m["path"])).name, m["line"], m["symbol"]) for m in pylint_messages(tmp_path)}
    assert messages == {("config.py", 1, "syntax-error"), *(("net.py", line, symbol) for line, _, symbol in FOUND)}


def test_the_cache_sees_an_import_on_the_first_line_of_a_file_with_a_byte_order_mark(
    tmp_path: Path, run: Run, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The cache analyses files joined by imports together; it must find the import behind the mark."""
    monkeypatch.setenv("MSLINT_CACHE_DIR", str(tmp_path / "cache"))
    helper = tmp_path / "helpers.py"
    helper.write_text("import numpy as np\n\n\ndef squash(x):\n    return np.tanh(x)\n")
    net = tmp_path / "net.py"
    net.write_bytes(BOM + CALLER)
    _, out, _ = run("check", str(helper), str(net), "--format", "json")
    assert [(Path(d["path"]).name, d["line"]) for d in json.loads(out)] == [("helpers.py", 5)]


def test_the_plugin_reports_findings_of_files_with_a_byte_order_mark_or_a_coding_comment(tmp_path: Path) -> None:
    bom = tmp_path / "bom.py"
    bom.write_bytes(BOM + CODE.encode())
    latin_1 = tmp_path / "latin_1.py"
    latin_1.write_bytes(LATIN_1)
    messages = {(Path(str(m["path"])).name, m["line"], m["column"], m["symbol"]) for m in pylint_messages(tmp_path)}
    expected = {("bom.py", line, column - 1, symbol) for line, column, symbol in FOUND}
    assert messages == {*expected, ("latin_1.py", 10, 15, "third-party-call-in-graph")}


def test_the_plugin_decodes_unsaved_text_as_python_does(tmp_path: Path) -> None:
    path = tmp_path / "net.py"
    path.write_bytes(BOM + b"x = 1\n")
    edited = diagnostics_for(path, BOM + CODE.encode())
    assert [(d.line, d.column, d.symbol) for d in edited] == FOUND
    latin_1 = diagnostics_for(path, LATIN_1)
    assert [(d.line, d.symbol) for d in latin_1] == [(10, "third-party-call-in-graph")]


@pytest.mark.parametrize(
    "endings",
    [
        ["\r\n"] * (len(CONTAINER) + 1),
        # Every kind, the fixed line's (a lone CR) the rarest; no CR is followed by an empty LF line.
        ["\n", "\r\n", "\r\n", "\n", "\r", "\n", "\r\n", "\n", "\r", "\r\n", "\r\n", "\n"],
    ],
    ids=["crlf", "mixed"],
)
def test_fix_keeps_every_line_ending_and_the_encoding(tmp_path: Path, run: Run, endings: list[str]) -> None:
    path = tmp_path / "net.py"
    lines = ["# -*- coding: latin-1 -*-", *CONTAINER]
    before = "".join(line + ending for line, ending in zip(lines, endings))
    path.write_bytes(before.encode("latin-1"))
    after = before.replace(CONTAINER[7] + endings[8], CONTAINER_FIXED + endings[8])
    assert after != before

    _, diff, _ = run("check", str(path), "--diff", "--no-cache")
    assert f"-{CONTAINER[7]}{endings[8]}+{CONTAINER_FIXED}{endings[8]}" in diff, "the diff shows what is written"
    assert path.read_bytes() == before.encode("latin-1")

    run("check", str(path), "--fix", "--no-cache")
    assert path.read_bytes() == after.encode("latin-1")


def test_fix_keeps_the_byte_order_mark(tmp_path: Path, run: Run) -> None:
    path = tmp_path / "net.py"
    source = "\r\n".join(CONTAINER) + "\r\n"
    path.write_bytes(BOM + source.encode())
    run("check", str(path), "--fix", "--no-cache")
    assert path.read_bytes() == BOM + source.replace(CONTAINER[7], CONTAINER_FIXED).encode()


def test_an_inserted_line_takes_the_ending_of_the_line_it_is_inserted_at() -> None:
    add_import = Fix("import", (Edit(2, 1, 2, 1, "import os\n"),))
    assert apply_fixes("a = 1\nb = 2\r\nc = 3\n", [add_import]) == ("a = 1\nimport os\r\nb = 2\r\nc = 3\n", 1)
    at_the_end = Fix("import", (Edit(3, 1, 3, 1, "import os\n"),))
    assert apply_fixes("a = 1\r\nb = 2\r\n", [at_the_end]) == ("a = 1\r\nb = 2\r\nimport os\r\n", 1)


def test_fixes_count_lines_as_python_does() -> None:
    """A form feed (page break) ends no line for Python: line 3 is the one after it."""
    wrap = Fix("wrap", (Edit(3, 5, 3, 5, "f("), Edit(3, 8, 3, 8, ")")))
    assert apply_fixes("a = 1\n\x0c\nb = [1]\n", [wrap]) == ("a = 1\n\x0c\nb = f([1])\n", 1)


def test_the_diff_marks_a_last_line_without_an_ending() -> None:
    assert unified_diff("x.py", "a = [1]", "a = f([1])").endswith(
        "-a = [1]\n\\ No newline at end of file\n+a = f([1])\n\\ No newline at end of file\n"
    )


def test_a_read_only_file_is_reported_and_the_others_are_fixed(
    tmp_path: Path, run: Run, monkeypatch: pytest.MonkeyPatch
) -> None:
    source = "\n".join(CONTAINER) + "\n"
    locked, other = tmp_path / "locked.py", tmp_path / "other.py"
    for path in (locked, other):
        path.write_text(source)
    locked.chmod(0o444)
    if os.access(locked, os.W_OK):  # root writes read-only files: refuse as the system does for others
        refuse = atomic_write.refuse_unwritable

        def refuse_locked(path: Path) -> None:
            if path == locked:
                raise PermissionError(13, "Permission denied", str(path))
            refuse(path)

        monkeypatch.setattr(atomic_write, "refuse_unwritable", refuse_locked)
    code, _, err = run("check", str(locked), str(other), "--fix", "--no-cache")
    assert code == 2
    unchanged = f"mslint: error: {locked}: cannot write the fixes, the file is unchanged: Permission denied"
    assert unchanged in err.splitlines()
    assert "Traceback" not in err
    assert locked.read_text() == source
    assert CONTAINER_FIXED in other.read_text()


def test_the_cache_writes_a_gitignore_only_into_a_folder_it_created(
    tmp_path: Path, run: Run, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "net.py"
    path.write_text("x = 1\n")
    monkeypatch.setenv("MSLINT_CACHE_DIR", str(tmp_path))
    assert run("check", str(path))[0] == 0
    assert not (tmp_path / ".gitignore").exists(), "the user's own folder: git must keep seeing new files"
    assert any(tmp_path.rglob("*.json")), "but the cache is written"
    monkeypatch.setenv("MSLINT_CACHE_DIR", str(tmp_path / "cache"))
    assert run("check", str(path))[0] == 0
    assert (tmp_path / "cache" / ".gitignore").read_text() == "# Created by mslint\n*\n"


def test_python_m_mslint_never_imports_the_users_files(tmp_path: Path) -> None:
    for name in ("argparse", "dataclasses", "json"):
        (tmp_path / f"{name}.py").write_text(f"open({name!r} + '.ran', 'w').close()\n")
    result = subprocess.run(
        [sys.executable, "-m", "mslint", "rules", "--format", "json"], cwd=tmp_path, capture_output=True, text=True
    )
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)
    assert sorted(p.name for p in tmp_path.glob("*.ran")) == []
