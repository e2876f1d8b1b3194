"""The second audit's data-loss, disclosure and injection probes (items 1-6 and 22 of the issue):
every file mslint writes is written whole or not at all, and only over the text it was computed
from; links never carry a file from outside the checked folders into the output; the cache and
the report's input files are never an authority."""

from __future__ import annotations

import errno
import json
import os
import re
import signal
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from mslint import atomic_write, cli, fix_files, incremental
from mslint.cache_signature import signed_payload, signing_key
from mslint.engine import check_files
from mslint.incremental import cache_file, check_incrementally
from mslint.settings import Settings

Run = Callable[..., tuple[int, str, str]]

# A plain list of Cells (fixed to nn.CellList, safe) and numpy on a tensor (no fix).
CONTAINER = """\
import numpy as np
from mindspore import nn


class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.layers = [nn.Dense(4, 4), nn.Dense(4, 4)]

    def construct(self, x):
        for layer in self.layers:
            x = layer(x)
        return np.tanh(x)
"""
FIXED_LINE = "        self.layers = nn.CellList([nn.Dense(4, 4), nn.Dense(4, 4)])\n"
# The same module saved by an editor while mslint ran: three lines longer at the top.
SAVED = '"""Saved while mslint ran."""\n\n\n' + CONTAINER
SECRET = "MSLINT_AUDIT_SECRET=hunter2"


def _folder_listing(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir())


def _compiles(text: str) -> bool:
    try:
        compile(text, "<fixed>", "exec")
    except SyntaxError:
        return False
    return True


# 1. A save during the run


def saved_after_the_first_analysis(folder: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """``net.py`` in ``folder``, saved by an editor right after mslint's first analysis of it."""
    net = folder / "net.py"
    net.write_text(CONTAINER)
    analyse = cli.check_incrementally

    def analyse_then_save(*args: Any, **kwargs: Any) -> Any:
        report = analyse(*args, **kwargs)
        if net.read_text() == CONTAINER:
            net.write_text(SAVED)
        return report

    monkeypatch.setattr(cli, "check_incrementally", analyse_then_save)
    return net


def test_a_file_saved_after_the_analysis_is_not_fixed_with_the_old_offsets(
    tmp_path: Path, run: Run, monkeypatch: pytest.MonkeyPatch
) -> None:
    net = saved_after_the_first_analysis(tmp_path, monkeypatch)
    code, _, err = run("check", str(net), "--fix", "--no-cache")
    assert code == 2
    assert f"mslint: error: {net}: changed while mslint checked it, not fixed: run again" in err.splitlines()
    assert net.read_text() == SAVED, "the saved text is kept byte for byte"


def test_a_file_saved_while_the_fixes_are_made_is_not_overwritten(
    tmp_path: Path, run: Run, monkeypatch: pytest.MonkeyPatch
) -> None:
    net = tmp_path / "net.py"
    net.write_text(CONTAINER)
    apply = fix_files.apply_fixes

    def save_while_applying(*args: Any, **kwargs: Any) -> Any:
        net.write_text(SAVED)  # after mslint read the file for its fixes, before it writes them
        return apply(*args, **kwargs)

    monkeypatch.setattr(fix_files, "apply_fixes", save_while_applying)
    code, _, err = run("check", str(net), "--fix", "--no-cache")
    assert code == 2
    assert f"mslint: error: {net}: changed while mslint fixed it, not fixed: run again" in err.splitlines()
    assert net.read_text() == SAVED
    assert _folder_listing(tmp_path) == ["net.py"], "no temporary file is left"


def test_fixes_land_on_the_text_that_was_checked(tmp_path: Path, run: Run) -> None:
    net = tmp_path / "net.py"
    net.write_text(CONTAINER)
    code, _, _ = run("check", str(net), "--fix", "--no-cache")
    assert code == 1, "numpy on a tensor is left: it has no fix"
    fixed = net.read_text()
    assert FIXED_LINE in fixed and _compiles(fixed)
    assert _folder_listing(tmp_path) == ["net.py"]


# 2. A full disk


@pytest.mark.parametrize("failing", ["write", "fsync"])
def test_a_full_disk_leaves_the_file_as_it_was(
    tmp_path: Path, run: Run, monkeypatch: pytest.MonkeyPatch, failing: str
) -> None:
    net = tmp_path / "net.py"
    net.write_text(CONTAINER)
    fill = atomic_write._fill

    def fill_until_full(stream: Any, content: bytes, mode: int, owner: tuple[int, int] | None) -> None:
        if failing == "write":
            stream.write(content[: len(content) // 2])
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        monkeypatch.setattr(os, "fsync", _no_space)
        fill(stream, content, mode, owner)

    monkeypatch.setattr(atomic_write, "_fill", fill_until_full)
    code, _, err = run("check", str(net), "--fix", "--no-cache")
    assert code == 2
    reason = os.strerror(errno.ENOSPC)
    assert f"mslint: error: {net}: cannot write the fixes, the file is unchanged: {reason}" in err.splitlines()
    assert net.read_text() == CONTAINER
    assert _folder_listing(tmp_path) == ["net.py"]


def _no_space(descriptor: int) -> None:
    raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))


def test_a_full_disk_while_writing_the_baseline_keeps_the_old_one(
    tmp_path: Path, run: Run, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "net.py").write_text(CONTAINER)
    baseline = tmp_path / "baseline.json"
    assert run("baseline", str(tmp_path / "net.py"), "-o", str(baseline))[0] == 0
    recorded = baseline.read_bytes()
    monkeypatch.setattr(os, "fsync", _no_space)
    code, _, err = run("baseline", str(tmp_path / "net.py"), "-o", str(baseline))
    assert code == 2 and "cannot write" in err
    assert baseline.read_bytes() == recorded


# 3. SIGKILL in the middle of a write

_KILLED_MID_WRITE = """
import os, signal, sys
from pathlib import Path
from mslint import atomic_write

def half_then_killed(stream, content, mode, owner):
    stream.write(content[: len(content) // 2])
    stream.flush()
    os.kill(os.getpid(), signal.SIGKILL)

atomic_write._fill = half_then_killed
from mslint.cli import main
main(["check", sys.argv[1], "--fix", "--no-cache"])
"""


def test_sigkill_in_the_middle_of_a_fix_leaves_the_file_and_no_other(tmp_path: Path) -> None:
    project = tmp_path / "project"
    project.mkdir()
    net = project / "net.py"
    net.write_text(CONTAINER)
    done = subprocess.run([sys.executable, "-c", _KILLED_MID_WRITE, str(net)], capture_output=True, timeout=120)
    assert done.returncode == -signal.SIGKILL
    assert net.read_text() == CONTAINER
    assert _folder_listing(project) == ["net.py"]


# 4. Links out of the checked folders


@pytest.fixture
def leaking_tree(tmp_path: Path) -> Path:
    outside = tmp_path / "outside" / "secrets.py"
    outside.parent.mkdir()
    outside.write_text(f"{SECRET}\nthis is not python {SECRET}\n")
    tree = tmp_path / "tree"
    tree.mkdir()
    (tree / "net.py").write_text(CONTAINER)
    (tree / "leak.py").symlink_to(outside)
    (tree / "inside.py").symlink_to(tree / "net.py")
    return tree


@pytest.mark.parametrize("output", ["text", "json", "github", "sarif"])
def test_a_link_to_a_file_outside_the_checked_folder_is_not_read(leaking_tree: Path, run: Run, output: str) -> None:
    code, out, err = run("check", str(leaking_tree), "--no-cache", "--format", output)
    assert code == 1
    assert SECRET not in out + err
    assert f"mslint: note: {leaking_tree / 'leak.py'}: a link to a file outside the checked folders, skipped" in err
    if output == "text":
        assert "in 2 files checked" in out, "a link that stays inside the folder is checked"


def test_nothing_outside_reaches_the_report_or_the_baseline(leaking_tree: Path, run: Run, tmp_path: Path) -> None:
    report, baseline = tmp_path / "report.html", tmp_path / "baseline.json"
    assert run("report", str(leaking_tree), "-o", str(report))[0] == 0
    assert run("baseline", str(leaking_tree), "-o", str(baseline))[0] == 0
    assert SECRET not in report.read_text() + baseline.read_text()


def test_fix_never_edits_a_file_outside_the_checked_folder(leaking_tree: Path, run: Run, tmp_path: Path) -> None:
    outside_net = tmp_path / "outside" / "net_outside.py"
    outside_net.write_text(CONTAINER)
    (leaking_tree / "linked_net.py").symlink_to(outside_net)
    run("check", str(leaking_tree), "--fix", "--no-cache")
    assert outside_net.read_text() == CONTAINER
    assert FIXED_LINE in (leaking_tree / "net.py").read_text()
    assert (leaking_tree / "linked_net.py").is_symlink()


def test_a_link_named_on_the_command_line_is_read(leaking_tree: Path, run: Run) -> None:
    """The user named it: as every tool does, mslint reads what it is told to."""
    code, out, _ = run("check", str(leaking_tree / "leak.py"), "--no-cache")
    assert code == 1 and "leak.py" in out


# 5. and 22. The cache is a hint


@pytest.fixture
def cached(tmp_path: Path) -> tuple[Path, Settings, Path]:
    net = tmp_path / "net.py"
    net.write_text(CONTAINER)
    (tmp_path / "other.py").write_text("x = 1\n")
    settings = Settings(root=tmp_path)
    return net, settings, cache_file(settings)


def _findings(report: Any) -> list[tuple[str, int, str]]:
    return [(Path(d.path).name, d.line, d.symbol) for d in report.diagnostics]


def test_a_tampered_cache_entry_changes_no_result(cached: tuple[Path, Settings, Path], run: Run) -> None:
    net, settings, cache = cached
    files = [net, net.parent / "other.py"]
    expected = _findings(check_files(files, settings))
    check_incrementally(files, settings, cache)
    key = signing_key()
    assert key is not None
    payload = signed_payload(cache.read_bytes(), key)
    assert payload is not None
    document = json.loads(payload)
    for component in document["components"].values():
        for found in component["files"].values():
            for item in found:
                item["diagnostic"]["line"] = 10**9
                item["diagnostic"]["fix"] = {
                    "applicability": "safe",
                    "message": "tampered",
                    "edits": [{"line": 1, "column": 1, "end_line": 1, "end_column": 1, "content": "import os\n"}],
                }
    cache.write_text(json.dumps(document))  # well-formed, but not signed with the user's key
    assert _findings(check_incrementally(files, settings, cache)) == expected
    run("check", str(net), str(net.parent / "other.py"), "--fix")
    assert "import os" not in net.read_text()


def test_a_cache_signed_with_another_key_is_ignored(
    cached: tuple[Path, Settings, Path], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    net, settings, cache = cached
    files = [net, net.parent / "other.py"]
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "someone-else"))
    check_incrementally(files, settings, cache)  # a cache made elsewhere (committed, restored by CI)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "the-user"))
    assert check_incrementally(files, settings, cache).cached_files == 0
    assert check_incrementally(files, settings, cache).cached_files == 2, "the user's own cache is used"
    assert oct((tmp_path / "the-user" / "mslint" / "cache-key").stat().st_mode & 0o777) == "0o600"


def test_fixes_are_never_read_from_the_cache(cached: tuple[Path, Settings, Path], run: Run) -> None:
    net, _, _ = cached
    assert run("check", str(net.parent))[0] == 1  # fills the cache
    code, _, _ = run("check", str(net.parent), "--fix")
    assert code == 1 and FIXED_LINE in net.read_text()


def test_a_file_saved_during_a_cached_run_and_reverted_gets_its_own_results(
    cached: tuple[Path, Settings, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    net, settings, cache = cached
    files = [net, net.parent / "other.py"]
    clean = "from mindspore import nn\n\n\nclass Net(nn.Cell):\n    def construct(self, x):\n        return x\n"
    expected = _findings(check_files(files, settings))
    analyse = incremental.check_files

    def edited_during_the_analysis(paths: list[Path], *args: Any, **kwargs: Any) -> Any:
        net.write_text(clean)  # saved after mslint digested the file, before it analysed it
        try:
            return analyse(paths, *args, **kwargs)
        finally:
            net.write_text(CONTAINER)  # and reverted

    monkeypatch.setattr(incremental, "check_files", edited_during_the_analysis)
    check_incrementally(files, settings, cache)
    monkeypatch.undo()
    assert _findings(check_incrementally(files, settings, cache)) == expected
    assert expected, "the reverted text has findings"


# 6. The report's input files


def _injection_inputs(tmp_path: Path, run: Run, tree: Path) -> tuple[Path, Path]:
    previous = tmp_path / "previous.json"
    assert run("report", str(tree), "--format", "json", "-o", str(previous))[0] == 0
    document = json.loads(previous.read_text())
    for finding in document["findings"]:
        finding["fingerprint"] = "gone"  # each reads as fixed since
        finding["message"] = "<script>alert('line')</script>"
        finding["path"] = "<img src=x onerror=alert('path')>"
    previous.write_text(json.dumps(document))
    results = tmp_path / "verify.json"
    problem = {
        "kind": "error",
        "level": "strict",
        "message": "<script>alert('evidence')</script>",
        "entry": "Net.construct",
        "path": str(tree / "net.py"),
        "line": 5,
    }
    results.write_text(
        json.dumps(
            {
                "findings": [],
                "compiles": [{"name": "Net", "path": str(tree / "net.py"), "level": "strict", "status": "compiled"}],
                "compiler_only": [problem],
            }
        )
    )
    return previous, results


def test_the_report_escapes_every_field_of_its_input_files(tmp_path: Path, run: Run) -> None:
    tree = tmp_path / "tree"
    tree.mkdir()
    (tree / "net.py").write_text(CONTAINER)
    previous, results = _injection_inputs(tmp_path, run, tree)
    page = tmp_path / "report.html"
    code, _, err = run(
        "report", str(tree), "--compare", str(previous), "--verify-results", str(results), "-o", str(page)
    )
    assert code == 0, err
    html = page.read_text()
    assert "fixed: " in html, "the crafted findings are listed"
    # Inside the JSON data elements text is inert, as long as nothing there closes the element.
    markup = re.sub(r'<script type="application/json"[^>]*>.*?</script>', "", html, flags=re.DOTALL)
    assert markup.count("<script>") == 1, "only the page's own script"
    for payload in ("<script>alert(", "<img src=x"):
        assert payload not in markup


def test_the_escaping_test_sees_an_unescaped_page(tmp_path: Path, run: Run, monkeypatch: pytest.MonkeyPatch) -> None:
    """The test above can fail: with escaping switched off, the payload reaches the page."""
    from mslint.report import html as report_html

    monkeypatch.setattr(report_html, "escape", lambda text, quote=True: text)
    tree = tmp_path / "tree"
    tree.mkdir()
    (tree / "net.py").write_text(CONTAINER)
    previous, _ = _injection_inputs(tmp_path, run, tree)
    page = tmp_path / "report.html"
    assert run("report", str(tree), "--compare", str(previous), "-o", str(page))[0] == 0
    assert "<li>fixed: <img src=x" in page.read_text()


def test_atomic_write_keeps_the_permissions_and_writes_special_files_in_place(tmp_path: Path) -> None:
    script = tmp_path / "tool.py"
    script.write_text("old\n")
    script.chmod(0o751)
    atomic_write.write_atomically(script, b"new\n")
    assert script.read_text() == "new\n" and script.stat().st_mode & 0o777 == 0o751
    atomic_write.write_atomically(Path(os.devnull), b"discarded")
    assert _folder_listing(tmp_path) == ["tool.py"]
    with pytest.raises(atomic_write.FileChanged):
        atomic_write.write_atomically(script, b"newer\n", expected_digest=atomic_write.digest(b"old\n"))
    assert script.read_text() == "new\n"


def test_add_noqa_leaves_a_file_saved_after_the_analysis_alone(
    tmp_path: Path, run: Run, monkeypatch: pytest.MonkeyPatch
) -> None:
    net = saved_after_the_first_analysis(tmp_path, monkeypatch)
    code, _, err = run("check", str(net), "--add-noqa")
    assert code == 2
    assert f"mslint: error: {net}: changed while mslint checked it, no comment added: run again" in err.splitlines()
    assert net.read_text() == SAVED


# Issue 42, item 9: a fix keeps the file's owner, its other names and a read-only folder's files
# fixable, and a killed writer's leftover goes at the next write.


@pytest.mark.skipif(os.geteuid() != 0, reason="giving a file to another user takes root")
def test_a_fix_run_as_root_keeps_the_owner_of_the_file(tmp_path: Path, run: Run) -> None:
    net = tmp_path / "net.py"
    net.write_text(CONTAINER)
    os.chown(net, 65534, 65534)
    assert run("check", str(net), "--fix", "--no-cache")[0] == 1
    assert FIXED_LINE in net.read_text()
    assert (net.stat().st_uid, net.stat().st_gid) == (65534, 65534)


def test_a_fix_reaches_every_hard_link_of_the_file(tmp_path: Path, run: Run) -> None:
    net = tmp_path / "net.py"
    net.write_text(CONTAINER)
    other = tmp_path / "other_name.py"
    os.link(net, other)
    assert run("check", str(net), "--fix", "--no-cache")[0] == 1
    assert FIXED_LINE in other.read_text() and os.path.samefile(net, other)


def test_a_file_in_a_folder_that_cannot_be_written_is_fixed_through(
    tmp_path: Path, run: Run, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The folder is made unwritable to mslint's test (root writes any folder): the file, writable
    itself, is fixed in place, still only over the text that was checked."""
    net = tmp_path / "net.py"
    net.write_text(CONTAINER)
    inode = net.stat().st_ino
    writable = os.access
    monkeypatch.setattr(atomic_write.os, "access", lambda p, m: Path(p) != tmp_path and writable(p, m))
    assert run("check", str(net), "--fix", "--no-cache")[0] == 1
    assert FIXED_LINE in net.read_text() and net.stat().st_ino == inode
    assert _folder_listing(tmp_path) == ["net.py"]
    with pytest.raises(atomic_write.FileChanged):
        atomic_write.write_atomically(net, b"x = 1\n", expected_digest=atomic_write.digest(CONTAINER.encode()))
    assert FIXED_LINE in net.read_text()


def test_the_leftover_of_a_writer_killed_before_its_rename_goes_at_the_next_write(tmp_path: Path) -> None:
    ended = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
    dead = int(ended.stdout)
    target = tmp_path / "net.py"
    target.write_text("old\n")
    leftover = tmp_path / f".net.py.{dead}.0badc0de.mslint-tmp"
    leftover.write_text("half")
    running = tmp_path / f".net.py.{os.getppid()}.0badc0de.mslint-tmp"  # a writer that still runs
    running.write_text("being written")
    atomic_write.write_atomically(target, b"new\n")
    assert _folder_listing(tmp_path) == sorted(["net.py", running.name])
