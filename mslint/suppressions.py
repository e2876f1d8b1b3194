"""Suppression comments, which silence findings on their line, and which of them silenced something.

``# mslint: disable=RULE[,RULE]`` names rules by symbol or code (``all`` for every rule);
``# noqa: MSxxx``, as ruff and flake8 users write it, names them by code. Both are read in
any case and with spaces around ``=``, ``:`` and ``,``. A ``noqa`` comment also names other
tools' codes (``# noqa: E731, MS101``): only ``MS`` codes are mslint's. A bare ``# noqa``
is aimed at those tools and silences nothing here.
"""

from __future__ import annotations

import ast
import io
import re
import tokenize
from collections.abc import Iterator
from dataclasses import dataclass

from mslint.model.walk import descendants
from mslint.rules.base import Rule
from mslint.source import LINE_END

_NAMES = r"[\w\-]+(?:\s*,\s*[\w\-]+)*"
DISABLE_COMMENT = re.compile(rf"#\s*mslint\s*:\s*disable\s*=\s*({_NAMES})", re.IGNORECASE)
"""The names of a ``# mslint: disable=`` comment are its first group."""
NOQA_COMMENT = re.compile(r"#\s*noqa\s*:\s*([A-Z]+[0-9]+(?:(?:\s*,\s*|\s+)[A-Z]+[0-9]+)*)", re.IGNORECASE)
"""The codes of a ``# noqa:`` comment are its first group."""
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

    def __init__(self, source: str, tree: ast.Module | None = None) -> None:
        """``tree``: the parsed ``source``, which finds the comments faster than tokenizing it."""
        self.by_line: dict[int, list[Suppression]] = {}
        self.used: set[Suppression] = set()
        if _may_have_comments(source):
            for suppression in _read(source) if tree is None else _read_outside_strings(source, tree):
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
    lines = LINE_END.split(source)
    try:
        for token in tokenize.generate_tokens(io.StringIO(source).readline):
            if token.type == tokenize.COMMENT:
                line, start = token.start
                yield from _in_comment(token.string, line, lines[line - 1][:start].encode("utf-8"))
    except (tokenize.TokenError, SyntaxError):
        pass  # the comments read so far still count; the parse error is reported as syntax-error


def _read_outside_strings(source: str, tree: ast.Module) -> Iterator[Suppression]:
    """What :func:`_read` finds, read on the lines that may hold a suppression only: a ``#``
    starts a comment where no string literal of the tree covers it. Tokenizing a whole file
    (pure Python before 3.12) for one ``# noqa`` cost a tenth of its analysis."""
    lines = LINE_END.split(source)
    wanted = {number for number, text in enumerate(lines, 1) if "#" in text and _may_have_comments(text)}
    if not wanted:
        return
    strings: dict[int, list[tuple[int, float]]] = {}
    """By line: the byte ranges string literals cover there."""
    for node in _string_literals(tree):
        last = node.end_lineno or node.lineno
        for line in wanted.intersection(range(node.lineno, last + 1)):
            start = node.col_offset if line == node.lineno else 0
            end = node.end_col_offset if line == last and node.end_col_offset is not None else float("inf")
            strings.setdefault(line, []).append((start, end))
    for line in sorted(wanted):
        text = lines[line - 1].encode("utf-8")
        hash_sign = text.find(b"#")
        while hash_sign >= 0 and any(start <= hash_sign < end for start, end in strings.get(line, ())):
            hash_sign = text.find(b"#", hash_sign + 1)
        if hash_sign >= 0:
            yield from _in_comment(text[hash_sign:].decode("utf-8"), line, text[:hash_sign])


def _string_literals(tree: ast.Module) -> Iterator[ast.expr]:
    """The string and bytes literals and f-strings of ``tree``, less the parts of f-strings (whose
    positions before Python 3.12 are not their own)."""
    parts: set[int] = set()
    for node in descendants(tree):
        if isinstance(node, ast.JoinedStr):
            parts.update(id(part) for part in descendants(node)[1:])
            yield node
        elif isinstance(node, ast.Constant) and isinstance(node.value, (str, bytes)) and id(node) not in parts:
            yield node


def _in_comment(comment: str, line: int, before: bytes) -> Iterator[Suppression]:
    for pattern, label in ((DISABLE_COMMENT, "# mslint: disable="), (NOQA_COMMENT, "# noqa:")):
        for match in pattern.finditer(comment):
            for name in _NAME.finditer(match.group(1)):
                if pattern is NOQA_COMMENT and not _OWN_CODE.fullmatch(name.group()):
                    continue  # another tool's code
                start = len(before) + len(comment[: match.start(1) + name.start()].encode("utf-8")) + 1
                yield Suppression(name.group(), line, start, start + len(name.group().encode("utf-8")), label)
