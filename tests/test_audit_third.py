"""The third adversarial audit's probes (issue 42): input that comes with the tree being checked
(ignore files, cache files, shard results) never hangs mslint, exhausts its memory or ends it in
a traceback.

Each probe runs mslint in a process of its own, bounded in time and in memory: a probe that
would hang fails at its timeout, one that would read without end fails at its memory limit."""

from __future__ import annotations

import csv
import json
import os
import re
import resource
import select
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

Run = Callable[..., tuple[int, str, str]]

NET = """\
import numpy as np
from mindspore import nn


class Net(nn.Cell):
    def construct(self, x):
        return np.sum(x)
"""
TIMEOUT_S = 60
"""Far above what each run takes (about a second): only a run that blocks reaches it."""
MEMORY_BYTES = 4 * 1024**3


def _bounded_memory() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_BYTES, MEMORY_BYTES))


def mslint(*args: str, cwd: Path, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    try:
        return subprocess.run(
            [sys.executable, "-m", "mslint", *args],
            cwd=cwd,
            env={**os.environ, **(env or {})},
            capture_output=True,
            text=True,
            timeout=TIMEOUT_S,
            stdin=subprocess.DEVNULL,
            preexec_fn=_bounded_memory,
        )
    except subprocess.TimeoutExpired:
        pytest.fail(f"mslint {' '.join(args)} did not end within {TIMEOUT_S} s")


def concise_check(tree: Path) -> subprocess.CompletedProcess[str]:
    return mslint("check", "--no-cache", "--output-format", "concise", ".", cwd=tree)


def checked_files(done: subprocess.CompletedProcess[str]) -> set[str]:
    assert "Traceback" not in done.stderr and "internal error" not in done.stderr, done.stderr
    return {line.split(":")[0] for line in done.stdout.splitlines() if ":" in line}


def repository(tmp_path: Path) -> Path:
    (tmp_path / ".git" / "info").mkdir(parents=True)
    for name in ("net.py", "gen.py"):
        (tmp_path / name).write_text(NET)
    return tmp_path


# Item 1: ignore files that are not regular files are not read (a FIFO blocks, /dev/zero never ends).

IGNORE_FILES = [".gitignore", ".ignore", ".git/info/exclude"]


@pytest.mark.parametrize("name", IGNORE_FILES)
def test_an_ignore_file_that_is_a_fifo_is_not_read(tmp_path: Path, name: str) -> None:
    tree = repository(tmp_path)
    os.mkfifo(tree / name)
    done = concise_check(tree)
    assert done.returncode == 1
    assert checked_files(done) == {"net.py", "gen.py"}


@pytest.mark.parametrize("name", IGNORE_FILES)
def test_an_ignore_file_linked_to_dev_zero_is_not_read(tmp_path: Path, name: str) -> None:
    tree = repository(tmp_path)
    (tree / name).symlink_to("/dev/zero")
    done = concise_check(tree)
    assert done.returncode == 1
    assert checked_files(done) == {"net.py", "gen.py"}


def test_an_ignore_file_larger_than_the_limit_is_not_read_and_one_below_is(tmp_path: Path) -> None:
    from mslint.ignore_files import LARGEST_IGNORE_FILE

    tree = repository(tmp_path)
    padding = "# padding\n" * (LARGEST_IGNORE_FILE // 10)
    (tree / ".gitignore").write_text(padding + "gen.py\n")
    assert checked_files(mslint("check", "--no-cache", "--output-format", "concise", ".", cwd=tree)) == {
        "net.py",
        "gen.py",
    }
    (tree / ".gitignore").write_text("gen.py\n")
    assert checked_files(mslint("check", "--no-cache", "--output-format", "concise", ".", cwd=tree)) == {"net.py"}


# Item 2: a pattern that makes a backtracking matcher take minutes is matched in linear time.


def test_a_pattern_that_backtracks_is_matched_in_linear_time(tmp_path: Path) -> None:
    tree = repository(tmp_path)
    (tree / ".gitignore").write_text("*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*b*\n")
    for length in (36, 200):
        (tree / ("a" * length + ".py")).write_text(NET)
    (tree / "abababababababababababababababab.py").write_text(NET)  # 16 a, ends in b: ignored
    done = concise_check(tree)
    assert checked_files(done) == {"net.py", "gen.py", "a" * 36 + ".py", "a" * 200 + ".py"}


# Item 3: a cache file or key that is not a regular file is replaced, never opened in place.


def _cache_env(tmp_path: Path) -> dict[str, str]:
    return {"MSLINT_CACHE_DIR": str(tmp_path / "cache"), "XDG_CACHE_HOME": str(tmp_path / "home-cache")}


def test_a_check_cache_file_that_is_a_fifo_is_replaced(tmp_path: Path) -> None:
    tree = repository(tmp_path / "tree")
    env = _cache_env(tmp_path)
    first = mslint("check", "--output-format", "concise", ".", cwd=tree, env=env)
    [cache] = (tmp_path / "cache").rglob("*.json")
    cache.unlink()
    os.mkfifo(cache)
    for _ in range(2):  # the run after the FIFO, and the run after that, which reads the cache again
        again = mslint("check", "--output-format", "concise", ".", cwd=tree, env=env)
        assert (again.returncode, again.stdout) == (first.returncode, first.stdout)
    assert cache.is_file()


@pytest.mark.parametrize("target", ["fifo", "/dev/zero"])
def test_a_cache_key_that_is_not_a_regular_file_is_replaced(tmp_path: Path, target: str) -> None:
    tree = repository(tmp_path / "tree")
    env = _cache_env(tmp_path)
    key = tmp_path / "home-cache" / "mslint" / "cache-key"
    key.parent.mkdir(parents=True)
    if target == "fifo":
        os.mkfifo(key)
    else:
        key.symlink_to(target)
    done = mslint("check", "--output-format", "concise", ".", cwd=tree, env=env)
    assert checked_files(done) == {"net.py", "gen.py"}
    assert key.is_file() and not key.is_symlink() and key.stat().st_size == 32


@pytest.mark.parametrize("target", ["fifo", "/dev/zero"])
def test_a_verify_cache_digest_of_a_file_that_is_not_regular_is_none(tmp_path: Path, target: str) -> None:
    """What a verify-cache entry's ``sources`` names is digested only as a regular file."""
    path = tmp_path / "source.py"
    if target == "fifo":
        os.mkfifo(path)
    else:
        path.symlink_to(target)
    probe = (
        "import sys\n"
        "from mslint.verify.cache import ResultCache\n"
        "cache = ResultCache.__new__(ResultCache)\n"
        "cache._digests = {}\n"
        "print(cache._file_digest(sys.argv[1]))\n"
    )
    try:
        done = subprocess.run(
            [sys.executable, "-c", probe, str(path)],
            capture_output=True,
            text=True,
            timeout=TIMEOUT_S,
            stdin=subprocess.DEVNULL,
            preexec_fn=_bounded_memory,
        )
    except subprocess.TimeoutExpired:
        pytest.fail(f"digesting {target} did not end within {TIMEOUT_S} s")
    assert (done.returncode, done.stdout) == (0, "None\n"), done.stderr


# Item 4: a shard count is bounded before anything of its size is made.


def test_a_shard_result_claiming_a_trillion_shards_is_a_one_line_error(tmp_path: Path) -> None:
    shard = {"findings": [], "compiler_only": [], "compiles": [], "shard": {"index": 1, "count": 10**12}}
    (tmp_path / "shard.json").write_text(json.dumps(shard))
    done = mslint("verify", "merge", "shard.json", "-o", "all.json", cwd=tmp_path)
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr == (
        "mslint: error: shard.json: shard 1/1000000000000: not of `mslint verify --shard`, which makes at most 10,000\n"
    )
    assert not (tmp_path / "all.json").exists()


@pytest.mark.parametrize(
    ("environ", "expected"),
    [
        (
            {"SLURM_ARRAY_TASK_ID": "0", "SLURM_ARRAY_TASK_COUNT": str(10**18)},
            "SLURM_ARRAY_TASK_COUNT=" + "1" + "0" * 18,
        ),
        ({"CI_NODE_INDEX": "1", "CI_NODE_TOTAL": "9" * 5000}, "CI_NODE_TOTAL=" + "9" * 20 + "..."),
        ({"MSLINT_SHARD_INDEX": "0", "MSLINT_SHARD_COUNT": "10001"}, "MSLINT_SHARD_COUNT=10001"),
    ],
)
def test_a_job_array_of_too_many_jobs_is_a_one_line_error(environ: dict[str, str], expected: str) -> None:
    from mslint.verify.shards import Shard

    with pytest.raises(ValueError, match=re.escape(f"--shard auto: {expected}")) as raised:
        Shard.parse("auto", environ)
    assert str(raised.value).endswith("at most 10,000 shards")


@pytest.mark.parametrize(
    "text", ["1/10001", "1/1000000000000", "1/" + "9" * 5000], ids=["10001", "10^12", "5000-digits"]
)
def test_a_shard_count_past_the_limit_is_refused(text: str) -> None:
    from mslint.verify.shards import Shard

    with pytest.raises(ValueError, match="--shard"):
        Shard.parse(text)
    assert Shard.parse("10000/10000").count == 10_000


# Item 5: `check --watch` into a file or a pipe writes each round when it ends.


@pytest.mark.parametrize("into", ["file", "pipe"])
def test_watch_writes_each_round_when_it_ends(tmp_path: Path, into: str) -> None:
    tree = repository(tmp_path / "tree")
    out_path = tmp_path / "out.txt"
    args = [sys.executable, "-m", "mslint", "check", "--watch", "--no-cache", "--output-format", "concise", "net.py"]
    with open(out_path, "wb") as out_file:
        watcher = subprocess.Popen(
            args,
            cwd=tree,
            stdin=subprocess.DEVNULL,
            stdout=out_file if into == "file" else subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
    try:
        assert watcher.stderr is not None
        ready, _, _ = select.select([watcher.stderr], [], [], TIMEOUT_S)
        assert ready, f"no round ended within {TIMEOUT_S} s"
        assert b"watching for file changes" in watcher.stderr.readline()
        if into == "pipe":
            assert watcher.stdout is not None
            ready, _, _ = select.select([watcher.stdout], [], [], TIMEOUT_S)
            assert ready, "the round's findings are not in the pipe"
            written = os.read(watcher.stdout.fileno(), 65536)
        else:
            written = out_path.read_bytes()
        assert written.startswith(b"net.py:7:")
    finally:
        watcher.terminate()
        watcher.wait(TIMEOUT_S)


# Item 7: notebooks with a null cell source, a lone surrogate, IPython help lines and continued magics.


def _notebook(*sources: object) -> str:
    cells = [
        {"cell_type": "code", "id": f"c{i}", "metadata": {}, "execution_count": None, "outputs": [], "source": source}
        for i, source in enumerate(sources)
    ]
    return json.dumps({"cells": cells, "metadata": {}, "nbformat": 4, "nbformat_minor": 5})


CELL_NET = "class Net(nn.Cell):\n    def construct(self, x):\n        return np.sum(x)\n"
C_UTF8 = {"LC_ALL": "C.UTF-8", "LANG": "C.UTF-8", "PYTHONIOENCODING": "", "PYTHONUTF8": "0"}


def _only_finding(done: subprocess.CompletedProcess[str]) -> list[str]:
    assert "Traceback" not in done.stderr and "internal error" not in done.stderr, done.stderr
    return [line.split(": ")[1].split()[0] for line in done.stdout.splitlines() if line.startswith("lab.ipynb:")]


def test_a_cell_whose_source_is_null_is_an_empty_cell(tmp_path: Path) -> None:
    (tmp_path / "lab.ipynb").write_text(_notebook("import numpy as np\nfrom mindspore import nn\n", None, CELL_NET))
    done = mslint("check", "--no-cache", "--output-format", "concise", "lab.ipynb", cwd=tmp_path)
    assert done.returncode == 1 and _only_finding(done) == ["MS101"]
    assert done.stdout.startswith("lab.ipynb:cell 3:3:")


@pytest.mark.parametrize("output_format", ["text", "concise", "json", "sarif"])
def test_a_lone_surrogate_in_a_cell_is_read_as_a_replacement_character(tmp_path: Path, output_format: str) -> None:
    first = "import numpy as np\nfrom mindspore import nn\nlabel = '\ud800'\n"
    (tmp_path / "lab.ipynb").write_text(_notebook(first, CELL_NET.replace("np.sum(x)", "np.sum(x)  # \udc80")))
    done = mslint("check", "--no-cache", "--output-format", output_format, "lab.ipynb", cwd=tmp_path, env=C_UTF8)
    assert "Traceback" not in done.stderr and "internal error" not in done.stderr, done.stderr
    assert (done.returncode, done.stderr) == (1, "")
    assert "MS101" in done.stdout or "third-party-call-in-graph" in done.stdout


def test_a_lone_surrogate_in_a_cell_does_not_break_the_report(tmp_path: Path) -> None:
    first = "import numpy as np\nfrom mindspore import nn\n# \udc80 in a comment\n"
    (tmp_path / "lab.ipynb").write_text(_notebook(first, CELL_NET.replace("np.sum(x)", "np.sum(x)  # \udc80")))
    done = mslint("report", "lab.ipynb", "-o", "report.html", cwd=tmp_path, env=C_UTF8)
    assert "Traceback" not in done.stderr and "internal error" not in done.stderr, done.stderr
    assert done.returncode in (0, 1) and (tmp_path / "report.html").stat().st_size > 0


@pytest.mark.parametrize(
    "ipython",
    [
        "np.abs?",
        "np.abs??",
        "?np.abs",
        "np.*abs*?",
        "%time \\\n    y = 1 +",
        "!pip install \\\n    mindspore==2.10.0 numpy<2",
    ],
    ids=["help", "help2", "help-first", "help-wildcard", "continued-magic", "continued-shell"],
)
def test_ipython_help_and_continued_magics_are_no_syntax_error(tmp_path: Path, ipython: str) -> None:
    """The other findings of the notebook stay: a false syntax error had taken them all."""
    first = f"import numpy as np\nfrom mindspore import nn\n{ipython}\nwhy = 'what?'  # a question?\n"
    (tmp_path / "lab.ipynb").write_text(_notebook(first, CELL_NET))
    done = mslint("check", "--no-cache", "--output-format", "concise", "lab.ipynb", cwd=tmp_path)
    assert _only_finding(done) == ["MS101"]
    assert done.stdout.startswith("lab.ipynb:cell 2:3:")


# Item 8: wrongly typed shard results and expectation files are one-line errors.


@pytest.mark.parametrize(
    ("field", "value", "says"),
    [
        ("seconds", "abc", "seconds is not a number"),
        ("seconds", [1], "seconds is not a number"),
        ("compiler_only", [{"path": "a.py", "line": "x", "kind": "fallback"}], "line is not a number"),
        ("compiler_only", [{"path": "a.py", "line": [], "kind": "fallback"}], "line is not a number"),
    ],
)
def test_a_wrongly_typed_shard_result_is_a_one_line_error(tmp_path: Path, field: str, value: object, says: str) -> None:
    shard = {"findings": [], "compiler_only": [], "compiles": [], "shard": {"index": 1, "count": 1}, field: value}
    (tmp_path / "shard.json").write_text(json.dumps(shard))
    done = mslint("verify", "merge", "shard.json", "-o", "all.json", cwd=tmp_path)
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr.startswith("mslint: error: shard.json: not the output of") and says in done.stderr
    assert done.stderr.count("\n") == 1


HEADER = "entry,strict,lax,lax_fallback_lines\n"


@pytest.mark.parametrize(
    ("row", "says"),
    [
        ("net:Net,compiles,compiles," + "9" * 5000 + "\n", ":2: expected an entry, two statuses and a number of lines"),
        ("net:Net,compiles,compiles,²\n", ":2: expected an entry, two statuses and a number of lines"),
        ('"' + "x" * (200 * 1024) + '",compiles,compiles,0\n', ":2: not a CSV row: field larger than field limit"),
    ],
    ids=["5000-digits", "superscript-two", "field-over-128-KiB"],
)
def test_an_expectations_file_that_is_no_status_table_is_a_one_line_error(tmp_path: Path, row: str, says: str) -> None:
    from mslint.discovery import UsageError
    from mslint.verify.expect import read_expectations

    path = tmp_path / "STATUS.csv"
    path.write_text(HEADER + row)
    limit = csv.field_size_limit(10 * 1024 * 1024)  # what importing MindSpore sets, in a suite's worker
    try:
        with pytest.raises(UsageError) as raised:
            read_expectations(path)
        assert csv.field_size_limit() == 10 * 1024 * 1024, "the process's limit is left as it was"
    finally:
        csv.field_size_limit(limit)
    assert str(raised.value).startswith(f"{path}{says}")
    assert len(str(raised.value)) < 400 and "\n" not in str(raised.value)


@pytest.mark.parametrize("target", ["fifo", "/dev/zero"])
def test_an_expectations_file_that_is_not_regular_is_not_read(tmp_path: Path, target: str) -> None:
    status = tmp_path / "STATUS.csv"
    if target == "fifo":
        os.mkfifo(status)
    else:
        status.symlink_to(target)
    probe = (
        "import sys\nfrom pathlib import Path\nfrom mslint.discovery import UsageError\n"
        "from mslint.verify.expect import read_expectations\n"
        "try:\n    read_expectations(Path(sys.argv[1]))\nexcept UsageError as error:\n    print(error)\n"
    )
    try:
        done = subprocess.run(
            [sys.executable, "-c", probe, str(status)],
            capture_output=True,
            text=True,
            timeout=TIMEOUT_S,
            stdin=subprocess.DEVNULL,
            preexec_fn=_bounded_memory,
        )
    except subprocess.TimeoutExpired:
        pytest.fail(f"reading {target} did not end within {TIMEOUT_S} s")
    assert done.stdout == f"{status}: cannot read: not a regular file\n", done.stderr


# Item 10: an entry name a spreadsheet would evaluate is written as text, and read back as it was.


@pytest.mark.parametrize("name", ['=HYPERLINK("http://x","y")+c:Net', "+c:Net", "-c:Net", "@SUM(A1):Net", "\tc:Net"])
def test_an_entry_name_a_spreadsheet_would_evaluate_is_written_as_text(tmp_path: Path, name: str) -> None:
    from mslint.verify.expect import Status, read_expectations, write_expectations

    path = tmp_path / "STATUS.csv"
    rows = {name: Status("compiles", "compiles"), "plain:Net": Status("fails", "falls-back", 2)}
    assert write_expectations(path, rows)
    cells = [row.split(",")[0] for row in path.read_text().splitlines()[1:]]
    assert not any(cell.lstrip('"').startswith(("=", "+", "-", "@", "\t")) for cell in cells), cells
    assert read_expectations(path) == rows
    assert not write_expectations(path, rows), "read back as written: nothing changed"


# Item 15: ruff's --exit-non-zero-on-fix and --output-format grouped and full; plural wording.

FIXABLE = """\
from mindspore import nn


class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.layers = [nn.Dense(4, 4), nn.Dense(4, 4)]

    def construct(self, x):
        for layer in self.layers:
            x = layer(x)
        return x
"""


@pytest.mark.parametrize("mode", ["--fix", "--fix-only"])
def test_exit_non_zero_on_fix_fails_a_run_that_fixed_a_file(tmp_path: Path, run: Run, mode: str) -> None:
    net = tmp_path / "net.py"
    net.write_text(FIXABLE)
    code, _, err = run("check", "--no-cache", mode, "--exit-non-zero-on-fix", str(net))
    assert code == 1 and "nn.CellList(" in net.read_text()
    assert "mslint: fixed 1 problem in 1 file\n" in err
    assert run("check", "--no-cache", mode, "--exit-non-zero-on-fix", str(net))[0] == 0, "nothing left to fix"


def test_exit_non_zero_on_fix_from_stdin(tmp_path: Path) -> None:
    command = [sys.executable, "-m", "mslint", "check", "-", "--fix", "--exit-non-zero-on-fix"]
    done = subprocess.run(command, input=FIXABLE, capture_output=True, text=True, cwd=tmp_path, timeout=TIMEOUT_S)
    assert done.returncode == 1 and "nn.CellList(" in done.stdout
    fixed = subprocess.run(command, input=done.stdout, capture_output=True, text=True, cwd=tmp_path, timeout=TIMEOUT_S)
    assert fixed.returncode == 0


def test_grouped_and_full_output_formats(tmp_path: Path, run: Run) -> None:
    for name in ("a.py", "b.py"):
        (tmp_path / name).write_text(
            NET + "\n\nclass Other(nn.Cell):\n    def construct(self, x):\n        return np.abs(x)\n"
        )
    code, out, _ = run("check", "--no-cache", "--output-format", "grouped", str(tmp_path))
    lines = out.splitlines()
    assert code == 1
    assert [line for line in lines if not line.startswith("  ")][:2] == [f"{tmp_path / 'a.py'}:", ""]
    assert sum(line.startswith("  7:16: MS101 third-party-call-in-graph ") for line in lines) == 2
    assert lines[-1] == "Found 4 problems (4 warnings) in 2 files checked."
    assert run("check", "--no-cache", "--output-format", "full", str(tmp_path)) == run(
        "check", "--no-cache", "--output-format", "text", str(tmp_path)
    )


# Item 16: the examples' compiles and msrun replicas do not depend on an idle machine.


def test_an_example_s_verify_has_a_timeout_far_past_its_idle_time(monkeypatch: pytest.MonkeyPatch) -> None:
    from tests import compiler

    asked: list[tuple[str, ...]] = []

    def recorded(*args: str) -> tuple[int, str, str]:
        asked.append(args)
        return 0, "{}", ""

    monkeypatch.setattr(compiler, "_mslint", recorded)
    example = Path(compiler.REPO, "rules", "distributed-without-seed", "bad_seed_per_rank.py")
    compiler.verify_example.__wrapped__(example)
    [args] = asked
    timeout = float(args[args.index("--timeout") + 1])
    assert timeout >= 30 * 58, "msrun of this example took 58 s alone, past 300 s at a load of 4-9"


# Items 11 and 12: the README's commands work with the pip a new environment brings, and it gives
# no figure of the suite that a new test makes stale.

README = Path(__file__).resolve().parent.parent / "README.md"


def test_every_install_command_of_the_readme_upgrades_pip_first() -> None:
    commands = [line for line in README.read_text().splitlines() if "pip install" in line and line[:1] in "pp"]
    assert len(commands) >= 3
    for command in commands:
        assert command.startswith("python -m pip install --upgrade pip && "), command


def test_the_readme_gives_no_test_count_or_suite_time_and_says_when_browser_tests_skip() -> None:
    text = " ".join(README.read_text().split())
    assert not re.search(r"\b\d[\d,]* tests\b", text), "a count of tests goes stale with the next test"
    assert not re.search(r"took \d+(\.\d+)? minutes", text), "a suite time goes stale too"
    assert "`chromium` and `chromium-driver`" in text and "skipped without" in text


# Item 13: a rule link that mslint prints opens a page, with no documentation address configured.


def test_the_rule_links_of_sarif_open_the_page_installed_with_the_package(tmp_path: Path) -> None:
    from urllib.parse import urlsplit
    from urllib.request import url2pathname

    (tmp_path / "net.py").write_text(NET)
    done = mslint("check", "--no-cache", "--output-format", "sarif", "net.py", cwd=tmp_path)
    rules = json.loads(done.stdout)["runs"][0]["tool"]["driver"]["rules"]
    assert rules
    for rule in rules:
        link = urlsplit(rule["helpUri"])
        assert link.scheme == "file", rule["helpUri"]
        page = Path(url2pathname(link.path))
        assert page.read_text().startswith(f"# {rule['name']} ({rule['id']})")
