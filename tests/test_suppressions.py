"""Suppression comments: every spelling that silences a finding, and the rules about comments that do not."""

from __future__ import annotations

import ast
import textwrap
from pathlib import Path

import pytest

from mslint.diagnostics import Severity
from mslint.engine import check_files
from mslint.settings import Settings
from mslint.suppressions import SuppressionComments

NET = """\
import numpy as np
from mindspore import nn


class Net(nn.Cell):
    def construct(self, x):
        return np.maximum(x, 0){comment}
"""


def findings(tmp_path: Path, source: str, settings: Settings | None = None) -> list[tuple[int, int, str]]:
    path = tmp_path / "net.py"
    path.write_text(textwrap.dedent(source))
    report = check_files([path], settings or Settings())
    return [(d.line, d.column, d.symbol) for d in report.diagnostics]


def column(source: str, text: str) -> int:
    """The column mslint reports for ``text`` on the last line of ``source`` (ASCII here)."""
    return source.splitlines()[-1].index(text) + 1


def test_the_example_is_a_finding_without_a_comment(tmp_path: Path) -> None:
    assert findings(tmp_path, NET.format(comment="")) == [(7, 16, "third-party-call-in-graph")]


@pytest.mark.parametrize(
    "comment",
    [
        "  # mslint: disable=ms101",
        "  # mslint: disable = MS101",
        "  # mslint: disable=THIRD-PARTY-CALL-IN-GRAPH",
        "  # MSLint: Disable=variable-slice , MS101",
        "  # noqa: MS101",
        "  # noqa:ms101",
        "  # NOQA: MS101",
        "  # mslint: disable=MS101  (une entrée constante)",  # a file that is not ASCII
        "  # noqa: E501, MS101 the input is a constant",
        "  # noqa: E501 MS101",
        "  # type: ignore  # mslint: disable=all",
    ],
)
def test_comments_that_silence_the_finding(comment: str, tmp_path: Path) -> None:
    settings = Settings(ignore=("useless-suppression",))  # variable-slice reports nothing on the line
    assert findings(tmp_path, NET.format(comment=comment), settings) == []


@pytest.mark.parametrize("comment", ["  # noqa", "  # noqa: E501", "  # NOQA:F401"])
def test_noqa_without_an_mslint_code_is_left_to_other_tools(comment: str, tmp_path: Path) -> None:
    assert findings(tmp_path, NET.format(comment=comment)) == [(7, 16, "third-party-call-in-graph")]


def test_a_name_that_is_no_rule_is_reported_where_it_is_written(tmp_path: Path) -> None:
    source = NET.format(comment="  # mslint: disable=third-party-call, no-such-rule")
    path = tmp_path / "net.py"
    path.write_text(source)
    diagnostics = check_files([path], Settings()).diagnostics
    assert [(d.line, d.column, d.end_column, d.symbol) for d in diagnostics] == [
        (7, 16, 32, "third-party-call-in-graph"),
        (7, 52, 68, "unknown-rule-in-suppression"),
        (7, 70, 82, "unknown-rule-in-suppression"),
    ]
    misspelt, unknown = diagnostics[1:]
    assert misspelt.severity == Severity.WARNING and misspelt.code == "MS002"
    assert misspelt.hint == "did you mean `third-party-call-in-graph`?"
    assert "`no-such-rule`" in unknown.message


def test_an_unknown_mslint_code_in_noqa_is_reported(tmp_path: Path) -> None:
    source = NET.format(comment="  # noqa: MS101, MS999")
    assert findings(tmp_path, source) == [(7, column(source, "MS999"), "unknown-rule-in-suppression")]


def test_a_suppression_that_silences_nothing_is_reported(tmp_path: Path) -> None:
    source = NET.replace("np.maximum(x, 0)", "x * 2").format(comment="  # mslint: disable=MS101,variable-slice")
    path = tmp_path / "net.py"
    path.write_text(source)
    diagnostics = check_files([path], Settings()).diagnostics
    assert [(d.line, d.column, d.symbol) for d in diagnostics] == [
        (7, column(source, "MS101"), "useless-suppression"),
        (7, column(source, "variable-slice"), "useless-suppression"),
    ]
    assert all(d.severity == Severity.INFO and d.code == "MS003" for d in diagnostics), "info: does not fail a run"
    assert diagnostics[0].message.startswith("`MS101` in `# mslint: disable=` silences nothing")


@pytest.mark.parametrize(
    "comment",
    ["  # noqa: MS104", "  # mslint: disable=variable-slice", "  # mslint: disable=all"],
)
def test_unused_is_judged_only_for_enabled_rules(comment: str, tmp_path: Path) -> None:
    """A comment for a rule that does not run may be needed when it does: mslint cannot know."""
    source = NET.replace("np.maximum(x, 0)", "x * 2").format(comment=comment)
    assert [symbol for *_, symbol in findings(tmp_path, source)] == ["useless-suppression"]
    assert findings(tmp_path, source, Settings(select=("MS101", "MS003"))) == []
    assert findings(tmp_path, source, Settings(ignore=("variable-slice",))) == []
    assert findings(tmp_path, source, Settings(root=tmp_path, per_file_ignores={"net.py": ("MS104",)})) == []


def test_all_does_not_hide_findings_about_its_own_comment(tmp_path: Path) -> None:
    source = NET.replace("np.maximum(x, 0)", "x * 2").format(comment="  # mslint: disable=all")
    assert findings(tmp_path, source) == [(7, column(source, "all"), "useless-suppression")]
    clean = NET.replace("np.maximum(x, 0)", "x * 2")
    assert findings(tmp_path, clean.format(comment="  # mslint: disable=MS104, MS003")) == []


def test_suppressions_in_unparsable_code_are_not_judged(tmp_path: Path) -> None:
    source = "x = (  # mslint: disable=no-such-rule\n"
    assert [(line, symbol) for line, _, symbol in findings(tmp_path, source)] == [(1, "syntax-error")]


def test_a_comment_after_a_form_feed_silences_its_own_line(tmp_path: Path) -> None:
    """A form feed ends no line for Python (``str.splitlines`` says it does): the comment is on
    the finding's line, not one below it."""
    source = NET.replace("\n\n\nclass", "\n\x0c\n\nclass").format(comment="  # noqa: MS101")
    assert findings(tmp_path, source.replace("  # noqa: MS101", "")) == [(7, 16, "third-party-call-in-graph")]
    assert findings(tmp_path, source) == []


TRICKY_COMMENTS = [
    'x = "# noqa: MS101"  # mslint: disable=MS102\n',
    "x = f'{y!r:#>4} # noqa: MS101'  # noqa: MS103\n",
    'doc = """\n# mslint: disable=all\n"""  # NOQA: MS104 after a string of lines\n',
    "x = b'#' + rb'# noqa: MS105'  # noqa: E501, MS106\n",
    "y = (1 +  # noqa: MS107\n     2)  # mslint: disable=variable-slice\n",
    "z = 'entrée' # noqa: MS108 after text that is not ASCII\n",
    "w = 1\r\n# mslint: disable=MS109\r\nv = 2 \\\n  # noqa: MS110\n",
    "\x0cu = 1  # noqa: MS111 after a form feed\n",
    "s = 'a # b' 'c # mslint: disable=MS112'  # mslint: disable = MS113 , MS114\n",
    "# mslint: disable-file=MS115\nx = '# mslint: disable-next-line=MS116'\n  # mslint: disable-next-line=MS117\n",
    "# mslint: disable=MS118\nx = 1\n# mslint: enable=MS118\n",
]


@pytest.mark.parametrize("source", TRICKY_COMMENTS)
def test_comments_read_beside_the_tree_are_those_tokenizing_finds(source: str) -> None:
    tokenized = SuppressionComments(source).by_line
    assert tokenized, "each source holds a suppression"
    assert SuppressionComments(source, ast.parse(source)).by_line == tokenized


TWO_CALLS = """\
import numpy as np
from mindspore import nn


class Net(nn.Cell):
    def construct(self, x):
        y = np.maximum(x, 0)
        z = np.minimum(y, 1)
        return np.tanh(z)
"""


def test_the_calls_are_findings_without_a_comment(tmp_path: Path) -> None:
    assert [line for line, _, _ in findings(tmp_path, TWO_CALLS)] == [7, 8, 9]


@pytest.mark.parametrize(
    "comment", ["# mslint: disable-file=MS101", "# MSLINT: Disable-File = third-party-call-in-graph, MS104"]
)
@pytest.mark.parametrize("where", [0, 5, 9])
def test_disable_file_silences_the_whole_file_wherever_it_is(comment: str, where: int, tmp_path: Path) -> None:
    lines = TWO_CALLS.splitlines()
    lines.insert(where, comment)
    settings = Settings(ignore=("useless-suppression",))  # MS104 reports nothing
    assert findings(tmp_path, "\n".join(lines) + "\n", settings) == []


def test_disable_next_line_silences_the_line_below_only(tmp_path: Path) -> None:
    source = TWO_CALLS.replace("        z =", "        # mslint: disable-next-line=MS101\n        z =")
    assert [line for line, _, _ in findings(tmp_path, source)] == [7, 10]


def test_a_disable_on_its_own_line_lasts_until_its_enable(tmp_path: Path) -> None:
    source = TWO_CALLS.replace("        y =", "        # mslint: disable=third-party-call-in-graph\n        y =")
    source = source.replace("        return", "        # mslint: enable=ms101\n        return")
    assert [line for line, _, _ in findings(tmp_path, source)] == [11], "the enable names the same rule by code"
    unclosed = TWO_CALLS.replace("        z =", "        # mslint: disable=MS101\n        z =")
    assert [line for line, _, _ in findings(tmp_path, unclosed)] == [7], "to the end of the file"
    other_rule = source.replace("enable=ms101", "enable=MS104")
    assert findings(tmp_path, other_rule, Settings(ignore=("useless-suppression",))) == []


def test_a_disable_after_code_still_silences_its_line_only(tmp_path: Path) -> None:
    source = TWO_CALLS.replace("np.maximum(x, 0)", "np.maximum(x, 0)  # mslint: disable=MS101")
    assert [line for line, _, _ in findings(tmp_path, source)] == [8, 9]


@pytest.mark.parametrize(
    ("comment", "where", "scope"),
    [
        ("# mslint: disable-file=MS104", 0, "in this file"),
        ("        # mslint: disable-next-line=MS104", 6, "on the next line"),
        ("        # mslint: disable=MS104", 6, "below it"),
    ],
)
def test_a_spanning_suppression_that_silences_nothing_says_where(
    comment: str, where: int, scope: str, tmp_path: Path
) -> None:
    lines = TWO_CALLS.splitlines()
    lines.insert(where, comment)
    path = tmp_path / "net.py"
    path.write_text("\n".join(lines) + "\n")
    useless = [d for d in check_files([path], Settings()).diagnostics if d.symbol == "useless-suppression"]
    assert [(d.line, d.message) for d in useless] == [
        (where + 1, f"`MS104` in `{comment.strip()[:-5]}` silences nothing: variable-slice reports nothing {scope}")
    ]


def test_a_range_that_silences_nothing_names_its_end(tmp_path: Path) -> None:
    source = "# mslint: disable=MS104\nx = 1\n# mslint: enable=MS104\n"
    path = tmp_path / "net.py"
    path.write_text(source)
    (useless,) = check_files([path], Settings()).diagnostics
    assert useless.message.endswith("variable-slice reports nothing up to its enable comment on line 3")


def test_an_unknown_name_in_a_file_suppression_is_reported(tmp_path: Path) -> None:
    source = "# mslint: disable-file=third-party-call\n" + TWO_CALLS
    first_line, _, symbol = findings(tmp_path, source)[0]
    assert (first_line, symbol) == (1, "unknown-rule-in-suppression")
