"""The modes a ``set_context(mode=...)`` chooses by a condition: ``mode = ms.PYNATIVE_MODE if
cfg.system.context_mode.lower() == "pynative_mode" else ms.GRAPH_MODE``, ``{"graph": 0,
"pynative": 1}[cfg.mode]``, a name bound to either in the function that calls ``set_context``.

A condition is decided where the values it tests are known: literals, an ``argparse`` option's
default (:mod:`mslint.model.option_defaults`), a field of a configuration file the program opens
(:mod:`mslint.model.config_files`), compared with strings (``==``, ``!=``, ``in``, ``.startswith`` or ``.endswith``
of a literal, after ``.lower()``, ``.upper()`` or ``.strip()``) or taken for their truth. A value read from a parameter
of that function (``def init_env(cfg)``) is what the project's calls of the function pass it, read
in the caller the same way (``init_env(cfg)`` where ``cfg`` is the parsed file): every call's value
counts, so two programs that pass two files may choose two modes. A condition left undecided, whose
outcomes include PyNative and another mode, makes the mode *undecided*: the program is run in
either, as its command line or a file mslint cannot read chooses.
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Iterator

from mslint.model.abstract import NOT_KNOWN
from mslint.model.config_files import config_file_field
from mslint.model.module import ModuleInfo
from mslint.model.option_defaults import bound_once, field_written, option_default, parsed_default, returned_parse
from mslint.model.project import FunctionRef, Project, is_mindspore_name, qualified_name
from mslint.model.registries import modules_naming
from mslint.model.walk import own_nodes, parent_of

GRAPH = "graph"
PYNATIVE = "pynative"
OTHER = "other"
UNDECIDED = "undecided"
"""A mode chosen by a condition mslint cannot decide, one of whose outcomes is PyNative."""

_NUMBERS = {0: GRAPH, 1: PYNATIVE}
_STRING_METHODS: dict[str, Callable[[str], str]] = {"lower": str.lower, "upper": str.upper, "strip": str.strip}
_STRING_TESTS: dict[str, Callable[[str, str], bool]] = {"startswith": str.startswith, "endswith": str.endswith}
"""Tests of a string against one literal (``args.mode.upper().startswith("GRAPH")``)."""
_DEPTH = 2
"""Calls followed up from a function's parameter to the values its callers pass (a helper's helper)."""


class _Unknown(Exception):
    """A value the code does not show (raised out of the evaluation: a condition on it is undecided)."""


def chosen_modes(project: Project, module: ModuleInfo, mode: ast.expr) -> list[str] | None:
    """The modes the ``mode=`` argument ``mode`` may select where it is a choice (a conditional
    expression, a lookup in a literal dict, a name bound to one of these): one mode where the choice
    is decided, one per value the callers pass, ``[UNDECIDED]`` where an undecided condition may
    give PyNative or another mode; None where ``mode`` is no choice."""
    chosen = _choice(module, mode)
    if chosen is None:
        return None
    evaluator = _Evaluator(project)
    outcomes = evaluator.outcomes(chosen, module, 0)
    if evaluator.from_command_line and GRAPH in outcomes:
        # As for `mode=args.mode`: a graph mode a command line may change counts as no known mode.
        outcomes = (outcomes - {GRAPH}) | {OTHER}
    return sorted(outcomes)


def never_runs(project: Project, module: ModuleInfo, call: ast.Call) -> bool:
    """Whether ``call`` sits in a branch of an ``if`` whose condition is decided against it
    (``if cfg.mode == "pynative": ms.set_context(mode=1)`` where the file says ``graph``)."""
    evaluator = _Evaluator(project)
    node: ast.AST = call
    parent = parent_of(module.tree, node)
    while parent is not None and not isinstance(parent, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Module)):
        if isinstance(parent, ast.If) and node is not parent.test:
            try:
                truths = {bool(v) for v in evaluator.values(parent.test, module, 0)}
            except _Unknown:
                truths = {True, False}
            if (node in parent.body and True not in truths) or (node in parent.orelse and False not in truths):
                return True
        node, parent = parent, parent_of(module.tree, parent)
    return False


def _choice(module: ModuleInfo, mode: ast.expr) -> ast.expr | None:
    """The choice ``mode`` is, or the one the name ``mode`` is bound to once in its scope."""
    if isinstance(mode, ast.Name):
        (scope,) = module.scopes_holding([mode.lineno])
        values = [
            node.value
            for node in own_nodes(scope)
            if isinstance(node, ast.Assign) and any(_binds(t, mode.id) for t in node.targets)
        ]
        names = [n for n in own_nodes(scope) if isinstance(n, ast.Name) and n.id == mode.id]
        stores = [n for n in names if not isinstance(n.ctx, ast.Load)]
        if len(values) != 1 or len(stores) != 1:
            return None
        mode = values[0]
    return mode if isinstance(mode, (ast.IfExp, ast.Subscript)) and _is_choice(mode) else None


def _binds(target: ast.expr, name: str) -> bool:
    return isinstance(target, ast.Name) and target.id == name


def _is_choice(expr: ast.expr) -> bool:
    return isinstance(expr, ast.IfExp) or (isinstance(expr, ast.Subscript) and isinstance(expr.value, ast.Dict))


class _Evaluator:
    def __init__(self, project: Project) -> None:
        self._project = project
        self.from_command_line = False
        """Whether a value read was an option's default, which the command line may change."""

    def outcomes(self, choice: ast.expr, module: ModuleInfo, depth: int) -> set[str]:
        """The modes ``choice`` selects (its branches' where its test is undecided)."""
        if isinstance(choice, ast.IfExp):
            try:
                truths = {bool(v) for v in self.values(choice.test, module, depth)}
            except _Unknown:
                return self._undecided([choice.body, choice.orelse], module)
            branches = [choice.body] * (True in truths) + [choice.orelse] * (False in truths)
            return {mode for branch in branches for mode in self._mode(branch, module, depth)}
        if isinstance(choice, ast.Subscript) and isinstance(choice.value, ast.Dict):
            table = choice.value
            try:
                keys = self.values(choice.slice, module, depth)
            except _Unknown:
                return self._undecided(table.values, module)
            found = [
                value
                for key, value in zip(table.keys, table.values)
                if isinstance(key, ast.Constant) and key.value in keys
            ]
            return {mode for value in found for mode in self._mode(value, module, depth)} if found else {OTHER}
        return {_constant_mode(choice, module)}

    def _mode(self, branch: ast.expr, module: ModuleInfo, depth: int) -> set[str]:
        return self.outcomes(branch, module, depth) if _is_choice(branch) else {_constant_mode(branch, module)}

    def _undecided(self, branches: list[ast.expr], module: ModuleInfo) -> set[str]:
        modes = {_constant_mode(b, module) for b in branches}
        return {UNDECIDED} if PYNATIVE in modes and len(modes) > 1 else {OTHER}

    def values(self, expr: ast.expr, module: ModuleInfo, depth: int) -> set[object]:
        """The values ``expr`` may have (one per call that passes it on); raises _Unknown."""
        if isinstance(expr, ast.Constant):
            return {expr.value}
        if isinstance(expr, ast.UnaryOp) and isinstance(expr.op, ast.Not):
            return {not v for v in self.values(expr.operand, module, depth)}
        if isinstance(expr, ast.BoolOp):
            return _possible([{bool(v) for v in self.values(e, module, depth)} for e in expr.values], expr.op)
        if isinstance(expr, ast.Compare) and len(expr.ops) == 1:
            left = self.values(expr.left, module, depth)
            right = self.values(expr.comparators[0], module, depth)
            return {_compare(expr.ops[0], a, b) for a in left for b in right}
        if isinstance(expr, (ast.Tuple, ast.List)):
            return {tuple(self._single(e, module, depth) for e in expr.elts)}
        if (
            isinstance(expr, ast.Call)
            and isinstance(expr.func, ast.Attribute)
            and expr.func.attr in _STRING_METHODS
            and not expr.args
            and not expr.keywords
        ):
            method = _STRING_METHODS[expr.func.attr]
            values = self.values(expr.func.value, module, depth)
            if not all(isinstance(v, str) for v in values):
                raise _Unknown
            return {method(str(v)) for v in values}
        if _is_string_test(expr):
            assert isinstance(expr, ast.Call) and isinstance(expr.func, ast.Attribute)
            test, prefix = _STRING_TESTS[expr.func.attr], self._single(expr.args[0], module, depth)
            values = self.values(expr.func.value, module, depth)
            if not isinstance(prefix, str) or not all(isinstance(v, str) for v in values):
                raise _Unknown
            return {test(str(v), prefix) for v in values}
        mode = _constant_mode(expr, module)
        if mode != OTHER:
            return {0 if mode == GRAPH else 1}
        return self._read(expr, module, depth)

    def _single(self, expr: ast.expr, module: ModuleInfo, depth: int) -> object:
        values = self.values(expr, module, depth)
        if len(values) != 1:
            raise _Unknown
        return next(iter(values))

    def _read(self, expr: ast.expr, module: ModuleInfo, depth: int) -> set[object]:
        """The value of a field read (``args.mode``, ``cfg["mode"]``, ``cfg.system.mode``): an
        option's default, a configuration file's field, or what the callers pass a parameter."""
        default = option_default(module, expr)
        if default is not None:
            self.from_command_line |= default.from_command_line
            return {default.value}
        value = config_file_field(self._project, module, expr)
        if isinstance(value, (dict, list)):
            raise _Unknown  # a section of the file: compared as a whole, it decides nothing here
        if value is not NOT_KNOWN:
            return {value}
        keys, base = _field_chain(expr)
        if isinstance(base, ast.Name) and len(keys) == 1 and not field_written(module, base.id):
            bound = bound_once(module, base)  # `args = get_args()`, then `args.mode`
            base = bound if isinstance(bound, ast.Call) else base
        if isinstance(base, ast.Call) and len(keys) == 1 and isinstance(keys[0], ast.Attribute):
            return self._returned_option(base, keys[0].attr, module)
        if not isinstance(base, ast.Name) or depth >= _DEPTH:
            raise _Unknown
        values: set[object] = set()
        for caller, argument in self._arguments_for(module, base):
            values |= self.values(_reading(argument, keys), caller, depth + 1)
        if not values:
            raise _Unknown
        return values

    def _returned_option(self, call: ast.Call, option: str, module: ModuleInfo) -> set[object]:
        """The default of ``option`` in the options a function of the project parses and returns
        (``main(parse_args())``, ``args = parse_args()``, ``def parse_args(): ...; return
        parser.parse_args(args=[])``)."""
        function = self._project.resolve_expr(call.func, module) if isinstance(call.func, ast.Name) else None
        if not isinstance(function, FunctionRef) or function.owner is not None or call.args or call.keywords:
            raise _Unknown
        parsed = returned_parse(function.node)
        default = None if parsed is None else parsed_default(function.module, parsed, option)
        if default is None:
            raise _Unknown
        self.from_command_line |= default.from_command_line
        return {default.value}

    def _arguments_for(self, module: ModuleInfo, name: ast.Name) -> Iterator[tuple[ModuleInfo, ast.expr]]:
        """What each project call of the function whose parameter ``name`` reads passes it;
        raises _Unknown where ``name`` is no parameter, or a call passes it in a way not followed."""
        (scope,) = module.scopes_holding([name.lineno])
        if isinstance(scope, ast.Module):
            raise _Unknown
        parameters = [a.arg for a in [*scope.args.posonlyargs, *scope.args.args]]
        if name.id not in parameters or any(
            isinstance(n, ast.Name) and n.id == name.id and not isinstance(n.ctx, ast.Load) for n in own_nodes(scope)
        ):
            raise _Unknown
        if field_written(module, name.id):
            raise _Unknown  # `args.mode = ...`: the callers' value may not be the one read
        position = parameters.index(name.id)
        for caller in modules_naming(self._project, scope.name):
            for call in caller.nodes_of(ast.Call):
                if not _names(call.func, scope.name):
                    continue
                callee = self._project.resolve_expr(call.func, caller)
                if not (isinstance(callee, FunctionRef) and callee.node is scope and callee.owner is None):
                    continue
                keyword = next((k.value for k in call.keywords if k.arg == name.id), None)
                if any(isinstance(a, ast.Starred) for a in call.args) or any(k.arg is None for k in call.keywords):
                    raise _Unknown
                argument = call.args[position] if position < len(call.args) else keyword
                if argument is None:
                    raise _Unknown  # its default: not followed
                yield caller, argument


def _is_string_test(expr: ast.expr) -> bool:
    return (
        isinstance(expr, ast.Call)
        and isinstance(expr.func, ast.Attribute)
        and expr.func.attr in _STRING_TESTS
        and len(expr.args) == 1
        and not expr.keywords
    )


def _possible(parts: list[set[bool]], op: ast.boolop) -> set[object]:
    """The truths ``and`` / ``or`` of parts with these possible truths may take (as a condition reads them)."""
    strong, weak = (True, False) if isinstance(op, ast.And) else (False, True)
    found: set[object] = {strong} if all(strong in p for p in parts) else set()
    return found | ({weak} if any(weak in p for p in parts) else set())


def _compare(op: ast.cmpop, left: object, right: object) -> bool:
    if isinstance(op, ast.Eq):
        return left == right
    if isinstance(op, ast.NotEq):
        return left != right
    if isinstance(op, (ast.In, ast.NotIn)) and isinstance(right, (tuple, str)):
        try:
            inside = left in right  # type: ignore[operator]
        except TypeError:
            raise _Unknown from None
        return inside if isinstance(op, ast.In) else not inside
    raise _Unknown


def numbered_mode(number: int) -> str:
    """The mode ``set_context(mode=number)`` selects."""
    return _NUMBERS.get(number, OTHER)


def named_mode(qualname: str | None) -> str:
    """The mode ``set_context(mode=...)`` selects given MindSpore's constant of that name."""
    if is_mindspore_name(qualname, "PYNATIVE_MODE"):
        return PYNATIVE
    return GRAPH if is_mindspore_name(qualname, "GRAPH_MODE") else OTHER


def _constant_mode(expr: ast.expr, module: ModuleInfo) -> str:
    if isinstance(expr, ast.Constant) and type(expr.value) is int:
        return numbered_mode(expr.value)
    return named_mode(qualified_name(expr, module) if isinstance(expr, (ast.Name, ast.Attribute)) else None)


def _field_chain(expr: ast.expr) -> tuple[list[ast.expr], ast.expr]:
    """The reads of fields above what they read (``cfg.system.mode``: the two attribute reads, and ``cfg``)."""
    reads: list[ast.expr] = []
    while isinstance(expr, (ast.Attribute, ast.Subscript)):
        reads.insert(0, expr)
        expr = expr.value
    return reads, expr


def _reading(argument: ast.expr, reads: list[ast.expr]) -> ast.expr:
    """The caller's ``argument`` read for the same fields (``cfg.system.mode`` of ``init_env(config)``:
    ``config.system.mode``): new nodes around the caller's own, placed where the argument is."""
    expr = argument
    for read in reads:
        if isinstance(read, ast.Attribute):
            expr = ast.Attribute(value=expr, attr=read.attr, ctx=ast.Load())
        else:
            assert isinstance(read, ast.Subscript)
            expr = ast.Subscript(value=expr, slice=read.slice, ctx=ast.Load())
        ast.copy_location(expr, argument)
    return expr


def _names(func: ast.expr, name: str) -> bool:
    return (isinstance(func, ast.Name) and func.id == name) or (isinstance(func, ast.Attribute) and func.attr == name)
