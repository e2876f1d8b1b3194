"""Pylint plugin: ``pylint --load-plugins=mslint.pylint_plugin`` reports mslint's findings.

A thin adapter over the analysis core. Pylint checks one module at a time, so each
module is analysed together with the other Python files of its folder (once per folder,
until a file or the configuration changes: editors keep one pylint process alive):
graph code in a sibling file that calls into this module is seen.
"""

from __future__ import annotations

import contextlib
from collections import defaultdict
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Optional

from pylint.checkers import BaseRawFileChecker
from pylint.interfaces import UNDEFINED

from mslint.diagnostics import Diagnostic, Severity
from mslint.engine import check_files
from mslint.rules import all_rules
from mslint.rules.base import Rule
from mslint.settings import ConfigError, Settings, find_config, load_settings
from mslint.source import UndecodableSource, decode_source, read_regular_file

if TYPE_CHECKING:
    from astroid import nodes
    from pylint.lint import PyLinter

# Pylint message ids are a category letter and four digits, the first two shared by one checker.
_CHECKER_IDS = {"1": "75", "2": "76", "3": "77", "4": "78"}
_CATEGORIES = {Severity.ERROR: "E", Severity.WARNING: "W", Severity.INFO: "C"}


def message_id(rule: Rule, severity: Severity) -> str:
    """The message of the rule's findings of this severity. Pylint fixes a message's category
    (its id's letter), while a finding's severity is its own (settings, findings that are
    warnings, findings resting on unknowns): each severity is a message of its own."""
    return f"{_CATEGORIES[severity]}{_CHECKER_IDS[rule.code[2]]}{rule.code[3:]}"


def message_symbol(rule: Rule, severity: Severity) -> str:
    """The rule's symbol for its default severity (the one message a rule used to be), the
    symbol and the severity for the others: ``branch-local-variable-warning``."""
    return rule.symbol if severity == rule.severity(Settings()) else f"{rule.symbol}-{severity}"


def _messages(rule: Rule) -> dict[str, tuple[str, str, str, dict[str, list[tuple[str, str]]]]]:
    """The rule's messages, one per severity. Each has the rule's own name (its default message's
    id and symbol) as an old name, as pylint does when it splits a message: pragmas and options
    that name the rule (``disable=branch-local-variable``, ``enable=E7510``) apply to all of them.
    The default message lists its own name too, or pylint would read that name as the others only."""
    rule_name = (message_id(rule, rule.severity(Settings())), rule.symbol)
    return {
        message_id(rule, severity): (
            "%s",
            message_symbol(rule, severity),
            f"{rule.summary} (mslint {rule.code}, {severity})",
            {"old_names": [rule_name]},
        )
        for severity in sorted(Severity, reverse=True)
    }


FolderState = tuple[Optional[Path], tuple[tuple[str, int, int], ...]]


_states_this_run: dict[Path, FolderState] = {}
"""Folder states seen in the current pylint run (files do not change within one run)."""


def start_run() -> None:
    """A new pylint run (editors start one per check): files may have changed since the last."""
    _states_this_run.clear()


def _folder_state(folder: Path) -> FolderState:
    """What the folder's analysis depends on: its configuration file and its files' stamps,
    read once per pylint run (a run lints many modules of one folder)."""
    if folder not in _states_this_run:
        _states_this_run[folder] = _read_folder_state(folder)
    return _states_this_run[folder]


def _read_folder_state(folder: Path) -> FolderState:
    config = find_config(folder)
    watched = [*sorted(p for p in folder.glob("*.py") if p.is_file()), *([config] if config else [])]
    stamps = []
    for path in watched:
        with contextlib.suppress(OSError):
            status = path.stat()
            stamps.append((str(path), status.st_mtime_ns, status.st_size))
    return config, tuple(stamps)


def _settings(config: Path | None) -> Settings:
    try:
        return load_settings(config)
    except ConfigError:
        return Settings()


@lru_cache(maxsize=32)
def _folder_report(folder: Path, state: FolderState) -> dict[Path, list[Diagnostic]]:
    config, stamps = state
    files = [Path(name) for name, _, _ in stamps if name.endswith(".py")]
    by_file: dict[Path, list[Diagnostic]] = defaultdict(list)
    for diagnostic in check_files(files, _settings(config)).diagnostics:
        by_file[Path(diagnostic.path)].append(diagnostic)
    return by_file


def diagnostics_for(path: Path, content: bytes) -> list[Diagnostic]:
    """mslint's diagnostics for one file, analysed with the other files of its folder.

    ``content`` is what pylint was given; when it differs from the file on disk (an unsaved
    editor buffer) the file is analysed from it, decoded as Python decodes it (byte order
    mark, coding comment). Bytes are compared, not text, so that files with CRLF line ends
    still share their folder's analysis."""
    path = path.resolve()
    try:
        on_disk = read_regular_file(path)
    except OSError:
        on_disk = None
    state = _folder_state(path.parent)
    if on_disk == content:
        return _folder_report(path.parent, state).get(path, [])
    siblings = [Path(name) for name, _, _ in state[1] if name.endswith(".py") and Path(name) != path]
    try:
        source = decode_source(content).text
    except UndecodableSource:
        return []  # pylint reports the file's encoding problem itself
    return check_files([path], _settings(state[0]), sources={path: source}, context=siblings).diagnostics


class _MslintChecker(BaseRawFileChecker):
    rules: tuple[Rule, ...] = ()

    def open(self) -> None:
        start_run()

    def process_module(self, node: nodes.Module) -> None:
        if not node.file or not node.file.endswith(".py"):
            return
        with node.stream() as stream:
            content = stream.read()
        rules = {rule.symbol: rule for rule in self.rules}
        for diagnostic in diagnostics_for(Path(node.file), content):
            if diagnostic.symbol in rules:
                self._report(message_id(rules[diagnostic.symbol], diagnostic.severity), diagnostic)

    def _report(self, msgid: str, diagnostic: Diagnostic) -> None:
        """Report the diagnostic under this one message. Pylint's public ``add_message`` cannot:
        given the id of a rule's default message, it reports the diagnostic under every message
        that has that id as an old name. ``_add_one_message`` is what it calls for each."""
        definitions = self.linter.msgs_store.get_message_definitions(msgid)
        (definition,) = [d for d in definitions if d.msgid == msgid]
        self.linter._add_one_message(
            definition,
            line=diagnostic.line,
            node=None,
            args=(diagnostic.message,),
            confidence=UNDEFINED,
            col_offset=diagnostic.column - 1,
            end_lineno=diagnostic.end_line,
            end_col_offset=diagnostic.end_column - 1,
        )


def plugin_rules() -> list[Rule]:
    """The rules reported as pylint messages. Not the MS0xx rules about the file itself
    (syntax-error) and about suppression comments: pylint has its own (``syntax-error``,
    ``useless-suppression``, ``unknown-option-value``) for the pragmas it reads."""
    return [rule for rule in all_rules() if rule.code[2] in _CHECKER_IDS]


def _checker_classes() -> list[type[_MslintChecker]]:
    families: dict[str, list[Rule]] = defaultdict(list)
    for rule in plugin_rules():
        families[rule.code[2]].append(rule)
    return [
        type(
            f"MslintChecker{family}",
            (_MslintChecker,),
            {
                "name": f"mslint-{family}xx",
                "rules": tuple(rules),
                "msgs": {msgid: message for r in rules for msgid, message in _messages(r).items()},
            },
        )
        for family, rules in sorted(families.items())
    ]


def register(linter: PyLinter) -> None:
    for checker in _checker_classes():
        linter.register_checker(checker(linter))
