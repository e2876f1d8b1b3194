"""A rule's documentation page and its link, from the rule's own docstring and its examples.

``scripts/generate_rule_docs.py`` writes the pages to ``docs/rules/``; SARIF's ``helpUri``
and the language server's diagnostic links point at them.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

from mslint.rules.base import Rule
from mslint.rules.suppression_comments import SuppressionRule
from mslint.settings import SYNTAX_LEVELS, TARGETS, Settings

DOCUMENTATION_URL = "https://git.example.com/your-team/mslint/blob/main/docs"
"""The project's documentation as ``[project.urls] Documentation`` in pyproject.toml declares it
(a test keeps the two equal): the address of a source checkout, whose metadata may be older."""


def documentation_link(rule: Rule) -> str:
    """The rule's page, under the installed distribution's ``Documentation`` URL (a team that
    hosts mslint elsewhere sets its own in pyproject.toml), else :data:`DOCUMENTATION_URL`.
    Never a local path: a wheel install has no docs folder, and an editor or a SARIF viewer
    elsewhere cannot open one."""
    return f"{_documentation_url() or DOCUMENTATION_URL}/rules/{rule.symbol}.md"


@cache  # reading the installed distribution's metadata costs a millisecond, once per diagnostic otherwise
def _documentation_url() -> str | None:
    from importlib import metadata  # slow to import (the email package): only for the outputs that link

    try:
        urls = metadata.metadata("mslint").get_all("Project-URL") or []
    except metadata.PackageNotFoundError:
        return None
    for entry in urls:
        label, _, url = str(entry).partition(",")
        if label.strip().lower() == "documentation":
            return url.strip().rstrip("/")
    return None


def rule_text(rule: Rule) -> str:
    """What ``mslint rule SYMBOL`` prints: the heading, the summary and default severity, the
    rule's documentation (Markdown; the language server's hover shows it too)."""
    severity = rule.severity(Settings())
    return f"# {rule.symbol} ({rule.code})\n\n{rule.summary}. Default severity: {severity}.\n\n{rule.documentation()}"


def severity_text(rule: Rule) -> str:
    """The rule's severity under each setting that changes it, and the findings that are warnings."""
    text = _settings_severity_text(rule)
    return f"{text}; warning for {rule.warning_findings}" if rule.warning_findings else text


def _settings_severity_text(rule: Rule) -> str:
    by_setting = {
        (level, target): str(rule.severity(Settings(syntax_level=level, target=target)))
        for level in SYNTAX_LEVELS
        for target in TARGETS
    }
    if len(set(by_setting.values())) == 1:
        return next(iter(by_setting.values()))
    by_level = {level: {by_setting[(level, t)] for t in TARGETS} for level in SYNTAX_LEVELS}
    if all(len(values) == 1 for values in by_level.values()):
        return ", ".join(f"{next(iter(v))} with `syntax-level = {level}`" for level, v in by_level.items())
    by_target = {target: {by_setting[(lv, target)] for lv in SYNTAX_LEVELS} for target in TARGETS}
    return ", ".join(f"{next(iter(v))} with `target = {target}`" for target, v in by_target.items())


def render_page(rule: Rule, examples: Path) -> str:
    """The Markdown page of ``rule``, with the example files of ``examples/<symbol>/``."""
    parts = [
        f"# {rule.symbol} ({rule.code})",
        f"{rule.summary[0].upper()}{rule.summary[1:]}.",
        f"**Severity:** {severity_text(rule)}.",
        rule.documentation(),
    ]
    files = sorted((examples / rule.symbol).glob("*.py"))
    if files and isinstance(rule, SuppressionRule):
        parts.append(
            "## Examples\n"
            "The compiler ignores comments, so it has no say on these findings; the test suite checks\n"
            "that mslint reports exactly the lines marked `# expect:`, and that every entry of the\n"
            "examples compiles cleanly in STRICT mode with `mslint verify`."
        )
    elif files:
        parts.append(
            "## Examples checked against the compiler\n"
            "Every line marked `# expect:` is confirmed by MindSpore 2.10 (a compile error, a JIT\n"
            "fallback, a dynamic shape, parameters left out of the Cell, or Python run once while\n"
            "compiling), and every entry of the good examples compiles cleanly in STRICT mode; the\n"
            "test suite checks both with `mslint verify`. Lines with `# mslint: inputs=` tell the\n"
            "verifier how to build the entry."
        )
        for path in files:
            parts.append(f"### `rules/{rule.symbol}/{path.name}`\n```python\n{path.read_text().rstrip()}\n```")
    return "\n\n".join(parts) + "\n"
