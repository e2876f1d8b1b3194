"""Bad input is a one-line error, never a traceback (issue 28, items 13-21 and 23-27).

Each test gives mslint one input of the second adversarial audit and checks the contract:
exit code 2 with one ``mslint: error:`` line for what cannot be used, the rest of the run
unchanged, and no "internal error" (the line that says mslint has a bug)."""

from __future__ import annotations

import codecs
import json
import os
import signal
import subprocess
import sys
import threading
import tracemalloc
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mslint import pylint_plugin

NUMPY_CELL = """\
import numpy as np
from mindspore import nn


class Net(nn.Cell):
    def construct(self, x):
        return np.sum(x)
"""


def paths_found(out: str) -> set[str]:
    return {Path(d["path"]).name for d in json.loads(out)}


def error_lines(err: str) -> list[str]:
    assert "Traceback" not in err and "internal error" not in err, err
    return [line for line in err.splitlines() if line.startswith("mslint: error:")]


# Item 13: a coding comment that names a codec of bytes to bytes, or one that cannot decode.

NOT_TEXT_CODECS = ["rot13", "hex", "base64", "undefined", "punycode"]


@pytest.mark.parametrize("codec", NOT_TEXT_CODECS)
@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_coding_comment_naming_no_text_codec_is_a_finding_of_that_file(write, run, codec, jobs) -> None:
    write(f"{codec}.py", f"# -*- coding: {codec} -*-\nvzcbeg bf\n")
    other = write("net.py", NUMPY_CELL)
    code, out, err = run("check", "--jobs", jobs, "--format", "json", str(other.parent))
    assert (code, error_lines(err)) == (1, [])
    assert paths_found(out) == {"net.py", f"{codec}.py"}, "the other files are checked"
    [finding] = [d for d in json.loads(out) if d["path"].endswith(f"{codec}.py")]
    assert finding["symbol"] == "syntax-error" and codec in finding["message"]


def test_the_pylint_plugin_checks_the_files_beside_one_with_a_rot13_cookie(write) -> None:
    write("rot.py", "# coding: rot13\nvzcbeg bf\n")
    net = write("net.py", NUMPY_CELL)
    pylint_plugin.start_run()
    assert [d.symbol for d in pylint_plugin.diagnostics_for(net, net.read_bytes())] == ["third-party-call-in-graph"]


def test_the_language_server_publishes_beside_a_file_with_a_hex_cookie(write) -> None:
    from pygls.workspace import TextDocument  # the lsp extra, in the dev extra on every Python

    from mslint import server

    write("hexed.py", "# coding: hex\n00\n")
    net = write("net.py", NUMPY_CELL)
    found = server.check_document(TextDocument(net.as_uri(), NUMPY_CELL))
    assert [d.code for d in found] == ["MS101"]


# Item 14: file and folder names that are not UTF-8 (Python keeps their bytes as surrogates).


@pytest.mark.parametrize(
    ("options", "per_finding"),
    [
        (["--no-cache"], "MS101 third-party"),
        ([], "MS101 third-party"),
        (["--jobs", "2"], "MS101 third-party"),
        (["--format", "sarif"], '"ruleId": "MS101"'),
        (["--format", "github"], "::warning file="),
    ],
)
def test_names_that_are_not_utf8_are_checked_and_printed(tmp_path, run, options, per_finding) -> None:
    package = tmp_path / os.fsdecode(b"pkg\xff")
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / os.fsdecode(b"m\xfe.py")).write_text(NUMPY_CELL)
    (tmp_path / os.fsdecode(b"n\xff.py")).write_text(NUMPY_CELL)
    for _ in range(2):  # the second run reads the cache
        code, out, err = run("check", *options, str(tmp_path))
        assert (code, err) == (1, "")
    assert out.count(per_finding) == 2


def test_a_package_whose_name_is_not_utf8_is_checked_from_its_path(tmp_path, run) -> None:
    package = tmp_path / os.fsdecode(b"pkg\xff")
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "net.py").write_text(NUMPY_CELL)
    code, out, err = run("check", "--jobs", "2", "--format", "json", str(package))
    assert (code, err) == (1, "")
    assert paths_found(out) == {"net.py"}


# Item 15: a pyproject.toml that is not UTF-8, or nested deeper than the reader's stack.

BAD_CONFIGS = {
    "not-utf8": b'[tool.mslint]\nselect = ["ALL"]  # \xff\n',
    "deep-array": b"x = " + b"[" * 5000 + b"]" * 5000 + b"\n[tool.mslint]\n",
    "deep-table": b"[tool.mslint]\nx = " + b"{a = " * 5000 + b"}" * 5000 + b"\n",
}


@pytest.mark.parametrize("config", BAD_CONFIGS.values(), ids=BAD_CONFIGS.keys())
@pytest.mark.parametrize("command", [["check"], ["check", "--jobs", "2"], ["report", "--format", "json"], ["verify"]])
def test_an_unreadable_pyproject_is_a_configuration_error(tmp_path, run, config, command) -> None:
    (tmp_path / "pyproject.toml").write_bytes(config)
    (tmp_path / "net.py").write_text(NUMPY_CELL)
    code, out, err = run(*command, str(tmp_path))
    assert (code, out) == (2, "")
    assert error_lines(err) == err.splitlines()
    assert err.startswith(f"mslint: error: cannot read {tmp_path / 'pyproject.toml'}: ")


# Item 16: --compare and --verify-results files whose items have the wrong types.

VERIFY_RESULTS = {
    "findings": [
        {
            "path": "pkg/helpers.py",
            "line": 5,
            "column": 12,
            "symbol": "third-party-call-in-graph",
            "verdict": "confirmed",
            "reason": None,
            "evidence": [
                {
                    "kind": "error",
                    "level": "strict",
                    "message": "numpy",
                    "entry": "Outer.construct",
                    "locations": [{"path": "pkg/helpers.py", "line": 5}],
                }
            ],
        }
    ],
    "compiler_only": [
        {"path": "pkg/nets.py", "line": 9, "kind": "fallback", "level": "lax", "message": "m", "entry": None}
    ],
    "compiles": [{"path": "pkg/nets.py", "name": "FallsBack", "level": "strict", "status": "compiled", "reason": None}],
}
WRONG_VERIFY_RESULTS = {
    "finding-not-an-object": ("findings", 0, None, 3),
    "line-a-string": ("findings", 0, "line", "5"),
    "line-a-boolean": ("findings", 0, "line", True),
    "path-a-list": ("findings", 0, "path", ["a"]),
    "symbol-a-list": ("findings", 0, "symbol", ["x"]),
    "evidence-an-object": ("findings", 0, "evidence", {"kind": "error"}),
    "evidence-message-a-list": ("findings", 0, "evidence", [{"kind": "error", "message": ["m"]}]),
    "evidence-location-a-string": ("findings", 0, "evidence", [{"kind": "error", "locations": ["pkg/nets.py:9"]}]),
    "compiler-only-line-an-object": ("compiler_only", 0, "line", {"n": 9}),
    "compile-a-string": ("compiles", 0, None, "FallsBack"),
    "compile-level-a-list": ("compiles", 0, "level", ["strict"]),
    "compile-path-null": ("compiles", 0, "path", None),
}
WRONG_REPORTS = {
    "entry-id-a-list": ("entries", 0, "id", ["pkg/nets.py", "Net"]),
    "entry-level-a-string": ("entries", 0, "strict", "fails"),
    "entry-status-a-number": ("entries", 0, "lax", {"status": 3}),
    "entry-a-list": ("entries", 0, None, []),
    "finding-line-a-string": ("findings", 0, "line", "5"),
    "finding-path-null": ("findings", 0, "path", None),
    "finding-fingerprint-a-list": ("findings", 0, "fingerprint", ["f"]),
    "finding-message-a-number": ("findings", 0, "message", 1),
    "summary-level-a-number": ("summary", None, "strict", 5),
}


def with_wrong_item(document: dict, where: tuple) -> dict:
    key, number, field, value = where
    container = document[key] if number is None else document[key][number]
    if field is None:
        document[key][number] = value
    else:
        container[field] = value
    return document


@pytest.fixture
def report_project(tmp_path, monkeypatch):
    from tests.report_helpers import copy_project

    root = copy_project(tmp_path)
    monkeypatch.chdir(root)
    return root


def test_well_typed_verify_results_are_shown(report_project, run) -> None:
    given = report_project / "verify.json"
    given.write_text(json.dumps(VERIFY_RESULTS))
    code, out, err = run("report", "--format", "json", ".", "--verify-results", str(given))
    assert (code, err) == (0, "")
    [finding] = [f for f in json.loads(out)["findings"] if f["verdict"]]
    assert finding["verdict"] == {"verdict": "confirmed", "reason": None}


@pytest.mark.parametrize("where", WRONG_VERIFY_RESULTS.values(), ids=WRONG_VERIFY_RESULTS.keys())
@pytest.mark.parametrize("output", ["json", "html", "markdown"])
def test_verify_results_with_a_wrongly_typed_item_are_a_usage_error(report_project, run, where, output) -> None:
    given = report_project / "verify.json"
    given.write_text(json.dumps(with_wrong_item(json.loads(json.dumps(VERIFY_RESULTS)), where)))
    code, out, err = run("report", "--format", output, ".", "--verify-results", str(given))
    assert (code, out) == (2, "")
    [line] = error_lines(err)
    assert line.startswith(f"mslint: error: {given}: {where[0]}[0]") and "has the wrong type" in line


@pytest.mark.parametrize("where", WRONG_REPORTS.values(), ids=WRONG_REPORTS.keys())
@pytest.mark.parametrize("output", ["json", "html", "markdown"])
def test_a_compared_report_with_a_wrongly_typed_item_is_a_usage_error(report_project, run, where, output) -> None:
    old = report_project / "old.json"
    assert run("report", "--format", "json", "-o", str(old), ".")[0] == 0
    old.write_text(json.dumps(with_wrong_item(json.loads(old.read_text()), where)))
    code, out, err = run("report", "--format", output, ".", "--compare", str(old))
    assert (code, out) == (2, "")
    [line] = error_lines(err)
    assert line.startswith(f"mslint: error: {old}: {where[0]}") and "has the wrong type" in line


def test_verify_results_naming_a_path_with_a_nul_match_no_file(report_project, run) -> None:
    results = json.loads(json.dumps(VERIFY_RESULTS))
    results["findings"][0]["path"] = "pkg/helpers.py\0"
    results["compiles"][0]["path"] = "pkg/" + "n" * 5000 + ".py"
    given = report_project / "verify.json"
    given.write_text(json.dumps(results))
    code, out, err = run("report", "--format", "json", ".", "--verify-results", str(given))
    assert (code, err) == (0, "")
    assert not [f for f in json.loads(out)["findings"] if f["verdict"]]


# Items 17 and 26: `explain` on locations that no file of this version has.

HUGE_LINE = "9" * 4400


IN_FILE = "TypeError: compile failed\n\nIn file {path}:{line}, 15~24,\n"
FRAME = 'Traceback (most recent call last):\n  File "{path}", line {line}, in construct\nTypeError: compile failed\n'
IR_NODE = (
    "  %1(x) = Unique(%0)\n      : (<Tensor[Float32], (4)>) -> (<Tensor[Float32], (-1)>)\n"
    "      # In file {path}:{line}/        return x/\n"
)
NO_FILE_HAS = {
    "in-file-huge-line": (IN_FILE, "net.py", HUGE_LINE),
    "in-file-nul": (IN_FILE, "n\0et.py", "5"),
    "in-file-long-name": (IN_FILE, "n" * 5000 + ".py", "5"),
    "in-file-link-loop": (IN_FILE, "loop.py", "5"),
    "frame-huge-line": (FRAME, "net.py", HUGE_LINE),
    "frame-nul": (FRAME, "ne\0t.py", "5"),
    "frame-link-loop": (FRAME, "loop.py", "5"),
    "ir-huge-line": (IR_NODE, "net.py", HUGE_LINE),
    "ir-nul": (IR_NODE, "ne\0t.py", "5"),
}


@pytest.mark.parametrize(("template", "name", "line"), NO_FILE_HAS.values(), ids=NO_FILE_HAS.keys())
def test_explain_takes_a_location_no_file_has_as_no_line_of_yours(write, run, template, name, line) -> None:
    net = write("net.py", NUMPY_CELL)
    (net.parent / "loop.py").symlink_to(net.parent / "loop.py")
    log = write("log.txt", template.format(path=net.parent / name, line=line))
    code, out, err = run("explain", str(log))
    assert (code, err) == (0, "")
    assert out == "no compiler problem in the user's files found in this output\n"


def test_explain_says_a_line_past_the_end_of_the_file_is_of_another_version(write, run) -> None:
    net = write("net.py", NUMPY_CELL)
    log = write("log.txt", f"TypeError: compile failed\n\nIn file {net}:5000, 15~24,\n")
    code, out, err = run("explain", str(log))
    assert (code, err) == (1, "")
    assert "mslint check: cannot tell: " in out and "has 7 lines, not line 5000" in out
    assert "does not report it" not in out
    code, out, _ = run("explain", "--format", "json", str(log))
    [problem] = json.loads(out)["problems"]
    assert (problem["line"], problem["status"]) == (5000, "past-end-of-file")


# Item 18: verify --run when the command ended while the hook wrote a record.


def test_a_half_written_last_record_leaves_the_others(write) -> None:
    from mslint.verify.capture import capture_run

    net = write("net.py", NUMPY_CELL)
    whole = json.dumps({"path": str(net), "name": "Net", "line": 5})
    other = json.dumps({"path": str(net), "name": "Other", "error": "TypeError: é"}, ensure_ascii=False).encode()
    cut = other[: other.index("é".encode()) + 1]  # in the middle of a character
    records = write("records.txt", "")
    records.write_bytes(f"{whole}\n".encode() + cut)
    capture = capture_run(f'cat {records} >> "$MSLINT_VERIFY_RECORD"', timeout=60)
    assert capture.returncode == 0
    assert capture.compiled == {(str(net.resolve()), "Net")}
    assert capture.problems == []


# Item 24: options that leave no rule to run.


@pytest.mark.parametrize(
    ("options", "config"),
    [
        (["--ignore", "ALL"], ""),
        (["--extend-ignore", "ALL"], ""),
        (["--select", "MS101", "--ignore", "MS1"], ""),
        ([], '[tool.mslint]\nignore = ["ALL"]\n'),
    ],
    ids=["ignore-all", "extend-ignore-all", "ignore-the-selected-prefix", "config-ignores-all"],
)
@pytest.mark.parametrize("command", ["check", "report", "baseline"])
def test_ignoring_every_selected_rule_is_a_usage_error(tmp_path, run, options, config, command) -> None:
    (tmp_path / "net.py").write_text(NUMPY_CELL)
    if config:
        (tmp_path / "pyproject.toml").write_text(config)
    output = ["-o", str(tmp_path / "out")] if command != "check" else []
    code, out, err = run(command, *options, *output, str(tmp_path))
    assert (code, out) == (2, "")
    assert err.startswith("mslint: error: no rule left: every rule selected is also ignored")
    assert err.count("\n") == 1
    assert not (tmp_path / "out").exists()


# Items 19 and 23: `check -` reads stdin as the bytes of a file.

CELLS = """\
from mindspore import nn


class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.layers = [nn.Dense(4, 4), nn.Dense(4, 4)]  # {comment}

    def construct(self, x):
        return x
"""
STRICT_STDIO = {**os.environ, "PYTHONIOENCODING": "utf-8:strict"}


def mslint(*args: str, stdin: bytes = b"") -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [sys.executable, "-m", "mslint", *args], input=stdin, capture_output=True, env=STRICT_STDIO, timeout=120
    )


def test_stdin_that_is_not_utf8_is_a_finding(tmp_path) -> None:
    """As an undecodable file is: a syntax-error finding at the bad byte (exit 1), not a usage error."""
    content = CELLS.format(comment="caf\xe9").encode("latin-1")
    result = mslint("check", "-", "--stdin-filename", str(tmp_path / "net.py"), stdin=content)
    assert (result.returncode, result.stderr) == (1, b"")
    assert result.stdout.decode().splitlines()[0] == (
        f"{tmp_path / 'net.py'}:7:62: MS001 syntax-error cannot decode: byte 0xe9 at offset 159 is not valid utf-8, "
        "and no coding comment (PEP 263) names another encoding"
    )


def test_stdin_that_is_not_utf8_comes_back_unchanged_from_fix(tmp_path) -> None:
    """An editor replaces its buffer with what --fix prints: the bytes it sent, not nothing."""
    content = CELLS.format(comment="caf\xe9").encode("latin-1")
    result = mslint("check", "-", "--stdin-filename", str(tmp_path / "net.py"), "--fix", stdin=content)
    assert (result.returncode, result.stdout) == (1, content)
    assert b"MS001 syntax-error cannot decode" in result.stderr


STDIN_ENCODINGS = {
    "bom": codecs.BOM_UTF8 + CELLS.format(comment="café").encode(),
    "latin-1-cookie": b"# -*- coding: latin-1 -*-\n" + CELLS.format(comment="caf\xe9").encode("latin-1"),
    "crlf-bom": codecs.BOM_UTF8 + CELLS.format(comment="café").replace("\n", "\r\n").encode(),
}


@pytest.mark.parametrize("content", STDIN_ENCODINGS.values(), ids=STDIN_ENCODINGS.keys())
def test_stdin_is_decoded_and_fixed_as_the_same_bytes_on_disk(tmp_path, content) -> None:
    on_disk = tmp_path / "net.py"
    on_disk.write_bytes(content)
    from_disk = mslint("check", "--no-cache", "--format", "json", str(on_disk))
    from_stdin = mslint("check", "-", "--stdin-filename", str(on_disk), "--format", "json", stdin=content)
    assert from_stdin.stderr == b""
    assert (from_stdin.returncode, from_stdin.stdout) == (from_disk.returncode, from_disk.stdout)
    assert [d["symbol"] for d in json.loads(from_stdin.stdout)] == ["python-container-of-cells"]
    fixed = mslint("check", "-", "--stdin-filename", str(on_disk), "--fix", stdin=content)
    assert mslint("check", "--no-cache", "--fix", str(on_disk)).returncode == 0
    assert fixed.returncode == 0 and fixed.stdout == on_disk.read_bytes() != content


# Item 20: Ctrl-C while the command starts.


def ctrl_c_reaches_it() -> None:
    """In the child, before it starts: SIGINT back to its default. A command run in the background
    by a non-interactive shell (``.ci/run`` runs the smokes with ``&``) ignores SIGINT, and Python
    keeps an ignored SIGINT ignored: the child would never see the Ctrl-C these tests send."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


SIGINT_AFTER_IMPORT = """
import os, runpy, signal, sys

target, fired = sys.argv.pop(1), []


def sigint_once_imported(event, args):
    module = sys.modules.get(target)
    if not fired and module is not None and not getattr(module.__spec__, "_initializing", True):
        fired.append(event)
        os.kill(os.getpid(), signal.SIGINT)


sys.addaudithook(sigint_once_imported)
runpy.run_module("mslint", run_name="__main__", alter_sys=True)
"""
"""``python -m mslint`` that sends itself SIGINT at the first audited event (an import, an open,
a compile) after the module named first has been imported: a Ctrl-C at that point of the start,
whatever the machine's load (a parent that reads the child's output to time its signal sends it
late on a busy machine, after the command has ended)."""


@pytest.mark.parametrize("command", [["check", "--no-cache"], ["report", "--format", "json"], ["verify"]])
@pytest.mark.parametrize("after_import", ["mslint.diagnostics", "mslint.model.values", "mslint.engine", "mslint.cli"])
def test_ctrl_c_while_starting_is_one_line_and_exit_130(tmp_path, command, after_import) -> None:
    """SIGINT just after a module of mslint is imported, while the imports run."""
    (tmp_path / "net.py").write_text(NUMPY_CELL)
    arguments = [sys.executable, "-c", SIGINT_AFTER_IMPORT, after_import, *command, str(tmp_path)]
    ran = subprocess.run(arguments, capture_output=True, env=STRICT_STDIO, preexec_fn=ctrl_c_reaches_it, timeout=120)
    assert (ran.returncode, ran.stderr.decode().splitlines()) == (130, ["mslint: interrupted by SIGINT"])


# Item 21: an stdout that cannot be written is no bug of mslint.

OUTPUT_COMMANDS = {
    "check": ["check", "--no-cache"],
    "report": ["report", "--format", "json"],
    "rules": ["rules"],
    "explain": ["explain", os.devnull],
}


def run_with_stdout(tmp_path: Path, command: list[str], stdout: int | None) -> subprocess.CompletedProcess[bytes]:
    (tmp_path / "net.py").write_text(NUMPY_CELL)
    paths = [] if command[0] in ("rules", "explain") else [str(tmp_path)]
    return subprocess.run(
        [sys.executable, "-m", "mslint", *command, *paths],
        stdout=stdout,
        stderr=subprocess.PIPE,
        env=STRICT_STDIO,
        timeout=120,
        pass_fds=() if stdout is None else (stdout,),
    )


@pytest.mark.parametrize("command", OUTPUT_COMMANDS.values(), ids=OUTPUT_COMMANDS.keys())
def test_a_full_stdout_is_one_line_and_exit_2(tmp_path, command) -> None:
    with open("/dev/full", "wb") as full:
        result = run_with_stdout(tmp_path, command, full.fileno())
    assert result.returncode == 2
    assert result.stderr.decode() == "mslint: error: cannot write the output: No space left on device\n"


@pytest.mark.parametrize("command", OUTPUT_COMMANDS.values(), ids=OUTPUT_COMMANDS.keys())
def test_a_pipe_whose_reader_left_ends_the_run_quietly_with_exit_2(tmp_path, command) -> None:
    reader, writer = os.pipe()
    os.close(reader)
    try:
        result = run_with_stdout(tmp_path, command, writer)
    finally:
        os.close(writer)
    assert (result.returncode, result.stderr) == (2, b"")


def test_a_closed_stdout_is_one_line_and_exit_2(tmp_path) -> None:
    (tmp_path / "net.py").write_text(NUMPY_CELL)
    result = subprocess.run(
        [sys.executable, "-m", "mslint", "check", str(tmp_path)],
        stderr=subprocess.PIPE,
        env=STRICT_STDIO,
        timeout=120,
        preexec_fn=lambda: os.close(1),
    )
    assert result.returncode == 2
    assert result.stderr.decode() == "mslint: error: cannot write the output: Bad file descriptor\n"


# Item 27: names that would be read as commands or markup, and a request after shutdown.

FORGED = "x\n::error file=forged.py,line=1::forged\n\x1b[2J.py"


def test_a_newline_in_a_file_name_cannot_forge_a_ci_command_in_the_text_output(tmp_path, run) -> None:
    (tmp_path / FORGED).write_text(NUMPY_CELL)
    code, out, err = run("check", "--no-cache", str(tmp_path))
    assert (code, err) == (1, "")
    assert not [line for line in out.splitlines() if line.startswith("::") or "\x1b" in line]
    assert f"{tmp_path}/x\\n::error file=forged.py,line=1::forged\\n\\x1b[2J.py:7:16: MS101 " in out


@pytest.mark.parametrize(
    ("name", "span"),
    [
        ("a`<img src=x onerror=alert(1)>`.py", "``{root}/a`<img src=x onerror=alert(1)>`.py:5``"),
        ("``<b>x.py", "```{root}/``<b>x.py:5```"),
        ("a\n<div>x.py", "`{root}/a\\n<div>x.py:5`"),
    ],
    ids=["backtick", "two-backticks", "newline"],
)
def test_a_file_name_stays_in_its_code_span_in_the_markdown_report(tmp_path, run, name, span) -> None:
    (tmp_path / name).write_text("from mindspore import nn\n\n\nclass Net(nn.Cell):\n" + CONSTRUCT_TO_HOST)
    code, out, err = run("report", "--format", "markdown", str(tmp_path))
    assert (code, err) == (0, "")
    [listed] = [line for line in out.splitlines() if line.startswith("* ")]
    assert listed == f"* {span.format(root=tmp_path)} Net.construct: tensor-to-host-in-graph (1)"


CONSTRUCT_TO_HOST = "    def construct(self, x):\n        return x.asnumpy()\n"


@pytest.mark.skipif(sys.version_info < (3, 10), reason="tests.test_language_server needs pytest-lsp: Python 3.10")
def test_the_language_server_answers_a_request_after_shutdown_with_invalid_request(tmp_path) -> None:
    from tests.test_language_server import _response, _send

    command = [sys.executable, "-m", "mslint", "server"]
    with subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL) as child:
        assert child.stdin is not None and child.stdout is not None
        watchdog = threading.Timer(60, child.kill)  # a reply that never comes ends the test, not the suite
        watchdog.start()
        try:
            _send(child.stdin, {"id": 1, "method": "initialize", "params": {"capabilities": {}, "rootUri": None}})
            assert "result" in _response(child.stdout, 1)
            _send(child.stdin, {"method": "initialized", "params": {}})
            _send(child.stdin, {"id": 2, "method": "shutdown"})
            assert _response(child.stdout, 2)["result"] is None
            document = {"uri": (tmp_path / "net.py").as_uri()}
            position = {"line": 0, "character": 0}
            context = {"diagnostics": []}
            params = {"textDocument": document, "range": {"start": position, "end": position}, "context": context}
            _send(child.stdin, {"id": 3, "method": "textDocument/codeAction", "params": params})
            assert _response(child.stdout, 3)["error"]["code"] == -32600  # JSON-RPC "invalid request"
            _send(child.stdin, {"method": "exit"})
            assert child.wait(timeout=30) == 0
        finally:
            watchdog.cancel()
            if child.poll() is None:
                child.kill()


# Item 25: verify --run keeps of the command's stderr what the readers need, not all of it.

LOG_FRAGMENTS = [
    "epoch 1 step 20 loss 0.25",
    "",
    "----------------------------------------",
    " After Parser Phase (total: 2)",
    " After Optimizer Phase (total: 1)",
    "# No. 1:",
    "In file {path}:8, 15~25",
    "In file {path}:12, 15~25",
    "In file /elsewhere/other.py:3, 1~2",
    "        return np.maximum(x, 0)",
    "Traceback (most recent call last):",
    '  File "{path}", line 8, in construct',
    '  File "/elsewhere/other.py", line 3, in f',
    "    x = 1",
    "TypeError: the compile failed",
    "RuntimeError: another",
    "[ERROR] ANALYZER(1,python):2025 [mindspore/ccsrc/a.cc:1 Run] failed info: The node failed",
    "- Caught exception:",
    "The message of the exception",
    "# The following shows the IR",
    "# 0 In file {path}:9, 8~20",
    "\x0cIn file {path}:12, 15~25\rnoise",
]


@settings(
    max_examples=150, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(picked=st.lists(st.sampled_from(LOG_FRAGMENTS), max_size=40))
def test_the_lines_kept_of_a_log_give_what_the_whole_log_gives(tmp_path, monkeypatch, picked) -> None:
    from mslint.verify import compiler_output as output

    monkeypatch.setattr(output, "_LOG_BLOCK", 7)  # lines across blocks
    user = tmp_path / "net.py"
    user.write_text("")
    log = tmp_path / "stderr.log"
    log.write_text("\n".join(picked).format(path=user) + "\n")
    whole, kept, is_user = log.read_text(), output.read_log(log), output.user_file_filter([])
    for reader in (output.error_problems, output.fallback_problems, output.compile_time_problems):
        assert reader(kept, is_user) == reader(whole, is_user), reader.__name__


def test_verify_run_does_not_hold_the_commands_stderr_in_memory(tmp_path, capfd) -> None:
    from mslint.verify.capture import capture_run

    user = tmp_path / "net.py"
    user.write_text("")
    dump = tmp_path / "dump.txt"
    dump.write_text(
        f"----\n After Optimizer Phase (total: 1)\n----\nIn file {user}:8, 15~31\n        return np.maximum(x, 0)\n"
    )
    noise = "yes 'epoch 1 step 20 loss 0.25' | head -c 15000000"
    tracemalloc.start()
    try:
        capture = capture_run(f"({noise}; cat {dump}; {noise}; head -c 200000 /dev/zero) >&2", timeout=120)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    capfd.readouterr()
    assert capture.returncode == 0
    assert [(p.kind, p.locations) for p in capture.problems] == [("fallback", ((str(user.resolve()), 8),))]
    assert peak < 6_000_000, f"{peak:,} bytes held for 30 MB of stderr"


CTRL_C_WHILE_A_REPORT_ANALYSES = """
import os, signal, sys, time
import mslint.report.build as build

def interrupted(files, settings):
    os.killpg(0, signal.SIGINT)  # Ctrl-C reaches the whole process group
    time.sleep(30)

build.load_project = interrupted
from mslint.console import main
sys.argv = ["mslint", *sys.argv[1:]]
sys.exit(main())
"""


def test_ctrl_c_while_a_report_analyses_is_one_line(tmp_path) -> None:
    (tmp_path / "net.py").write_text(NUMPY_CELL)
    result = subprocess.run(
        [sys.executable, "-c", CTRL_C_WHILE_A_REPORT_ANALYSES, "report", "--format", "json", str(tmp_path)],
        capture_output=True,
        start_new_session=True,
        preexec_fn=ctrl_c_reaches_it,
        timeout=120,
    )
    assert (result.returncode, result.stderr.decode()) == (130, "mslint: interrupted by SIGINT\n")


WRAPPED_INTERRUPT = """
import sys
import mslint.cli


def interrupted_while_a_dataclass_is_made():
    raise RuntimeError("Error calling __set_name__ on 'Field' instance") from KeyboardInterrupt()


mslint.cli.main = interrupted_while_a_dataclass_is_made
from mslint.console import main
sys.exit(main())
"""


def test_ctrl_c_wrapped_by_python_in_a_runtime_error_is_an_interrupt_too() -> None:
    """Before Python 3.12, Ctrl-C landing in ``__set_name__`` (a dataclass's fields, while the
    modules are imported) comes out as a RuntimeError caused by KeyboardInterrupt: seen at
    ``mslint.model.scope``'s CallMemo, a traceback and exit 1."""
    result = subprocess.run([sys.executable, "-c", WRAPPED_INTERRUPT], capture_output=True, timeout=120)
    assert (result.returncode, result.stderr.decode()) == (130, "mslint: interrupted by SIGINT\n")
