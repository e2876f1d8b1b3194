"""``check --add-noqa``: a ``# noqa: CODE`` comment on every line with a finding, as ruff adds them,
the other way to adopt mslint on old code besides a baseline.

A line that already has a ``# noqa: ...`` comment gets the new codes added to it; another comment
is kept, and the new one follows it. A line that ends inside a string or continues with a
backslash cannot take a comment: a ``# mslint: disable-next-line=CODES`` line goes above it
instead, with its indentation, where the line above ends a line of code (not inside a string,
not after a backslash); otherwise it is left as it is and named in a note. Every line keeps
its ending, and the file its encoding and byte order mark.
"""

from __future__ import annotations

import io
import tokenize
from dataclasses import dataclass, field
from pathlib import Path

from mslint.atomic_write import FileChanged, digest, write_atomically
from mslint.diagnostics import Diagnostic
from mslint.notebook import left_alone
from mslint.source import decode_source, read_regular_file, split_lines
from mslint.suppressions import NOQA_COMMENT

_UNSUPPRESSIBLE = "MS001"
"""A file that cannot be parsed cannot hold a suppression that counts."""


@dataclass
class Added:
    comments: int = 0
    files: int = 0
    failures: list[str] = field(default_factory=list)
    """One line per file that could not be read or written."""
    skipped: list[str] = field(default_factory=list)
    """One line per line with findings that cannot take a comment."""


def add_noqa(diagnostics: list[Diagnostic], analysed: dict[str, str]) -> Added:
    """Add the comments to the files whose text is still the one analysed (``analysed``: path ->
    digest of the bytes checked), each written whole or not at all."""
    added = Added(skipped=left_alone(diagnostics))
    by_path: dict[str, dict[int, set[str]]] = {}
    for d in diagnostics:
        if d.code != _UNSUPPRESSIBLE and d.cell is None:
            by_path.setdefault(d.path, {}).setdefault(d.line, set()).add(d.code)
    for path, codes_by_line in by_path.items():
        try:
            content = read_regular_file(Path(path))
            source = decode_source(content)
        except (OSError, UnicodeDecodeError) as error:
            added.failures.append(f"{path}: cannot read: {getattr(error, 'strerror', None) or error}")
            continue
        if digest(content) != analysed.get(path):
            added.failures.append(f"{path}: changed while mslint checked it, no comment added: run again")
            continue
        lines = split_lines(source.written)
        comments = _comment_places(source.text)
        above: dict[int, str] = {}
        """Lines to insert, by the line they go above."""
        count = 0
        for line, codes in sorted(codes_by_line.items()):
            if line in comments:
                lines[line - 1] = _with_codes(lines[line - 1], comments[line], sorted(codes))
            elif line <= len(lines) and (line == 1 or line - 1 in comments):
                above[line] = _next_line_comment(lines[line - 1], sorted(codes))
            else:
                added.skipped.append(
                    f"{path}:{line}: no noqa comment: the line and the one above it end inside a string "
                    "or with a backslash"
                )
                continue
            count += 1
        lines = [above.get(number, "") + text for number, text in enumerate(lines, 1)]
        if not count:
            continue
        try:
            write_atomically(Path(path).resolve(), source.encode("".join(lines)), digest(content))
        except FileChanged:
            added.failures.append(f"{path}: changed while mslint wrote it, no comment added: run again")
            continue
        except (OSError, UnicodeEncodeError) as error:
            added.failures.append(
                f"{path}: cannot write the noqa comments: {getattr(error, 'strerror', None) or error}"
            )
            continue
        added.comments += count
        added.files += 1
    return added


def _with_codes(line: str, comment: int | None, codes: list[str]) -> str:
    """``line`` (with its ending) naming ``codes`` in a noqa comment; ``comment``: where its comment starts."""
    text = line.rstrip("\r\n")
    ending = line[len(text) :]
    existing = None if comment is None else NOQA_COMMENT.search(text, comment)
    if existing is not None:
        named = {code.upper() for code in existing.group(1).replace(",", " ").split()}
        new = "".join(f", {code}" for code in codes if code not in named)
        return text[: existing.end(1)] + new + text[existing.end(1) :] + ending
    return f"{text.rstrip()}  # noqa: {', '.join(codes)}{ending}"


def _next_line_comment(line: str, codes: list[str]) -> str:
    """A ``# mslint: disable-next-line=`` line for ``line``, indented and ended as it is."""
    text = line.rstrip("\r\n")
    indentation = text[: len(text) - len(text.lstrip(" \t"))]
    return f"{indentation}# mslint: disable-next-line={','.join(codes)}{line[len(text) :] or chr(10)}"


def _comment_places(text: str) -> dict[int, int | None]:
    """The lines whose end may take a comment (not inside a string, not after a backslash), each
    with the column where its own comment starts, if it has one."""
    places: dict[int, int | None] = {}
    comments: dict[int, int] = {}
    try:
        for token in tokenize.generate_tokens(io.StringIO(text).readline):
            if token.type == tokenize.COMMENT:
                comments[token.start[0]] = token.start[1]
            elif token.type in (tokenize.NEWLINE, tokenize.NL):
                places[token.start[0]] = comments.get(token.start[0])
    except (tokenize.TokenError, SyntaxError):
        pass  # a file that does not tokenize has a syntax-error finding and no other
    return places
