"""Source files are read as Python reads them (byte order mark, PEP 263 coding comment), and
``--fix`` writes back only the fixed text: every other byte, line ending, the byte order mark
and the encoding stay as they were. ``python -m mslint`` never runs the user's files."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

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


@pytest.mark.parametrize(
    ("content", "reason"),
    [
        (
            b"import os\nNAME = 'caf\xe9'\n",
            "line 2: byte 0xe9 is not valid utf-8, and no coding comment (PEP 263) names another encoding",
        ),
        (BOM + b"import os\n\n\nNAME = 'caf\xe9'\n", "line 4: byte 0xe9 is not valid utf-8"),
        (b"# -*- coding: klingon -*-\nimport os\n", "bad coding comment: unknown encoding: klingon"),
    ],
    ids=["undeclared latin-1", "latin-1 after a byte order mark", "unknown encoding"],
)
def test_an_undecodable_file_is_one_line_and_exit_code_2(tmp_path: Path, run: Run, content: bytes, reason: str) -> None:
    path = tmp_path / "net.py"
    path.write_bytes(content)
    code, _, err = run("check", str(path), "--no-cache")
    assert code == 2
    assert err.splitlines() == [f"mslint: error: {path}: cannot read: {reason}"]


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
