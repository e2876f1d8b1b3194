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

CHECKOUT_DOCS = Path(__file__).resolve().parent.parent / "docs"


def documentation_link(rule: Rule) -> str | None:
    """The rule's page: under the distribution's ``Documentation`` URL when it declares one,
    else in the docs folder of the source checkout mslint runs from, else None."""
    base = _documentation_url()
    if base is not None:
        return f"{base}/rules/{rule.symbol}.md"
    page = CHECKOUT_DOCS / "rules" / f"{rule.symbol}.md"
    return page.as_uri() if page.is_file() else None


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
