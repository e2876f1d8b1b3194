"""The pylint plugin reports exactly what ``mslint check`` reports, and honours pylint pragmas."""

from __future__ import annotations

import json
import subprocess
import sys
from collections import defaultdict
from functools import cache
from pathlib import Path

import pytest

from mslint import pylint_plugin
from mslint.engine import check_files
from mslint.pylint_plugin import diagnostics_for, plugin_rules
from mslint.settings import Settings
from tests.examples import RULES_DIR, example_files

PLUGIN_SYMBOLS = ",".join(r.symbol for r in plugin_rules())


def pylint_messages(*paths: Path) -> list[dict[str, object]]:
    command = [
        sys.executable,
        "-m",
        "pylint",
        "--load-plugins=mslint.pylint_plugin",
        "--disable=all",
        f"--enable={PLUGIN_SYMBOLS}",
        "--output-format=json",
        "--score=n",
        *map(str, paths),
    ]
    result = subprocess.run(command, capture_output=True, text=True)
    assert "Traceback" not in result.stderr, result.stderr
    messages: list[dict[str, object]] = json.loads(result.stdout or "[]")
    return messages


@cache
def pylint_by_file() -> dict[Path, set[tuple[int, str]]]:
    found: dict[Path, set[tuple[int, str]]] = defaultdict(set)
    for message in pylint_messages(RULES_DIR):
        found[Path(str(message["path"])).resolve()].add((int(str(message["line"])), str(message["symbol"])))
    return found


@cache
def mslint_by_file() -> dict[Path, set[tuple[int, str]]]:
    found: dict[Path, set[tuple[int, str]]] = defaultdict(set)
    for diagnostic in check_files(example_files(), Settings()).diagnostics:
        if diagnostic.symbol in PLUGIN_SYMBOLS.split(","):
            found[Path(diagnostic.path).resolve()].add((diagnostic.line, diagnostic.symbol))
    return found


@pytest.mark.parametrize("path", example_files(), ids=lambda p: str(p.relative_to(RULES_DIR)))
def test_plugin_reports_what_mslint_check_reports(path: Path) -> None:
    assert pylint_by_file()[path.resolve()] == mslint_by_file()[path.resolve()]


def test_the_examples_give_the_comparison_something_to_compare() -> None:
    assert sum(len(found) for found in pylint_by_file().values()) >= 20


def test_pylint_disable_pragma_silences_a_finding(write) -> None:
    path = write(
        "net.py",
        """
        import numpy as np
        from mindspore import nn


        class Net(nn.Cell):
            def construct(self, x, n):
                y = np.maximum(x, 0)  # pylint: disable=third-party-call-in-graph
                return y[:n]
        """,
    )
    assert [(m["line"], m["symbol"]) for m in pylint_messages(path)] == [(8, "variable-slice")]


def test_plugin_sees_edits_within_one_process(write) -> None:
    """Editors keep one pylint process alive: a fixed file must not keep its old findings."""
    source = "from mindspore import nn\n\nclass Net(nn.Cell):\n    def construct(self, x, n):\n        return x[:n]\n"
    path = write("net.py", source)
    assert [d.symbol for d in diagnostics_for(path, path.read_bytes())] == ["variable-slice"]
    fixed = path.read_text().replace("x[:n]", "x[:2]")
    path.write_text(fixed + "\n")
    pylint_plugin.start_run()  # what pylint's next run does (the checker's open())
    assert diagnostics_for(path, path.read_bytes()) == []


def test_crlf_files_share_their_folder_analysis(write, monkeypatch) -> None:
    """pylint hands over the raw bytes: CRLF files must not fall back to one analysis per file."""
    path = write("net.py", "")
    lines = [
        "from mindspore import nn",
        "",
        "class Net(nn.Cell):",
        "    def construct(self, x, n):",
        "        return x[:n]",
    ]
    path.write_bytes("\r\n".join(lines).encode() + b"\r\n")
    single_file_runs = []
    original = pylint_plugin.check_files
    monkeypatch.setattr(
        pylint_plugin, "check_files", lambda paths, *a, **k: single_file_runs.append(k) or original(paths, *a, **k)
    )
    assert [d.symbol for d in diagnostics_for(path, path.read_bytes())] == ["variable-slice"]
    assert [k.get("sources") for k in single_file_runs] == [None], "analysed as part of its folder"
