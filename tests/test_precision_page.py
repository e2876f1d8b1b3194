"""benchmarks/precision.py: the page shows the tuning half and the held-out half apart, each with
the precision of every error rule and of the warnings overall."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from tests.examples import REPO

sys.path.insert(0, str(REPO / "benchmarks"))

import precision


def finding(path: str, line: int, symbol: str, severity: str) -> dict[str, object]:
    return {"path": path, "line": line, "symbol": symbol, "severity": severity}


RESULTS = {
    "tuned": [
        finding("a.py", 1, "unknown-mindspore-api", "error"),
        finding("a.py", 2, "variable-slice", "warning"),
    ],
    "unseen": [
        finding("b.py", 1, "unknown-mindspore-api", "error"),
        finding("b.py", 2, "unknown-mindspore-api", "error"),
        finding("b.py", 3, "unsupported-syntax", "error"),
        finding("b.py", 4, "variable-slice", "warning"),
        finding("b.py", 5, "third-party-call-in-graph", "warning"),
        finding("b.py", 6, "dynamic-shape-op", "warning"),
        finding("b.py", 7, "useless-suppression", "info"),
    ],
}
REVIEW = {
    ("tuned", "a.py", 1, "unknown-mindspore-api"): precision.Verdict(True, "gone", "hasattr"),
    ("unseen", "b.py", 1, "unknown-mindspore-api"): precision.Verdict(True, "gone", "hasattr"),
    ("unseen", "b.py", 2, "unknown-mindspore-api"): precision.Verdict(False, "exists", "hasattr"),
    ("unseen", "b.py", 3, "unsupported-syntax"): precision.Verdict(False, "folds", "STRICT: ok"),
    ("unseen", "b.py", 4, "variable-slice"): precision.Verdict(True, "dynamic", "LAX"),
    ("unseen", "b.py", 5, "third-party-call-in-graph"): precision.Verdict(False, "constant", "STRICT: ok"),
    ("unseen", "c.py", 9, "unsupported-syntax"): precision.Verdict(False, "fixed", "STRICT: ok"),
}
HALVES = {"Tuning half": ("Tuned on.", ["tuned"]), "Held-out half": ("Never tuned on.", ["unseen"])}


def section(page: str, title: str) -> str:
    after = page.split(f"## {title}\n", 1)[1]
    return after.split("\n## ", 1)[0]


def test_each_half_has_its_own_summary_of_error_rules_and_warnings() -> None:
    page = precision.render(RESULTS, REVIEW, [("unseen", "c.py", 9, "unsupported-syntax")], HALVES)
    held_out = section(page, "Held-out half")
    assert "Never tuned on." in held_out
    assert "| unknown-mindspore-api | error | 2 | 2 | 1 | 1 | 50% |" in held_out
    assert "| unsupported-syntax | error | 1 | 1 | 0 | 1 | 0% |" in held_out
    assert "| all warnings | warning | 3 | 2 | 1 | 1 | 50% |" in held_out
    assert "useless-suppression" not in held_out.split("By corpus and rule:")[0]
    assert "| unseen | useless-suppression | info | 1 | 0 | 0 | 0 | - |" in held_out
    assert "FALSE (fixed): unseen `c.py:9` unsupported-syntax" in held_out
    assert "* unseen `b.py:2` unknown-mindspore-api: exists" in held_out
    tuning = section(page, "Tuning half")
    assert "| unknown-mindspore-api | error | 1 | 1 | 1 | 0 | 100% |" in tuning
    assert "| all warnings | warning | 1 | 0 | 0 | 0 | - |" in tuning
    assert "unseen" not in tuning


def test_the_page_reads_back_as_a_before_page_without_its_summary_rows(tmp_path: Path) -> None:
    page = tmp_path / "old.md"
    page.write_text(precision.render(RESULTS, REVIEW, [], HALVES), encoding="utf-8")
    before = precision.load_before(page)
    assert before[("unseen", "unknown-mindspore-api", "error")] == ("2", "50%")
    assert all(row[0] in RESULTS for row in before)


def test_held_out_corpora_are_found_under_the_root_or_named_with_their_source(tmp_path: Path) -> None:
    listed = tmp_path / "held_out.json"
    corpus = {"name": "zoo", "repo": "owner/zoo", "commit": "0" * 40, "subfolder": "research", "exclude": ["vendored"]}
    later = {"name": "course", "repo": "owner/course", "commit": "1" * 40}
    rounds = [
        {"title": "Held-out half", "sampling": "all errors", "corpora": [corpus]},
        {"title": "Held-out half, fresh round", "sampling": "all of it", "corpora": [later]},
    ]
    listed.write_text(json.dumps({"rounds": rounds}), encoding="utf-8")
    held_out, fresh = precision.load_held_out(listed)
    assert (held_out.title, fresh.title) == ("Held-out half", "Held-out half, fresh round")
    assert fresh.corpora == [precision.HeldOutCorpus("course", "owner/course", "1" * 40, "", ())]
    with pytest.raises(SystemExit, match=r"`research/` of owner/zoo at 0{40} without `vendored/`"):
        precision.held_out_corpora(held_out, tmp_path)
    (tmp_path / "zoo").mkdir()
    assert precision.held_out_corpora(held_out, tmp_path) == {"zoo": (tmp_path / "zoo").resolve()}
    assert precision.describe(held_out).startswith("all errors\n\n* zoo: `research/` of owner/zoo")


def test_the_tracked_list_names_each_held_out_corpus_once() -> None:
    rounds = precision.load_held_out(precision.HELD_OUT)
    names = [corpus.name for listed in rounds for corpus in listed.corpora]
    assert len(rounds) >= 2
    assert len(names) == len(set(names))
    assert all(len(corpus.commit) == 40 for listed in rounds for corpus in listed.corpora)


def test_a_notebook_line_has_a_verdict_in_each_cell(tmp_path: Path) -> None:
    review = tmp_path / "review.jsonl"
    entries = [
        {"cell": 2, "verdict": "TRUE", "reason": "removed", "reproduction": "ImportError"},
        {"cell": 5, "verdict": "FALSE", "reason": "guarded", "reproduction": "runs"},
    ]
    common = {"corpus": "course", "path": "intro.ipynb", "line": 3, "symbol": "unknown-mindspore-api"}
    review.write_text("".join(json.dumps({**common, **entry}) + "\n" for entry in entries), encoding="utf-8")
    verdicts = precision.load_review(review)
    found = [{**finding("./intro.ipynb", 3, "unknown-mindspore-api", "error"), "cell": cell} for cell in (2, 5, 7)]
    assert [verdicts.get(precision.key_of("course", f)) for f in found] == [
        precision.Verdict(True, "removed", "ImportError"),
        precision.Verdict(False, "guarded", "runs"),
        None,
    ]
