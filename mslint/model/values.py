"""Value kinds in graph code: is an expression a compile-time constant or a graph (runtime) value?

MindSpore folds everything computed from constants at compile time (literals,
attributes set in ``__init__``, shapes of inputs with static shapes), so numpy or
a Python slice over such values compiles even in STRICT. Only values that exist
at run time - inputs, results of tensor operations, Parameters - make those
constructs fail, fall back to the interpreter or turn shapes dynamic.
"""

from __future__ import annotations

import ast
import enum
from typing import Callable

from mslint.model.module import bound_names, is_self_attribute
from mslint.model.project import is_mindspore_name
from mslint.model.walk import descendants


class Kind(enum.IntEnum):
    CONSTANT = 0
    GRAPH = 1


# Attributes of a tensor that are static Python values in graph code.
STATIC_ATTRIBUTES = frozenset({"shape", "ndim", "dtype", "size", "itemsize", "nbytes", "__class__"})
# Tensor methods that return static Python values (sizes and ranks).
STATIC_METHODS = frozenset({"size", "dim", "ndimension", "numel", "nelement"})
# Functions whose result is static whatever their argument.
STATIC_CALLS = frozenset(
    {
        "builtins.len",
        "builtins.isinstance",
        "builtins.issubclass",
        "builtins.type",
        "builtins.hasattr",
        "builtins.id",
        "builtins.str",
        "builtins.repr",
        "mindspore.ops.shape",
        "mindspore.ops.rank",
        "mindspore.ops.dtype",
        "mindspore.ops.functional.shape",
        "mindspore.ops.functional.rank",
        "mindspore.ops.functional.dtype",
        "mindspore.ops.size",
    }
)
# Primitives whose result is static (``self.shape = ops.Shape()`` then ``self.shape(x)``).
STATIC_PRIMITIVES = ("Shape", "Rank", "DType", "Size")


def is_static_primitive(qualname: str | None) -> bool:
    return is_mindspore_name(qualname, *STATIC_PRIMITIVES)


class KindEvaluator:
    """Kinds of expressions within one function, given its locals' kinds and the kind of ``self.x``."""

    def __init__(
        self,
        local_kinds: dict[str, Kind],
        qualname: Callable[[ast.expr], str | None],
        self_attribute_kind: Callable[[str], Kind],
        self_name: str | None,
        self_attribute_is_static_primitive: Callable[[str], bool] = lambda attribute: False,
    ) -> None:
        self.local_kinds = local_kinds
        self.qualname = qualname
        self.self_attribute_kind = self_attribute_kind
        self.self_name = self_name
        self.self_attribute_is_static_primitive = self_attribute_is_static_primitive

    def of(self, expr: ast.expr | None) -> Kind:
        if expr is None or isinstance(expr, (ast.Constant, ast.JoinedStr, ast.Lambda)):
            return Kind.CONSTANT
        if isinstance(expr, ast.Name):
            return self.local_kinds.get(expr.id, Kind.CONSTANT)
        if isinstance(expr, ast.Attribute):
            if expr.attr in STATIC_ATTRIBUTES:
                return Kind.CONSTANT
            if is_self_attribute(expr, self.self_name):
                return self.self_attribute_kind(expr.attr)
            return self.of(expr.value)
        if isinstance(expr, ast.Call):
            return self._call(expr)
        if isinstance(expr, (ast.Await, ast.Yield, ast.YieldFrom)):
            return Kind.GRAPH
        if isinstance(expr, (ast.ListComp, ast.SetComp, ast.GeneratorExp, ast.DictComp)):
            parts: list[ast.expr] = [g.iter for g in expr.generators]
            parts += [expr.key, expr.value] if isinstance(expr, ast.DictComp) else [expr.elt]
            return self.join(parts)
        return self.join(child for child in ast.iter_child_nodes(expr) if isinstance(child, ast.expr))

    def join(self, exprs: object) -> Kind:
        return max((self.of(e) for e in exprs if isinstance(e, ast.expr)), default=Kind.CONSTANT)  # type: ignore[attr-defined]

    def _call(self, call: ast.Call) -> Kind:
        func = call.func
        if self.qualname(func) in STATIC_CALLS:
            return Kind.CONSTANT
        if isinstance(func, ast.Call) and is_static_primitive(self.qualname(func.func)):
            return Kind.CONSTANT
        if (
            isinstance(func, ast.Attribute)
            and is_self_attribute(func, self.self_name)
            and self.self_attribute_is_static_primitive(func.attr)
        ):
            return Kind.CONSTANT
        if isinstance(call.func, ast.Attribute) and call.func.attr in STATIC_METHODS:
            return Kind.CONSTANT
        operands: list[ast.expr] = [*call.args, *(k.value for k in call.keywords)]
        if isinstance(call.func, ast.Attribute):
            operands.append(call.func.value)
        return self.join(operands)


def local_kinds(
    function: ast.FunctionDef | ast.AsyncFunctionDef,
    parameter_kinds: dict[str, Kind],
    evaluator_for: Callable[[dict[str, Kind]], KindEvaluator],
) -> dict[str, Kind]:
    """Kinds of the local names of ``function`` (flow-insensitive: a name is GRAPH if any binding is)."""
    kinds = dict(parameter_kinds)
    evaluator = evaluator_for(kinds)
    bindings = list(_bindings(function))
    for _ in range(3):
        changed = False
        for names, value in bindings:
            kind = evaluator.of(value) if value is not None else Kind.GRAPH
            for name in names:
                if kind > kinds.get(name, Kind.CONSTANT) or name not in kinds:
                    kinds[name] = max(kind, kinds.get(name, Kind.CONSTANT))
                    changed = True
        if not changed:
            break
    return kinds


def _bindings(function: ast.FunctionDef | ast.AsyncFunctionDef) -> list[tuple[list[str], ast.expr | None]]:
    """(names, value) for every binding in the body; value None where the value is unknown."""
    found: list[tuple[list[str], ast.expr | None]] = []
    for node in descendants(function):
        if isinstance(node, ast.Assign):
            found.extend((bound_names(t), node.value) for t in node.targets)
        elif isinstance(node, (ast.AugAssign, ast.AnnAssign)) and node.value is not None:
            found.append((bound_names(node.target), node.value))
        elif isinstance(node, (ast.For, ast.AsyncFor, ast.comprehension)):
            found.append((bound_names(node.target), node.iter))
        elif isinstance(node, (ast.With, ast.AsyncWith)):
            found.extend((bound_names(i.optional_vars), i.context_expr) for i in node.items if i.optional_vars)
        elif isinstance(node, ast.NamedExpr):
            found.append((bound_names(node.target), node.value))
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node is not function:
            for name, kind in parameter_kinds(node, is_method=False).items():
                found.append(([name], None if kind is Kind.GRAPH else ast.Constant(value=None)))
        elif isinstance(node, ast.Lambda):
            found.append(([a.arg for a in _all_arguments(node.args)], None))
    return found


def _all_arguments(arguments: ast.arguments) -> list[ast.arg]:
    extra = [a for a in (arguments.vararg, arguments.kwarg) if a is not None]
    return [*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs, *extra]


def parameter_kinds(function: ast.FunctionDef | ast.AsyncFunctionDef, is_method: bool) -> dict[str, Kind]:
    """Kinds of an entry point's parameters: tensors, except Python scalars given as defaults."""
    arguments = function.args
    positional = [*arguments.posonlyargs, *arguments.args]
    defaults: list[ast.expr | None] = [None] * (len(positional) - len(arguments.defaults)) + list(arguments.defaults)
    pairs = list(zip(positional, defaults)) + list(zip(arguments.kwonlyargs, arguments.kw_defaults))
    kinds = {arg.arg: _parameter_kind(default) for arg, default in pairs}
    for extra in (arguments.vararg, arguments.kwarg):
        if extra is not None:
            kinds[extra.arg] = Kind.GRAPH
    if is_method and positional:
        kinds[positional[0].arg] = Kind.CONSTANT
    return kinds


def _parameter_kind(default: ast.expr | None) -> Kind:
    # A literal default marks a Python scalar or flag, which MindSpore treats as a constant;
    # None is the usual default of an optional tensor (masks, labels).
    if isinstance(default, ast.Constant) and default.value is not None:
        return Kind.CONSTANT
    return Kind.GRAPH


def all_parameter_names(function: ast.FunctionDef | ast.AsyncFunctionDef) -> list[str]:
    return [a.arg for a in _all_arguments(function.args)]
