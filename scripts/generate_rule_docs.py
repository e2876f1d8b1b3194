"""Write docs/rules.md and docs/rules/<symbol>.md from the rules' documentation and rules/ examples,
and the rule tables of the other pages (between ``<!-- begin generated: NAME -->`` and
``<!-- end generated: NAME -->``): ``mslint rules``, ``check --help``, ``verify --help`` and reports
in cli.md, the pylint messages in editors.md, the severities in configuration.md.

Run ``python scripts/generate_rule_docs.py`` after changing a rule or its examples;
``--check`` exits with 1 when a page is out of date (the test suite runs it).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

from mslint.diagnostics import Severity
from mslint.pylint_plugin import message_id, message_symbol, plugin_rules
from mslint.rule_docs import INSTALLED_PAGES, render_page, severity_on, severity_text
from mslint.rules import all_rules
from mslint.rules.base import Rule
from mslint.settings import SYNTAX_LEVELS, TARGETS, Settings

REPO = Path(__file__).resolve().parent.parent
INTRODUCTION = """\
`mslint rules` lists these rules and `mslint rule SYMBOL` prints one rule's documentation;
[Severity](configuration.md#severity) shows how `syntax-level` and `target` change the
severities.

**Graph code** means what MindSpore compiles into a graph: `construct` of every `nn.Cell`
subclass (also through base classes in other files), functions decorated with
`mindspore.jit` / `ms_function`, and every function or method they call, except Cells that
only run in PyNative mode ([`pynative`](configuration.md#pynative)). A **graph value**
is a tensor, an input of graph code, or anything computed from one. Values computed only
from literals, attributes set in `__init__` and shapes (`x.shape`) are compile-time
constants: the compiler folds them, and mslint does not flag them.

Each rule's page ends with its examples from `rules/<symbol>/` of the repository, which
the test suite compiles with the real MindSpore 2.10 compiler."""


def pages() -> dict[Path, str]:
    rules = all_rules()
    rows = "\n".join(
        f"| [`{r.code}`](rules/{r.symbol}.md) | `{r.symbol}` | {severity_text(r)} | {r.summary} |" for r in rules
    )
    index = f"# Rules\n\n{INTRODUCTION}\n\n| code | symbol | severity | summary |\n|---|---|---|---|\n{rows}\n"
    found = {REPO / "docs" / "rules.md": index}
    for rule in rules:
        page = render_page(rule, REPO / "rules")
        found[REPO / "docs" / "rules" / f"{rule.symbol}.md"] = page
        found[INSTALLED_PAGES / f"{rule.symbol}.md"] = page  # what mslint links to where no address is configured
    for name, sections in generated_sections().items():
        path = REPO / "docs" / name
        found[path] = with_sections(path, sections)
    return found


def generated_sections() -> dict[str, dict[str, str]]:
    """The generated parts of the hand-written pages: page -> section name -> text."""
    rules_json = json.loads(mslint_output("rules", "--format", "json"))
    json_sample = json.dumps(rules_json[:2], indent=2).removesuffix("\n]") + ",\n  ...\n]"
    symbols = ",".join(rule.symbol for rule in plugin_rules())
    findings = json.loads(mslint_output("check", "--format", "json", "rules/variable-slice/bad.py"))
    json_findings = json.dumps(findings[:2], indent=2).removesuffix("\n]") + ",\n  ...\n]"
    return {
        "cli.md": {
            "rules": f"```console\n$ mslint rules\n{mslint_output('rules')}```",
            "rules-json": f"```console\n$ mslint rules --format json\n{json_sample}\n```",
            "check-help": console("check", "--help"),
            "verify-help": console("verify", "--help"),
            "text": console("check", "rules/variable-slice/bad.py"),
            "json": f"```console\n$ mslint check --format json rules/variable-slice/bad.py\n{json_findings}\n```",
            "concise": console("check", "--format", "concise", "rules/variable-slice/bad.py"),
        },
        "editors.md": {
            "pylint-messages": pylint_message_table(),
            "pylint-enable-symbols": "```console\npylint --load-plugins=mslint.pylint_plugin --disable=all \\\n"
            f"  --enable={symbols} src/\n```",
        },
        "configuration.md": {"severities": severity_table()},
    }


def pylint_message_table() -> str:
    """Each rule's pylint messages, one per severity of its findings."""
    severities = sorted(Severity, reverse=True)
    header = f"| mslint code | {' | '.join(str(s) for s in severities)} |\n|---{'|---' * len(severities)}|\n"
    return header + "\n".join(pylint_message_row(rule) for rule in plugin_rules())


def pylint_message_row(rule: Rule) -> str:
    """``| `MS110` | `E7510` `branch-local-variable` | ... |``: the message of each severity."""
    cells = [f"`{message_id(rule, s)}` `{message_symbol(rule, s)}`" for s in sorted(Severity, reverse=True)]
    return f"| `{rule.code}` | {' | '.join(cells)} |"


def console(*arguments: str) -> str:
    """A console block: the command and what it prints."""
    return f"```console\n$ mslint {' '.join(arguments)}\n{mslint_output(*arguments)}```"


def mslint_output(*arguments: str) -> str:
    """What the mslint command prints, run the way a user runs it."""
    command = [sys.executable, "-m", "mslint", *arguments]
    environment = {**os.environ, "COLUMNS": "80"}  # the width argparse wraps help at
    result = subprocess.run(command, capture_output=True, text=True, cwd=REPO, env=environment)
    if result.returncode not in (0, 1):  # 1: findings, which an example shows
        raise SystemExit(f"mslint {' '.join(arguments)} failed: {result.stderr}")
    return result.stdout


def severity_table() -> str:
    """Each rule's severity at each syntax level and on each target."""
    header = ["rule", *(f"`{level}`" for level in SYNTAX_LEVELS), *(f"`{target}`" for target in TARGETS)]
    lines = [f"| {' | '.join(header)} |", "|---" * len(header) + "|"]
    for rule in all_rules():
        cells = [f"`{rule.code}` {rule.symbol}", *severity_cells(rule)]
        lines.append(f"| {' | '.join(cells)} |")
    return "\n".join(lines)


def severity_cells(rule: Rule) -> list[str]:
    """One cell per syntax level, then per target: the severity there, or which setting decides it."""
    severity = {
        (level, target): severity_on(rule, Settings(syntax_level=level, target=target))
        for level in SYNTAX_LEVELS
        for target in TARGETS
    }
    by_level = [{severity[(level, target)] for target in TARGETS} for level in SYNTAX_LEVELS]
    by_target = [{severity[(level, target)] for level in SYNTAX_LEVELS} for target in TARGETS]
    cells = []
    for level, values in zip(SYNTAX_LEVELS, by_level):
        if len(values) == 1:
            cells.append(next(iter(values)))
        elif all(len(v) == 1 for v in by_target):
            cells.append("(as target)")
        else:
            cells.append(", ".join(f"{severity[(level, target)]} on {target}" for target in TARGETS))
    for target, values in zip(TARGETS, by_target):
        if len(values) == 1:
            cells.append(next(iter(values)))
        elif all(len(v) == 1 for v in by_level):
            cells.append("(as syntax level)")
        else:
            cells.append(", ".join(f"{severity[(level, target)]} in {level}" for level in SYNTAX_LEVELS))
    return cells


def with_sections(path: Path, sections: dict[str, str]) -> str:
    """The text of ``path`` with each generated section replaced by its new text."""
    text = path.read_text()
    for name, content in sections.items():
        begin, end = f"<!-- begin generated: {name} -->\n", f"\n<!-- end generated: {name} -->"
        start, stop = text.find(begin), text.find(end)
        if start < 0 or stop < start:
            raise SystemExit(f"{path.relative_to(REPO)} lacks the markers of the generated section {name!r}")
        text = text[: start + len(begin)] + content + text[stop:]
    return text


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--check", action="store_true", help="only report pages that are out of date")
    args = parser.parse_args()
    expected = pages()
    stale = [path for path, text in expected.items() if not path.is_file() or path.read_text() != text]
    if args.check:
        for path in stale:
            print(f"{path.relative_to(REPO)} is out of date: run python scripts/generate_rule_docs.py")
        return 1 if stale else 0
    for path in stale:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(expected[path])
        print(f"wrote {path.relative_to(REPO)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
