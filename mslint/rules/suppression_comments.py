"""Rules about the suppression comments themselves: a name that is no rule, and a name that silences nothing.

Two rules rather than one, because they differ in how much they matter: a misspelt name is
a suppression that never worked (a warning), an unused one is only clutter left behind when
the code was fixed (info, which does not fail a run).
"""

from __future__ import annotations

import difflib
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from mslint.diagnostics import Severity
from mslint.rule_codes import REGISTRY, code_of
from mslint.rules.base import Rule
from mslint.settings import Settings
from mslint.suppressions import EVERY_RULE, Suppression, SuppressionComments


@dataclass(frozen=True)
class CommentFinding:
    suppression: Suppression
    message: str
    hint: str | None = None


class SuppressionRule(Rule):
    """A rule about suppression comments: the engine runs it after the other rules, once it knows
    which comments silenced a finding."""

    def check_suppressions(
        self, comments: SuppressionComments, enabled: Sequence[Rule], every_rule_runs: bool
    ) -> Iterator[CommentFinding]:
        """Findings on ``comments``; ``enabled`` are the rules that ran, ``every_rule_runs`` whether
        they are all that run on the target."""
        raise NotImplementedError


class UnknownRuleInSuppression(SuppressionRule):
    """
    ## What it does
    Flags a name in a `# mslint: disable=` or `# noqa:` comment that is not an mslint rule:
    neither a rule symbol, nor a code (`MS101`), nor `all`. In a `# noqa:` comment only
    `MS` codes are mslint's; other tools' codes (`E501`) are left to those tools.

    ## Why it matters
    A misspelt name silences nothing, and nothing else tells you so: the finding you meant
    to silence is still reported, or, worse, the comment looks as if it documents a decision
    that mslint never applied.

    ## Example
    ```python
    y = np.maximum(x, 0)  # mslint: disable=third-party-call
    ```

    ## Use instead
    ```python
    y = np.maximum(x, 0)  # mslint: disable=third-party-call-in-graph
    ```
    """

    code = "MS002"
    symbol = "unknown-rule-in-suppression"
    summary = "a suppression comment names a rule that does not exist"

    def severity(self, settings: Settings) -> Severity:
        return Severity.WARNING

    def check_suppressions(
        self, comments: SuppressionComments, enabled: Sequence[Rule], every_rule_runs: bool
    ) -> Iterator[CommentFinding]:
        names = [name for code, (symbol, _module, _cls) in REGISTRY.items() for name in (symbol, code)]
        for suppression in comments.unused():
            if suppression.name.lower() == EVERY_RULE or code_of(suppression.name):
                continue
            close = difflib.get_close_matches(suppression.name, names, n=1)
            yield CommentFinding(
                suppression,
                f"`{suppression.name}` in `{suppression.comment}` is not an mslint rule: it silences nothing",
                f"did you mean `{close[0]}`?" if close else "`mslint rules` lists the rule symbols and codes",
            )


class UselessSuppression(SuppressionRule):
    """
    ## What it does
    Flags a rule named in a `# mslint: disable=` or `# noqa:` comment when that rule reports
    nothing on the line (or the lines, or the file) the comment silences. Only rules enabled
    for the file are judged: a comment for a rule left out by `--select`, `ignore` or
    `per-file-ignores` (or one that does not run on the `target`) may be needed when the rule
    runs, so it is not flagged; `all` is flagged only when every rule that runs on the target
    is enabled.

    ## Why it matters
    Once the code is fixed, or moved to another line, the comment stays behind and would
    silently hide a new problem of that rule on that line.

    ## Example
    ```python
    y = ops.maximum(x, 0)  # mslint: disable=third-party-call-in-graph
    ```

    ## Use instead
    ```python
    y = ops.maximum(x, 0)
    ```
    """

    code = "MS003"
    symbol = "useless-suppression"
    summary = "a suppression comment names a rule that reports nothing on its line"

    def severity(self, settings: Settings) -> Severity:
        return Severity.INFO

    def check_suppressions(
        self, comments: SuppressionComments, enabled: Sequence[Rule], every_rule_runs: bool
    ) -> Iterator[CommentFinding]:
        judged = {rule.code for rule in enabled if not isinstance(rule, SuppressionRule)}
        for suppression in comments.unused():
            if suppression.name.lower() == EVERY_RULE:
                if every_rule_runs:
                    yield CommentFinding(
                        suppression, f"`{suppression.comment}all` silences nothing {suppression.scope}"
                    )
                continue
            code = code_of(suppression.name)
            if code is not None and code in judged:
                yield CommentFinding(
                    suppression,
                    f"`{suppression.name}` in `{suppression.comment}` silences nothing: "
                    f"{REGISTRY[code][0]} reports nothing {suppression.scope}",
                    "remove it",
                )
