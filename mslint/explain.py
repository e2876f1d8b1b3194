"""``mslint explain``: the problems of a MindSpore error output, each with the rule that predicts it.

The output is anything MindSpore wrote: a traceback with its ``In file`` lines, the C++ log, the
fallback dump of ``MS_DEV_FALLBACK_DUMP_NODE=1``, ``analyze_fail.ir`` or a dumped IR. The
verifier's readers (:mod:`mslint.verify.compiler_output`) find the problems; the measured
message table (:mod:`mslint.compiler_messages`) names the rules that predict each; ``mslint
check`` on the user's file says whether one of them reports the problem's line now.
"""

from __future__ import annotations

import ast
import json
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from mslint.compiler_messages import MessageTable
from mslint.diagnostics import Diagnostic
from mslint.engine import check_files
from mslint.report.status import plural
from mslint.rule_docs import documentation_link
from mslint.rules import rule_named
from mslint.settings import Settings, find_config, load_settings
from mslint.verify.capture import not_user_code
from mslint.verify.compiler_output import (
    Location,
    Problem,
    dynamic_shape_problems,
    error_problems,
    fallback_problems,
    user_file_filter,
)
from mslint.verify.sources import definition_at, function_at, line_count, statement_at
from mslint.verify.verdicts import calls, covers

REPORTED, NOT_REPORTED, NO_RULE, PAST_END = "reported", "not-reported", "no-rule", "past-end-of-file"
"""A problem's status: a rule predicts it and ``mslint check`` reports it now; a rule predicts it
and ``mslint check`` does not report its line; no rule predicts it; it is on a line the file does
not have (the output is of another version of the file: nothing can be told)."""


@dataclass(frozen=True)
class Explanation:
    problem: Problem
    location: Location | None
    """The user's line the explanation is about: where a finding is, else the innermost line."""
    rules: tuple[str, ...]
    """The symbols of the rules that predict it: those reported on its lines when any, else all."""
    measured: bool
    """Whether the project measured the message (or the kind): in the table."""
    findings: tuple[Diagnostic, ...]
    """What ``mslint check`` reports now on the problem's lines, whatever the rule; when no rule
    that predicts it is among them, also that rule's findings that cause it (:func:`_caused_by`)."""
    past_end: tuple[Location, int] | None = None
    """A location of the problem on a line its file does not have, and how many lines it has."""

    @property
    def status(self) -> str:
        if self.past_end is not None:
            return PAST_END
        if any(d.symbol in self.rules for d in self.findings):
            return REPORTED
        return NOT_REPORTED if self.rules else NO_RULE

    @property
    def hint(self) -> str:
        """The fix: the finding's own hint, else the rule's whole "Use instead" section (its code
        blocks whole: the first paragraph alone is often cut inside one)."""
        for diagnostic in self.findings:
            if diagnostic.symbol in self.rules and diagnostic.hint:
                return diagnostic.hint
        rule = rule_named(self.rules[0]) if self.rules else None
        return rule.section("Use instead") if rule is not None else ""

    def to_json(self) -> dict[str, Any]:
        return {
            "path": self.location[0] if self.location else None,
            "line": self.location[1] if self.location else None,
            "kind": self.problem.kind,
            "message": self.problem.message,
            "status": self.status,
            "measured": self.measured,
            "rules": [_rule_json(symbol) for symbol in self.rules],
            "hint": self.hint or None,
            "findings": [d.to_json() for d in self.findings],
        }


def read_problems(text: str) -> list[Problem]:
    """The problems in the user's files that a MindSpore output shows."""
    is_user_file = user_file_filter(not_user_code())
    return (
        error_problems(text, is_user_file)
        + fallback_problems(text, is_user_file)
        + dynamic_shape_problems(text, is_user_file)
    )


def explain(problems: list[Problem], table: MessageTable) -> list[Explanation]:
    """Each problem with the rules that predict it and what ``mslint check`` reports on its lines."""
    files = sorted({Path(path) for problem in problems for path, _ in problem.locations})
    diagnostics = _check(files)
    explanations = []
    for problem in problems:
        predicted, measured = table.rules_for(problem.kind, problem.message)
        findings = tuple(d for d in diagnostics if any(covers(d, loc) for loc in problem.locations))
        if not any(d.symbol in predicted for d in findings):
            findings += tuple(d for d in diagnostics if d.symbol in predicted and _caused_by(d, problem))
        reported = tuple(dict.fromkeys(d.symbol for d in findings if d.symbol in predicted))
        if not predicted and findings:  # a message never measured, on a line a rule flags
            reported = tuple(dict.fromkeys(d.symbol for d in findings))
        at = [loc for loc in problem.locations if any(covers(d, loc) for d in findings if d.symbol in reported)]
        lines = at or list(problem.locations)
        location = lines[-1] if lines else None
        past_end = next(((loc, count) for loc in problem.locations if (count := _past_end(loc)) is not None), None)
        explanations.append(Explanation(problem, location, reported or predicted, measured, findings, past_end))
    return explanations


def _past_end(location: Location) -> int | None:
    """The number of lines of the location's file when the location's line is not among them."""
    path, line = location
    count = line_count(path)
    return count if count is not None and not 1 <= line <= count else None


def _caused_by(diagnostic: Diagnostic, problem: Problem) -> bool:
    """Whether the finding names the cause of a problem the compiler shows elsewhere: it is in the
    class or function around the problem's line (the compiler names the loop over a plain list of
    Cells, a rule the list, built in ``__init__``), or in a function the problem's line calls."""
    for path, line in problem.locations:
        span = definition_at(path, line)
        same_file = Path(diagnostic.path).resolve() == Path(path).resolve()
        if span is not None and same_file and span[0] <= diagnostic.line <= span[1]:
            return True
    holder = function_at(diagnostic.path, diagnostic.line)
    used = statement_at(*problem.locations[-1]) if problem.locations else None  # the innermost line
    return holder is not None and used is not None and any(calls(node, holder.name) for node in ast.walk(used))


def _check(files: list[Path]) -> list[Diagnostic]:
    """``mslint check`` of the files, with the configuration each would be checked with."""
    by_config: dict[Path | None, list[Path]] = {}
    for path in files:
        by_config.setdefault(find_config(path), []).append(path)
    diagnostics: list[Diagnostic] = []
    for config, paths in by_config.items():
        settings: Settings = load_settings(config)
        diagnostics += check_files(paths, settings).diagnostics
    return diagnostics


def _rule_json(symbol: str) -> dict[str, Any]:
    rule = rule_named(symbol)
    return {"symbol": symbol, "code": rule.code if rule else None, "page": documentation_link(rule) if rule else None}


def render_json(explanations: list[Explanation], release: str) -> str:
    body = {"mindspore": release, "problems": [e.to_json() for e in explanations]}
    return json.dumps(body, indent=2) + "\n"


def render_text(explanations: list[Explanation]) -> str:
    if not explanations:
        return "no compiler problem in the user's files found in this output\n"
    blocks = [_text_block(e) for e in explanations]
    counts = Counter(e.status for e in explanations)
    summary = (
        f"{plural(len(explanations), 'problem')}: {counts[REPORTED]} reported by mslint check, "
        f"{counts[NOT_REPORTED]} predicted by a rule mslint check does not report there, {counts[NO_RULE]} with no rule"
    )
    if counts[PAST_END]:
        summary += f", {counts[PAST_END]} on lines the files do not have (the output is of other versions of them)"
    return "\n\n".join(blocks) + f"\n\n{summary}\n"


def _text_block(explanation: Explanation) -> str:
    where = (
        f"{_display(explanation.location[0])}:{explanation.location[1]}"
        if explanation.location
        else "(no line of yours)"
    )
    lines = [f"{where}: {explanation.problem.kind}: {explanation.problem.message}"]
    if explanation.rules:
        for rule in (_rule_json(symbol) for symbol in explanation.rules):
            page = f" ({rule['page']})" if rule["page"] else ""
            lines.append(f"  rule: {rule['code']} {rule['symbol']}{page}")
    else:
        measured = "measured, but no rule predicts it" if explanation.measured else "a message mslint has not measured"
        lines.append(f"  rule: none ({measured})")
    if "\n" in explanation.hint:
        lines.append("  hint:")
        lines.extend(f"    {line}".rstrip() for line in explanation.hint.splitlines())
    elif explanation.hint:
        lines.append(f"  hint: {explanation.hint}")
    if explanation.past_end is not None:
        (path, line), count = explanation.past_end
        lines.append(
            f"  mslint check: cannot tell: {_display(path)} has {count} lines, not line {line} "
            "(the output is of another version of the file)"
        )
    elif explanation.status == REPORTED:
        codes = ", ".join(f"{d.code} at line {d.line}" for d in explanation.findings if d.symbol in explanation.rules)
        lines.append(f"  mslint check: reports it ({codes})")
    elif explanation.location is None:
        lines.append("  mslint check: cannot tell (the output names no line of a file here)")
    else:
        others = ", ".join(f"{d.code} {d.symbol}" for d in explanation.findings)
        lines.append("  mslint check: does not report it" + (f" (reports {others} there)" if others else ""))
    return "\n".join(lines)


def _display(path: str) -> str:
    try:
        return str(Path(path).relative_to(Path.cwd()))
    except ValueError:
        return path
