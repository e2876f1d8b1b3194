"""``mslint report``: entries' statuses at each level, call paths, verify results, trend, formats, bad input."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import html5lib
import pytest

from mslint.diagnostics import Severities, Severity
from mslint.model import scope
from mslint.report.status import LAX, STATUS_LABELS, STRICT, level_status
from mslint.rule_docs import documentation_link
from mslint.rules import all_rules
from tests.examples import REPO
from tests.report_helpers import BUILT_BY_A_HELPER, Run, copy_project, entry, report_json


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    root = copy_project(tmp_path)
    monkeypatch.chdir(root)
    return root


def statuses(document: dict[str, Any]) -> dict[str, tuple[str, str]]:
    return {e["name"]: (e[STRICT]["status"], e[LAX]["status"]) for e in document["entries"]}


def test_each_entry_gets_the_status_its_findings_give_at_each_level(project: Path, run: Run) -> None:
    document = report_json(run, ".")
    assert statuses(document) == {
        "FallsBack.construct": ("fails", "falls-back"),  # numpy on a tensor, in a helper of another file
        "Outer.construct": ("fails", "falls-back"),  # through its sub-Cell FallsBack
        "Fails.construct": ("fails", "fails"),  # a plain list of Cells, in its __init__
        "Dynamic.construct": ("warnings", "warnings"),  # a dynamic shape: compiles, breaks on Ascend
        "Clean.construct": ("no-finding", "no-finding"),  # compiles only where verify says so
        "double": ("no-finding", "no-finding"),  # a @jit function
    }
    assert document["summary"][STRICT] == {"compiles": 0, "no-finding": 2, "warnings": 1, "fails": 3}
    assert document["summary"][LAX] == {"compiles": 0, "no-finding": 2, "warnings": 1, "falls-back": 2, "fails": 1}
    assert entry(document, "double")["kind"] == "jit" and entry(document, "Clean.construct")["kind"] == "cell"


def test_findings_carry_both_severities_and_the_rule_page(project: Path, run: Run) -> None:
    document = report_json(run, ".")
    by_symbol = {f["symbol"]: f for f in document["findings"]}
    numpy_call = by_symbol["third-party-call-in-graph"]
    assert numpy_call["severity"] == {"strict": "error", "lax": "warning"} and numpy_call["falls_back"]
    assert numpy_call["hint"]
    rule = next(rule for rule in all_rules() if rule.symbol == "third-party-call-in-graph")
    assert numpy_call["link"] == documentation_link(rule)
    assert numpy_call["link"].startswith(("https://", "file:///")) and numpy_call["link"].endswith(
        "/rules/third-party-call-in-graph.md"
    )
    assert by_symbol["python-container-of-cells"]["severity"] == {"strict": "error", "lax": "error"}
    assert by_symbol["python-container-of-cells"]["in_class"], "in __init__: counted for the Cell's construct"
    assert by_symbol["dynamic-shape-op"]["severity"] == {"strict": "warning", "lax": "warning"}
    assert by_symbol["distributed-without-seed"]["function"] is None, "in a script: outside every entry"
    assert document["summary"]["outside_entries"] == 1


def test_the_call_path_to_a_finding_in_another_file_comes_from_the_model(project: Path, run: Run) -> None:
    document = report_json(run, ".")
    outer = entry(document, "Outer.construct")
    [path] = outer["call_paths"]
    assert document["functions"][path["function"]]["name"] == "clip"
    assert [(c["caller"], c["path"], c["line"]) for c in path["via"]] == [
        ("Outer.construct", "pkg/nets.py", 39),
        ("FallsBack.construct", "pkg/nets.py", 9),
        ("scale", "pkg/helpers.py", 9),
    ]
    reached = sorted(document["functions"][n]["name"] for n in outer["reached"])
    assert reached == ["FallsBack.construct", "clip", "scale"]


@pytest.mark.parametrize(
    ("severities", "strict", "lax"),
    [
        (Severities(Severity.ERROR, Severity.WARNING), "fails", "falls-back"),  # STRICT rejects, LAX interprets
        (Severities(Severity.INFO, Severity.WARNING), "no-finding", "falls-back"),  # only LAX interprets it
        (Severities(Severity.WARNING, Severity.WARNING), "warnings", "warnings"),  # the level changes nothing
        (Severities(Severity.ERROR, Severity.ERROR), "fails", "fails"),
        (Severities(Severity.INFO, Severity.INFO), "no-finding", "no-finding"),
    ],
)
def test_status_mapping(severities: Severities, strict: str, lax: str) -> None:
    findings = [("net.py", 3, severities), ("net.py", 3, severities), ("net.py", 5, severities)]
    assert level_status(findings, STRICT).status == strict
    assert level_status(findings, LAX).status == lax
    assert level_status(findings, LAX).lines == (0 if lax == "no-finding" else 2), "lines, not findings"


def test_json_and_markdown_say_the_same(project: Path, run: Run) -> None:
    document = report_json(run, ".")
    code, markdown, _ = run("report", "--format", "markdown", ".")
    assert code == 0
    header, _, strict_row, lax_row = markdown.split("\n\n")[1].splitlines()
    columns = [c.strip() for c in header.strip("|").split("|")][1:]
    labels = {label: status for status, label in STATUS_LABELS.items()}
    for level, row in ((STRICT, strict_row), (LAX, lax_row)):
        cells = [c.strip() for c in row.strip("|").split("|")]
        assert cells[0] == level.upper()
        shown = {labels[c]: int(n) for c, n in zip(columns, cells[1:]) if n != "-"}
        assert shown == document["summary"][level]
    for rule in document["summary"]["by_rule"]:
        assert f"| {rule['code']} {rule['symbol']} | {rule['count']} |" in markdown
    failing = [e for e in document["entries"] if "fails" in (e[STRICT]["status"], e[LAX]["status"])]
    assert f"Entries that fail at either level ({len(failing)}):" in markdown
    for e in failing:
        assert f"* `{e['path']}:{e['line']}` {e['name']}: " in markdown
    assert "1 finding outside any entry" in markdown


def test_compare_marks_what_changed(project: Path, run: Run, tmp_path: Path) -> None:
    old = tmp_path / "old.json"
    code, _, _ = run("report", "--format", "json", "-o", str(old), ".")
    assert code == 0
    helpers = project / "pkg" / "helpers.py"
    helpers.write_text(helpers.read_text().replace("np.maximum(x, 0)", "x.clip(0)"))
    nets = project / "pkg" / "nets.py"
    nets.write_text(
        nets.read_text() + "\n\nclass Added(nn.Cell):\n    def construct(self, x):\n        return x.asnumpy()\n"
    )
    document = report_json(run, ".", "--compare", str(old))
    changes = {e["name"]: e["change"] for e in document["entries"]}
    assert changes["Added.construct"] == {"kind": "new"}
    assert changes["FallsBack.construct"] == {"kind": "status", "was_strict": "fails", "was_lax": "falls-back"}
    assert changes["Clean.construct"] is None
    assert [f["symbol"] for f in document["findings"] if f["new"]] == ["tensor-to-host-in-graph"]
    compare = document["compare"]
    assert [f["symbol"] for f in compare["fixed_findings"]] == ["third-party-call-in-graph"]
    assert (compare["new_entries"], compare["changed_entries"], compare["new_findings"]) == (1, 2, 1)
    code, _, _ = run("report", ".", "--compare", str(old), "-o", str(tmp_path / "report.html"))
    page = (tmp_path / "report.html").read_text()
    assert "<li>fixed: pkg/helpers.py:5 MS101 `numpy.maximum` is called on a graph value" in page
    html5lib.HTMLParser(strict=True).parse(page)
    _, markdown, _ = run("report", "--format", "markdown", ".", "--compare", str(old))
    assert f"Since `{old}`: 1 new finding, 1 fixed; 1 new entry, 2 changed status, 0 removed." in markdown


def test_html_is_valid_html5_and_self_contained(project: Path, run: Run, tmp_path: Path) -> None:
    out = tmp_path / "report.html"
    code, stdout, _ = run("report", ".", "-o", str(out))
    assert code == 0 and stdout == (
        f"Wrote {out}: 6 graph entries in 3 files: STRICT 2 with no finding, 1 with warnings, 3 fail; "
        "LAX 2 with no finding, 1 with warnings, 2 fall back, 1 fail\n"
    )
    text = out.read_text()
    html5lib.HTMLParser(strict=True, namespaceHTMLElements=False).parse(text)  # raises on any parse error
    assert not re.search(r"<(link|img|iframe)\b|\bsrc=|@import|url\(", text), "nothing loaded from elsewhere"
    embedded = re.search(r'<script type="application/json" id="report-data">(.*?)</script>', text, re.S)
    assert embedded and json.loads(embedded.group(1))["summary"] == report_json(run, ".")["summary"]


def test_embedded_json_cannot_close_its_script_element(project: Path, run: Run, tmp_path: Path) -> None:
    (project / "pkg" / "odd.py").write_text(
        "import numpy as np\nfrom mindspore import nn\n\n\nclass Odd(nn.Cell):\n"
        "    def construct(self, x):\n        return np.sum(x)  # </script><!-- <b>\n"
    )
    out = tmp_path / "report.html"
    assert run("report", ".", "-o", str(out))[0] == 0
    text = out.read_text()
    html5lib.HTMLParser(strict=True).parse(text)
    assert text.count("</script>") == 3, "the two JSON blocks and the page script, nothing more"


@pytest.mark.parametrize(
    ("content", "option", "message"),
    [
        (None, "--compare", "cannot read: No such file or directory"),
        ("not json", "--compare", "not JSON: expected the output of `mslint report --format json`"),
        ("[]", "--compare", "not the output of `mslint report --format json`"),
        (
            '{"format": "mslint-report", "version": 0, "summary": {}, "entries": [], "findings": []}',
            "--compare",
            "version",
        ),
        (
            '{"format": "mslint-report", "version": 1, "summary": [], "entries": [], "findings": []}',
            "--compare",
            "not the",
        ),
        ("{}", "--verify-results", "not the output of `mslint verify --format json`"),
    ],
)
def test_bad_input_files_are_one_line_errors(
    project: Path, run: Run, tmp_path: Path, content: str | None, option: str, message: str
) -> None:
    given = tmp_path / "given.json"
    if content is not None:
        given.write_text(content)
    code, out, err = run("report", ".", option, str(given))
    assert code == 2 and not out
    assert err.startswith(f"mslint: error: {given}: ") and message in err and err.count("\n") == 1


def test_bad_paths_and_options_are_one_line_errors(project: Path, run: Run) -> None:
    code, _, err = run("report", "missing")
    assert code == 2 and err == "mslint: error: missing: no such file or directory\n"
    code, _, err = run("report", ".", "-o", "no/such/folder/report.html")
    assert code == 2 and err.startswith("mslint: error: no/such/folder/report.html: cannot write")
    with pytest.raises(SystemExit, match="2"):
        run("report", ".", "--syntax-level", "strict")  # the report shows both levels


@pytest.mark.mindspore
def test_verify_results_show_the_confirmed_status_and_evidence(
    run: Run, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, write: Any
) -> None:
    write(
        "verified/net.py",
        """
        from mindspore import nn


        class ToHost(nn.Cell):  # mslint: inputs=float32[2]
            def construct(self, x):
                return x.asnumpy()


        class Fine(nn.Cell):  # mslint: inputs=float32[2]
            def construct(self, x):
                return x * 2
        """,
    )
    monkeypatch.chdir(tmp_path)
    code, out, err = run("verify", "--all", "--format", "json", "--jobs", "2", "verified")
    assert code == 0, err  # at the default level, LAX, a confirmed fallback is a warning
    Path("verify.json").write_text(out)
    document = report_json(run, "verified", "--verify-results", "verify.json")
    to_host, fine = entry(document, "ToHost.construct"), entry(document, "Fine.construct")
    assert (to_host[STRICT]["status"], to_host[LAX]["status"]) == ("fails", "falls-back")
    assert to_host["verified"][STRICT]["status"] == "fails"
    assert to_host["verified"][LAX]["status"] == "falls-back"
    assert [(p["kind"], p["path"], p["line"]) for p in to_host["verified"][LAX]["evidence"]] == [
        ("fallback", "verified/net.py", 6)
    ], "the file as the report names it (verify names it by its absolute path)"
    assert (fine[STRICT]["status"], fine[LAX]["status"]) == ("compiles", "compiles"), "the compiler's word"
    assert fine["verified"] == {
        STRICT: {"status": "compiles", "reason": None, "evidence": []},
        LAX: {"status": "compiles", "reason": None, "evidence": []},
    }
    [finding] = document["findings"]
    assert finding["verdict"]["verdict"] == "confirmed"
    assert document["summary"]["verified"]["entries"] == 2
    code, markdown, _ = run("report", "--format", "markdown", "verified", "--verify-results", "verify.json")
    assert "Compiled by `mslint verify`: 2 entries." in markdown


def test_an_undecodable_file_is_a_finding_and_the_others_are_reported(project: Path, run: Run) -> None:
    (project / "pkg" / "latin.py").write_bytes(b"x = 1\n\xff\xfe = 2\n")
    code, out, err = run("report", "--format", "json", ".")
    assert (code, err) == (0, "")
    document = json.loads(out)
    assert [(f["path"], f["line"], f["symbol"]) for f in document["findings"] if f["path"] == "pkg/latin.py"] == [
        ("pkg/latin.py", 2, "syntax-error")
    ]
    assert document["summary"]["entries"] == 6


def test_a_tree_without_entries(tmp_path: Path, run: Run) -> None:
    out = tmp_path / "report.html"
    code, stdout, _ = run("report", str(tmp_path), "-o", str(out))
    assert (code, stdout) == (0, f"Wrote {out}: 0 graph entries in 0 files\n")
    html5lib.HTMLParser(strict=True).parse(out.read_text())
    assert '<p class="empty">No findings.</p>' in out.read_text()


def test_one_analysis_gives_both_levels_and_the_graph_scope(
    project: Path, run: Run, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The report reads the analysis `check` makes, once: no second analysis at STRICT, no
    second search for the graph code; its severities at each level are check's at that level."""
    searches = []
    search = scope._sub_cell_constructs  # called once by each search for the graph code
    monkeypatch.setattr(scope, "_sub_cell_constructs", lambda *args: searches.append(1) or search(*args))
    document = report_json(run, ".")
    assert len(searches) == 1, "the graph code is found once"
    for level in (STRICT, LAX):
        code, out, _ = run("check", "--format", "json", "--syntax-level", level, ".")
        checked = {(d["path"], d["line"], d["column"], d["symbol"]): d["severity"] for d in json.loads(out)}
        reported = {
            (f["path"], f["line"], f["column"], f["symbol"]): f["severity"][level] for f in document["findings"]
        }
        assert reported == checked and code == 1


def test_compiles_only_where_verify_compiled_it(project: Path, run: Run, tmp_path: Path) -> None:
    """An entry without findings has "no finding"; it "compiles" at a level only where the
    results of verify show its compile there (Clean at both levels, double never compiled)."""
    nets = str((project / "pkg" / "nets.py").resolve())
    compiled = [{"path": nets, "name": "Clean", "level": level, "status": "compiled"} for level in ("strict", "lax")]
    compiled.append({"path": nets, "name": "Dynamic", "level": "lax", "status": "compiled"})
    results = tmp_path / "verify.json"
    results.write_text(json.dumps({"findings": [], "compiler_only": [], "compiles": compiled}))
    document = report_json(run, ".", "--verify-results", str(results))
    shown = statuses(document)
    assert shown["Clean.construct"] == ("compiles", "compiles")
    assert shown["double"] == ("no-finding", "no-finding"), "not compiled: no word of the compiler"
    assert shown["Dynamic.construct"] == ("warnings", "warnings"), "a prediction with findings stays"
    assert document["summary"][STRICT] == {"compiles": 1, "no-finding": 1, "warnings": 1, "fails": 3}
    code, markdown, _ = run("report", "--format", "markdown", ".", "--verify-results", str(results))
    assert code == 0
    assert "| level | compiles | no finding | warnings | falls back | fails |" in markdown
    assert "| STRICT | 1 | 1 | 1 | - | 3 |" in markdown
    code, markdown, _ = run("report", "--format", "markdown", ".")
    assert code == 0
    assert "| level | compiles | no finding | warnings | falls back | fails |" in markdown
    assert "| STRICT | 0 | 2 | 1 | - | 3 |" in markdown, "nothing compiles without verify's results"


def test_a_version_1_report_compares_its_compiles_as_no_finding(project: Path, run: Run, tmp_path: Path) -> None:
    """Version 1 said "compiles" for an entry without findings: unchanged entries stay unchanged."""
    old = report_json(run, ".")
    old["version"] = 1
    for entry_ in old["entries"]:
        for level in (STRICT, LAX):
            if entry_[level]["status"] == "no-finding":
                entry_[level]["status"] = "compiles"
    for level in (STRICT, LAX):
        counts = old["summary"][level].items()
        old["summary"][level] = {("compiles" if s == "no-finding" else s): n for s, n in counts if s != "compiles"}
    saved = tmp_path / "v1.json"
    saved.write_text(json.dumps(old))
    document = report_json(run, ".", "--compare", str(saved))
    assert all(e["change"] is None for e in document["entries"])
    assert document["compare"]["before"][STRICT]["no-finding"] == 2


def test_a_finding_that_breaks_building_a_cell_marks_its_entry(tmp_path: Path, run: Run) -> None:
    """MS206 in a helper that ``__init__`` calls stops the Cell before its construct compiles:
    it counts for every Cell whose building runs it (Block calls it, Net builds a Block), not
    as a finding outside the entries."""
    (tmp_path / "net.py").write_text(BUILT_BY_A_HELPER)
    document = report_json(run, str(tmp_path))
    [finding] = document["findings"]
    assert finding["symbol"] == "conv-padding-without-pad-mode" and finding["function"] is None
    assert statuses(document) == {
        "Block.construct": ("fails", "fails"),
        "Net.construct": ("fails", "fails"),
        "Plain.construct": ("no-finding", "no-finding"),
    }
    assert sorted(document["functions"][n]["name"] for n in finding["building"]) == ["Block.construct", "Net.construct"]
    assert entry(document, "Net.construct")["findings"] == [0]
    assert document["summary"]["outside_entries"] == 0


def test_the_rule_chart_shows_every_rule(run: Run, tmp_path: Path) -> None:
    """rules/ has findings of every rule: each has its bar (the chart stopped at 15)."""
    out = tmp_path / "report.html"
    assert run("report", str(REPO / "rules"), "-o", str(out))[0] == 0
    page = out.read_text()
    embedded = re.search(r'<script type="application/json" id="report-data">(.*?)</script>', page, re.S)
    assert embedded
    by_rule = [r["symbol"] for r in json.loads(embedded.group(1))["summary"]["by_rule"]]
    chart = page[page.index('<svg id="chart-rules"') :]
    assert re.findall(r'<rect class="bar" data-rule="([^"]+)"', chart[: chart.index("</svg>")]) == by_rule
    assert len(by_rule) > 15
