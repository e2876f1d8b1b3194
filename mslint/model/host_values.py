"""Tensors in code that is not compiled: scripts, ``__init__``, PyNative Cells, data pipelines.

Nothing there is compiled, but a call that no MindSpore tensor supports (``t.detach()``,
``t.size(0)``) fails there as well, at run time. A value is known to be a MindSpore tensor where
MindSpore made it: ``Tensor(...)``, ``Parameter(...)``, a function of ``mindspore.ops``,
``mindspore.numpy`` or ``mindspore.mint`` (``ops.ones(...)``, ``mnp.arange(...)``), a tensor's
method or operator, an item of a tensor; and a local name is one where every binding of it in
its scope is. Anything else (a parameter, a loop variable, a PyTorch tensor) is not known.
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Iterable, Iterator

from mslint.model.module import ModuleInfo
from mslint.model.project import FunctionNode, Project, is_mindspore_name, qualified_name
from mslint.model.values import STATIC_CALLS
from mslint.model.walk import own_nodes

_TENSOR_CLASSES = ("Tensor", "tensor", "Parameter")
_TENSOR_FUNCTIONS = ("mindspore.ops.", "mindspore.numpy.", "mindspore.mint.")
# Tensor methods whose result is no tensor: host copies, Python numbers, dtypes.
_NOT_TENSOR_METHODS = frozenset(
    {"asnumpy", "numpy", "tolist", "item", "dim", "ndimension", "numel", "nelement", "is_contiguous", "has_init"}
)


class HostTensors:
    """Which expressions of one scope (a module's top level or a function) hold MindSpore tensors."""

    def __init__(self, scope: ast.Module | FunctionNode, module: ModuleInfo) -> None:
        self._module = module
        self._bindings: dict[str, list[ast.expr | None]] = {}
        """Each local name's values; None for a binding whose value is not an expression."""
        for node in own_nodes(scope):
            if isinstance(node, ast.Assign):
                for target in node.targets:
                    self._bind(target, node.value)
            elif isinstance(node, (ast.AnnAssign, ast.AugAssign, ast.NamedExpr)):
                self._bind(node.target, getattr(node, "value", None))
            elif isinstance(node, (ast.For, ast.AsyncFor, ast.comprehension)):
                self._bind(node.target, None)
            elif isinstance(node, (ast.With, ast.AsyncWith)):
                for item in node.items:
                    if item.optional_vars is not None:
                        self._bind(item.optional_vars, None)
            elif isinstance(node, ast.arg):
                self._bindings.setdefault(node.arg, []).append(None)

    def _bind(self, target: ast.expr, value: ast.expr | None) -> None:
        if isinstance(target, ast.Name):
            self._bindings.setdefault(target.id, []).append(value)
        else:  # an unpacked item, an attribute, a subscript: no value of the name is known
            for name in (n for n in ast.walk(target) if isinstance(n, ast.Name)):
                self._bindings.setdefault(name.id, []).append(None)

    def is_tensor(self, expr: ast.expr, seen: frozenset[str] = frozenset()) -> bool:
        if isinstance(expr, ast.Call):
            return self._makes_tensor(expr, seen)
        if isinstance(expr, ast.Subscript):
            return self.is_tensor(expr.value, seen)
        if isinstance(expr, ast.BinOp):
            return self.is_tensor(expr.left, seen) or self.is_tensor(expr.right, seen)
        if isinstance(expr, ast.UnaryOp):
            return self.is_tensor(expr.operand, seen)
        if isinstance(expr, ast.Name) and expr.id not in seen:
            values = self._bindings.get(expr.id, [])
            return bool(values) and all(v is not None and self.is_tensor(v, seen | {expr.id}) for v in values)
        return False

    def _makes_tensor(self, call: ast.Call, seen: frozenset[str]) -> bool:
        func = call.func
        qualname = qualified_name(func, self._module)
        if qualname is not None:
            if qualname in STATIC_CALLS:
                return False
            if is_mindspore_name(qualname, *_TENSOR_CLASSES):
                return True
            name = qualname.rsplit(".", 1)[-1]
            return qualname.startswith(_TENSOR_FUNCTIONS) and name[:1].islower()
        return (
            isinstance(func, ast.Attribute)
            and func.attr not in _NOT_TENSOR_METHODS
            and self.is_tensor(func.value, seen)
        )


def host_tensor_method_calls(
    module: ModuleInfo, project: Project, names: Iterable[str], wanted: Callable[[ast.Call], bool] = lambda c: True
) -> Iterator[ast.Call]:
    """Calls ``t.name(...)`` of one of ``names`` outside graph code (graph rules judge those, with
    what graph code knows of its values), where ``t`` is a tensor MindSpore made."""
    calls = [c for name in names for c in module.calls_by_name.get(name, []) if isinstance(c.func, ast.Attribute)]
    calls = [c for c in calls if wanted(c)]
    if not calls:
        return
    candidates = {id(c) for c in calls}
    for scope in module.scopes_holding([c.lineno for c in calls]):
        if id(scope) in project.graph_function_nodes:
            continue
        found = [n for n in own_nodes(scope) if id(n) in candidates]
        tensors = HostTensors(scope, module) if found else None
        for call in found:
            assert isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute) and tensors is not None
            if tensors.is_tensor(call.func.value):  # a tensor: not a module, a class or a global of another kind
                yield call
