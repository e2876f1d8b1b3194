"""A rule's documentation page and its link, from the rule's own docstring and its examples.

``scripts/generate_rule_docs.py`` writes the pages to ``docs/rules/`` and, the same, into the
package (``mslint/data/rules/``). SARIF's ``helpUri``, the language server's diagnostic links,
``explain`` and the report link to the page under the documentation address a team configured
(``[project.urls] Documentation`` when it builds mslint); while that address is still the
placeholder the project ships (a host under ``example.com``, which serves nothing), they link
to the page installed with the package, which opens wherever mslint is installed.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from urllib.parse import urlsplit

from mslint.rules.base import Rule
from mslint.rules.suppression_comments import SuppressionRule
from mslint.settings import SYNTAX_LEVELS, TARGETS, Settings

INSTALLED_PAGES = Path(__file__).resolve().parent / "data" / "rules"
"""The rule pages shipped in the package (``scripts/generate_rule_docs.py`` writes them)."""


def documentation_link(rule: Rule) -> str:
    """The rule's page under the installed distribution's ``Documentation`` URL, where a team
    configured one; else the page installed with the package (a ``file:`` URI)."""
    configured = _documentation_url()
    if configured is not None and not _is_placeholder(configured):
        return f"{configured}/rules/{rule.symbol}.md"
    return (INSTALLED_PAGES / f"{rule.symbol}.md").as_uri()


def _is_placeholder(url: str) -> bool:
    """An address under ``example.com`` (RFC 2606: reserved, it serves no page)."""
    host = (urlsplit(url).hostname or "").lower()
    return host == "example.com" or host.endswith(".example.com")


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
    severity = severity_on(rule, Settings())
    return f"# {rule.symbol} ({rule.code})\n\n{rule.summary}. Default severity: {severity}.\n\n{rule.documentation()}"


def severity_text(rule: Rule) -> str:
    """The rule's severity under each setting that changes it, and the findings that are warnings."""
    text = _settings_severity_text(rule)
    return f"{text}; warning for {rule.warning_findings}" if rule.warning_findings else text


def severity_on(rule: Rule, settings: Settings) -> str:
    """The rule's severity under ``settings``, or ``off`` on a target the rule does not run for."""
    return "off" if rule.targets and settings.target not in rule.targets else str(rule.severity(settings))


def _settings_severity_text(rule: Rule) -> str:
    by_setting = {
        (level, target): severity_on(rule, Settings(syntax_level=level, target=target))
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
