"""Jupyter notebooks (``.ipynb``): their code cells checked as one module, findings placed in
their cell, as ruff does.

The code cells, in order, make the module mslint analyses (a cell's names are defined for the
cells after it, as when the notebook runs from the top). IPython's magics and shell lines
(``%time``, ``!pip install``) are no Python: each becomes ``pass`` at its indentation, and so
does a line IPython runs as a magic without its ``%`` (automagic: ``pip install x``, ``cd
data``, a line that is no Python and starts with a magic's name); a cell that starts with a
cell magic (``%%bash``) becomes empty lines. A magic continued on the next line (``%time \\``)
is masked with its continuation, and so is an IPython help line (``np.abs?``, ``??Net``). A
cell whose ``source`` is missing or no text is empty; a lone surrogate (``"\\ud800"`` in the
JSON, which no output can encode) is read as U+FFFD. A finding's line is then
the line in its cell, and the cell is its number among all the notebook's cells, from 1, as
Jupyter shows them. Notebooks are read with nbformat, Jupyter's own library, and never
written: mslint reports their findings, it does not fix them.
"""

from __future__ import annotations

import ast
import bisect
import re
import warnings
from dataclasses import dataclass, replace

from mslint.diagnostics import Diagnostic

SUFFIX = ".ipynb"
_MAGIC = re.compile(r"^([ \t]*)[%!]")
# IPython's help: `np.abs?`, `np.abs??`, `?np.abs`, `np.*abs*?` (an object's name, no spaces).
_HELP = re.compile(r"^[ \t]*(\?{1,2}[^\s?]+|[^\s?#]+\?{1,2})[ \t]*$")
_LONE_SURROGATE = re.compile("[\ud800-\udfff]")
# Line magics IPython also runs without their `%` (automagic, on by default), and its shell aliases.
_AUTOMAGIC = frozenset(
    {"pip", "conda", "mamba", "cd", "pwd", "env", "load_ext", "matplotlib", "run", "timeit", "time", "who", "whos"}
    | {"ls", "cat", "mkdir", "rmdir", "rm", "cp", "mv", "clear", "history", "reset", "pinfo", "alias"}
)


class NotebookError(ValueError):
    """A file that is not a notebook nbformat can read."""


@dataclass(frozen=True)
class Notebook:
    text: str
    """The code cells as one module, magics masked."""
    cell_starts: list[int]
    """The module's line (from 1) where each code cell starts."""
    cell_numbers: list[int]
    """Each code cell's number among all the cells, from 1."""

    def cell_lines(self) -> dict[int, list[str]]:
        """Each code cell's lines, as checked (magics masked), by cell number."""
        lines = self.text.split("\n")
        ends = [*self.cell_starts[1:], len(lines)]
        return {n: lines[s - 1 : e - 1] for n, s, e in zip(self.cell_numbers, self.cell_starts, ends)}

    def place(self, diagnostic: Diagnostic) -> Diagnostic:
        """The finding with its lines counted in its cell, the cell named, and no fix (the
        fix's positions are the module's, and notebooks are not edited)."""
        index = max(bisect.bisect_right(self.cell_starts, diagnostic.line) - 1, 0)
        start = self.cell_starts[index]
        end_line = max(diagnostic.end_line, diagnostic.line)
        next_start = self.cell_starts[index + 1] if index + 1 < len(self.cell_starts) else None
        end_column = diagnostic.end_column
        if next_start is not None and end_line >= next_start:  # a span never leaves its cell
            end_line = next_start - 1
            end_column = len(self.text.splitlines()[end_line - 1].encode("utf-8")) + 1
        return replace(
            diagnostic,
            line=diagnostic.line - start + 1,
            end_line=end_line - start + 1,
            end_column=end_column,
            cell=self.cell_numbers[index],
            fix=None,
        )


def left_alone(diagnostics: list[Diagnostic]) -> list[str]:
    """One note per notebook with findings, for ``--fix``, ``--diff`` and ``--add-noqa``."""
    notebooks = sorted({d.path for d in diagnostics if d.cell is not None})
    return [
        f"{path}: a notebook, left as it is (mslint does not edit notebooks: fix the cells in Jupyter)"
        for path in notebooks
    ]


def read_notebook(content: bytes) -> Notebook:
    """The notebook in ``content`` (its JSON), as one module; NotebookError if it is none."""
    import nbformat  # imported for notebooks only: it costs a tenth of a second

    try:
        with warnings.catch_warnings():  # on what mslint does not touch (cells without ids): not the user's to fix here
            warnings.simplefilter("ignore")
            document = nbformat.reads(content.decode("utf-8"), as_version=4)  # type: ignore[no-untyped-call]
    except Exception as error:  # nbformat raises JSON, validation and version errors of many kinds
        raise NotebookError(f"not a notebook nbformat can read: {type(error).__name__}: {error}") from None
    code = {}
    for number, cell in enumerate(document.cells, start=1):
        if cell.get("cell_type") == "code":
            code[number] = _LONE_SURROGATE.sub("\ufffd", _cell_source(cell.get("source")))
    return notebook_of(code)


def _cell_source(source: object) -> str:
    """A cell's ``source``: a string or a list of strings in nbformat 4; anything else (``null``) is no code."""
    if isinstance(source, str):
        return source
    if isinstance(source, list):
        return "".join(part for part in source if isinstance(part, str))
    return ""


def notebook_of(code_cells: dict[int, str]) -> Notebook:
    """The notebook whose code cells are ``code_cells`` (number -> source), in order."""
    lines: list[str] = []
    starts: list[int] = []
    for source in code_cells.values():
        starts.append(len(lines) + 1)
        lines.extend(_masked(source.splitlines() or [""]))
    return Notebook("".join(f"{line}\n" for line in lines), starts, list(code_cells))


def _masked(lines: list[str]) -> list[str]:
    if lines[0].lstrip().startswith("%%"):
        return [""] * len(lines)  # a cell magic: the cell is another language (or IPython's)
    masked: list[str] = []
    continued = None  # the indentation of a magic whose line ends with `\`: the next line is the magic's too
    for line in lines:
        if continued is None and (_MAGIC.match(line) or _is_automagic(line) or _is_help(line)):
            continued = _indentation(line)
        masked.append(line if continued is None else f"{continued}pass")
        if continued is not None and not line.rstrip().endswith("\\"):
            continued = None
    return masked


def _indentation(line: str) -> str:
    return line[: len(line) - len(line.lstrip())]


def _is_help(line: str) -> bool:
    """``np.abs?``: a name with IPython's ``?`` that is no Python."""
    return _HELP.match(line) is not None and not _parses(line)


def _is_automagic(line: str) -> bool:
    """``pip install x``: a magic's name first, and no Python (``cd = 3`` is an assignment)."""
    words = line.split()
    return bool(words) and words[0] in _AUTOMAGIC and not _parses(line)


def _parses(line: str) -> bool:
    try:
        ast.parse(line.strip())
    except SyntaxError:
        return False
    return True
