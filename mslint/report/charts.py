"""The summary's charts as inline SVG: entries by status at each level, findings by rule."""

from __future__ import annotations

from html import escape
from typing import Any

from mslint.report.status import COUNTED, LEVELS, STATUS_LABELS, STATUSES

_BAR, _LABEL = 26, 70
_STATUS_WIDTH, _BAR_SPAN = 820, 380
"""The status bars take 380 of the 820 units; their counts are written after them."""
_RULES_WIDTH = 640


def status_chart(summary: dict[str, Any]) -> str:
    """One bar per level, split by status; each part is a filter of the table (``data-status``)."""
    height = len(LEVELS) * (_BAR + 14) + 34
    parts = [_svg_open("chart-status", _STATUS_WIDTH, height, "Graph entries by predicted status at STRICT and at LAX")]
    total = max(summary["entries"], 1)
    span = _BAR_SPAN
    for row, level in enumerate(LEVELS):
        y = 6 + row * (_BAR + 14)
        parts.append(f'<text x="0" y="{y + _BAR * 0.68:.1f}" class="axis">{level.upper()}</text>')
        x = float(_LABEL)
        for status in STATUSES[level]:
            count = summary[level].get(status, 0)
            if not count:
                continue
            width = span * count / total
            label = f"{level.upper()}: {count} {STATUS_LABELS[status]}"
            parts.append(
                f'<rect class="segment s-{status}" data-level="{level}" data-status="{status}" x="{x:.1f}" y="{y}" '
                f'width="{width:.1f}" height="{_BAR}"><title>{escape(label)}</title></rect>'
            )
            if width > 28:
                parts.append(f'<text x="{x + 5:.1f}" y="{y + _BAR * 0.68:.1f}" class="inside">{count}</text>')
            x += width
        counts = ", ".join(f"{summary[level][s]} {COUNTED[s]}" for s in STATUSES[level] if summary[level].get(s))
        parts.append(f'<text x="{x + 8:.1f}" y="{y + _BAR * 0.68:.1f}" class="legend">{escape(counts)}</text>')
    legend_y = height - 10
    x = float(_LABEL)
    for status in [s for s in STATUSES["lax"] if any(summary[level].get(s) for level in LEVELS)]:
        parts.append(f'<rect class="s-{status}" x="{x:.1f}" y="{legend_y - 10}" width="10" height="10"></rect>')
        parts.append(f'<text x="{x + 14:.1f}" y="{legend_y}" class="legend">{STATUS_LABELS[status]}</text>')
        x += 30 + 7 * len(STATUS_LABELS[status])
    return "".join(parts) + "</svg>"


def rule_chart(summary: dict[str, Any]) -> str:
    """One bar per rule with findings, every one (the most frequent first); each is a filter of
    the table (``data-rule``)."""
    rules = summary["by_rule"]
    if not rules:
        return '<p class="empty">No findings.</p>'
    label_width = 270
    height = len(rules) * 22 + 6
    parts = [_svg_open("chart-rules", _RULES_WIDTH, height, "Findings by rule")]
    most = max(r["count"] for r in rules)
    span = _RULES_WIDTH - label_width - 40
    for row, rule in enumerate(rules):
        y = 4 + row * 22
        width = max(span * rule["count"] / most, 2)
        name = escape(f"{rule['code']} {rule['symbol']}")
        parts.append(f'<text x="0" y="{y + 13}" class="axis">{name}</text>')
        parts.append(
            f'<rect class="bar" data-rule="{escape(rule["symbol"])}" x="{label_width}" y="{y}" width="{width:.1f}" '
            f'height="16"><title>{name}: {rule["count"]}</title></rect>'
        )
        parts.append(f'<text x="{label_width + width + 5:.1f}" y="{y + 13}" class="legend">{rule["count"]}</text>')
    return "".join(parts) + "</svg>"


def _svg_open(identifier: str, width: int, height: int, title: str) -> str:
    return (
        f'<svg id="{identifier}" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" '
        f'width="{width}" height="{height}" role="img" aria-label="{escape(title)}"><title>{escape(title)}</title>'
    )
