"""Jupyter notebooks: checked cell by cell, findings placed in their cell, never edited."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

Run = Callable[..., tuple[int, str, str]]


def notebook(*cells: tuple[str, str]) -> str:
    """A notebook (nbformat 4) of ``(cell_type, source)`` cells, as Jupyter writes it."""
    document = {
        "cells": [
            {"cell_type": kind, "id": f"c{i}", "metadata": {}, "source": source.splitlines(keepends=True)}
            | ({"execution_count": None, "outputs": []} if kind == "code" else {})
            for i, (kind, source) in enumerate(cells)
        ],
        "metadata": {"kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"}},
        "nbformat": 4,
        "nbformat_minor": 5,
    }
    return json.dumps(document, indent=1) + "\n"


COURSE = notebook(
    ("markdown", "# Porting a network"),
    ("code", "%matplotlib inline\n!pip install mindspore\nimport numpy as np\nfrom mindspore import nn"),
    ("markdown", "The network:"),
    (
        "code",
        "class Net(nn.Cell):\n"
        "    def __init__(self):\n"
        "        super().__init__()\n"
        "        self.layers = [nn.Dense(4, 4)]\n"
        "\n"
        "    def construct(self, x):\n"
        "        %time y = x\n"
        "        return np.maximum(x, 0)",
    ),
    ("code", "%%bash\necho this is no Python: (\n"),
)


@pytest.fixture
def course(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    path = tmp_path / "course.ipynb"
    path.write_text(COURSE)
    return path


def test_findings_name_their_cell_and_the_line_in_it(course: Path, run: Run) -> None:
    """Cells are numbered among all cells (markdown too), lines within the cell; magics,
    shell lines and a %%bash cell are no syntax error."""
    code, out, _ = run("check", "--no-cache", "--format", "concise", "course.ipynb")
    assert code == 1
    assert out.splitlines()[:2] == [
        "course.ipynb:cell 4:4:9: MS103 python-container-of-cells `self.layers` keeps Cells in a plain list: "
        "their parameters are not registered or trained",
        "course.ipynb:cell 4:8:16: MS101 third-party-call-in-graph `numpy.maximum` is called on a graph value; "
        "the graph compiler cannot run it on tensors; only if `x` is a tensor, which no call of `Net.construct` "
        "shows (reached from Net.construct)",
    ]
    code, out, _ = run("check", "--no-cache", "--format", "json", "course.ipynb")
    found = [(d["cell"], d["line"], d["column"], d["end_line"], d["code"], d["fix"]) for d in json.loads(out)]
    assert found == [(4, 4, 9, 4, "MS103", None), (4, 8, 16, 8, "MS101", None)]


def test_the_text_report_shows_the_cell_s_line_and_fingerprints_use_it(course: Path, run: Run) -> None:
    """The excerpt under a finding is its line in the cell (not the JSON document's line), and
    so is the code a fingerprint (baselines, SARIF, GitLab) is made of: the finding's fingerprint
    is that of the same code in a Python file."""
    out = run("check", "--no-cache", "course.ipynb")[1]
    assert " 8 |         return np.maximum(x, 0)\n   |                ^^^^^^^^^^^^^^^^ warning\n" in out
    assert "   = hint: use `ops.maximum` (as in `ops.maximum(x, y)`)" in out
    network = "".join(json.loads(COURSE)["cells"][3]["source"]).replace("%time y = x", "pass")
    (course.parent / "same.py").write_text(f"import numpy as np\nfrom mindspore import nn\n\n\n{network}\n")
    reports = {
        name: {
            i["check_name"]: i["fingerprint"]
            for i in json.loads(run("check", "--no-cache", "--format", "gitlab", name)[1])
        }
        for name in ("course.ipynb", "same.py")
    }
    assert reports["course.ipynb"] == reports["same.py"] and len(reports["same.py"]) == 2


def test_a_folder_s_notebooks_are_checked_like_its_python_files(course: Path, run: Run) -> None:
    (course.parent / "helpers.py").write_text("import numpy as np\n\n\ndef squash(x):\n    return np.tanh(x)\n")
    (course.parent / "uses_helper.ipynb").write_text(
        notebook(
            ("code", "from mindspore import nn\nfrom helpers import squash"),
            ("code", "class Squash(nn.Cell):\n    def construct(self, x):\n        return squash(x)"),
        )
    )
    assert run("check", "--show-files", ".")[1].split() == ["course.ipynb", "helpers.py", "uses_helper.ipynb"]
    for cache in ("--no-cache", "--jobs=1"):  # the second run writes the cache, a third reads it
        code, out, _ = run("check", cache, "--format", "json", ".")
        assert code == 1
        places = [(d["path"], d.get("cell"), d["line"], d["code"]) for d in json.loads(out)]
        assert places == [
            ("course.ipynb", 4, 4, "MS103"),
            ("course.ipynb", 4, 8, "MS101"),
            ("helpers.py", None, 5, "MS101"),  # graph code because the notebook's Cell calls it
        ]
    assert run("check", "--format", "json", ".")[1] == out, "the cached run"


def test_fix_and_add_noqa_leave_notebooks_as_they_are_and_say_so(course: Path, run: Run) -> None:
    (course.parent / "net.py").write_text(
        "from mindspore import nn\n\n\nclass Net(nn.Cell):\n    def __init__(self):\n"
        "        super().__init__()\n        self.layers = [nn.Dense(4, 4)]\n\n"
        "    def construct(self, x):\n        return self.layers[0](x)\n"
    )
    note = "mslint: note: course.ipynb: a notebook, left as it is (mslint does not edit notebooks"
    code, _, err = run("check", "--fix", ".")
    assert note in err
    assert "nn.CellList([nn.Dense(4, 4)])" in (course.parent / "net.py").read_text(), "the Python file is fixed"
    assert course.read_text() == COURSE
    code, diff, err = run("check", "--diff", ".")
    assert note in err and "course.ipynb" not in diff
    code, _, err = run("check", "--add-noqa", ".")
    assert code == 0 and note in err
    assert course.read_text() == COURSE


def test_nbformat_s_warnings_about_the_file_are_not_printed(tmp_path: Path) -> None:
    """A notebook whose cells have no ids (written by older Jupyters) is read without a word on
    stderr (nbformat warns that it is missing an id field: nothing the user asked about)."""
    document = json.loads(COURSE)
    for cell in document["cells"]:
        del cell["id"]
    (tmp_path / "old.ipynb").write_text(json.dumps(document))
    command = [sys.executable, "-m", "mslint", "check", "--no-cache", "--format", "concise", "old.ipynb"]
    done = subprocess.run(command, capture_output=True, text=True, cwd=tmp_path, timeout=120)
    assert done.returncode == 1 and "cell 4:8:16: MS101" in done.stdout
    assert done.stderr == ""


@pytest.mark.parametrize(
    "content", ["{not json", '{"cells": "none"}', json.dumps({"nbformat": 4, "nbformat_minor": 5})[:-1]]
)
def test_a_file_that_is_no_notebook_is_one_error_line(tmp_path: Path, run: Run, content: str) -> None:
    path = tmp_path / "broken.ipynb"
    path.write_text(content)
    code, _, err = run("check", "--no-cache", str(path))
    assert code == 2
    [line] = err.splitlines()
    assert line.startswith(f"mslint: error: {path}: not a notebook nbformat can read: ")
    assert "Traceback" not in err


def test_a_notebook_from_stdin_is_read_as_a_notebook(course: Path) -> None:
    command = [sys.executable, "-m", "mslint", "check", "-", "--stdin-filename", "course.ipynb", "--format", "concise"]
    done = subprocess.run(command, input=COURSE.encode(), capture_output=True, cwd=course.parent, timeout=120)
    assert done.returncode == 1, done.stderr
    places = [line.split(": ")[0] for line in done.stdout.decode().splitlines()[:2]]
    assert places == ["course.ipynb:cell 4:4:9", "course.ipynb:cell 4:8:16"]


def test_a_magic_written_without_its_percent_is_no_syntax_error_but_a_shell_command_is(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, run: Run
) -> None:
    """IPython runs `pip install x` and `cd data` as the magics `%pip` and `%cd` (automagic); a
    shell command without `!` (`export X=1`) fails in the notebook as in mslint; `pip = 3` is
    Python."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "setup.ipynb").write_text(
        notebook(("code", "pip install mindspore==2.10.0"), ("code", "cd data\npip = 3\nprint(pip)"))
    )
    assert run("check", "--no-cache", "--format", "concise", "setup.ipynb")[0] == 0
    (tmp_path / "shell.ipynb").write_text(notebook(("code", "export MS_VERSION=2.10.0")))
    code, out, _ = run("check", "--no-cache", "--format", "concise", "shell.ipynb")
    assert code == 1 and out.startswith("shell.ipynb:cell 1:1:")
    assert "MS001 syntax-error" in out
