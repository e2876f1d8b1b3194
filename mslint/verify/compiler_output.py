"""Readers of what the MindSpore compiler writes: error locations, fallback dumps, IR shapes.

Every reader returns :class:`Problem` objects located in the user's files; locations in
MindSpore's own sources (or files that do not exist) are dropped by ``is_user_file``.
No MindSpore import here: the parent process reads ``--run`` logs with these too.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ERROR, FALLBACK, DYNAMIC_SHAPE, UNTRACKED = "error", "fallback", "dynamic-shape", "untracked-parameters"

Location = tuple[str, int]
"""An absolute file path and a 1-based line."""

_IN_FILE = re.compile(r"In file (.+?):(\d+)(?:~\d+)?,")
_IR_LOCATION = re.compile(r"# In file (.+?):(\d+)(~\d+)?[,/]")
_SHAPE = re.compile(r"\((-?\d+(?:, -?\d+)*)\)")
_IR_OPERATOR = re.compile(r"= (\w+)\(")


@dataclass(frozen=True)
class Problem:
    """One thing the compiler refused, interpreted or made dynamic, where it happened."""

    kind: str
    message: str
    locations: tuple[Location, ...]
    level: str = ""
    """The syntax level of the compile that showed it (``strict``/``lax``), or the run's own."""

    def to_json(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "level": self.level,
            "message": self.message,
            "locations": [{"path": path, "line": line} for path, line in self.locations],
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Problem:
        locations = tuple((str(loc["path"]), int(loc["line"])) for loc in data["locations"])
        return cls(str(data["kind"]), str(data["message"]), locations, str(data.get("level", "")))


def user_file_filter(excluded_roots: Iterable[str]) -> Callable[[str], bool]:
    """A test for "this path is the user's code": it exists and is not under ``excluded_roots``."""
    roots = [Path(root).resolve() for root in excluded_roots]

    def is_user_file(path: str) -> bool:
        resolved = Path(path).resolve()
        return resolved.is_file() and not any(resolved.is_relative_to(root) for root in roots)

    return is_user_file


def error_locations(text: str, is_user_file: Callable[[str], bool]) -> tuple[Location, ...]:
    """User-file locations named by ``In file PATH:LINE`` in an exception or log, in order, once each."""
    found: dict[Location, None] = {}
    for match in _IN_FILE.finditer(text):
        if is_user_file(match.group(1)):
            found[(str(Path(match.group(1)).resolve()), int(match.group(2)))] = None
    return tuple(found)


def fallback_problems(log: str, is_user_file: Callable[[str], bool], level: str = "") -> list[Problem]:
    """Lines under "After Optimizer Phase" of ``MS_DEV_FALLBACK_DUMP_NODE=1`` dumps: code that
    really runs in the Python interpreter (parser-phase candidates are often folded away)."""
    found: dict[Location, None] = {}
    in_optimizer_section = False
    for line in log.splitlines():
        if "After Parser Phase" in line:
            in_optimizer_section = False
        elif "After Optimizer Phase" in line:
            in_optimizer_section = True
        elif in_optimizer_section:
            match = _IN_FILE.search(line)
            if match is not None and is_user_file(match.group(1)):
                found[(str(Path(match.group(1)).resolve()), int(match.group(2)))] = None
    message = "listed by the fallback dump after the optimizer phase (runs in the Python interpreter)"
    return [Problem(FALLBACK, message, (loc,), level) for loc in found]


def dynamic_shape_problems(ir_text: str, is_user_file: Callable[[str], bool], level: str = "") -> list[Problem]:
    """IR nodes whose inputs have static shapes and whose output shape is unknown."""
    found: dict[Location, str] = {}
    for node in re.split(r"\n(?=  %\d+\(|  Return\()", ir_text):
        header = node.split("\n", 1)[0]
        if "PyExecute" in header:
            continue
        shapes = re.search(r"\n\s+: \((.*)\) -> \((.*)\)\n", node)
        if shapes is None:
            continue
        inputs, outputs = shapes.groups()
        if not _has_dynamic_dim(outputs) or _has_dynamic_dim(inputs):
            continue
        own_lines = [
            (str(Path(m.group(1)).resolve()), int(m.group(2)))
            for m in _IR_LOCATION.finditer(node)
            if m.group(3) is None and is_user_file(m.group(1))
        ]
        if own_lines:
            operator = _IR_OPERATOR.search(header)
            found.setdefault(own_lines[-1], operator.group(1) if operator else "an operator")
    return [
        Problem(DYNAMIC_SHAPE, f"{operator} produces an output of data-dependent shape", (loc,), level)
        for loc, operator in found.items()
    ]


def _has_dynamic_dim(shapes: str) -> bool:
    """Whether a tensor shape, or a shape inside a ``TupleShape``, has an unknown dimension or rank."""
    return any(dim.strip() in ("-1", "-2") for match in _SHAPE.finditer(shapes) for dim in match.group(1).split(","))
