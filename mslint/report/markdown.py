"""The report as a short Markdown summary for CI job pages (``$GITHUB_STEP_SUMMARY``, GitLab)."""

from __future__ import annotations

import re
from typing import Any

from mslint.output.text import one_line
from mslint.report.status import FAILS, LAX, LEVELS, STATUS_LABELS, STATUSES, counted, plural
from mslint.report.trend import changes

_LISTED = 10
"""Failing entries listed by name; the HTML report has them all."""


def render(document: dict[str, Any]) -> str:
    summary = document["summary"]
    lines = [
        f"## mslint readiness: {counted(summary['entries'], document['files'])}",
        "",
        _status_table(summary),
    ]
    if summary.get("verified"):
        verified = summary["verified"]
        lines += ["", f"Compiled by `mslint verify`: {plural(verified['entries'], 'entry', 'entries')}.", ""]
        lines.append(_counts_table({level: verified[level] for level in LEVELS}))
    compare = document.get("compare")
    if compare:
        lines += ["", _trend(compare)]
    if summary["by_rule"]:
        lines += ["", "| rule | findings |", "|---|---|"]
        lines += [f"| {r['code']} {r['symbol']} | {r['count']} |" for r in summary["by_rule"]]
    if summary["outside_entries"]:
        outside = summary["outside_entries"]
        lines += [
            "",
            f"{plural(outside, 'finding')} outside any entry (scripts, data pipelines, Cells without construct).",
        ]
    failing = [e for e in document["entries"] if e["strict"]["status"] == FAILS or e[LAX]["status"] == FAILS]
    failing.sort(key=lambda e: (-len(e["findings"]), e["path"], e["line"]))  # the furthest from clean first
    if failing:
        lines += ["", f"Entries that fail at either level ({len(failing)}):", ""]
        lines += [f"* {_code(_at(e))} {e['name']}: {_rules(e)}" for e in failing[:_LISTED]]
        if len(failing) > _LISTED:
            lines.append(f"* and {len(failing) - _LISTED} more")
    return "\n".join(lines) + "\n"


def _status_table(summary: dict[str, Any]) -> str:
    return _counts_table({level: summary[level] for level in LEVELS})


def _counts_table(counts: dict[str, dict[str, int]]) -> str:
    statuses = [s for s in STATUSES[LAX] if any(s in counts[level] for level in LEVELS)]
    statuses += sorted({s for level in LEVELS for s in counts[level]} - set(statuses))
    header = "| level | " + " | ".join(STATUS_LABELS.get(s, s) for s in statuses) + " |"
    rows = [
        f"| {level.upper()} | " + " | ".join(_count(counts[level], s, level) for s in statuses) + " |"
        for level in LEVELS
    ]
    return "\n".join([header, "|---|" + "---|" * len(statuses), *rows])


def _count(counts: dict[str, int], status: str, level: str) -> str:
    if status not in STATUSES[level] and status not in counts:
        return "-"
    return str(counts.get(status, 0))


def _rules(entry: dict[str, Any]) -> str:
    return ", ".join(f"{symbol} ({count})" for symbol, count in entry["rules"].items())


def _trend(compare: dict[str, Any]) -> str:
    return f"Since {_code(compare['file'])}: {changes(compare)}."


def _at(entry: dict[str, Any]) -> str:
    return f"{entry['path']}:{entry['line']}"


def _code(text: str) -> str:
    """``text`` as a code span, whatever it holds: a fence longer than its longest run of
    backticks (a backtick in a file name must not end the span and let HTML through), and on
    one line (a newline could start an HTML block)."""
    text = one_line(text)
    fence = "`" * (1 + max((len(run) for run in re.findall("`+", text)), default=0))
    padding = " " if text.startswith("`") or text.endswith("`") else ""
    return f"{fence}{padding}{text}{padding}{fence}"
