"""Match the compiler's evidence to the linter's findings.

A finding is *confirmed* when a compile showed the problem its rule predicts on its lines
(whichever entry's compile it was: each problem names its entry): a location of the compiler's
trace is a line of the finding, and the measured message table (:mod:`mslint.compiler_messages`)
maps the problem's message, or its kind where it has no message of its own, to the finding's
rule. It is *not reproduced* when its own entry compiled at both syntax levels to the end without
one, and *not verifiable* otherwise, with the reason (the entry could not be built, or its
compile stopped at another line first). Problems that confirm no finding are *compiler-only*,
a problem of another kind on a flagged line too.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

from mslint.compiler_messages import message_table
from mslint.diagnostics import Diagnostic, Severity
from mslint.rules import rule_named
from mslint.rules.base import dynamic_shape_severity, fallback_severity
from mslint.rules.suppression_comments import SuppressionRule
from mslint.settings import Settings
from mslint.source import source_text
from mslint.suppressions import SuppressionComments
from mslint.verify.compiler_output import (
    COMPILE_TIME,
    DIVERGENCE,
    DYNAMIC_SHAPE,
    ERROR,
    FALLBACK,
    RUNTIME,
    UNTRACKED,
    Location,
    Problem,
)
from mslint.verify.references import shown
from mslint.verify.sources import assigned_targets, function_at, statement_at
from mslint.verify.targets import Target

CONFIRMED, NOT_REPRODUCED, NOT_VERIFIABLE = "confirmed", "not-reproduced", "not-verifiable"
RUN_LEVEL = "run"
"""The level of a compile that ``--run``'s command made, at its own syntax level."""
_OUTSIDE_ENTRIES = (
    "not in a Cell or @jit function that mslint can compile; "
    '`--run "python train.py"` runs your own entry point and records what MindSpore finds there'
)
_OUTSIDE_ENTRIES_RUN = (
    "not in a Cell or @jit function that mslint can compile, and your --run command neither compiled "
    "nor stopped on its line"
)


@dataclass
class Verdict:
    diagnostic: Diagnostic
    verdict: str
    evidence: list[Problem] = field(default_factory=list)
    reason: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            **self.diagnostic.to_json(),
            "verdict": self.verdict,
            "evidence": [p.to_json() for p in self.evidence],
            "reason": self.reason,
        }


@dataclass
class CompilerOnly:
    """A problem the compiler showed on a line no rule flagged."""

    path: str
    line: int
    severity: Severity
    problem: Problem
    entry: str | None

    def to_json(self) -> dict[str, Any]:
        return {
            "path": self.path,
            "line": self.line,
            "severity": str(self.severity),
            "kind": self.problem.kind,
            "level": self.problem.level,
            "message": self.problem.message,
            "entry": self.entry,
        }


@dataclass
class TargetStatus:
    """What happened to one target: compiled at which levels, or why not."""

    compiled_levels: set[str] = field(default_factory=set)
    reasons: list[str] = field(default_factory=list)
    stopped: dict[str, Problem] = field(default_factory=dict)
    """The error that ended the target's own compile (or build), by level: lines after it
    were never compiled at that level."""
    stubbed: set[str] = field(default_factory=set)
    """Packages that are not installed, replaced by stubs to import the target's module."""
    inputs: set[str] = field(default_factory=set)
    """The inputs of its compiles built from the code (synthesised, or the program's own), not an example's."""
    synthesised: bool = False
    """Those inputs were read off the Cell's first layer."""
    built_at: str | None = None
    """The program's call whose arguments built the target for its compiles (not an example's)."""
    kept: tuple[str, ...] = ()
    """``depth=12``: the defaults its compiles kept in place of a value the program gives (not an example's)."""

    def note(self, target: Target) -> str | None:
        """What the verdict rests on besides the user's code: synthesised inputs, stubs."""
        notes = []
        if self.synthesised or self.built_at:
            arguments = ", ".join(f"{name}={shown(value)}" for name, value in target.kwargs.items())
            built = f"compiled {target.name}({arguments})" + (f" as built by {self.built_at}" if self.built_at else "")
            inputs = " and ".join(sorted(self.inputs))
            how = ", synthesised from its first layer" if self.synthesised else ""
            if self.synthesised and target.guessed:
                how = ", a guess: it holds no weight that sets their shape"
            notes.append(f"{built} on inputs {inputs}{how}" if inputs else built)
        if self.kept:
            notes.append(
                f"built with the default{'s' if len(self.kept) > 1 else ''} {', '.join(self.kept)} in place of "
                "what the program gives, which mslint does not follow"
            )
        if self.stubbed:
            names = ", ".join(sorted(self.stubbed))
            notes.append(f"imported with a stub for {names} (not installed here; the compiled code does not use it)")
        return "; ".join(notes) or None


def covers(diagnostic: Diagnostic, location: Location) -> bool:
    path, line = location
    return diagnostic.line <= line <= diagnostic.end_line and Path(diagnostic.path).resolve() == Path(path)


def located(diagnostic: Diagnostic, problems: list[Problem]) -> list[Problem]:
    """The problems whose trace names a line of the finding (the statement it spans: an `if` whose
    branches the compiler cannot join is named at their lines); a value frozen at compile time
    only for a rule that predicts one (folding constants is what compilers do)."""
    return [
        p
        for p in problems
        if (any(covers(diagnostic, loc) for loc in p.locations) or _names_its_undefined_name(diagnostic, p))
        and (p.kind != COMPILE_TIME or _predicts_compile_time(diagnostic))
    ]


def _names_its_undefined_name(diagnostic: Diagnostic, problem: Problem) -> bool:
    """Whether ``problem`` is the NameError of the finding's name in the finding's entry. MindSpore
    traces a name that a called function lacks no further than the call in the function around it
    (measured on 2.10: ``scaled(x)`` is named, not ``y * output_scale`` in ``scaled``); the
    message names the name."""
    if diagnostic.symbol != "undefined-name-in-graph" or not diagnostic.entry or problem.entry != diagnostic.entry:
        return False
    name = diagnostic.message.split("`")[1]
    return f"The name '{name}' is not defined" in problem.message


def confirms(diagnostic: Diagnostic, problem: Problem) -> bool:
    """Whether ``problem`` is the evidence ``diagnostic``'s rule predicts, on its line."""
    return bool(located(diagnostic, [problem])) and predicts(diagnostic.symbol, problem)


def predicts(symbol: str, problem: Problem) -> bool:
    """Whether the rule ``symbol`` produced ``problem``'s message (or kind) where it was measured."""
    return symbol in _predicting_rules(problem.kind, problem.message)


@lru_cache(maxsize=1024)
def _predicting_rules(kind: str, message: str) -> tuple[str, ...]:
    return message_table().rules_for(kind, message)[0]


def judge(
    diagnostic: Diagnostic,
    target: Target | None,
    problems: list[Problem],
    statuses: dict[tuple[str, str], TargetStatus],
    ran: bool = False,
) -> Verdict:
    """``ran``: a --run command gave evidence too (so it is not the advice for what lies outside entries)."""
    evidence = [p for p in problems if confirms(diagnostic, p)]
    note = statuses[target.key].note(target) if target is not None and target.key in statuses else None
    if evidence:
        return Verdict(diagnostic, CONFIRMED, evidence, reason=note)
    if diagnostic.symbol == "syntax-error":
        return Verdict(diagnostic, NOT_VERIFIABLE, reason="the file does not parse, so nothing in it can be compiled")
    if isinstance(rule_named(diagnostic.symbol), SuppressionRule):
        return Verdict(diagnostic, NOT_VERIFIABLE, reason="a finding about a comment, which the compiler ignores")
    if target is None:
        return Verdict(diagnostic, NOT_VERIFIABLE, reason=_OUTSIDE_ENTRIES_RUN if ran else _OUTSIDE_ENTRIES)
    status = statuses.get(target.key, TargetStatus())
    if status.stopped:
        stopped = _stopped_reason(status.stopped)
        return Verdict(diagnostic, NOT_VERIFIABLE, reason=f"{stopped}; {note}" if note else stopped)
    if {"strict", "lax"} <= status.compiled_levels:
        return Verdict(diagnostic, NOT_REPRODUCED, reason=note)
    reasons = status.reasons or [target.unbuildable or f"{target.entry} was not compiled"]
    if target.forward_only:
        reasons = [f"{target.name} has `forward` and no `construct`, the method MindSpore compiles", *reasons]
    return Verdict(diagnostic, NOT_VERIFIABLE, reason="; ".join(dict.fromkeys(reasons)))


def _stopped_reason(stopped: dict[str, Problem]) -> str:
    """``the compile stopped at FILE:LINE (MESSAGE) in STRICT``, once per place and message."""
    levels: dict[tuple[str, str], list[str]] = {}
    for level, problem in stopped.items():
        place = f"{_display(problem.locations[-1][0])}:{problem.locations[-1][1]}" if problem.locations else ""
        levels.setdefault((place, problem.message), []).append(_LEVEL_NAMES.get(level, level.upper()))
    return "; ".join(
        f"the compile stopped{' at ' + place if place else ''} ({message}) in {' and '.join(names)}"
        for (place, message), names in levels.items()
    )


_LEVEL_NAMES = {RUN_LEVEL: "your --run command"}


def _predicts_compile_time(diagnostic: Diagnostic) -> bool:
    rule = rule_named(diagnostic.symbol)
    return rule is not None and rule.compile_time_evidence


def compiler_only(
    problems: list[Problem], diagnostics: list[Diagnostic], settings: Settings, entries: dict[int, Target]
) -> list[CompilerOnly]:
    """Problems that confirm none of ``diagnostics``, one per line and kind, at their most severe.

    ``entries`` maps ``id(problem)`` to the target whose compile showed it, for problems that
    name no line of the user's files (they are reported on the target's definition line).
    """
    found: dict[tuple[str, int, str], CompilerOnly] = {}
    confirmed = [d for d in diagnostics if any(confirms(d, p) for p in problems)]
    for problem in problems:
        if problem.kind == COMPILE_TIME:  # folding constants is what compilers do: evidence, never a problem
            continue
        if problem.kind == DIVERGENCE and any(_silenced(loc) for loc in problem.locations):
            continue  # the user accepted the hazard on that line (`random.random()  # mslint: disable=...`)
        if any(confirms(d, problem) for d in diagnostics):
            continue
        if problem.locations and any(_follows_from(problem.locations[-1], d) for d in confirmed):
            continue
        if problem.kind == UNTRACKED and any(_holds_a_duplicate(problem.locations, d) for d in confirmed):
            continue
        if problem.kind == FALLBACK and any(_runs_in_callee(problem.locations[-1], d) for d in confirmed):
            continue
        target = entries.get(id(problem))
        if problem.locations:
            path, line = problem.locations[-1]
        elif target is not None:
            path, line = str(target.path), target.line
        else:
            continue
        item = CompilerOnly(
            _display(path), line, _severity(problem, settings), problem, target.entry if target else None
        )
        key = (path, line, problem.kind)
        if key not in found or item.severity > found[key].severity:
            found[key] = item
    return sorted(found.values(), key=lambda c: (c.path, c.line, c.problem.kind))


def _silenced(location: Location) -> bool:
    """Whether a suppression comment silences some rule on the line."""
    path, line = location
    return any(_suppressions(path).covering(line))


@lru_cache(maxsize=64)
def _suppressions(path: str) -> SuppressionComments:
    try:
        return SuppressionComments(source_text(Path(path)))
    except (OSError, UnicodeDecodeError):
        return SuppressionComments("")


def _follows_from(location: Location, diagnostic: Diagnostic) -> bool:
    """Whether the compiler interprets the line for the same cause as a confirmed finding:
    it uses what the finding's line bound or changed (``box = Box(x)`` then ``box.value * 2``),
    or it calls the function that holds the finding (the call runs the interpreted code)."""
    path, line = location
    used = statement_at(path, line)
    if used is None:
        return False
    holder = function_at(diagnostic.path, diagnostic.line)
    if holder is not None and any(calls(node, holder.name) for node in ast.walk(used)):
        return True
    if Path(diagnostic.path).resolve() != Path(path):
        return False
    flagged = statement_at(path, diagnostic.line)
    if flagged is None or flagged is used:
        return False
    targets = [t for node in ast.walk(flagged) for t in assigned_targets(node)]
    bound = {ast.unparse(n) for t in targets for n in ast.walk(t) if isinstance(n, (ast.Name, ast.Attribute))}
    return any(
        ast.unparse(node) in bound
        for node in ast.walk(used)
        if isinstance(node, (ast.Name, ast.Attribute)) and isinstance(node.ctx, ast.Load)
    )


def _holds_a_duplicate(locations: tuple[Location, ...], diagnostic: Diagnostic) -> bool:
    """Whether Parameters the Cell does not own are held by an attribute that a confirmed
    duplicate-parameter-name finding reads: the Cell keeps one Parameter of each name, so the
    other attribute's is left out as well (measured on 2.10: ``self.param1`` of two
    ``ParameterTuple``s of one name)."""
    if diagnostic.symbol != "duplicate-parameter-name" or not locations:
        return False
    path, line = locations[-1]
    held, flagged = statement_at(path, line), statement_at(diagnostic.path, diagnostic.line)
    if held is None or flagged is None or Path(diagnostic.path).resolve() != Path(path):
        return False
    bound = {ast.unparse(t) for t in assigned_targets(held) if isinstance(t, ast.Attribute)}
    return any(isinstance(n, ast.Attribute) and ast.unparse(n) in bound for n in ast.walk(flagged))


def _runs_in_callee(location: Location, diagnostic: Diagnostic) -> bool:
    """Whether the interpreted line is in a function that the confirmed finding's line calls: the
    flagged call (``self.box.bump()``) made the interpreter run the body of ``bump``."""
    path, line = location
    holder = function_at(path, line)
    flagged = statement_at(str(Path(diagnostic.path).resolve()), diagnostic.line)
    return holder is not None and flagged is not None and any(calls(n, holder.name) for n in ast.walk(flagged))


def calls(node: ast.AST, name: str) -> bool:
    if not isinstance(node, ast.Call):
        return False
    func = node.func
    return (isinstance(func, ast.Name) and func.id == name) or (isinstance(func, ast.Attribute) and func.attr == name)


def _severity(problem: Problem, settings: Settings) -> Severity:
    if problem.kind == ERROR:
        return Severity.ERROR if problem.level in ("lax", settings.syntax_level, "") else fallback_severity(settings)
    if problem.kind == DYNAMIC_SHAPE:
        return dynamic_shape_severity(settings)
    if problem.kind in (RUNTIME, DIVERGENCE):  # it runs; the result is wrong, or the check MindSpore's own
        return Severity.WARNING
    return fallback_severity(settings)


def _display(path: str) -> str:
    """Paths under the working folder relative to it, like the paths users type."""
    try:
        return str(Path(path).relative_to(Path.cwd().resolve()))
    except ValueError:
        return path
