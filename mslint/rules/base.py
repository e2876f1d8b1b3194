"""What a rule is: a code, a symbol, its documentation, and visitors that return findings."""

from __future__ import annotations

import ast
import inspect
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar, Union

from mslint.diagnostics import Fix, Severity

if TYPE_CHECKING:
    from mslint.model.module import ModuleInfo
    from mslint.model.project import Project
    from mslint.model.scope import GraphFunction
    from mslint.settings import Settings


SeverityChoice = Union[Severity, Callable[["Settings"], Severity]]
"""A severity, or how the settings decide it (:func:`fallback_severity`)."""


@dataclass(frozen=True)
class Finding:
    node: ast.AST
    """The span reported (its first and last positions)."""
    message: str
    hint: str | None = None
    severity: SeverityChoice | None = None
    """Overrides the rule's severity for this finding."""

    def severity_for(self, rule: Rule, settings: Settings) -> Severity:
        if self.severity is None:
            return rule.severity(settings)
        return self.severity if isinstance(self.severity, Severity) else self.severity(settings)

    fix: Fix | None = None


class Rule:
    """Base of all rules. The docstring of a rule class is its user documentation (Markdown).

    A graph rule lists the node types it wants in ``node_types`` and implements
    ``check_graph_node``, which the engine calls for every such node in graph code.
    A rule about code outside graph functions implements ``check_module``.
    """

    code: ClassVar[str]
    symbol: ClassVar[str]
    summary: ClassVar[str]
    node_types: ClassVar[tuple[type[ast.AST], ...]] = ()
    warning_findings: ClassVar[str] = ""
    """Which findings are warnings whatever the rule's severity (``Finding.severity``), for the docs."""
    capture_modes: ClassVar[tuple[str, ...]] = ("ast",)
    """The capture modes of ``jit`` whose graph code ``check_graph_node`` judges
    (:mod:`mslint.model.capture`): the graph rules judge what ast capture compiles."""
    targets: ClassVar[tuple[str, ...]] = ()
    """The ``target`` settings whose devices the rule knows about (``("cpu",)``); empty: every target.
    On another target the rule is not run."""
    compile_time_evidence: ClassVar[bool] = False
    """Whether the compiler running the flagged line once, while compiling, confirms a finding:
    true for rules about silent hazards such as `random.random()` in graph code."""

    def severity(self, settings: Settings) -> Severity:
        raise NotImplementedError

    def check_graph_node(self, node: ast.AST, function: GraphFunction) -> Iterator[Finding]:
        return iter(())

    def check_module(self, module: ModuleInfo, project: Project) -> Iterator[Finding]:
        return iter(())

    @classmethod
    def documentation(cls) -> str:
        return inspect.cleandoc(cls.__doc__ or "")

    @classmethod
    def section(cls, title: str) -> str:
        """The text of one ``## title`` section of the documentation ("" when absent)."""
        text = cls.documentation()
        start = text.find(f"## {title}\n")
        if start < 0:
            return ""
        body = text[start + len(title) + 4 :]
        end = body.find("\n## ")
        return (body if end < 0 else body[:end]).strip()


def fallback_severity(settings: Settings) -> Severity:
    """Code the compiler rejects in STRICT and interprets in LAX (slow, no Ascend sinking)."""
    return Severity.ERROR if settings.syntax_level == "strict" else Severity.WARNING


def dynamic_shape_severity(settings: Settings) -> Severity:
    """Dynamic shapes run on CPU; on Ascend and GPU they force re-compilation or fail to sink."""
    return Severity.INFO if settings.target == "cpu" else Severity.WARNING
