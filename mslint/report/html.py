"""The report as one self-contained HTML page: no network, no external file.

The summary and its SVG charts are written here; the table of entries and each entry's
drill-down are drawn by the page's own script (``page.js``) from the report's JSON, embedded
in the page with the source of the functions the drill-downs show.
"""

from __future__ import annotations

import json
from html import escape
from importlib import resources
from pathlib import Path
from typing import Any

from mslint.report.charts import rule_chart, status_chart
from mslint.report.status import COUNTED, LEVELS, counted, plural
from mslint.report.trend import changes
from mslint.source import source_text


def render(document: dict[str, Any]) -> str:
    summary = document["summary"]
    title = f"mslint readiness: {', '.join(document['paths'])}"
    return f"""<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{escape(title)}</title>
<style>{_asset("page.css")}</style>
</head>
<body>
<header>
<h1>Graph-mode readiness</h1>
<p class="meta">{escape(", ".join(document["paths"]))}: {counted(summary["entries"], document["files"])},
{summary["findings"]} findings; target {escape(document["target"])}; mslint {escape(document["mslint"])}</p>
</header>
<main>
<section id="summary">
<figure><figcaption>Entries by predicted status</figcaption>{status_chart(summary)}</figure>
<figure><figcaption>Findings by rule</figcaption>{rule_chart(summary)}</figure>
{_verified(summary)}{_trend(document.get("compare"))}
</section>
<section id="entries">
<h2>Entries</h2>
<form id="filters">
<label>STRICT <select id="filter-strict"><option value="">any</option></select></label>
<label>LAX <select id="filter-lax"><option value="">any</option></select></label>
<label>Rule <select id="filter-rule"><option value="">any</option></select></label>
<label>Folder <select id="filter-folder"><option value="">any</option></select></label>
<label>Name or file <input id="filter-text" type="search"></label>
<label id="changed-filter"><input id="filter-changed" type="checkbox"> changed only</label>
<output id="shown"></output>
</form>
<div id="split">
<div id="table-box">
<table id="entry-table">
<thead><tr>
<th data-sort="name">Entry</th><th data-sort="path">File</th><th data-sort="strict">STRICT</th>
<th data-sort="lax">LAX</th><th data-sort="findings">Findings</th><th>Rules</th><th data-sort="verified">Verified</th>
</tr></thead>
<tbody id="rows"></tbody>
</table>
</div>
<aside id="detail"><p class="empty">Choose an entry to see its source, its findings and how it reaches them.</p></aside>
</div>
</section>
<section id="outside"></section>
</main>
<script type="application/json" id="report-data">{_script_json(document)}</script>
<script type="application/json" id="report-sources">{_script_json(_sources(document))}</script>
<script>{_asset("page.js")}</script>
</body>
</html>
"""


def _asset(name: str) -> str:
    return resources.files("mslint.report").joinpath(name).read_text(encoding="utf-8")


def _script_json(value: object) -> str:
    """JSON that cannot end its ``<script>`` element early."""
    return json.dumps(value, separators=(",", ":")).replace("</", "<\\/").replace("<!--", "<\\!--")


def _verified(summary: dict[str, Any]) -> str:
    verified = summary.get("verified")
    if not verified:
        return ""
    levels = "; ".join(
        f"{level.upper()}: " + ", ".join(f"{n} {COUNTED.get(s, s)}" for s, n in verified[level].items())
        for level in LEVELS
    )
    entries = plural(verified["entries"], "entry", "entries")
    return f'<p id="verified-summary">Compiled by <code>mslint verify</code>: {entries}. {escape(levels)}.</p>'


def _trend(compare: dict[str, Any] | None) -> str:
    if not compare:
        return ""
    gone = [
        f"<li>fixed: {escape(str(f['path']))}:{escape(str(f['line']))} {escape(str(f['code']))} "
        f"{escape(str(f['message']))}</li>"
        for f in compare["fixed_findings"]
    ] + [f"<li>removed: {escape(str(entry))}</li>" for entry in compare["removed_entries"]]
    listed = f"<details><summary>Fixed and removed</summary><ul>{''.join(gone)}</ul></details>" if gone else ""
    return f'<div id="trend"><p>Since <code>{escape(compare["file"])}</code>: {changes(compare)}.</p>{listed}</div>'


def _sources(document: dict[str, Any]) -> dict[str, Any]:
    """The text the drill-downs show: each entry's function and the helpers holding its findings
    (``functions``, by number), and the lines of the findings outside them (``findings``)."""
    shown = {e["function"] for e in document["entries"]}
    shown |= {p["function"] for e in document["entries"] for p in e["call_paths"]}
    files: dict[str, list[str]] = {}

    def lines(path: str, first: int, last: int) -> list[str]:
        if path not in files:
            try:
                files[path] = source_text(Path(path)).split("\n")
            except (OSError, UnicodeDecodeError):
                files[path] = []
        return files[path][first - 1 : last]

    functions = {
        str(n): lines(row["path"], row["line"], row["end_line"])
        for n in sorted(n for n in shown if n is not None)
        for row in [document["functions"][n]]
    }
    findings = {
        str(i): lines(f["path"], f["line"], f["end_line"])
        for i, f in enumerate(document["findings"])
        if f["function"] is None or f["in_class"] or f["building"]
    }
    return {"functions": functions, "findings": findings}
