"""Findings that rest on values mslint could not infer are warnings at most, and say so.

Two kinds of value. First, a compile-time constant that decides a branch (``if self.flag:``,
``if x.ndim == 3:``) and that mslint could not fold: the compiler never reads the branch the
value makes dead, so a finding there holds only for the values that keep it. That finding is
capped at warning and names the test: ``only where `self.flag` lets the compiler reach it``.

A test in ``__init__`` on constructor arguments (``if norm_type == "ln":``) that no instance the
program shows decides is capped alike: ``only for the instances built with `norm_type == 'ln'```;
so is one in a ``MultitypeFuncGraph`` overload that only a sparse argument selects
(``@_opt.register("Tensor", "RowTensor")``): ``only where the program passes this overload a
RowTensor (a sparse gradient)``.

Second, rules see an unknown value (:attr:`Kind.UNKNOWN`: an entry's parameter that no call site,
input spec or use shows to be a tensor or a Python number) as a graph value. A finding the
rule gives again with every unknown taken for a Python constant holds either way; one it does
not give again holds only if the unknowns are tensors: ``range(n)`` fails for a tensor ``n``
and compiles for ``net(x, 3)``. That finding is kept, capped at warning, and says so in one
clause: ``only if `n` is a tensor, which no call of `Steps.construct` shows``; or, where every
call fills it with an object of another library, what that is: ``only if `frame` is a tensor:
every call of `Net.construct` passes the result of polars.read_csv``.
"""

from __future__ import annotations

import ast
import dataclasses
from collections.abc import Callable
from functools import cached_property

from mslint.diagnostics import Severity
from mslint.model.abstract import Kind
from mslint.model.binder import all_parameter_names, bindings
from mslint.model.init_branches import InitBranch
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
        return capped_under_unknown_test(rule, self._on_unknown_inputs(rule, node, finding), [self._function])

    def _on_unknown_inputs(self, rule: Rule, node: ast.AST, finding: Finding) -> Finding:
        if not self._has_unknowns:
            return finding
        if any(again.node is finding.node for again in rule.check_graph_node(node, self._assuming_constants)):
            return finding
        names = self._inputs_behind(set(self._unknowns_in(finding.node)))
        rests_on = " or ".join(f"`{name}`" for name in names) or "a value it reads"
        entry = self._function.entry.display_name
        note = f"; only if {rests_on} is a tensor, which no call of `{entry}` shows"
        # an entry's parameter every call fills with another library's object: say what it is
        passed = self._function.memo.passed_objects.get(id(self._function.node), {})
        if names and self._function.entry.node is self._function.node and all(name in passed for name in names):
            makers = " or ".join(dict.fromkeys(passed[name] for name in names))
            note = f"; only if {rests_on} is a tensor: every call of `{entry}` passes the result of {makers}"
        capped = _capped(finding, rule)
        return dataclasses.replace(finding, message=finding.message + note, severity=capped)

    @cached_property
    def _unknowns_below(self) -> dict[int, frozenset[str]]:
        """By node: the unknown local names read in it, kept for the findings on nodes around it."""
        return {}

    def _unknowns_in(self, node: ast.AST) -> frozenset[str]:
        """The unknown local names ``node`` reads, from those of its children: findings nest
        (each subscript of ``x[x[x[0]:1]:1]``), and walking each one's whole tree would make the
        time quadratic in the nesting."""
        unknown = self._function.unknown_names
        found = self._unknowns_below
        pending: list[tuple[ast.AST, bool]] = [(node, False)]
        while pending:
            each, children_found = pending.pop()
            if id(each) in found:
                continue
            children = list(ast.iter_child_nodes(each))
            if not children_found:
                pending.append((each, True))
                pending.extend((child, False) for child in children)
                continue
            own = {each.id} if isinstance(each, ast.Name) and each.id in unknown else set()
            found[id(each)] = frozenset(own.union(*(found[id(child)] for child in children)))
        return found[id(node)]

    def _inputs_behind(self, names: set[str]) -> list[str]:
        """The parameters that the unknown local ``names`` are computed from, which the user
        can give values (``lengths = caption_lengths``: ``caption_lengths``); a name computed
        from none of them is named itself."""
        function = self._function
        parameters = set(all_parameter_names(function.node))
        found: set[str] = set()
        seen: set[str] = set()
        pending = list(names)
        while pending:
            name = pending.pop()
            if name in seen:
                continue
            seen.add(name)
            read = set() if name in parameters else _unknowns_read(name, function)
            if read:
                pending.extend(read)
            else:
                found.add(name)
        return sorted(found)


def _unknowns_read(name: str, function: GraphFunction) -> set[str]:
    """The unknown names read by the values bound to the local ``name``."""
    values = [b.value for b in bindings(function.node) if name in b.names and b.value is not None]
    return {n.id for v in values for n in ast.walk(v) if isinstance(n, ast.Name) and n.id in function.unknown_names}


def capped_under_unknown_test(rule: Rule, finding: Finding, reaching: list[GraphFunction]) -> Finding:
    """``finding`` on a node that the graph functions ``reaching`` (one function's evaluations,
    by entry or instance) compile, capped at warning where each of them compiles it only under a
    constant test it could not decide (module doc)."""
    if not any(finding.severity_for(rule, level) is Severity.ERROR for level in _LEVELS):
        return finding
    tests = [function.unknown_constant_test(finding.node) for function in reaching]
    test = tests[0] if tests and None not in tests else None
    if test is None:
        return finding
    return _capped_saying(rule, finding, f"; only where `{_shortened(ast.unparse(test))}` lets the compiler reach it")


def capped_under_constructor_test(rule: Rule, finding: Finding, branch: InitBranch) -> Finding:
    """``finding`` in a branch of ``__init__`` on constructor arguments that no instance the
    program builds takes, or that the instances it shows do not decide
    (:mod:`mslint.model.init_branches`): capped at warning, naming the test. (Not dropped where
    none takes it: a class no code runs may still be built with its defaults, a latent failure.)"""
    if not any(finding.severity_for(rule, level) is Severity.ERROR for level in _LEVELS):
        return finding
    shown = "none of which the program builds" if branch.taken is False else "which the program does not show"
    return _capped_saying(
        rule, finding, f"; only for the instances built with `{_shortened(ast.unparse(branch.test))}`, {shown}"
    )


def capped_in_sparse_overload(rule: Rule, finding: Finding, sparse_type: str) -> Finding:
    """``finding`` in the body of a ``MultitypeFuncGraph`` overload that a call selects only with a
    ``sparse_type`` argument (:mod:`mslint.model.multitype_overloads`): capped at warning, as mslint
    does not infer which values (gradients) are sparse."""
    if not any(finding.severity_for(rule, level) is Severity.ERROR for level in _LEVELS):
        return finding
    return _capped_saying(
        rule, finding, f"; only where the program passes this overload a {sparse_type} (a sparse gradient)"
    )


def _capped_saying(rule: Rule, finding: Finding, note: str) -> Finding:
    return dataclasses.replace(finding, message=finding.message + note, severity=_capped(finding, rule))


_LEVELS = (Settings(syntax_level="strict"), Settings(syntax_level="lax"))
_LONGEST_TEST = 40


def _shortened(source: str) -> str:
    return source if len(source) <= _LONGEST_TEST else source[: _LONGEST_TEST - 3] + "..."


def _capped(finding: Finding, rule: Rule) -> Callable[[Settings], Severity]:
    def severity(settings: Settings) -> Severity:
        return min(finding.severity_for(rule, settings), Severity.WARNING)

    return severity
