"""Renderers of a verify report: text for people, JSON for tools."""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import replace
from typing import Any

from mslint.diagnostics import Diagnostic, Severity
from mslint.report.status import plural
from mslint.verify.command import VerifyReport
from mslint.verify.compiler_output import (
    COMPILE_TIME,
    DIVERGENCE,
    DYNAMIC_SHAPE,
    ERROR,
    FALLBACK,
    RUNTIME,
    STOPPED,
    UNTRACKED,
    Problem,
)
from mslint.verify.divergence import COMPARED, NOT_COMPARABLE, NOT_RUN
from mslint.verify.runner import Outcome
from mslint.verify.shards import entry_name
from mslint.verify.statuses import BUILD_STAGE, COMPILE_STAGE, KERNEL_STAGE, RAN
from mslint.verify.verdicts import CONFIRMED, NOT_REPRODUCED, NOT_VERIFIABLE, Verdict

_LABELS = {CONFIRMED: "confirmed", NOT_REPRODUCED: "not reproduced", NOT_VERIFIABLE: "not verifiable"}
_KINDS = {
    ERROR: "compile failed",
    FALLBACK: "fell back to Python",
    DYNAMIC_SHAPE: "dynamic shape",
    UNTRACKED: "parameters not owned",
    COMPILE_TIME: "run once while compiling",
    RUNTIME: "MindSpore's own check while running",
    STOPPED: "your --run command stopped here",
    DIVERGENCE: "graph result differs from PyNative",
}


_NOT_COMPARED = {NOT_COMPARABLE: "not comparable", NOT_RUN: "not run: dynamic input dimensions"}


def render_text(report: VerifyReport) -> str:
    blocks = [_verdict_block(v) for v in report.verdicts]
    if report.compiler_only:
        blocks.append("Compiler-only problems (no rule predicted them):")
        blocks += [
            f"{c.path}:{c.line}: {c.severity}: {_describe(c.problem)}" + (f" [in {c.entry}]" if c.entry else "")
            for c in report.compiler_only
        ]
    failed = [o for o in report.outcomes if o.status not in RAN]
    if failed:
        blocks.append("Not compiled:")
        levels: dict[tuple[str, str, str | None], list[str]] = {}
        for o in failed:
            levels.setdefault((o.job.label, o.status, o.reason), []).append(o.job.level.upper())
        blocks += [f"{label} ({', '.join(lv)}): {status}: {reason}" for (label, status, reason), lv in levels.items()]
    if report.run is not None:
        code = report.run.returncode
        ended = "was killed at the timeout" if code is None else f"exited with status {code}"
        compiled = plural(len(report.run.compiled), "Cell or function", "Cells or functions")
        blocks.append(f"`{report.run.command}` {ended}; it compiled {compiled}.")
    blocks.append(_summary(report))
    return "\n".join(blocks) + "\n"


def _verdict_block(verdict: Verdict) -> str:
    d = verdict.diagnostic
    lines = [f"{d.path}:{d.line}:{d.column}: {d.code} {d.symbol} [{_LABELS[verdict.verdict]}] {d.message}"]
    lines += [f"    {_describe(p)}" + (f" [in {p.entry}]" if p.entry else "") for p in _distinct_evidence(verdict)]
    if verdict.reason:
        lines.append(f"    {verdict.reason}")
    return "\n".join(lines)


def _describe(problem: Problem) -> str:
    level = f" in {problem.level.upper()}" if problem.level else ""
    return f"{_KINDS.get(problem.kind, problem.kind)}{level}: {problem.message}"


def _distinct_evidence(verdict: Verdict) -> list[Problem]:
    seen: dict[tuple[str, str, str, str], Problem] = {}
    for problem in verdict.evidence:
        seen.setdefault((problem.kind, problem.level, problem.message, problem.entry), problem)
    return list(seen.values())


def _summary(report: VerifyReport) -> str:
    counts = Counter(v.verdict for v in report.verdicts)
    findings, problems = len(report.verdicts), len(report.compiler_only)
    summary = (
        f"Verified {findings} finding{'s' if findings != 1 else ''}: {counts[CONFIRMED]} confirmed, "
        f"{counts[NOT_REPRODUCED]} not reproduced, {counts[NOT_VERIFIABLE]} not verifiable; "
        f"{problems} compiler-only problem{'s' if problems != 1 else ''}."
    )
    if report.outcomes:
        summary += " " + _compiles(report.outcomes)
    summary += _comparisons(report.outcomes)
    return f"{summary} Took {report.seconds:g} s."


def _compiles(outcomes: list[Outcome]) -> str:
    """How many compiles ran to the end, and how many stopped where: building the entry,
    compiling it, running it (a kernel the device lacks), or before (no process or no result:
    crashed, timed out, could not build)."""
    ran = [o for o in outcomes if o.status in RAN]
    counts = Counter(o.stopped for o in ran)
    ended = [
        (counts[BUILD_STAGE], "failed building the entry"),
        (counts[COMPILE_STAGE], "stopped at a compile error"),
        (counts[KERNEL_STAGE], "compiled and stopped at their first run: an operator the device has no kernel for"),
        (len(outcomes) - len(ran), "could not be run (listed under Not compiled)"),
    ]
    devices = sorted({o.device for o in ran if o.device})
    text = f"{counts[None]} of {len(outcomes)} compiles succeeded" + (f" on {', '.join(devices)}" if devices else "")
    cached = sum(o.cached for o in outcomes)
    text += f" ({cached} recorded in the cache, not run again)" if cached else ""
    return text + "".join(f", {count} {what}" for count, what in ended if count) + "."


def _comparisons(outcomes: list[Outcome]) -> str:
    """How many entries graph mode was compared with PyNative on, and why not on the others."""
    statuses = Counter(str(o.comparison["status"]) for o in outcomes if o.comparison)
    total = sum(statuses.values())
    if not total:
        return ""
    others = [f"{statuses[s]} {label}" for s, label in _NOT_COMPARED.items() if statuses[s]]
    return (
        f" Graph mode compared with PyNative on {statuses[COMPARED]} of {total} entr{'ies' if total != 1 else 'y'}"
        + (f" ({', '.join(others)})." if others else ".")
    )


def render_json(report: VerifyReport) -> str:
    document = {
        "findings": [v.to_json() for v in report.verdicts],
        "compiler_only": [c.to_json() for c in report.compiler_only],
        "compiles": [_outcome_json(o) for o in report.outcomes],
        "run": None
        if report.run is None
        else {
            "command": report.run.command,
            "returncode": report.run.returncode,
            "compiled": [{"path": path, "name": name} for path, name in sorted(report.run.compiled)],
        },
        "seconds": report.seconds,
    }
    if report.shard is not None:
        document["shard"] = report.shard
    return json.dumps(document, indent=2) + "\n"


def _outcome_json(outcome: Outcome) -> dict[str, Any]:
    return {
        "path": str(outcome.job.path),
        "name": outcome.job.name,
        "entry": entry_name(outcome.job.path, outcome.job.name),
        "example": outcome.job.factory,
        "level": outcome.job.level,
        **outcome.result_json(),
    }


COMPILER_ONLY_CODE, COMPILER_ONLY_SYMBOL = "MSV", "compiler-only"
_COMPILER_ONLY_RULE = {
    "id": COMPILER_ONLY_CODE,
    "name": COMPILER_ONLY_SYMBOL,
    "shortDescription": {"text": "A problem the MindSpore compiler showed on a line no mslint rule flagged"},
    "defaultConfiguration": {"level": "warning"},
}


def render(output_format: str, report: VerifyReport) -> str:
    """``sarif`` and ``github`` go through ``mslint check``'s renderers, one diagnostic per verdict
    and per compiler-only problem."""
    if output_format == "json":
        return render_json(report)
    if output_format == "sarif":
        from mslint.output import sarif  # reads package metadata: imported only when asked for

        return sarif.render(as_diagnostics(report), extra_rules=[_COMPILER_ONLY_RULE])
    if output_format == "github":
        from mslint.output import github

        return github.render(as_diagnostics(report))
    return render_text(report)


def as_diagnostics(report: VerifyReport) -> list[Diagnostic]:
    """The verdicts with their verdict and evidence in the message, then the compiler-only
    problems. Only confirmed findings keep their severity; the others are notes, as they do not
    fail the run either."""
    verdicts = [
        replace(
            v.diagnostic,
            message=f"{v.diagnostic.message} [{_verdict_detail(v)}]",
            severity=v.diagnostic.severity if v.verdict == CONFIRMED else Severity.INFO,
        )
        for v in report.verdicts
    ]
    problems = [
        Diagnostic(
            c.path,
            c.line,
            1,
            c.line,
            1,
            COMPILER_ONLY_CODE,
            COMPILER_ONLY_SYMBOL,
            c.severity,
            f"{_describe(c.problem)} [no rule predicted it]",
            entry=c.entry,
        )
        for c in report.compiler_only
    ]
    return verdicts + problems


def _verdict_detail(verdict: Verdict) -> str:
    details = [_describe(p) for p in _distinct_evidence(verdict)] + ([verdict.reason] if verdict.reason else [])
    return f"{_LABELS[verdict.verdict]}: {'; '.join(details)}" if details else _LABELS[verdict.verdict]
