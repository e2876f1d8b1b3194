"""``mslint server`` end to end, driven over stdio by a real LSP client (pytest-lsp)."""

from __future__ import annotations

import asyncio
import contextlib
import io
import json
import os
import re
import resource
import shutil
import subprocess
import sys
import threading
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import IO, Any

import pytest
import pytest_lsp
from lsprotocol import types as lsp
from pygls.workspace import TextDocument
from pytest_lsp import ClientServerConfig, LanguageClient

from mslint import rule_docs, server
from mslint.lsp_framing import MESSAGE_LIMIT, Frames
from mslint.rule_docs import rule_text
from mslint.rules import all_rules, rule_named
from tests.examples import REPO, RULES_DIR
from tests.extras import tomllib

NET = """\
import numpy as np
from mindspore import nn


class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.layers = [nn.Dense(4, 4), nn.Dense(4, 4)]

    def construct(self, x):
        return np.maximum(x, 0)
"""


@pytest_lsp.fixture(config=ClientServerConfig(server_command=[sys.executable, "-m", "mslint", "server"]))
async def client(lsp_client: LanguageClient, tmp_path: Path):  # type: ignore[no-untyped-def]
    await lsp_client.initialize_session(
        lsp.InitializeParams(capabilities=lsp.ClientCapabilities(), root_uri=tmp_path.as_uri())
    )
    yield
    await lsp_client.shutdown_session()


async def open_document(client: LanguageClient, path: Path, text: str) -> list[lsp.Diagnostic]:
    path.write_text(text)
    client.text_document_did_open(
        lsp.DidOpenTextDocumentParams(
            lsp.TextDocumentItem(uri=path.as_uri(), language_id="python", version=1, text=text)
        )
    )
    await client.wait_for_notification(lsp.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    return list(client.diagnostics[path.as_uri()])


async def change_document(client: LanguageClient, path: Path, text: str, version: int) -> list[lsp.Diagnostic]:
    client.text_document_did_change(
        lsp.DidChangeTextDocumentParams(
            lsp.VersionedTextDocumentIdentifier(uri=path.as_uri(), version=version),
            [lsp.TextDocumentContentChangeWholeDocument(text=text)],
        )
    )
    await client.wait_for_notification(lsp.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    return list(client.diagnostics[path.as_uri()])


def apply(text: str, edits: Sequence[lsp.TextEdit]) -> str:
    """Apply edits the way an editor does (positions in UTF-16 units; ASCII here)."""
    lines = text.splitlines(keepends=True)
    offsets = [0]
    for line in lines:
        offsets.append(offsets[-1] + len(line))
    for edit in sorted(edits, key=lambda e: (e.range.start.line, e.range.start.character), reverse=True):
        start = offsets[edit.range.start.line] + edit.range.start.character
        end = offsets[edit.range.end.line] + edit.range.end.character
        text = text[:start] + edit.new_text + text[end:]
    return text


async def code_actions(
    client: LanguageClient, path: Path, diagnostic: lsp.Diagnostic, only: list[lsp.CodeActionKind] | None = None
) -> list[lsp.CodeAction]:
    result = await client.text_document_code_action_async(
        lsp.CodeActionParams(
            text_document=lsp.TextDocumentIdentifier(uri=path.as_uri()),
            range=diagnostic.range,
            context=lsp.CodeActionContext(diagnostics=[diagnostic], only=only),
        )
    )
    return [a for a in result or [] if isinstance(a, lsp.CodeAction)]


def edits_of(action: lsp.CodeAction, path: Path) -> Sequence[lsp.TextEdit]:
    assert action.edit is not None and action.edit.changes is not None
    return action.edit.changes[path.as_uri()]


@pytest.mark.asyncio
async def test_diagnostics_on_open(client: LanguageClient, tmp_path: Path) -> None:
    diagnostics = await open_document(client, tmp_path / "net.py", NET)
    found = {(d.code, d.range.start.line, d.range.start.character, d.severity) for d in diagnostics}
    assert found == {
        ("MS103", 7, 8, lsp.DiagnosticSeverity.Error),
        ("MS101", 10, 15, lsp.DiagnosticSeverity.Warning),
    }
    assert all(d.source == "mslint" for d in diagnostics)
    slice_link = next(d for d in diagnostics if d.code == "MS101").code_description
    assert slice_link is not None and slice_link.href.endswith("/rules/third-party-call-in-graph.md")


@pytest.mark.asyncio
async def test_applying_the_fix_removes_the_finding(client: LanguageClient, tmp_path: Path) -> None:
    path = tmp_path / "net.py"
    diagnostics = await open_document(client, path, NET)
    container = next(d for d in diagnostics if d.code == "MS103")
    actions = await code_actions(client, path, container)
    assert [a.title for a in actions] == [
        "mslint: Wrap in `nn.CellList`",
        "mslint: disable python-container-of-cells for this line",
        "mslint: disable python-container-of-cells for this file",
        "mslint: fix all (1 fix)",
    ]
    fixed = apply(NET, edits_of(actions[0], path))
    assert "self.layers = nn.CellList([nn.Dense(4, 4), nn.Dense(4, 4)])" in fixed
    remaining = await change_document(client, path, fixed, 2)
    assert [d.code for d in remaining] == ["MS101"]


@pytest.mark.asyncio
async def test_disabling_the_rule_for_the_line_removes_the_finding(client: LanguageClient, tmp_path: Path) -> None:
    path = tmp_path / "net.py"
    diagnostics = await open_document(client, path, NET)
    numpy_call = next(d for d in diagnostics if d.code == "MS101")
    actions = await code_actions(client, path, numpy_call, only=[lsp.CodeActionKind.QuickFix])
    assert [a.title for a in actions] == [
        "mslint: disable third-party-call-in-graph for this line",
        "mslint: disable third-party-call-in-graph for this file",
    ]
    disabled = apply(NET, edits_of(actions[0], path))
    assert "        return np.maximum(x, 0)  # mslint: disable=third-party-call-in-graph\n" in disabled
    remaining = await change_document(client, path, disabled, 2)
    assert [d.code for d in remaining] == ["MS103"]
    line_action = (await code_actions(client, path, remaining[0]))[1]
    assert line_action.title == "mslint: disable python-container-of-cells for this line"
    extended = apply(disabled, edits_of(line_action, path))
    assert await change_document(client, path, extended, 3) == []


@pytest.mark.asyncio
async def test_disabling_the_rule_for_the_file_removes_its_findings(client: LanguageClient, tmp_path: Path) -> None:
    """The comment goes above the code, after a shebang and a coding comment (which must stay in
    the first two lines); a second rule joins the comment already there."""
    path = tmp_path / "net.py"
    prologue = "#!/usr/bin/env python\n# -*- coding: utf-8 -*-\n"
    twice = NET.replace("return np.maximum(x, 0)", "return np.maximum(np.abs(x), 0)")
    diagnostics = await open_document(client, path, prologue + twice)
    numpy_call = next(d for d in diagnostics if d.code == "MS101")
    [in_file] = [a for a in await code_actions(client, path, numpy_call) if a.title.endswith("for this file")]
    disabled = apply(prologue + twice, edits_of(in_file, path))
    assert disabled.startswith(prologue + "# mslint: disable-file=third-party-call-in-graph\nimport numpy")
    remaining = await change_document(client, path, disabled, 2)
    assert [d.code for d in remaining] == ["MS103"], "both numpy calls are silenced"
    [in_file] = [a for a in await code_actions(client, path, remaining[0]) if a.title.endswith("for this file")]
    extended = apply(disabled, edits_of(in_file, path))
    assert "# mslint: disable-file=third-party-call-in-graph,python-container-of-cells\n" in extended
    assert await change_document(client, path, extended, 3) == []


@pytest.mark.asyncio
async def test_fix_all_applies_every_safe_fix(client: LanguageClient, tmp_path: Path) -> None:
    """``source.fixAll.mslint`` (what editors run on save) applies the fixes ``check --fix`` does."""
    path = tmp_path / "net.py"
    two_lists = NET.replace(
        "        self.layers = [nn.Dense(4, 4), nn.Dense(4, 4)]\n",
        "        self.layers = [nn.Dense(4, 4), nn.Dense(4, 4)]\n        self.heads = [nn.Dense(4, 2)]\n",
    )
    diagnostics = await open_document(client, path, two_lists)
    assert [d.code for d in diagnostics].count("MS103") == 2
    numpy_call = next(d for d in diagnostics if d.code == "MS101")
    for only in ([lsp.CodeActionKind.SourceFixAll], [lsp.CodeActionKind.Source], None):
        fix_all = [a for a in await code_actions(client, path, numpy_call, only) if a.kind == server.FIX_ALL]
        assert [a.title for a in fix_all] == ["mslint: fix all (2 fixes)"], only
    assert not [
        a
        for a in await code_actions(client, path, numpy_call, only=[lsp.CodeActionKind.QuickFix])
        if a.kind == server.FIX_ALL
    ]
    fixed = apply(two_lists, edits_of(fix_all[0], path))
    assert "self.layers = nn.CellList([nn.Dense(4, 4), nn.Dense(4, 4)])" in fixed
    assert "self.heads = nn.CellList([nn.Dense(4, 2)])" in fixed
    remaining = await change_document(client, path, fixed, 2)
    assert [d.code for d in remaining] == ["MS101"]
    after = await code_actions(client, path, remaining[0], only=[lsp.CodeActionKind.SourceFixAll])
    assert after == [], "nothing left to fix: no action"
    assert path.read_text() == two_lists, "the server never writes the file"


@pytest.mark.asyncio
async def test_fix_all_keeps_a_byte_order_mark_and_a_last_line_without_ending(
    client: LanguageClient, tmp_path: Path
) -> None:
    path = tmp_path / "net.py"
    text = "\ufeff" + NET.replace("return np.maximum(x, 0)\n", "return x")
    diagnostics = await open_document(client, path, text)
    [fix_all] = [a for a in await code_actions(client, path, diagnostics[0]) if a.kind == server.FIX_ALL]
    fixed = apply(text, edits_of(fix_all, path))
    assert fixed == text.replace("[nn.Dense(4, 4), nn.Dense(4, 4)]", "nn.CellList([nn.Dense(4, 4), nn.Dense(4, 4)])")


@pytest.mark.asyncio
async def test_hover_shows_the_rule_documentation(client: LanguageClient, tmp_path: Path) -> None:
    path = tmp_path / "net.py"
    diagnostics = await open_document(client, path, NET)
    numpy_call = next(d for d in diagnostics if d.code == "MS101")
    inside = lsp.Position(line=numpy_call.range.start.line, character=numpy_call.range.start.character + 3)
    shown = await client.text_document_hover_async(lsp.HoverParams(lsp.TextDocumentIdentifier(path.as_uri()), inside))
    assert shown is not None and isinstance(shown.contents, lsp.MarkupContent)
    assert shown.contents.kind == lsp.MarkupKind.Markdown
    rule = rule_named("third-party-call-in-graph")
    assert rule is not None and shown.contents.value == rule_text(rule)
    assert shown.range == numpy_call.range
    elsewhere = lsp.Position(line=0, character=0)
    assert (
        await client.text_document_hover_async(lsp.HoverParams(lsp.TextDocumentIdentifier(path.as_uri()), elsewhere))
        is None
    )


def test_fix_all_takes_the_published_fixes_of_the_same_version(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Editors ask for code actions at every move of the cursor: the fixes published for this
    version of the document are used, not a new analysis (0.3 s in a folder of 50 models)."""
    document = TextDocument((tmp_path / "net.py").as_uri(), NET, version=3)
    monkeypatch.setitem(server._published, document.uri, server.check_document(document))
    monkeypatch.setitem(server._published_versions, document.uri, 3)
    monkeypatch.setattr(server, "check_files", lambda *args, **kwargs: pytest.fail("analysed again"))
    [action] = server._fix_all_action(document, server._Positions(document))
    assert action.title == "mslint: fix all (1 fix)"
    edited = TextDocument(document.uri, NET, version=4)
    with pytest.raises(pytest.fail.Exception, match="analysed again"):
        server._fix_all_action(edited, server._Positions(edited))


def test_rule_links_are_the_documentation_address(monkeypatch: pytest.MonkeyPatch) -> None:
    """Links go to the Documentation URL a team configured (the installed metadata's); while it
    is the placeholder pyproject.toml ships, or absent, to the page installed with the package."""
    with open(REPO / "pyproject.toml", "rb") as stream:
        urls = tomllib.load(stream)["project"]["urls"]
    rule = rule_named("variable-slice")
    assert rule is not None
    installed = (rule_docs.INSTALLED_PAGES / "variable-slice.md").as_uri()
    for configured in (None, urls["Documentation"]):
        monkeypatch.setattr(rule_docs, "_documentation_url", lambda configured=configured: configured)
        assert rule_docs.documentation_link(rule) == installed
    monkeypatch.setattr(rule_docs, "_documentation_url", lambda: "https://docs.example/mslint")
    assert rule_docs.documentation_link(rule) == "https://docs.example/mslint/rules/variable-slice.md"
    for each in all_rules():
        assert (REPO / "docs" / "rules" / f"{each.symbol}.md").is_file(), "the links name the pages of docs/rules/"


@pytest.mark.asyncio
async def test_a_notebook_s_findings_are_published_on_their_cells(client: LanguageClient, tmp_path: Path) -> None:
    """A Jupyter notebook as LSP 3.17 sends it (a text document per cell): the code cells are
    checked as one module and each finding is published on its cell, at its line there."""
    path = tmp_path / "course.ipynb"
    path.write_text("{}")  # what the editor holds is what is checked
    cells = [
        (lsp.NotebookCellKind.Markup, "markdown", "# The network"),
        (lsp.NotebookCellKind.Code, "python", "%matplotlib inline\nimport numpy as np\nfrom mindspore import nn"),
        (lsp.NotebookCellKind.Code, "python", NET.split("\n\n\n", 1)[1]),
    ]
    uris = [f"vscode-notebook-cell:{path}#cell{i}" for i in range(len(cells))]
    client.notebook_document_did_open(
        lsp.DidOpenNotebookDocumentParams(
            notebook_document=lsp.NotebookDocument(
                uri=path.as_uri(),
                notebook_type="jupyter-notebook",
                version=1,
                cells=[lsp.NotebookCell(kind=kind, document=uri) for (kind, _, _), uri in zip(cells, uris)],
            ),
            cell_text_documents=[
                lsp.TextDocumentItem(uri=uri, language_id=language, version=1, text=text)
                for (_, language, text), uri in zip(cells, uris)
            ],
        )
    )
    while uris[2] not in client.diagnostics:
        await asyncio.wait_for(client.wait_for_notification(lsp.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS), timeout=60)
    assert not client.diagnostics[uris[1]]
    found = {(d.code, d.range.start.line, d.range.start.character) for d in client.diagnostics[uris[2]]}
    assert found == {("MS103", 3, 8), ("MS101", 6, 15)}, "lines and columns in the cell"
    assert uris[0] not in client.diagnostics, "a Markdown cell is not Python"
    numpy_call = next(d for d in client.diagnostics[uris[2]] if d.code == "MS101")
    shown = await client.text_document_hover_async(
        lsp.HoverParams(lsp.TextDocumentIdentifier(uris[2]), numpy_call.range.start)
    )
    assert shown is not None and isinstance(shown.contents, lsp.MarkupContent)
    assert shown.contents.value.startswith("# third-party-call-in-graph (MS101)")


@pytest.mark.asyncio
async def test_unsaved_text_is_what_is_checked(client: LanguageClient, tmp_path: Path) -> None:
    path = tmp_path / "net.py"
    await open_document(client, path, NET)
    clean = (RULES_DIR / "third-party-call-in-graph" / "good.py").read_text()
    assert await change_document(client, path, clean, 2) == []
    assert path.read_text() == NET, "the server never writes the file"


@pytest.mark.asyncio
async def test_saving_checks_again_with_the_files_around_it(client: LanguageClient, tmp_path: Path) -> None:
    helper = tmp_path / "helpers.py"
    helper.write_text("import numpy as np\n\n\ndef squash(x):\n    return np.tanh(x)\n")
    assert await open_document(client, helper, helper.read_text()) == []
    (tmp_path / "net.py").write_text(
        "from mindspore import nn\n\nfrom helpers import squash\n\n\n"
        "class Net(nn.Cell):\n    def construct(self, x):\n        return squash(x)\n"
    )
    client.text_document_did_save(lsp.DidSaveTextDocumentParams(lsp.TextDocumentIdentifier(uri=helper.as_uri())))
    await client.wait_for_notification(lsp.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    found = client.diagnostics[helper.as_uri()]
    assert [(d.code, d.range.start.line) for d in found] == [("MS101", 4)], "net.py now calls the helper from construct"


@pytest.mark.asyncio
async def test_a_byte_order_mark_in_the_editor_text_keeps_positions_right(
    client: LanguageClient, tmp_path: Path
) -> None:
    """Editors count the mark as a character of the first line; mslint's columns start after it."""
    text = "\ufeffimport mindspore.ops as ops; resize = ops.ResizeBilinear((2, 2))\n" + NET
    diagnostics = await open_document(client, tmp_path / "net.py", text)
    lines = text.split("\n")
    assert [(d.code, d.range.start.line, d.range.start.character) for d in diagnostics] == [
        ("MS301", 0, lines[0].index("ops.ResizeBilinear")),
        ("MS103", 8, lines[8].index("self.layers")),
        ("MS101", 11, lines[11].index("np.maximum")),
    ]


@pytest.mark.asyncio
async def test_a_latin_1_file_around_the_document_is_read(client: LanguageClient, tmp_path: Path) -> None:
    (tmp_path / "base.py").write_bytes(
        b"# -*- coding: latin-1 -*-\nfrom mindspore import nn\n\n\nclass Base(nn.Cell):\n    NAME = 'caf\xe9'\n"
    )
    text = "import numpy as np\nfrom base import Base\n\n\nclass Net(Base):\n    def construct(self, x):\n"
    diagnostics = await open_document(client, tmp_path / "net.py", text + "        return np.tanh(x)\n")
    assert [(d.code, d.range.start.line) for d in diagnostics] == [("MS101", 6)], "Base is a Cell"


@pytest.mark.asyncio
async def test_an_undecodable_file_around_the_document_leaves_its_findings(
    client: LanguageClient, tmp_path: Path
) -> None:
    (tmp_path / "config.py").write_bytes("# 训练配置\nBATCH = 32\n".encode("gbk"))
    diagnostics = await open_document(client, tmp_path / "net.py", NET)
    assert {d.code for d in diagnostics} == {"MS101", "MS103"}


@pytest.mark.asyncio
async def test_a_document_that_breaks_the_analysis_leaves_the_server_serving(
    client: LanguageClient, tmp_path: Path
) -> None:
    deep = "from mindspore import nn\n\n\nclass Net(nn.Cell):\n    def construct(self, x):\n"
    deep += "        return x" + " + x" * 5000 + "\n"
    path = tmp_path / "deep.py"
    path.write_text(deep)
    client.text_document_did_open(lsp.DidOpenTextDocumentParams(lsp.TextDocumentItem(path.as_uri(), "python", 1, deep)))
    await asyncio.wait_for(client.wait_for_notification(lsp.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS), timeout=60)
    assert path.as_uri() in client.diagnostics, "the document gets its diagnostics, even if none"
    assert not [m.message for m in client.messages if "Error in server" in m.message]
    (tmp_path / "other").mkdir()
    found = await open_document(client, tmp_path / "other" / "net.py", NET)
    assert {d.code for d in found} == {"MS101", "MS103"}, "the next document is checked as usual"


def test_a_failed_analysis_is_logged_and_gives_no_diagnostics(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(*args: Any, **kwargs: Any) -> None:
        raise RecursionError("maximum recursion depth exceeded")

    logged: list[lsp.LogMessageParams] = []
    monkeypatch.setattr(server, "check_files", broken)
    monkeypatch.setattr(server.server, "window_log_message", logged.append)
    document = TextDocument((tmp_path / "net.py").as_uri(), NET)
    assert server.check_document(document) == []
    assert [m.type for m in logged] == [lsp.MessageType.Error]
    assert "cannot analyse net.py: RecursionError" in logged[0].message


def _send(stream: IO[bytes], message: dict[str, Any]) -> None:
    body = json.dumps({"jsonrpc": "2.0", **message}).encode()
    stream.write(b"Content-Length: %d\r\n\r\n%s" % (len(body), body))
    stream.flush()


def _receive(stream: IO[bytes]) -> dict[str, Any]:
    length = 0
    while (header := stream.readline().strip()) != b"":
        name, _, value = header.partition(b":")
        if name.lower() == b"content-length":
            length = int(value)
    message: dict[str, Any] = json.loads(stream.read(length))
    return message


def _response(stream: IO[bytes], request_id: int) -> dict[str, Any]:
    while True:
        message = _receive(stream)
        if message.get("id") == request_id and "method" not in message:
            return message


def test_a_request_with_invalid_params_gets_an_error_reply(tmp_path: Path) -> None:
    command = [sys.executable, "-m", "mslint", "server"]
    with subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL) as child:
        assert child.stdin is not None and child.stdout is not None
        watchdog = threading.Timer(60, child.kill)  # a reply that never comes ends the test, not the suite
        watchdog.start()
        try:
            _send(child.stdin, {"id": 1, "method": "initialize", "params": {"capabilities": {}, "rootUri": None}})
            assert "result" in _response(child.stdout, 1)
            _send(child.stdin, {"method": "initialized", "params": {}})
            _send(child.stdin, {"id": 2, "method": "textDocument/codeAction", "params": {"textDocument": 42}})
            error = _response(child.stdout, 2)["error"]
            assert error["code"] == -32602, error  # JSON-RPC "invalid params"
            _send(child.stdin, {"id": 3, "method": "shutdown"})
            assert _response(child.stdout, 3)["result"] is None, "the server is still serving"
            _send(child.stdin, {"method": "exit"})
            assert child.wait(timeout=30) == 0
        finally:
            watchdog.cancel()
            if child.poll() is None:
                child.kill()


def test_many_diagnostics_split_the_document_into_lines_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Converting positions must be linear: pygls re-splits the whole text at every ``lines``."""
    cells = "".join(
        f"\nclass Net{i}(nn.Cell):\n    def construct(self, x):\n        return np.abs(x)\n" for i in range(200)
    )
    document = TextDocument((tmp_path / "many.py").as_uri(), "import numpy as np\nfrom mindspore import nn\n" + cells)
    splits = 0
    lines_property = TextDocument.lines

    def counted(self: TextDocument) -> list[str]:
        nonlocal splits
        splits += 1
        return list(lines_property.fget(self))  # type: ignore[attr-defined]

    monkeypatch.setattr(TextDocument, "lines", property(counted))
    found = server.check_document(document)
    assert len(found) == 200 and {d.code for d in found} == {"MS101"}
    assert splits == 1
    lines = document.source.splitlines()
    last_call = max(i for i, line in enumerate(lines) if "np.abs" in line)
    assert max(d.range.start.line for d in found) == last_call
    assert min(d.range.start.character for d in found) == lines[last_call].index("np.abs")


# What the server reads: frames of any length, no device, no FIFO (issue 28, items 9 and 10).


@contextlib.contextmanager
def language_server() -> Iterator[subprocess.Popen[bytes]]:
    """``mslint server`` over pipes, initialised, its address space limited to 2 GiB (a read
    without limit fails there rather than take the machine's memory), killed after 60 s
    whatever happens: a reply that never comes ends the test, not the suite."""

    def limit_memory() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (2 << 30, 2 << 30))

    command = [sys.executable, "-m", "mslint", "server"]
    with subprocess.Popen(
        command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, preexec_fn=limit_memory
    ) as child:
        assert child.stdin is not None and child.stdout is not None
        watchdog = threading.Timer(60, child.kill)
        watchdog.start()
        try:
            _send(child.stdin, {"id": 1, "method": "initialize", "params": {"capabilities": {}, "rootUri": None}})
            assert "result" in _response(child.stdout, 1)
            _send(child.stdin, {"method": "initialized", "params": {}})
            yield child
        finally:
            watchdog.cancel()
            if child.poll() is None:
                child.kill()


def shut_down(child: subprocess.Popen[bytes]) -> None:
    """Ask the server to shut down and exit, as an editor does; it must still answer."""
    assert child.stdin is not None and child.stdout is not None
    _send(child.stdin, {"id": 99, "method": "shutdown"})
    assert _response(child.stdout, 99)["result"] is None, "the server is still serving"
    _send(child.stdin, {"method": "exit"})
    assert child.wait(timeout=30) == 0


def framed(message: dict[str, Any], length_error: int = 0) -> bytes:
    body = json.dumps({"jsonrpc": "2.0", **message}).encode()
    return b"Content-Length: %d\r\n\r\n%s" % (len(body) + length_error, body)


def published(stream: IO[bytes], uri: str) -> list[dict[str, Any]]:
    while True:
        message = _receive(stream)
        if message.get("method") == "textDocument/publishDiagnostics" and message["params"]["uri"] == uri:
            diagnostics: list[dict[str, Any]] = message["params"]["diagnostics"]
            return diagnostics


def test_the_language_server_survives_wrong_lengths() -> None:
    """A length of 10**12 (the server exited), one too long (it read the next messages as the
    body, and every message after from its middle), one too short: the messages after each
    are answered."""
    with language_server() as child:
        assert child.stdin is not None and child.stdout is not None
        unknown = {"method": "mslint/no-such-request", "params": {}}
        child.stdin.write(b"Content-Length: 1000000000000\r\n\r\n" + framed({"id": 50, **unknown}))
        child.stdin.write(framed({"id": 2, **unknown}))
        child.stdin.flush()
        assert _response(child.stdout, 2)["error"]["code"] == -32601  # method not found: answered
        child.stdin.write(framed({"id": 3, **unknown}, length_error=+30) + framed({"id": 4, **unknown}))
        child.stdin.flush()
        assert {_response(child.stdout, 3)["id"], _response(child.stdout, 4)["id"]} == {3, 4}
        child.stdin.write(framed({"id": 5, **unknown}, length_error=-10) + framed({"id": 6, **unknown}))
        child.stdin.flush()
        assert _response(child.stdout, 6)["id"] == 6
        shut_down(child)


def test_the_language_server_reads_no_device_and_no_fifo(tmp_path: Path) -> None:
    """A code action on ``file:///dev/zero`` (a document the editor did not open: pygls read
    the path without limit), a document opened there, and one whose folder holds a FIFO named
    ``*.py`` (read as context: the analysis blocked for ever)."""
    diagnostic = {
        "range": {"start": {"line": 0, "character": 0}, "end": {"line": 0, "character": 1}},
        "source": "mslint",
        "message": "third-party-call-in-graph: ...",
        "data": {"symbol": "third-party-call-in-graph", "fix": None},
    }
    os.mkfifo(tmp_path / "pipe.py")
    beside_fifo = (tmp_path / "net.py").as_uri()
    with language_server() as child:
        assert child.stdin is not None and child.stdout is not None
        params: dict[str, Any] = {"textDocument": {"uri": "file:///dev/zero"}, "range": diagnostic["range"]}
        _send(
            child.stdin,
            {
                "id": 2,
                "method": "textDocument/codeAction",
                "params": {**params, "context": {"diagnostics": [diagnostic]}},
            },
        )
        actions = _response(child.stdout, 2)["result"]
        assert [action["title"] for action in actions] == [
            "mslint: disable third-party-call-in-graph for this line",
            "mslint: disable third-party-call-in-graph for this file",
        ]
        for uri in ("file:///dev/zero", beside_fifo):
            document = {"uri": uri, "languageId": "python", "version": 1, "text": NET}
            _send(child.stdin, {"method": "textDocument/didOpen", "params": {"textDocument": document}})
            assert {d["code"] for d in published(child.stdout, uri)} == {"MS101", "MS103"}
        shut_down(child)


def bodies(frames: Frames) -> Iterator[bytes]:
    """The message bodies, read as pygls reads them."""
    length = 0
    while line := frames.readline():
        header = re.fullmatch(rb"Content-Length: (\d+)\r\n", line)
        if not length and header:
            length = int(header.group(1))
        elif length and not line.strip():
            yield frames.read(length)
            length = 0


@pytest.mark.parametrize("garbage", [0, 10, 8192 - 20, 8192 - 7, 8192, 3 * 8192 + 5])
def test_a_header_after_bytes_of_garbage_is_found(garbage: int) -> None:
    """Garbage of any length before a header (what a dropped message or a length too short
    leaves), the header across the boundary of the pieces a long line is read in."""
    first, second = framed({"id": 1, "method": "a"}), framed({"id": 2, "method": "b"})
    stream = io.BytesIO(first + b"x" * garbage + second)
    assert [json.loads(body)["id"] for body in bodies(Frames(stream))] == [1, 2]


def test_a_message_over_the_limit_is_dropped_and_the_next_one_read() -> None:
    huge = b"Content-Length: %d\r\n\r\n" % (MESSAGE_LIMIT + 1)
    stream = io.BytesIO(huge + b'{"jsonrpc": "2.0", "id": 7, "method": "unread"}' + framed({"id": 8, "method": "b"}))
    assert [json.loads(body).get("id") for body in bodies(Frames(stream))] == [None, 8]


def neovim_snippet(version: tuple[int, int]) -> str:
    """The snippet of docs/editors.md for this Neovim: ``neovim-0.10`` from 0.10, else ``neovim-0.7``."""
    marker = "neovim-0.10" if version >= (0, 10) else "neovim-0.7"
    text = (REPO / "docs" / "editors.md").read_text()
    found = re.search(rf"<!-- {re.escape(marker)} -->\n```lua\n(.*?)```", text, re.DOTALL)
    assert found, f"docs/editors.md has no {marker} snippet"
    return found.group(1)


def test_the_neovim_snippet_gets_the_findings(tmp_path: Path) -> None:
    """docs/editors.md's snippet for the Neovim installed (Debian 12's is 0.7.2), as a user's
    init.lua, with ``mslint`` on the PATH: the findings of a Python buffer arrive. .ci/run installs
    Debian's neovim; under CI it fails rather than skips without it."""
    if shutil.which("nvim") is None:
        reason = "needs Neovim: apt-get install neovim (the Debian package)"
        if os.environ.get("CI"):
            pytest.fail(f"CI is set and the test {reason}")
        pytest.skip(reason)
    first_line = subprocess.run(["nvim", "--version"], capture_output=True, text=True, check=True).stdout
    major, minor = (int(part) for part in re.match(r"NVIM v(\d+)\.(\d+)", first_line).groups())  # type: ignore[union-attr]
    (tmp_path / "init.lua").write_text(neovim_snippet((major, minor)))
    (tmp_path / "bin").mkdir()
    (tmp_path / "bin" / "mslint").write_text(f'#!/bin/sh\nexec "{sys.executable}" -m mslint "$@"\n')
    (tmp_path / "bin" / "mslint").chmod(0o755)
    (tmp_path / "probe.lua").write_text(
        "vim.wait(30000, function() return #vim.diagnostic.get(0) > 0 end, 100)\n"
        "for _, d in ipairs(vim.diagnostic.get(0)) do\n"
        '  io.stdout:write(string.format("%d:%d %s\\n", d.lnum + 1, d.col + 1, d.code))\n'
        "end\n"
        'vim.cmd("qa!")\n'
    )
    project = tmp_path / "project"
    project.mkdir()
    (project / "pyproject.toml").write_text("")
    (project / "net.py").write_text(NET)
    environment = {**os.environ, "PATH": f"{tmp_path / 'bin'}{os.pathsep}{os.environ['PATH']}", "HOME": str(tmp_path)}
    command = [
        "nvim",
        "--headless",
        "-u",
        str(tmp_path / "init.lua"),
        "net.py",
        "-c",
        f"luafile {tmp_path / 'probe.lua'}",
    ]
    shown = subprocess.run(command, cwd=project, env=environment, capture_output=True, text=True, timeout=120)
    assert sorted(shown.stdout.split()[0::2]) == ["11:16", "8:9"], shown.stdout + shown.stderr
    assert sorted(shown.stdout.split()[1::2]) == ["MS101", "MS103"]
