"""Suppression comments, which silence findings on their line, and which of them silenced something.

``# mslint: disable=RULE[,RULE]`` names rules by symbol or code (``all`` for every rule);
``# noqa: MSxxx``, as ruff and flake8 users write it, names them by code. Both are read in
any case and with spaces around ``=``, ``:`` and ``,``. A ``noqa`` comment also names other
tools' codes (``# noqa: E731, MS101``): only ``MS`` codes are mslint's. A bare ``# noqa``
is aimed at those tools and silences nothing here.
"""

from __future__ import annotations

import io
import re
import tokenize
from collections.abc import Iterator
from dataclasses import dataclass

from mslint.rules.base import Rule

_NAMES = r"[\w\-]+(?:\s*,\s*[\w\-]+)*"
DISABLE_COMMENT = re.compile(rf"#\s*mslint\s*:\s*disable\s*=\s*({_NAMES})", re.IGNORECASE)
"""The names of a ``# mslint: disable=`` comment are its first group."""
_NOQA = re.compile(r"#\s*noqa\s*:\s*([A-Z]+[0-9]+(?:(?:\s*,\s*|\s+)[A-Z]+[0-9]+)*)", re.IGNORECASE)
_NAME = re.compile(r"[\w\-]+")
_OWN_CODE = re.compile(r"MS[0-9]+", re.IGNORECASE)
_MAY_HAVE_COMMENTS = re.compile(r"mslint|noqa", re.IGNORECASE)
EVERY_RULE = "all"


@dataclass(frozen=True)
class Suppression:
    """One rule name in a suppression comment."""

    name: str
    """As written (``MS101``, ``ms101``, ``variable-slice``, ``all``, ``no-such-rule``)."""
    line: int
    column: int
    """Where the name starts, counted as finding columns are (UTF-8 bytes from 1)."""
    end_column: int
    comment: str
    """``# mslint: disable=`` or ``# noqa:``, for messages."""

    def names(self, rule: Rule, explicitly: bool = False) -> bool:
        name = self.name.lower()
        return (name == EVERY_RULE and not explicitly) or name == rule.symbol or name == rule.code.lower()


class SuppressionComments:
    """The suppression comments of one file, and the names that silenced a finding."""

    def __init__(self, source: str) -> None:
        self.by_line: dict[int, list[Suppression]] = {}
        self.used: set[Suppression] = set()
        if _may_have_comments(source):
            for suppression in _read(source):
                self.by_line.setdefault(suppression.line, []).append(suppression)

    def silences(self, line: int, rule: Rule, explicitly: bool = False) -> bool:
        """Whether a finding of ``rule`` on ``line`` is silenced; the names that do are marked used.

        ``explicitly``: only by the rule's own name, not by ``all`` (a finding about the comment
        itself, which ``all`` would otherwise always hide)."""
        naming = [s for s in self.by_line.get(line, ()) if s.names(rule, explicitly)]
        self.used.update(naming)
        return bool(naming)

    def unused(self) -> Iterator[Suppression]:
        for suppressions in self.by_line.values():
            yield from (s for s in suppressions if s not in self.used)


def _may_have_comments(source: str) -> bool:
    """A quick test that skips most files: a case-insensitive search is eight times slower than
    lowering ASCII text (other text may fold to these letters, so it gets the search)."""
    if source.isascii():
        lowered = source.lower()
        return "mslint" in lowered or "noqa" in lowered
    return _MAY_HAVE_COMMENTS.search(source) is not None


def _read(source: str) -> Iterator[Suppression]:
    lines = source.splitlines()
    try:
        for token in tokenize.generate_tokens(io.StringIO(source).readline):
            if token.type == tokenize.COMMENT:
                line, start = token.start
                yield from _in_comment(token.string, line, lines[line - 1][:start].encode("utf-8"))
    except (tokenize.TokenError, SyntaxError):
        pass  # the comments read so far still count; the parse error is reported as syntax-error


def _in_comment(comment: str, line: int, before: bytes) -> Iterator[Suppression]:
    for pattern, label in ((DISABLE_COMMENT, "# mslint: disable="), (_NOQA, "# noqa:")):
        for match in pattern.finditer(comment):
            for name in _NAME.finditer(match.group(1)):
                if pattern is _NOQA and not _OWN_CODE.fullmatch(name.group()):
                    continue  # another tool's code
                start = len(before) + len(comment[: match.start(1) + name.start()].encode("utf-8")) + 1
                yield Suppression(name.group(), line, start, start + len(name.group().encode("utf-8")), label)
