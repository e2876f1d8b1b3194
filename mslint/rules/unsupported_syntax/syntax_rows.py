"""What the measured syntax table says of a form: the node types a release rejects, the verdict of a
row at a position (in ``construct`` or ``@jit``, in a loop, under a tensor ``if``), and the finding
that verdict gives."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from functools import cache
from typing import NamedTuple

from mslint.diagnostics import Severity
from mslint.model.abstract import (
    Kind,
)
from mslint.model.binder import enclosing_blocks
from mslint.model.scope import GraphFunction, is_jit_decorated
from mslint.release import Release
from mslint.rules.base import Finding, SeverityChoice, fallback_severity
from mslint.settings import Settings
from mslint.syntax_table import COMPILE_TIME, DIVERGENCE, ERROR, FALLBACK

# How findings name the node types the syntax table finds rejected (others go by their ast name).
_DESCRIPTIONS = {
    "Import": "an `import` statement",
    "ImportFrom": "an `import` statement",
    "Try": "a `try` statement",
    "TryStar": "a `try` statement",
    "Delete": "a `del` statement",
    "ClassDef": "a `class` statement",
    "AsyncFunctionDef": "an `async def`",
    "Nonlocal": "a `nonlocal` statement",
    "Match": "a `match` statement",
    "NamedExpr": "an assignment expression (`:=`)",
    "Set": "a set display (`{a, b}`)",
    "SetComp": "a set comprehension",
}

# The compiler reports a generator of another function where it is called (``generator_calls``
# flags the call), one defined in graph code on its ``yield`` (``local_generator``).
_REPORTED_AT_CALL = frozenset({"Yield", "YieldFrom"})


def _node_type(row: str) -> type[ast.AST] | None:
    """The ast node type a ``stmt.``/``expr.`` row of the syntax table measures (``stmt.Try/except``)."""
    family, _, rest = row.partition(".")
    name = rest.partition("/")[0]
    node_type = getattr(ast, name, None) if family in ("stmt", "expr") and name not in _REPORTED_AT_CALL else None
    return node_type if isinstance(node_type, type) and issubclass(node_type, ast.AST) else None


@cache
def rejected_node_types(release: Release) -> dict[type[ast.AST], str]:
    """Statement and expression types the compiler of ``release`` rejects at every syntax level:
    every row of the type in the syntax table fails in LAX in ``construct``, on the form's line."""
    table = release.syntax
    verdicts: dict[type[ast.AST], bool] = {}
    for row in table.ids():
        node_type = _node_type(row)
        if node_type is not None:
            outcome = table.outcome(row, "construct", "lax")
            rejected = outcome.kind == ERROR and outcome.on_hazard_line
            verdicts[node_type] = verdicts.get(node_type, True) and rejected
    return {t: _DESCRIPTIONS.get(t.__name__, f"`{t.__name__}`") for t, rejected in verdicts.items() if rejected}


# Every statement and expression type: which of them a release rejects is read from its table when
# graph code is first checked (not at import, which every run pays for).
CANDIDATE_TYPES = tuple(
    t
    for t in vars(ast).values()
    if isinstance(t, type) and issubclass(t, (ast.stmt, ast.expr)) and t not in (ast.stmt, ast.expr, ast.Call)
)


def lax_only_severity(settings: Settings) -> Severity:
    """Code STRICT compiles and LAX runs in the Python interpreter: a warning in LAX, a note in STRICT."""
    return Severity.WARNING if settings.syntax_level == "lax" else Severity.INFO


class Verdict(NamedTuple):
    """What a finding says, and how severe it is: ``rank`` orders verdicts, 0 the most severe."""

    rank: int
    message: str
    severity: SeverityChoice | None
    """None: the rule's."""


# Where graph code is nested, as the table's positions name it, and how a finding says so.
_NESTED_POSITIONS = {"loop": "in a `for` loop", "branch": "under an `if` on a tensor"}

# The table's ``branch`` programs join ``y = x`` with the form's ``y``: a form that leaves a row of
# ``x`` in ``y`` fails to join there, which says nothing of the form.
_JOIN_ERROR = "Cannot join the return values of different branches"


@cache
def measured_verdict(release: Release, row: str, position: str) -> Verdict | None:
    """What the syntax table of ``release`` says of a row at ``position``: the finding's message
    and severity, or None where both levels compile it (folding constants at compile time is
    what the compiler should do)."""
    table = release.syntax
    if not table.has(row) or position not in table.positions(row):
        return None
    strict, lax = table.outcome(row, position, "strict"), table.outcome(row, position, "lax")
    if position == "branch" and _JOIN_ERROR in strict.message + lax.message:
        return None
    if lax.kind == ERROR and lax.on_hazard_line:
        return Verdict(0, "MindSpore rejects it at every syntax level", None)
    if lax.kind == DIVERGENCE:
        return Verdict(1, "graph mode returns another result than PyNative", None)
    if not (strict.kind == ERROR and strict.on_hazard_line):
        if lax.kind == FALLBACK and lax.on_hazard_line:
            return Verdict(4, "STRICT compiles it, LAX runs it in the Python interpreter", lax_only_severity)
        return None
    lax_does = {FALLBACK: "runs it in the Python interpreter", COMPILE_TIME: "runs it once, while compiling"}
    message = f"STRICT rejects it, LAX {lax_does.get(lax.kind, 'accepts it')}"
    if "grad" in table.positions(row) and table.outcome(row, "grad", "lax").kind == ERROR:
        return Verdict(2, f"{message}, but not under `value_and_grad`, where the compile fails", None)
    return Verdict(3, message, fallback_severity)


def _flagged_somewhere(release: Release, row: str) -> bool:
    """Whether the syntax table of ``release`` has a verdict for ``row`` at any position (each
    verdict is cached: this is a few lookups)."""
    table = release.syntax
    return table.has(row) and any(measured_verdict(release, row, p) for p in table.positions(row))


def table_positions(node: ast.AST, function: GraphFunction) -> tuple[str, ...]:
    """The positions of the syntax table ``node`` is at: ``jit`` in a ``@jit`` function, else
    ``construct``; and ``loop`` in the body of a ``for``, ``branch`` under an ``if`` on a tensor."""
    positions = ["jit" if is_jit_decorated(function.node, function.module) else "construct"]
    blocks = enclosing_blocks(function.node).get(id(node), ())
    if any(isinstance(b, ast.For) for b in blocks):
        positions.append("loop")
    if any(isinstance(b, ast.If) and function.kind(b.test) is Kind.GRAPH for b in blocks):
        positions.append("branch")
    return tuple(positions)


def measured(
    node: ast.AST, subject: str, row: str, function: GraphFunction, hint: str, position: str | None = None
) -> Iterator[Finding]:
    """A finding on ``node`` where the syntax table's ``row`` says the compiler rejects, interprets
    or diverges on it: at ``position``, or else at every position ``node`` is at
    (:func:`table_positions`), the most severe verdict."""
    release = function.project.release
    if position is None and not _flagged_somewhere(release, row):
        return  # most rows (`t + 1`) compile wherever they are: no need to find where this one is
    positions = (position,) if position is not None else table_positions(node, function)
    verdicts = [(p, v) for p in positions for v in (measured_verdict(release, row, p),) if v is not None]
    if not verdicts:
        return
    where, verdict = min(verdicts, key=lambda found: found[1].rank)
    nested = _NESTED_POSITIONS.get(where)
    message = f"{subject}{' ' + nested if nested else ''}: {verdict.message}"
    yield Finding(node, message, hint=hint, severity=verdict.severity)
