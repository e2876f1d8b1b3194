"""Findings that rest on values mslint could not infer are warnings at most, and say so.

Rules see an unknown value (:attr:`Kind.UNKNOWN`: an entry's parameter that no call site,
input spec or use shows to be a tensor or a Python number) as a graph value. A finding the
rule gives again with every unknown taken for a Python constant holds either way; one it does
not give again holds only if the unknowns are tensors: ``range(n)`` fails for a tensor ``n``
and compiles for ``net(x, 3)``. That finding is kept, capped at warning, and says so in one
clause: ``only if `n` is a tensor, which no call of `Steps.construct` shows``.
"""

from __future__ import annotations

import ast
import dataclasses
from collections.abc import Callable
from functools import cached_property

from mslint.diagnostics import Severity
from mslint.model.abstract import Kind
from mslint.model.scope import GraphFunction
from mslint.rules.base import Finding, Rule
from mslint.settings import Settings


class FindingsOnUnknowns:
    """Settles the findings of one graph function (called as ``settle(rule, node, finding)``)."""

    def __init__(self, function: GraphFunction) -> None:
        self._function = function

    @cached_property
    def _has_unknowns(self) -> bool:
        parameters = self._function.parameter_values.values()
        return any(v.kind is Kind.UNKNOWN for v in parameters) or bool(self._function.unknown_names)

    @cached_property
    def _assuming_constants(self) -> GraphFunction:
        return self._function.assuming_constants()

    def __call__(self, rule: Rule, node: ast.AST, finding: Finding) -> Finding:
        if not self._has_unknowns:
            return finding
        if any(again.node is finding.node for again in rule.check_graph_node(node, self._assuming_constants)):
            return finding
        names = sorted(
            {n.id for n in ast.walk(finding.node) if isinstance(n, ast.Name) and n.id in self._function.unknown_names}
        )
        rests_on = " or ".join(f"`{name}`" for name in names) or "a value it reads"
        entry = self._function.entry.display_name
        note = f"; only if {rests_on} is a tensor, which no call of `{entry}` shows"
        capped = _capped(finding, rule)
        return dataclasses.replace(finding, message=finding.message + note, severity=capped)


def _capped(finding: Finding, rule: Rule) -> Callable[[Settings], Severity]:
    def severity(settings: Settings) -> Severity:
        return min(finding.severity_for(rule, settings), Severity.WARNING)

    return severity
