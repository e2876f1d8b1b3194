"""Suppression comments, which silence findings, and which of them silenced something.

``# mslint: disable=RULE[,RULE]`` after code silences its line; on a line of its own it silences
the lines below it, up to a ``# mslint: enable=RULE`` comment naming the same rule (or the end
of the file). ``# mslint: disable-next-line=RULE`` silences the line below it and
``# mslint: disable-file=RULE`` the whole file. Rules are named by symbol or code (``all`` for
every rule). ``# noqa: MSxxx``, as ruff and flake8 users write it, names them by code on its
line. All are read in any case and with spaces around ``=``, ``:`` and ``,``. A ``noqa``
comment also names other tools' codes (``# noqa: E731, MS101``): only ``MS`` codes are
mslint's. A bare ``# noqa`` is aimed at those tools and silences nothing here.
"""

from __future__ import annotations

import ast
import io
import re
import tokenize
from collections.abc import Iterator
from dataclasses import dataclass, replace
from typing import Protocol

from mslint.model.walk import descendants
from mslint.rule_codes import code_of
from mslint.source import LINE_END

_NAMES = r"[\w\-]+(?:\s*,\s*[\w\-]+)*"
DISABLE_COMMENT = re.compile(rf"#\s*mslint\s*:\s*disable\s*=\s*({_NAMES})", re.IGNORECASE)
"""The names of a ``# mslint: disable=`` comment are its first group."""
DISABLE_FILE_COMMENT = re.compile(rf"#\s*mslint\s*:\s*disable-file\s*=\s*({_NAMES})", re.IGNORECASE)
"""The names of a ``# mslint: disable-file=`` comment are its first group."""
_DIRECTIVE = re.compile(
    rf"#\s*mslint\s*:\s*(disable-next-line|disable-file|disable|enable)\s*=\s*({_NAMES})", re.IGNORECASE
)
"""An ``# mslint:`` comment: its kind, then its names."""
NOQA_COMMENT = re.compile(r"#\s*noqa\s*:\s*([A-Z]+[0-9]+(?:(?:\s*,\s*|\s+)[A-Z]+[0-9]+)*)", re.IGNORECASE)
"""The codes of a ``# noqa:`` comment are its first group."""
_NAME = re.compile(r"[\w\-]+")
_OWN_CODE = re.compile(r"MS[0-9]+", re.IGNORECASE)
_MAY_HAVE_COMMENTS = re.compile(r"mslint|noqa", re.IGNORECASE)
EVERY_RULE = "all"
END_OF_FILE = 2**31
"""The last line of a suppression that lasts to the end of its file."""


class NamedRule(Protocol):
    """What a suppression comment can name of a rule."""

    @property
    def code(self) -> str: ...

    @property
    def symbol(self) -> str: ...


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
    """``# mslint: disable=``, ``# mslint: disable-file=``, ... or ``# noqa:``, for messages."""
    first: int
    last: int
    """The lines it silences."""

    def names(self, rule: NamedRule, explicitly: bool = False) -> bool:
        name = self.name.lower()
        return (name == EVERY_RULE and not explicitly) or name == rule.symbol or name == rule.code.lower()

    @property
    def scope(self) -> str:
        """Where it silences, for messages: ``on this line``, ``in this file``, ..."""
        if self.first == self.last:
            return "on this line" if self.first == self.line else "on the next line"
        if self.first == 1 and self.last == END_OF_FILE and self.comment.endswith("-file="):
            return "in this file"
        return "below it" if self.last == END_OF_FILE else f"up to its enable comment on line {self.last}"


class SuppressionComments:
    """The suppression comments of one file, and the names that silenced a finding."""

    def __init__(self, source: str, tree: ast.Module | None = None) -> None:
        """``tree``: the parsed ``source``, which finds the comments faster than tokenizing it."""
        self.by_line: dict[int, list[Suppression]] = {}
        """By the line of the comment."""
        self.spanning: list[Suppression] = []
        """Those that silence other lines than their own."""
        self.used: set[Suppression] = set()
        if _may_have_comments(source):
            found = list(_read(source) if tree is None else _read_outside_strings(source, tree))
            for suppression in _with_ranges_closed(found):
                self.by_line.setdefault(suppression.line, []).append(suppression)
                if (suppression.first, suppression.last) != (suppression.line, suppression.line):
                    self.spanning.append(suppression)

    def silences(self, line: int, rule: NamedRule, explicitly: bool = False) -> bool:
        """Whether a finding of ``rule`` on ``line`` is silenced; the names that do are marked used.

        ``explicitly``: only by the rule's own name, not by ``all`` (a finding about the comment
        itself, which ``all`` would otherwise always hide)."""
        naming = [s for s in self.covering(line) if s.names(rule, explicitly)]
        self.used.update(naming)
        return bool(naming)

    def covering(self, line: int) -> Iterator[Suppression]:
        """The suppressions that silence ``line`` (whatever rules they name)."""
        yield from (s for s in self.by_line.get(line, ()) if s.first == s.last == line)
        yield from (s for s in self.spanning if s.first <= line <= s.last)

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
    own_line = not before.strip()
    for pattern in (_DIRECTIVE, NOQA_COMMENT):
        for match in pattern.finditer(comment):
            kind = match.group(1).lower() if pattern is _DIRECTIVE else "noqa"
            names = match.group(2) if pattern is _DIRECTIVE else match.group(1)
            names_start = match.start(2) if pattern is _DIRECTIVE else match.start(1)
            first, last = _scope(kind, line, own_line)
            label = "# noqa:" if kind == "noqa" else f"# mslint: {kind}="
            for name in _NAME.finditer(names):
                if kind == "noqa" and not _OWN_CODE.fullmatch(name.group()):
                    continue  # another tool's code
                start = len(before) + len(comment[: names_start + name.start()].encode("utf-8")) + 1
                end = start + len(name.group().encode("utf-8"))
                yield Suppression(name.group(), line, start, end, label, first, last)


def _scope(kind: str, line: int, own_line: bool) -> tuple[int, int]:
    """The lines a comment of ``kind`` on ``line`` silences (a range's end is found later)."""
    if kind == "disable-next-line":
        return line + 1, line + 1
    if kind == "disable-file":
        return 1, END_OF_FILE
    if kind == "disable" and own_line:
        return line, END_OF_FILE
    return line, line


def _with_ranges_closed(found: list[Suppression]) -> Iterator[Suppression]:
    """The suppressions, each range of a ``disable`` on a line of its own ended by the first
    ``enable`` below it that names the same rule; the ``enable`` names themselves are no
    suppressions."""
    enables = sorted((s for s in found if s.comment == _ENABLE), key=lambda s: s.line)
    for suppression in found:
        if suppression.comment == _ENABLE:
            continue
        if suppression.comment == _DISABLE and suppression.last == END_OF_FILE:
            end = next(
                (e.line for e in enables if e.line > suppression.line and _same_rule(e.name, suppression.name)), None
            )
            if end is not None:
                suppression = replace(suppression, last=end)
        yield suppression


_ENABLE, _DISABLE = "# mslint: enable=", "# mslint: disable="


def _same_rule(name: str, other: str) -> bool:
    return _rule_key(name) == _rule_key(other)


def _rule_key(name: str) -> str:
    return code_of(name) or name.lower()
