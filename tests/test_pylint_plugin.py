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


PYLINT_CATEGORIES = {"error": "error", "warning": "warning", "info": "convention"}
"""The pylint category of each mslint severity."""


def rule_code(message_id: str) -> str:
    """MS110 for E7510 or W7510: the checker 75 holds the MS1xx rules, 76 the MS2xx rules."""
    return f"MS{int(message_id[1:3]) - 74}{message_id[3:]}"


def reported_by_pylint(message: dict[str, object]) -> tuple[int, str, str]:
    """A pylint message's line, mslint code and category."""
    return int(str(message["line"])), rule_code(str(message["message-id"])), str(message["type"])


def reported_by_check(finding: dict[str, object]) -> tuple[int, str, str]:
    """A finding's line, code and the pylint category of its severity (``check --format json``)."""
    return int(str(finding["line"])), str(finding["code"]), PYLINT_CATEGORIES[str(finding["severity"])]


@cache
def pylint_by_file() -> dict[Path, set[tuple[int, str, str]]]:
    found: dict[Path, set[tuple[int, str, str]]] = defaultdict(set)
    for message in pylint_messages(RULES_DIR):
        found[Path(str(message["path"])).resolve()].add(reported_by_pylint(message))
    return found


@cache
def mslint_by_file() -> dict[Path, set[tuple[int, str, str]]]:
    found: dict[Path, set[tuple[int, str, str]]] = defaultdict(set)
    for diagnostic in check_files(example_files(), Settings()).diagnostics:
        if diagnostic.symbol in PLUGIN_SYMBOLS.split(","):
            found[Path(diagnostic.path).resolve()].add(reported_by_check(diagnostic.to_json()))
    return found


# pylint and mslint over every example (about 8 CPU-s) once per process: the tests that compare
# them share a pytest-xdist worker (--dist loadgroup), so a run computes them once, not once a worker.
COMPARISON = pytest.mark.xdist_group("pylint-against-check")


@COMPARISON
@pytest.mark.parametrize("path", example_files(), ids=lambda p: str(p.relative_to(RULES_DIR)))
def test_plugin_reports_what_mslint_check_reports(path: Path) -> None:
    assert pylint_by_file()[path.resolve()] == mslint_by_file()[path.resolve()]


@COMPARISON
def test_the_examples_give_the_comparison_something_to_compare() -> None:
    assert sum(len(found) for found in pylint_by_file().values()) >= 20


# Findings of MS110, MS201 and MS208 at their default severity and at another one: the unknown
# `n` (nothing shows how `construct` is called) caps MS110's and MS201's errors to warnings, and
# MS208 is an error for a graph-mode `transpose` with two axes.
SEVERITIES_OF_ONE_RULE = """
from mindspore import nn


class Net(nn.Cell):
    def construct(self, x, n):
        if x.sum() > 0:
            y = x * 2
        if n > 0:
            z = x * 3
        detached = x.detach()
        counted = (n + 1).detach()
        drop = nn.Dropout(0.1)
        swapped = x.transpose(0, 1)
        return y + z + detached + counted + drop(x) + swapped
"""

PRAGMA = """
import numpy as np
from mindspore import nn


class Net(nn.Cell):
    def construct(self, x, n):
        y = np.maximum(x, 0)  # pylint: disable=third-party-call-in-graph
        return y[:n]
"""

LOCAL_VARIABLE = """
from mindspore import nn


class Net(nn.Cell):
    def construct(self, x, n):
        if n > 0:
            z = x
        return z{pragma}
"""

CONFIGURED = """
import numpy as np
from mindspore import nn


class Net(nn.Cell):  # mslint: inputs=float32[4]
    def construct(self, x):
        return np.maximum(x, 0)
"""

PYLINT_CASES = {
    "severities": SEVERITIES_OF_ONE_RULE,
    "pragma": PRAGMA,
    "symbol": LOCAL_VARIABLE.format(pragma=""),
    "symbol-disabled": LOCAL_VARIABLE.format(pragma="  # pylint: disable=branch-local-variable"),
    "configured": CONFIGURED,
}
"""The tests below, each a ``net.py`` in a folder of its own (``configured`` with its ``pyproject.toml``)."""


@pytest.fixture(scope="module")
def pylint_cases(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[Path, list[dict[str, object]]]]:
    """Each case's file and pylint's messages on it, from one pylint run over them all: a run builds
    MindSpore's modules for astroid (the ancestors of ``nn.Cell``) once, about 3.5 CPU-s, nearly all
    of a run on one small file."""
    folder = tmp_path_factory.mktemp("pylint-cases")
    paths = {name: folder / name / "net.py" for name in PYLINT_CASES}
    for name, path in paths.items():
        path.parent.mkdir()
        path.write_text(PYLINT_CASES[name].lstrip("\n"))
    (folder / "configured" / "pyproject.toml").write_text('[tool.mslint]\nsyntax-level = "strict"\n')
    found: dict[str, list[dict[str, object]]] = defaultdict(list)
    for message in pylint_messages(*paths.values()):
        found[Path(str(message["path"])).resolve().parent.name].append(message)
    return {name: (path, found[name]) for name, path in paths.items()}


# Under pytest -n, these tests in one worker: the fixture above would run pylint again in each worker.
CASES = pytest.mark.xdist_group("pylint-cases")


@CASES
def test_pylint_reports_each_finding_in_the_category_of_its_own_severity(pylint_cases) -> None:
    path, messages = pylint_cases["severities"]
    check = subprocess.run(
        [sys.executable, "-m", "mslint", "check", "--format", "json", str(path)],
        capture_output=True,
        text=True,
        cwd=path.parent,
    )
    expected = {reported_by_check(finding) for finding in json.loads(check.stdout)}
    for code in ("MS110", "MS201", "MS208"):
        assert {category for _, c, category in expected if c == code} == {"error", "warning"}, code
    assert {reported_by_pylint(message) for message in messages} == expected


@CASES
def test_pylint_disable_pragma_silences_a_finding(pylint_cases) -> None:
    _, messages = pylint_cases["pragma"]
    assert [(m["line"], m["symbol"]) for m in messages] == [(8, "variable-slice")]


@CASES
def test_the_rule_symbol_silences_its_findings_of_every_severity(pylint_cases) -> None:
    """Users' pragmas and options name the rule: they must reach its messages of other severities."""
    assert [m["symbol"] for m in pylint_cases["symbol"][1]] == ["branch-local-variable-warning"]
    assert pylint_cases["symbol-disabled"][1] == []


@CASES
def test_the_folder_configuration_decides_the_category(pylint_cases) -> None:
    found = [(m["message-id"], m["symbol"]) for m in pylint_cases["configured"][1]]
    assert found == [("E7501", "third-party-call-in-graph-error")]


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
