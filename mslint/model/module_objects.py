"""The MindSpore objects a module builds at its top level, as graph code reads them by name.

A ``@jit`` function or a Cell reads a module-level name as the object it holds when it compiles:
``grad = ops.GradOperation(sens_param=True)`` is that GradOperation, with the arguments it was
built with, and ``x = ms.Tensor([1.0])`` is a constant tensor of the graph. A name counts where
the module binds it once, at its top level, to a call of a MindSpore class (a Tensor, a Primitive
or another operation of ``mindspore.ops``), and never declares it ``global``: its value is what
that call is to graph code (:mod:`mslint.model.values`), every operand a constant of the module.
A Parameter is left out: graph code takes it in as a graph value of its own
(duplicate-parameter-name reads those).
"""

from __future__ import annotations

import ast

from mslint.model.abstract import AbstractAny, AbstractValue, Kind
from mslint.model.binder import top_level_bound_once
from mslint.model.memo import NodeMemo
from mslint.model.module import ModuleInfo
from mslint.model.project import is_mindspore_name, qualified_name
from mslint.model.values import ValueEvaluator, is_operation_class

_BUILT: NodeMemo[ast.Module, dict[str, ast.Call]] = NodeMemo()


def module_object(module: ModuleInfo, name: str) -> AbstractValue | None:
    """What graph code of ``module`` reads as the top-level ``name``, where the module builds a
    MindSpore object there (module doc); None for any other name."""
    built = _BUILT(module.tree, lambda tree: _built_once(tree, module)).get(name)
    if built is None:
        return None
    evaluator = ValueEvaluator({}, lambda expr: qualified_name(expr, module), lambda attribute: _NOTHING, None)
    return evaluator.value(built)


_NOTHING = AbstractAny(Kind.CONSTANT)


def _built_once(tree: ast.Module, module: ModuleInfo) -> dict[str, ast.Call]:
    """The top-level names bound once, by ``name = <MindSpore class>(...)``, and never declared ``global``."""
    found: dict[str, ast.Call] = {}
    for name, value in top_level_bound_once(tree).items():
        if not isinstance(value, ast.Call):
            continue
        made = qualified_name(value.func, module)
        if made is not None and (is_mindspore_name(made, "Tensor") or is_operation_class(made)):
            found[name] = value
    return found
