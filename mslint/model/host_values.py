"""The values of code that is not compiled: scripts, ``__init__``, PyNative Cells, data loops.

One evaluator answers two questions about such code. What a call site hands a graph entry
(``net(x, 3)``: a tensor, a Python constant, or unknown; :mod:`call_sites` reads it), and which
expressions hold a MindSpore tensor, on which a call no MindSpore tensor supports (``t.detach()``,
``t.size(0)``) fails at run time as in graph code (:func:`host_tensor_method_calls`).

A value is a MindSpore tensor where MindSpore made it: ``Tensor(...)``, ``Parameter(...)``, a
function of ``mindspore.ops``, ``mindspore.numpy`` or ``mindspore.mint``, a tensor's method or
operator, an item of a tensor, the items of a dataset iterator, or what a function of the same
module returns. A numpy array is an array; a graph it is handed to sees a tensor. A local name
is what its bindings give, joined; a parameter, a loop variable or an unpacked item says nothing.
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Iterable, Iterator

from mslint.model.abstract import (
    NOT_KNOWN,
    AbstractAny,
    AbstractDict,
    AbstractInstance,
    AbstractScalar,
    AbstractTensor,
    AbstractValue,
    Kind,
    join_all,
    literal,
    sequence,
)
from mslint.model.module import ModuleInfo
from mslint.model.project import FunctionNode, Project, is_mindspore_name, qualified_name
from mslint.model.values import STATIC_CALLS, UNKNOWN, literal_value
from mslint.model.walk import own_nodes

TENSOR = AbstractTensor(Kind.GRAPH)
NUMPY_ARRAY = AbstractInstance(Kind.CONSTANT, "numpy.ndarray")
_TENSOR_CLASSES = ("Tensor", "tensor", "Parameter")
_TENSOR_FUNCTIONS = ("mindspore.ops.", "mindspore.numpy.", "mindspore.mint.")
# Tensor methods whose result is no tensor: host copies, Python numbers, dtypes.
_NOT_TENSOR_METHODS = frozenset(
    {"asnumpy", "numpy", "tolist", "item", "dim", "ndimension", "numel", "nelement", "is_contiguous", "has_init"}
)
# Calls whose result is a Python number or string whatever their arguments.
_PYTHON_SCALARS = {
    "builtins.int": "int",
    "builtins.float": "float",
    "builtins.bool": "bool",
    "builtins.len": "int",
    "builtins.str": "str",
}
# Dataset iterators: the items they give are tensors.
_DATASET_ITERATORS = frozenset({"create_tuple_iterator", "create_dict_iterator"})
_DEPTH = 4
"""How many names and returns deep a value is followed (``a = b``, ``b = f()``, ...)."""


class HostValues:
    """The values of one scope (a module's top level or a function) that is not graph code."""

    def __init__(self, scope: ast.Module | FunctionNode, module: ModuleInfo) -> None:
        self._module = module
        self._bindings: dict[str, list[ast.expr | AbstractValue]] = {}
        """Each local name's bound expressions, or the value a binding gives without one."""
        for node in own_nodes(scope):
            if isinstance(node, ast.Assign):
                for target in node.targets:
                    self._bind(target, node.value)
            elif isinstance(node, (ast.AnnAssign, ast.NamedExpr)):
                self._bind(node.target, node.value if node.value is not None else UNKNOWN)
            elif isinstance(node, ast.AugAssign):
                self._bind(node.target, UNKNOWN)
            elif isinstance(node, (ast.For, ast.AsyncFor, ast.comprehension)):
                self._bind(node.target, TENSOR if _iterates_a_dataset(node.iter) else UNKNOWN)
            elif isinstance(node, (ast.With, ast.AsyncWith)):
                for item in node.items:
                    if item.optional_vars is not None:
                        self._bind(item.optional_vars, UNKNOWN)
            elif isinstance(node, ast.arg):
                self._bindings.setdefault(node.arg, []).append(UNKNOWN)

    def _bind(self, target: ast.expr, value: ast.expr | AbstractValue) -> None:
        if isinstance(target, ast.Name):
            self._bindings.setdefault(target.id, []).append(value)
            return
        # An unpacked item, an attribute, a subscript: a dataset's items are tensors; else unknown.
        item = value if value == TENSOR else UNKNOWN
        for name in (n for n in ast.walk(target) if isinstance(n, ast.Name)):
            self._bindings.setdefault(name.id, []).append(item)

    def value(self, expr: ast.expr, depth: int = 0) -> AbstractValue:
        if depth > _DEPTH:
            return UNKNOWN
        if isinstance(expr, ast.Constant):
            return literal(expr.value)
        if isinstance(expr, ast.Dict):
            kinds = (self.value(v, depth + 1).kind for v in expr.values if v is not None)
            return AbstractDict(max(kinds, default=Kind.CONSTANT))
        number = literal_value(expr) if isinstance(expr, (ast.UnaryOp, ast.BinOp)) else NOT_KNOWN
        if isinstance(number, (int, float)):  # `-1`
            return literal(number)
        if isinstance(expr, (ast.Tuple, ast.List)):
            items = [self.value(e, depth + 1) for e in expr.elts]
            if any(isinstance(e, ast.Starred) for e in expr.elts):
                return AbstractAny(max((i.kind for i in items), default=Kind.CONSTANT))
            return sequence(type(expr).__name__.lower(), tuple(items))
        if isinstance(expr, (ast.UnaryOp, ast.BinOp, ast.Subscript)):
            parts = [self.value(p, depth + 1) for p in _operands(expr)]
            if any(p == TENSOR or isinstance(p, AbstractTensor) for p in parts):
                return TENSOR  # an operator or an item of a tensor
            return AbstractAny(max(p.kind for p in parts))
        if isinstance(expr, ast.Call):
            return self._call(expr, depth)
        if isinstance(expr, ast.Name):
            bound = self._bindings.get(expr.id, [])
            return join_all(
                (b if isinstance(b, AbstractValue) else self.value(b, depth + 1) for b in bound), empty=UNKNOWN
            )
        return UNKNOWN

    def is_tensor(self, expr: ast.expr, seen: frozenset[str] = frozenset()) -> bool:
        """Whether ``expr`` holds a MindSpore tensor whichever binding of a name it reads: the
        proof a finding on code that is not compiled needs."""
        if isinstance(expr, ast.Name):
            bound = self._bindings.get(expr.id, []) if expr.id not in seen else []
            return bool(bound) and all(
                isinstance(b, AbstractTensor) if isinstance(b, AbstractValue) else self.is_tensor(b, seen | {expr.id})
                for b in bound
            )
        if isinstance(expr, (ast.UnaryOp, ast.BinOp, ast.Subscript)):
            return any(self.is_tensor(p, seen) for p in _operands(expr))
        if isinstance(expr, ast.Call) and isinstance(expr.func, ast.Attribute) and self._is_method(expr.func):
            return self.is_tensor(expr.func.value, seen)
        return isinstance(self.value(expr), AbstractTensor)

    def _call(self, call: ast.Call, depth: int) -> AbstractValue:
        func = call.func
        qualname = qualified_name(func, self._module)
        if qualname in _PYTHON_SCALARS:
            return AbstractScalar(Kind.CONSTANT, _PYTHON_SCALARS[qualname])
        if qualname is not None:
            if qualname in STATIC_CALLS:
                return AbstractAny(Kind.CONSTANT)
            name = qualname.rsplit(".", 1)[-1]
            if is_mindspore_name(qualname, *_TENSOR_CLASSES) or (
                qualname.startswith(_TENSOR_FUNCTIONS) and name[:1].islower()
            ):
                return TENSOR
            if qualname.split(".", 1)[0] == "numpy":
                return NUMPY_ARRAY
        if isinstance(func, ast.Attribute) and self._is_method(func):
            return TENSOR if isinstance(self.value(func.value, depth + 1), AbstractTensor) else UNKNOWN
        return self._returned_by(func, depth)

    def _is_method(self, func: ast.Attribute) -> bool:
        """A method whose result, on a tensor, is a tensor (a module's function is no method)."""
        return func.attr not in _NOT_TENSOR_METHODS and qualified_name(func, self._module) is None

    def _returned_by(self, func: ast.expr, depth: int) -> AbstractValue:
        """What a function of the same module returns (``_input()`` returning ``Tensor(...)``)."""
        function = (
            self._module.functions.get(func.id)
            if isinstance(func, ast.Name) and func.id not in self._bindings
            else None
        )
        if function is None:
            return UNKNOWN
        returned = [r.value for r in own_nodes(function) if isinstance(r, ast.Return) and r.value is not None]
        values = HostValues(function, self._module)
        return join_all((values.value(r, depth + 1) for r in returned), empty=UNKNOWN)


def _operands(expr: ast.UnaryOp | ast.BinOp | ast.Subscript) -> list[ast.expr]:
    if isinstance(expr, ast.UnaryOp):
        return [expr.operand]
    if isinstance(expr, ast.Subscript):
        return [expr.value]
    return [expr.left, expr.right]


def _iterates_a_dataset(iterable: ast.expr) -> bool:
    """``for data in dataset.create_tuple_iterator()`` (also through ``enumerate``)."""
    if isinstance(iterable, ast.Call) and isinstance(iterable.func, ast.Name) and iterable.func.id == "enumerate":
        iterable = iterable.args[0] if iterable.args else iterable
    return (
        isinstance(iterable, ast.Call)
        and isinstance(iterable.func, ast.Attribute)
        and iterable.func.attr in _DATASET_ITERATORS
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
        values = HostValues(scope, module) if found else None
        for call in found:
            assert isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute) and values is not None
            if values.is_tensor(call.func.value):  # a tensor: not a module, a class or a global of another kind
                yield call
