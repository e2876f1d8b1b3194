"""``mslint server``: a language server (pygls) for any LSP editor.

It publishes mslint's diagnostics on open, change and save (the unsaved text is what is
checked, with the other files of its folder as context, like the pylint plugin), each linked
to its rule's page; hovering a finding shows its rule's documentation. It offers three quick
fixes per finding: apply the rule's fix when it has one, disable the rule for the line with a
``# mslint: disable=`` comment, or for the file with ``# mslint: disable-file=``; and one
source action, ``source.fixAll.mslint``, that applies every safe fix of the document.
"""

from __future__ import annotations

import json
import logging
import re
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any, BinaryIO
from urllib.parse import unquote

from lsprotocol import types as lsp
from pygls.exceptions import JsonRpcException, JsonRpcInvalidRequest
from pygls.lsp.server import LanguageServer
from pygls.protocol import LanguageServerProtocol
from pygls.protocol.json_rpc import RPCRequest
from pygls.workspace import TextDocument

from mslint import __version__
from mslint.diagnostics import Diagnostic, Fix, Severity
from mslint.engine import check_files
from mslint.fixes import apply_fixes, fixable
from mslint.lsp_framing import DROPPED, MESSAGE_LIMIT, Frames
from mslint.notebook import SUFFIX as NOTEBOOK
from mslint.notebook import Notebook, notebook_of
from mslint.rule_docs import documentation_link, rule_text
from mslint.rules import rule_named
from mslint.settings import ConfigError, Settings, find_config, load_settings
from mslint.source import BOM, decode_source, read_regular_file
from mslint.suppressions import DISABLE_COMMENT, DISABLE_FILE_COMMENT

SOURCE = "mslint"
FIX_ALL = f"{lsp.CodeActionKind.SourceFixAll.value}.{SOURCE}"
"""The kind of the source action that applies every safe fix, as ruff's ``source.fixAll.ruff``."""
_PROLOGUE = re.compile(r"#!|#.*coding[:=]")
"""A first line that must stay first (a shebang) or among the first two (a coding comment)."""
_SEVERITIES = {
    Severity.ERROR: lsp.DiagnosticSeverity.Error,
    Severity.WARNING: lsp.DiagnosticSeverity.Warning,
    Severity.INFO: lsp.DiagnosticSeverity.Information,
}
_ANSWERED = object()
"""What a request that was answered with an error while it was read becomes: nothing to handle."""
DROPPED_MESSAGE = json.loads(DROPPED)
logger = logging.getLogger(__name__)


class _Protocol(LanguageServerProtocol):
    """pygls logs and drops a request whose params do not deserialize, and the editor waits for
    its reply for ever: answer it with the JSON-RPC error (invalid params) instead."""

    def structure_message(self, data: dict[str, Any]) -> Any:
        try:
            return super().structure_message(data)
        except JsonRpcException as error:
            if "id" not in data or "method" not in data:
                raise  # a notification: nobody waits for a reply
            self._send_response(data["id"], error=error.to_response_error())
            return _ANSWERED

    def handle_message(self, message: Any) -> None:
        if isinstance(message, dict):  # no "jsonrpc": pygls would fail on it
            if message != DROPPED_MESSAGE:  # Frames said why already
                logger.warning("not a JSON-RPC message, ignored: %.200r", message)
        elif self._shutdown and isinstance(message, RPCRequest) and message.method != lsp.EXIT:
            # pygls drops it and the editor waits for ever: LSP says to answer InvalidRequest.
            self._send_response(message.id, error=JsonRpcInvalidRequest("the server is shut down").to_response_error())
        elif message is not _ANSWERED:
            super().handle_message(message)


class _Server(LanguageServer):
    def start_io(self, stdin: BinaryIO | None = None, stdout: BinaryIO | None = None) -> None:
        """Serve over stdio, reading the messages through :class:`mslint.lsp_framing.Frames`."""
        super().start_io(Frames(stdin or sys.stdin.buffer), stdout)  # type: ignore[arg-type]


NOTEBOOKS = lsp.NotebookDocumentSyncOptions(
    notebook_selector=[
        lsp.NotebookDocumentFilterWithCells(notebook="jupyter-notebook", cells=[lsp.NotebookCellLanguage("python")])
    ],
    save=True,
)
"""Jupyter notebooks, as LSP 3.17 sends them: a notebook document and a text document per cell."""
server = _Server("mslint", __version__, protocol_cls=_Protocol, notebook_document_sync=NOTEBOOKS)


def check_document(document: TextDocument) -> list[lsp.Diagnostic]:
    if document.path.endswith(NOTEBOOK):
        return []  # a notebook's JSON opened as text: its findings' places are its cells'
    found = _analyse(document)
    return lsp_diagnostics(found, document) if found else []


def _analyse(document: TextDocument, notebook: Notebook | None = None) -> list[Diagnostic]:
    """mslint's findings in the document's text (BOM excluded), or in ``notebook`` at the
    document's path, with the other ``.py`` files of its folder as context; none when its
    analysis fails (logged)."""
    path = Path(document.path)
    try:
        settings = load_settings(find_config(path))
    except ConfigError as error:
        server.window_show_message(lsp.ShowMessageParams(lsp.MessageType.Error, f"mslint: {error}"))
        settings = Settings()
    context = sorted(p for p in path.parent.glob("*.py") if p != path)
    try:
        code = notebook if notebook is not None else _code(document)
        report = check_files([path], settings, sources={path: code}, context=context)
    except Exception as error:  # one document that breaks the analysis must not stop the server
        logger.exception("analysis of %s failed", path)
        message = f"mslint: cannot analyse {path.name}: {type(error).__name__}: {error}"
        server.window_log_message(lsp.LogMessageParams(lsp.MessageType.Error, message))
        return []
    return report.diagnostics


def _code(document: TextDocument) -> str:
    """A byte order mark the editor kept is no part of the code (positions: see _Positions.at)."""
    return document.source[1:] if document.source.startswith(BOM) else document.source


def lsp_diagnostics(diagnostics: list[Diagnostic], document: TextDocument) -> list[lsp.Diagnostic]:
    positions = _Positions(document)
    return [_to_lsp(d, positions) for d in diagnostics]


def _to_lsp(diagnostic: Diagnostic, positions: _Positions) -> lsp.Diagnostic:
    rule = rule_named(diagnostic.code)
    link = documentation_link(rule) if rule else None
    return lsp.Diagnostic(
        range=positions.range(diagnostic.line, diagnostic.column, diagnostic.end_line, diagnostic.end_column),
        severity=_SEVERITIES[diagnostic.severity],
        code=diagnostic.code,
        code_description=lsp.CodeDescription(href=link) if link else None,
        source=SOURCE,
        message=f"{diagnostic.symbol}: {diagnostic.message}"
        + (f"\nhint: {diagnostic.hint}" if diagnostic.hint else ""),
        data={"symbol": diagnostic.symbol, "fix": diagnostic.fix.to_json() if diagnostic.fix else None},
    )


class _Positions:
    """LSP positions of one version of a document. pygls splits the whole text into lines at
    every ``document.lines``: they are split once here, so that converting N diagnostics is
    linear in N, not N times the document."""

    def __init__(self, document: TextDocument) -> None:
        self.lines = document.lines

    def at(self, line: int, column: int) -> lsp.Position:
        """LSP positions count UTF-16 code units from 0; mslint columns count UTF-8 bytes from 1
        of the code, which starts after a byte order mark the editor's text may begin with."""
        text = self.lines[line - 1] if 0 < line <= len(self.lines) else ""
        bom = BOM if line == 1 and text.startswith(BOM) else ""
        characters = bom + text[len(bom) :].encode("utf-8")[: column - 1].decode("utf-8", errors="ignore")
        return lsp.Position(line=line - 1, character=len(characters.encode("utf-16-le")) // 2)

    def range(self, line: int, column: int, end_line: int, end_column: int) -> lsp.Range:
        return lsp.Range(start=self.at(line, column), end=self.at(end_line, end_column))


def _document(ls: LanguageServer, uri: str) -> TextDocument:
    """The document the editor opened; for another, the text of its file, read once, where it
    is a regular file of at most :data:`mslint.lsp_framing.MESSAGE_LIMIT` bytes (pygls would
    read whatever the path names, ``/dev/zero`` included, at every use), else no text."""
    opened: TextDocument | None = ls.workspace.text_documents.get(unquote(uri))
    if opened is not None:
        return opened
    document = TextDocument(uri, source="")
    if document.path:
        try:
            text = decode_source(read_regular_file(Path(document.path), MESSAGE_LIMIT)).written
        except (OSError, UnicodeDecodeError) as error:
            logger.warning("%s not read: %s", document.path, error)
        else:
            document = TextDocument(uri, source=text)
    return document


_published: dict[str, list[lsp.Diagnostic]] = {}
"""The diagnostics last published for each open document, which hovers describe."""
_published_versions: dict[str, int | None] = {}
"""The version of each document they were computed from."""


def _publish(ls: LanguageServer, uri: str) -> None:
    document = _document(ls, uri)
    _published[uri] = check_document(document)
    _published_versions[uri] = document.version
    ls.text_document_publish_diagnostics(
        lsp.PublishDiagnosticsParams(uri=uri, diagnostics=_published[uri], version=document.version)
    )


@server.feature(lsp.TEXT_DOCUMENT_DID_OPEN)
def did_open(ls: LanguageServer, params: lsp.DidOpenTextDocumentParams) -> None:
    _publish(ls, params.text_document.uri)


@server.feature(lsp.TEXT_DOCUMENT_DID_CHANGE)
def did_change(ls: LanguageServer, params: lsp.DidChangeTextDocumentParams) -> None:
    _publish(ls, params.text_document.uri)


@server.feature(lsp.TEXT_DOCUMENT_DID_SAVE)
def did_save(ls: LanguageServer, params: lsp.DidSaveTextDocumentParams) -> None:
    _publish(ls, params.text_document.uri)


def _publish_notebook(ls: LanguageServer, uri: str) -> None:
    """Check a notebook's code cells as one module and publish each cell's findings on it."""
    notebook = ls.workspace.get_notebook_document(notebook_uri=uri)
    if notebook is None:
        return
    cells = {number: cell for number, cell in enumerate(notebook.cells, start=1)}
    code = {
        number: ls.workspace.get_text_document(cell.document).source
        for number, cell in cells.items()
        if cell.kind == lsp.NotebookCellKind.Code
    }
    found = _analyse(TextDocument(uri, source=""), notebook_of(code))
    for number in code:
        document = ls.workspace.get_text_document(cells[number].document)
        in_cell = [d for d in found if d.cell == number]
        _published[document.uri] = lsp_diagnostics(in_cell, document)
        ls.text_document_publish_diagnostics(
            lsp.PublishDiagnosticsParams(uri=document.uri, diagnostics=_published[document.uri])
        )


@server.feature(lsp.NOTEBOOK_DOCUMENT_DID_OPEN)
def notebook_did_open(ls: LanguageServer, params: lsp.DidOpenNotebookDocumentParams) -> None:
    _publish_notebook(ls, params.notebook_document.uri)


@server.feature(lsp.NOTEBOOK_DOCUMENT_DID_CHANGE)
def notebook_did_change(ls: LanguageServer, params: lsp.DidChangeNotebookDocumentParams) -> None:
    _publish_notebook(ls, params.notebook_document.uri)


@server.feature(lsp.NOTEBOOK_DOCUMENT_DID_SAVE)
def notebook_did_save(ls: LanguageServer, params: lsp.DidSaveNotebookDocumentParams) -> None:
    _publish_notebook(ls, params.notebook_document.uri)


@server.feature(lsp.NOTEBOOK_DOCUMENT_DID_CLOSE)
def notebook_did_close(ls: LanguageServer, params: lsp.DidCloseNotebookDocumentParams) -> None:
    for cell in params.cell_text_documents:
        _published.pop(cell.uri, None)
        ls.text_document_publish_diagnostics(lsp.PublishDiagnosticsParams(uri=cell.uri, diagnostics=[]))


@server.feature(lsp.TEXT_DOCUMENT_DID_CLOSE)
def did_close(ls: LanguageServer, params: lsp.DidCloseTextDocumentParams) -> None:
    _published.pop(params.text_document.uri, None)
    _published_versions.pop(params.text_document.uri, None)
    ls.text_document_publish_diagnostics(lsp.PublishDiagnosticsParams(uri=params.text_document.uri, diagnostics=[]))


@server.feature(lsp.TEXT_DOCUMENT_HOVER)
def hover(ls: LanguageServer, params: lsp.HoverParams) -> lsp.Hover | None:
    """The documentation of the rules of the findings published under the cursor."""
    at = (params.position.line, params.position.character)
    under = [
        d
        for d in _published.get(params.text_document.uri, [])
        if (d.range.start.line, d.range.start.character) <= at <= (d.range.end.line, d.range.end.character)
    ]
    rules = {rule.symbol: rule for d in under if (rule := rule_named(str(d.code)))}
    if not rules:
        return None
    pages = "\n\n---\n\n".join(rule_text(rule) for rule in rules.values())
    return lsp.Hover(
        contents=lsp.MarkupContent(kind=lsp.MarkupKind.Markdown, value=pages),
        range=under[0].range if len(under) == 1 else None,
    )


@server.feature(
    lsp.TEXT_DOCUMENT_CODE_ACTION,
    lsp.CodeActionOptions(code_action_kinds=[lsp.CodeActionKind.QuickFix, FIX_ALL]),
)
def code_actions(ls: LanguageServer, params: lsp.CodeActionParams) -> list[lsp.CodeAction]:
    document = _document(ls, params.text_document.uri)
    positions = _Positions(document)
    actions = []
    if _asked(params.context.only, lsp.CodeActionKind.QuickFix):
        for diagnostic in params.context.diagnostics:
            if diagnostic.source != SOURCE or not isinstance(diagnostic.data, dict):
                continue
            fix = diagnostic.data.get("fix")
            if fix:
                actions.append(_fix_action(document.uri, positions, diagnostic, Fix.from_json(fix)))
            symbol = str(diagnostic.data["symbol"])
            actions.append(_disable_action(document.uri, positions, diagnostic, symbol))
            actions.append(_disable_in_file_action(document.uri, positions, diagnostic, symbol))
    if _asked(params.context.only, FIX_ALL):
        actions.extend(_fix_all_action(document, positions))
    return actions


def _asked(only: Sequence[str] | None, kind: str) -> bool:
    """Whether the editor asked for actions of ``kind``: all kinds, or a kind that contains it
    (``source`` and ``source.fixAll`` contain ``source.fixAll.mslint``)."""
    return only is None or any(kind == wanted or kind.startswith(f"{wanted}.") for wanted in only)


def _fix_action(uri: str, positions: _Positions, diagnostic: lsp.Diagnostic, fix: Fix) -> lsp.CodeAction:
    edits = [
        lsp.TextEdit(range=positions.range(e.line, e.column, e.end_line, e.end_column), new_text=e.content)
        for e in fix.edits
    ]
    return lsp.CodeAction(
        title=f"mslint: {fix.message}",
        kind=lsp.CodeActionKind.QuickFix,
        diagnostics=[diagnostic],
        is_preferred=fix.applicability == "safe",
        edit=lsp.WorkspaceEdit(changes={uri: edits}),
    )


def _fix_all_action(document: TextDocument, positions: _Positions) -> list[lsp.CodeAction]:
    """One action that applies every safe fix, as ``check --fix`` does; none when no fix applies."""
    code = _code(document)
    fixed, applied = apply_fixes(code, _safe_fixes(document))
    if fixed == code:
        return []
    end = len(positions.lines)
    whole = lsp.Range(start=lsp.Position(line=0, character=0), end=lsp.Position(line=end, character=0))
    if positions.lines and not positions.lines[-1].endswith(("\n", "\r")):
        last = positions.lines[-1]
        whole.end = lsp.Position(line=end - 1, character=len(last.encode("utf-16-le")) // 2)
    bom = document.source[: len(document.source) - len(code)]
    return [
        lsp.CodeAction(
            title=f"mslint: fix all ({applied} fix{'es' if applied != 1 else ''})",
            kind=FIX_ALL,
            edit=lsp.WorkspaceEdit(changes={document.uri: [lsp.TextEdit(range=whole, new_text=bom + fixed)]}),
        )
    ]


def _safe_fixes(document: TextDocument) -> list[Fix]:
    """The safe fixes of the document's findings: those published for this version (editors ask
    for code actions at every move of the cursor), else from a new analysis."""
    version = document.version
    if version is not None and _published_versions.get(document.uri) == version:
        fixes = [Fix.from_json(d.data["fix"]) for d in _published[document.uri] if d.data and d.data.get("fix")]
        return [fix for fix in fixes if fix.applicability == "safe"]
    return fixable(_analyse(document), unsafe=False)


def _line_text(positions: _Positions, line: int) -> str:
    return positions.lines[line].rstrip("\r\n") if line < len(positions.lines) else ""


def _utf16_length(text: str) -> int:
    return len(text.encode("utf-16-le")) // 2


def _disable_action(uri: str, positions: _Positions, diagnostic: lsp.Diagnostic, symbol: str) -> lsp.CodeAction:
    line = diagnostic.range.start.line
    text = _line_text(positions, line)
    existing = DISABLE_COMMENT.search(text)
    if existing:
        end = _utf16_length(text[: existing.end(1)].rstrip())
        position, new_text = lsp.Position(line=line, character=end), f",{symbol}"
    else:
        position = lsp.Position(line=line, character=_utf16_length(text))
        new_text = f"  # mslint: disable={symbol}"
    edit = lsp.TextEdit(range=lsp.Range(start=position, end=position), new_text=new_text)
    return lsp.CodeAction(
        title=f"mslint: disable {symbol} for this line",
        kind=lsp.CodeActionKind.QuickFix,
        diagnostics=[diagnostic],
        edit=lsp.WorkspaceEdit(changes={uri: [edit]}),
    )


def _disable_in_file_action(uri: str, positions: _Positions, diagnostic: lsp.Diagnostic, symbol: str) -> lsp.CodeAction:
    """Name the rule in the file's ``# mslint: disable-file=`` comment, or add one above the
    code, after a shebang and a coding comment (which must stay in the first two lines)."""
    texts = [_line_text(positions, line) for line in range(len(positions.lines))]
    existing = next(
        ((line, found) for line, text in enumerate(texts) if (found := DISABLE_FILE_COMMENT.search(text))), None
    )
    if existing:
        line, found = existing
        position = lsp.Position(line=line, character=_utf16_length(texts[line][: found.end(1)].rstrip()))
        new_text = f",{symbol}"
    else:
        line = 0
        while line < min(2, len(texts)) and _PROLOGUE.match(texts[line]):
            line += 1
        position = lsp.Position(line=line, character=0)  # a finding's line is code: it comes after these
        ending = positions.lines[0][len(texts[0]) :] if positions.lines else ""
        new_text = f"# mslint: disable-file={symbol}{ending or chr(10)}"
    edit = lsp.TextEdit(range=lsp.Range(start=position, end=position), new_text=new_text)
    return lsp.CodeAction(
        title=f"mslint: disable {symbol} for this file",
        kind=lsp.CodeActionKind.QuickFix,
        diagnostics=[diagnostic],
        edit=lsp.WorkspaceEdit(changes={uri: [edit]}),
    )
