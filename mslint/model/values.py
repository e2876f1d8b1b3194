"""Values in graph code: what each expression is to the compiler (:mod:`mslint.model.abstract`).

MindSpore folds everything computed from constants at compile time (literals,
attributes set in ``__init__``, shapes of inputs with static shapes), so numpy or
a Python slice over such values compiles even in STRICT. Only values that exist
at run time - inputs, results of tensor operations, Parameters - make those
constructs fail, fall back to the interpreter or turn shapes dynamic. Past when a
value is known, its type decides the rest: a tensor, a Python number, a tuple of them.

A call into a function of the checked code has the value of what that function returns,
item by item for tuples: a sub-Cell that returns ``x, (h, w)`` with ``h, w`` from
``x.shape`` gives its caller a tensor and two constant ints.
"""

from __future__ import annotations

import ast
import operator
from collections.abc import Mapping
from typing import Any, Callable, Union

from mslint.model.abstract import (
    NOT_KNOWN,
    AbstractAny,
    AbstractDict,
    AbstractDtype,
    AbstractFunction,
    AbstractInstance,
    AbstractScalar,
    AbstractSequence,
    AbstractTensor,
    AbstractValue,
    Construction,
    Kind,
    element,
    is_0d_tensor,
    join,
    latest,
    literal,
    sequence,
    sequence_of,
    with_kind,
)
from mslint.model.binder import (
    ENUMERATE_COUNT,
    bindings,
    literal_value,
    names_read,
    parameter_defaults,
    target_names,
)
from mslint.model.created_tensors import AbstractArray
from mslint.model.dtypes import DTYPES, dtype_named
from mslint.model.layer_transfer import layer_result
from mslint.model.module import is_self_attribute
from mslint.model.project import is_mindspore_name
from mslint.model.symbolic import Origin, ProgramPoint, derived, row, source
from mslint.model.transfer import (
    UNKNOWN_INDEX,
    IndexItem,
    Operands,
    broadcast,
    constant_int,
    elementwise,
    function_result,
    indexed_shape,
    matmul_shape,
    method_result,
    primitive_result,
    promoted,
)
from mslint.model.walk import child_fields

# Attributes of a tensor that are static Python values in graph code.
STATIC_ATTRIBUTES = frozenset({"shape", "ndim", "dtype", "size", "itemsize", "nbytes", "__class__"})
# Tensor methods that return static Python values (sizes and ranks).
STATIC_METHODS = frozenset({"size", "dim", "ndimension", "numel", "nelement"})
# Those of them that give the tensor's rank, as ``ndim`` does.
RANK_METHODS = frozenset({"dim", "ndimension"})
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
# MindSpore functions and Tensor methods that return a tuple of tensors, not one.
SEQUENCE_RESULTS = frozenset(
    {
        "split",
        "chunk",
        "unbind",
        "meshgrid",
        "unique",
        "unique_consecutive",
        "unique_with_pad",
        "topk",
        "sort",
        "max",
        "min",
        "median",
        "mode",
        "broadcast_tensors",
        "tensor_split",
        "hsplit",
        "vsplit",
        "dsplit",
        "array_split",
        "svd",
        "qr",
        "eigh",
        "lstsq",
        "slogdet",
        "nonzero",
        "where",
        "tolist",
        "asnumpy",
        "item",
        "itemset",
        "lstm",
        "gru",
        "rnn",
        "multiheadattention",
        "argmaxwithvalue",
        "argminwithvalue",
    }
)
# Tensor methods that reduce over every axis when given no argument: ``t.sum()`` is 0-d.
FULL_REDUCTIONS = frozenset({"sum", "mean", "max", "min", "prod", "all", "any", "amax", "amin", "std", "var", "norm"})
# The namespaces whose functions the transfer functions were measured against.
_MEASURED_NAMESPACES = ("mindspore.ops.", "mindspore.mint.")
_SCALAR_TYPES = {"builtins.int": "int", "builtins.float": "float", "builtins.bool": "bool"}


def is_static_primitive(qualname: str | None) -> bool:
    return is_mindspore_name(qualname, *STATIC_PRIMITIVES)


ReturnedValue = Callable[[ast.Call, Callable[[ast.expr], AbstractValue]], Union[AbstractValue, None]]
"""The value of what the functions of the checked code that a call runs return, given the value
of each expression (its arguments); None where it runs none of them."""


class ValueEvaluator:
    """Abstract values of expressions within one function, given its locals' values, the value of
    ``self.x`` and what calls into the checked code return; at a program ``point``, their origins
    too (:mod:`mslint.model.symbolic`)."""

    def __init__(
        self,
        local_values: Mapping[str, AbstractValue],
        qualname: Callable[[ast.expr], str | None],
        self_attribute_value: Callable[[str], AbstractValue],
        self_name: str | None,
        self_attribute_is_static_primitive: Callable[[str], bool] = lambda attribute: False,
        returned_value: ReturnedValue = lambda call, value: None,
        loop_items: dict[int, ast.expr] | None = None,
        cache: dict[int, AbstractValue] | None = None,
        point: ProgramPoint | None = None,
        origin_cache: dict[int, Origin | None] | None = None,
        global_value: Callable[[ast.Name], AbstractValue | None] = lambda name: None,
    ) -> None:
        self.local_values = local_values
        self.global_value = global_value
        """What a name no local binds holds, where it is a module's object (:mod:`mslint.model.module_objects`)."""
        self.loop_items = loop_items or {}
        """For reads of a loop's target inside its body: the loop's iterable (see :func:`loop_items`)."""
        self.qualname = qualname
        self.self_attribute_value = self_attribute_value
        self.self_name = self_name
        self.self_attribute_is_static_primitive = self_attribute_is_static_primitive
        self.returned_value = returned_value
        self._values: dict[int, AbstractValue] = {} if cache is None else cache
        """By expression node: its value, once the locals' values are final (shared between queries)."""
        self.point = point
        """Where values are followed flow-sensitively: names it does not bind have the function's values."""
        self._origins: dict[int, Origin | None] = {} if origin_cache is None else origin_cache
        """By expression node: its origin, where there is a ``point`` (shared between queries)."""

    def kind(self, expr: ast.expr | None) -> Kind:
        return self.value(expr).kind

    def value(self, expr: ast.expr | None) -> AbstractValue:
        """The abstract value of ``expr``, from the values of its parts.

        A loop over the parts rather than a recursion: generated or machine-written code chains
        thousands of ``+`` terms or ``.sum()`` calls, deeper than Python's stack."""
        if expr is None:
            return _CONSTANT_VALUE
        values = self._values
        known = values.get(id(expr))
        if known is not None:
            return known
        pending: list[tuple[ast.expr, list[ast.expr] | None]] = [(expr, None)]
        while pending:
            node, parts = pending.pop()
            if id(node) in values:
                continue
            if parts is None:
                parts = self._parts(node)
                pending.append((node, parts))
                pending.extend((part, None) for part in reversed(parts) if id(part) not in values)
            else:
                values[id(node)] = self._combine(node, [values[id(part)] for part in parts])
                if self.point is not None:
                    self._origins[id(node)] = self._origin(node, self.point)
        return values[id(expr)]

    def origin(self, expr: ast.expr) -> Origin | None:
        """What ``expr`` is known to be relative to a graph value, at this evaluator's point."""
        self.value(expr)
        return self._origins.get(id(expr))

    def _origin(self, expr: ast.expr, point: ProgramPoint) -> Origin | None:
        if isinstance(expr, ast.Name):
            iterable = self.loop_items.get(id(expr))
            if iterable is not None:  # the target of a loop or comprehension: a row of what it iterates
                return row(self.value(iterable), self.origin(iterable))
            if expr.id in point.origins:
                return point.origins[expr.id]
            return source(expr.id) if point.is_source(expr) else None
        if is_self_attribute(expr, self.self_name):
            return source(ast.unparse(expr)) if point.is_source(expr) else None
        return derived(expr, self)

    def _parts(self, expr: ast.expr) -> list[ast.expr]:
        """The expressions whose values decide the value of ``expr``."""
        if isinstance(expr, (ast.Constant, ast.Lambda)):
            return []
        if isinstance(expr, ast.JoinedStr):
            # An f-string is a constant only if what it formats is: ``f"{x.shape}"`` is folded,
            # ``f"{x}"`` needs the interpreter at run time.
            return [v.value for v in expr.values if isinstance(v, ast.FormattedValue)]
        if isinstance(expr, ast.Name):
            iterable = self.loop_items.get(id(expr))
            return [iterable] if iterable is not None else []
        if isinstance(expr, ast.Attribute):
            own = is_self_attribute(expr, self.self_name) and expr.attr not in STATIC_ATTRIBUTES
            return [] if own else [expr.value]
        if isinstance(expr, ast.Call):
            return [*_operands(expr), expr.func]  # the callee last: what it is, not when it is known
        if isinstance(expr, (ast.ListComp, ast.SetComp, ast.GeneratorExp, ast.DictComp)):
            parts: list[ast.expr] = [g.iter for g in expr.generators]
            return parts + ([expr.key, expr.value] if isinstance(expr, ast.DictComp) else [expr.elt])
        return _child_expressions(expr)

    def _combine(self, expr: ast.expr, parts: list[AbstractValue]) -> AbstractValue:
        """The value of ``expr`` from the values of its :meth:`_parts`."""
        if isinstance(expr, ast.Constant):
            return AbstractScalar(Kind.CONSTANT, "int") if expr is ENUMERATE_COUNT else literal(expr.value)
        if isinstance(expr, ast.Lambda):
            return AbstractFunction(Kind.CONSTANT)
        if isinstance(expr, ast.JoinedStr):
            return AbstractScalar(latest(parts), "str")
        if isinstance(expr, ast.Name):
            if parts:  # the target of a loop, read in its body
                return parts[0] if self.loop_items[id(expr)] is ENUMERATE_COUNT else element(parts[0])
            if self.point is not None and expr.id not in self.local_values:
                return self.point.outer(expr)
            local = self.local_values.get(expr.id)
            if local is not None:
                return local
            global_ = self.global_value(expr)
            if global_ is not None:
                return global_
            dtype = dtype_named(expr, self.qualname) if expr.id in DTYPES else None  # `from mindspore import float32`
            return _CONSTANT_VALUE if dtype is None else AbstractDtype(Kind.CONSTANT, dtype)
        if isinstance(expr, ast.Attribute):
            return self._attribute(expr, parts[0] if parts else None)
        if isinstance(expr, ast.Call):
            return self._call(expr, parts)
        if isinstance(expr, (ast.Await, ast.Yield, ast.YieldFrom)):
            return AbstractAny(Kind.GRAPH)
        if isinstance(expr, ast.BinOp):
            return _binary(expr.op, parts[0], parts[1])
        if isinstance(expr, ast.UnaryOp):
            return _unary(expr.op, parts[0])
        if isinstance(expr, ast.IfExp):
            return with_kind(join(parts[1], parts[2]), parts[0].kind)
        if isinstance(expr, ast.Subscript):
            if isinstance(parts[0], AbstractTensor):
                kind = max(parts[0].kind, parts[1].kind)
                shape = indexed_shape(parts[0].shape, self._index_items(expr.slice))
                return AbstractTensor(kind, parts[0].dtype, shape)
            return _item(parts[0], parts[1])
        kind = latest(parts)
        if isinstance(expr, (ast.Tuple, ast.List)):
            if any(isinstance(e, ast.Starred) for e in expr.elts):
                return sequence_of(_sequence_type(expr), AbstractAny(kind), kind)
            return sequence(_sequence_type(expr), tuple(parts))
        if isinstance(expr, ast.ListComp):
            return sequence_of("list", parts[-1], kind)
        if isinstance(expr, (ast.Dict, ast.DictComp)):
            return AbstractDict(kind)
        if isinstance(expr, ast.Compare) and len(expr.ops) == 1 and isinstance(expr.ops[0], (ast.Is, ast.IsNot)):
            return _none_test(expr, parts[0], parts[1], kind)
        if isinstance(expr, ast.Compare) and not any(isinstance(o, _IDENTITY_OR_MEMBERSHIP) for o in expr.ops):
            tensors = [p for p in parts if isinstance(p, AbstractTensor)]
            if tensors:
                shapes = [t.shape for t in tensors] if len(tensors) == len(parts) else [tensors[0].shape]
                shape = shapes[0] if len(shapes) == 1 else broadcast(shapes[0], shapes[1]) if len(shapes) == 2 else None
                return AbstractTensor(kind, "bool", shape)
            if all(isinstance(p, AbstractScalar) for p in parts):
                return AbstractScalar(kind, "bool")
        return AbstractAny(kind)

    def _index_items(self, index: ast.expr) -> list[IndexItem]:
        """The items of a tensor's index, as :func:`~mslint.model.transfer.indexed_shape` reads them."""
        items = index.elts if isinstance(index, ast.Tuple) else [index]
        return [self._index_item(item) for item in items]

    def _index_item(self, item: ast.expr) -> IndexItem:
        if isinstance(item, ast.Slice):
            bounds = [None if b is None else self.value(b) for b in (item.lower, item.upper, item.step)]
            ints = [None if b is None else constant_int(b) for b in bounds]
            if any(k is None and b is not None for k, b in zip(ints, bounds)) or ints[2] == 0:
                return UNKNOWN_INDEX
            return slice(*ints)
        value = self.value(item)
        if isinstance(item, ast.Constant) and item.value is Ellipsis:
            return Ellipsis
        if isinstance(value, AbstractScalar) and value.type == "None":
            return None
        known = constant_int(value)
        return UNKNOWN_INDEX if known is None else known

    def _attribute(self, expr: ast.Attribute, receiver: AbstractValue | None) -> AbstractValue:
        if receiver is None:  # `self.x`
            return self.self_attribute_value(expr.attr)
        if expr.attr in STATIC_ATTRIBUTES:
            return _static_attribute(expr.attr, receiver)
        dtype = dtype_named(expr, self.qualname)
        if dtype is not None:
            return AbstractDtype(Kind.CONSTANT, dtype)
        if isinstance(receiver, AbstractTensor):
            return AbstractTensor(receiver.kind, receiver.dtype)
        return AbstractAny(receiver.kind)

    def _call(self, call: ast.Call, parts: list[AbstractValue]) -> AbstractValue:
        """The value of a call: of what it computes where mslint knows the callee, else a value
        known when its operands are."""
        operands, callee = parts[:-1], parts[-1]
        kind = latest(operands)
        func = call.func
        qualname = self.qualname(func)
        if qualname in STATIC_CALLS:
            return _static_call(qualname, operands)
        if isinstance(func, ast.Call) and is_static_primitive(self.qualname(func.func)):
            return _shape_of(operands[0] if operands else None)
        if (
            isinstance(func, ast.Attribute)
            and is_self_attribute(func, self.self_name)
            and self.self_attribute_is_static_primitive(func.attr)
        ):
            return _shape_of(operands[0] if operands else None)
        if isinstance(func, ast.Attribute) and func.attr in STATIC_METHODS:
            if func.attr in RANK_METHODS and not call.args and not call.keywords:
                return _static_attribute("ndim", operands[-1])  # `x.dim()` is `x.ndim`
            return AbstractScalar(Kind.CONSTANT, "int")
        # What a function of the checked code returns, rather than its operands: the axes that
        # ``self.get_axis(x)`` computes from ``x.shape`` (``nn.LossBase``) are constants, ``x`` is not.
        returned = self.returned_value(call, self.value)
        if returned is not None:
            return returned
        if qualname in _SCALAR_TYPES:
            return _python_number(_SCALAR_TYPES[qualname], operands, kind)
        if qualname == "builtins.dict":  # `dict(loss=loss)` and `dict()` build a dict, as `{...}` does
            return AbstractDict(kind)
        return _result(call, qualname, self.qualname, operands, callee, kind)


def _child_expressions(expr: ast.expr) -> list[ast.expr]:
    """The expressions directly under ``expr``, in source order (``ast.iter_child_nodes`` less
    what is no expression, without reading the fields that never hold one)."""
    children: list[ast.expr] = []
    for name in reversed(child_fields(expr)):
        value = getattr(expr, name, None)
        if isinstance(value, list):
            children.extend(item for item in value if isinstance(item, ast.expr))
        elif isinstance(value, ast.expr):
            children.append(value)
    return children


_CONSTANT_VALUE = AbstractAny(Kind.CONSTANT)
_IDENTITY_OR_MEMBERSHIP = (ast.Is, ast.IsNot, ast.In, ast.NotIn)


def none_tested(test: ast.expr) -> ast.expr | None:
    """The operand that ``x is None`` or ``x is not None`` (``None is x``) tests; None for any
    other expression."""
    if not (isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.ops[0], (ast.Is, ast.IsNot))):
        return None
    left, right = test.left, test.comparators[0]
    if isinstance(right, ast.Constant) and right.value is None:
        return left
    return right if isinstance(left, ast.Constant) and left.value is None else None


def _none_test(expr: ast.Compare, left: AbstractValue, right: AbstractValue, kind: Kind) -> AbstractValue:
    """``x is None`` or ``x is not None``: known where ``x`` is a Python scalar constant, whose
    type says whether it is None (the compiler specialises on it: ``self.block(x, None)``)."""
    tested = none_tested(expr)
    other = left if tested is expr.left else right if tested is not None else None
    if isinstance(other, AbstractScalar) and other.kind is Kind.CONSTANT:
        return literal((other.type == "None") == isinstance(expr.ops[0], ast.Is))
    return AbstractAny(kind)


def _sequence_type(expr: ast.Tuple | ast.List) -> str:
    return "tuple" if isinstance(expr, ast.Tuple) else "list"


def _operands(call: ast.Call) -> list[ast.expr]:
    operands: list[ast.expr] = [*call.args, *(k.value for k in call.keywords)]
    if isinstance(call.func, ast.Attribute):
        operands.append(call.func.value)
    return operands


def _static_attribute(attribute: str, receiver: AbstractValue) -> AbstractValue:
    if attribute == "shape":
        return _shape_of(receiver)
    if attribute == "ndim" and isinstance(receiver, AbstractTensor):
        return AbstractScalar(Kind.CONSTANT, "int", NOT_KNOWN if receiver.rank is None else receiver.rank)
    if attribute in ("size", "itemsize", "nbytes"):
        return AbstractScalar(Kind.CONSTANT, "int")
    return _CONSTANT_VALUE


def _shape_of(value: AbstractValue | None) -> AbstractValue:
    """The shape of a tensor: a tuple of Python ints, constants."""
    if isinstance(value, AbstractTensor) and value.shape is not None:
        dimensions = (AbstractScalar(Kind.CONSTANT, "int", NOT_KNOWN if d is None else d) for d in value.shape)
        return sequence("tuple", tuple(dimensions))
    return sequence_of("tuple", AbstractScalar(Kind.CONSTANT, "int"), Kind.CONSTANT)


def _static_call(qualname: str, operands: list[AbstractValue]) -> AbstractValue:
    name = qualname.rsplit(".", 1)[-1]
    if name == "len" and operands and isinstance(operands[0], AbstractSequence) and operands[0].items is not None:
        return AbstractScalar(Kind.CONSTANT, "int", len(operands[0].items))
    if name in ("len", "id", "rank", "size"):
        return AbstractScalar(Kind.CONSTANT, "int")
    if name in ("isinstance", "issubclass", "hasattr"):
        return AbstractScalar(Kind.CONSTANT, "bool")
    if name in ("str", "repr"):
        return AbstractScalar(Kind.CONSTANT, "str")
    if name == "shape":
        return _shape_of(operands[0] if operands else None)
    return _CONSTANT_VALUE


def _python_number(type_: str, operands: list[AbstractValue], kind: Kind) -> AbstractValue:
    """``int(x)``, ``float(x)``, ``bool(x)``: a Python number, computed at run time from a tensor."""
    argument = operands[0] if len(operands) == 1 else None
    if isinstance(argument, AbstractScalar) and argument.value is not NOT_KNOWN and argument.type != "str":
        try:
            return literal({"int": int, "float": float, "bool": bool}[type_](argument.value))  # type: ignore[call-overload]
        except (TypeError, ValueError, OverflowError):
            pass
    return AbstractScalar(kind, type_)


def _result(
    call: ast.Call,
    qualname: str | None,
    qualname_of: Callable[[ast.expr], str | None],
    operands: list[AbstractValue],
    callee: AbstractValue,
    kind: Kind,
) -> AbstractValue:
    """The value of a call of MindSpore or of a method: what the transfer functions compute
    (:mod:`mslint.model.transfer`), else a tensor of no known shape where MindSpore computes one."""
    if isinstance(callee, AbstractInstance) and is_mindspore_name(callee.qualname):  # `self.dense(x)`
        given = _given_operands(call, operands, kind)
        class_name = callee.qualname.rsplit(".", 1)[-1]
        construction = callee.construction or Construction()
        if given is not None and callee.cell and given.args:
            computed = layer_result(class_name, construction, given.args[0], kind)
        else:
            computed = primitive_result(class_name, construction, given) if given is not None else None
        if computed is not None:
            return computed
        return AbstractAny(kind) if class_name.lower() in SEQUENCE_RESULTS else AbstractTensor(kind)
    func = call.func
    method = func.attr if isinstance(func, ast.Attribute) else None
    receiver = operands[-1] if method is not None and qualname is None and operands else None
    name = (qualname or "").rsplit(".", 1)[-1]
    tensor = receiver if isinstance(receiver, AbstractTensor) else None
    reduces_all = method in FULL_REDUCTIONS and receiver is not None and not call.args and not call.keywords
    if reduces_all and (tensor is not None or kind is not Kind.CONSTANT):
        # only a tensor has `.sum()`: a graph value of no inferred type reduced so is one too
        return AbstractTensor(kind, tensor.dtype if tensor is not None else None, ())
    if tensor is not None and method is not None:  # a Tensor method
        if method in SEQUENCE_RESULTS:
            return AbstractScalar(kind, "float") if method == "item" else AbstractAny(kind)
        given = _given_operands(call, operands, kind)
        computed = method_result(method, Operands([tensor, *given.args], given.keywords, kind)) if given else None
        return computed if computed is not None else AbstractTensor(kind)
    if qualname in ("builtins.max", "builtins.min") and len(operands) > 1 and not call.keywords:
        return _extremum(operands, kind)
    if is_mindspore_name(qualname) and name in ("Tensor", "Parameter"):
        return AbstractTensor(kind, _dtype(call, qualname_of), parameter=name == "Parameter")
    if is_mindspore_name(qualname) and name[:1].islower() and name not in SEQUENCE_RESULTS:
        given = _given_operands(call, operands, kind) if (qualname or "").startswith(_MEASURED_NAMESPACES) else None
        computed = function_result(name, given, mint=".mint." in f"{qualname}.") if given is not None else None
        return computed if computed is not None else AbstractTensor(kind)
    if qualname is not None and is_operation_class(qualname):
        # `ops.Fill()`, `P.Cast()` built inline: the operation, called as one held on `self` is
        given = _given_operands(call, operands, kind)
        if given is not None:
            built = Construction(tuple(given.args), tuple(given.keywords.items()))
            return AbstractInstance(kind, qualname, construction=built)
    if (qualname or "").partition(".")[0] == "numpy" and name[:1].islower():
        # numpy's functions give numpy arrays (or numpy scalars): whatever they were given,
        # never a MindSpore tensor, whose methods (``.tolist()``) would copy a graph value
        return AbstractArray(kind, "numpy.ndarray")
    return AbstractAny(kind)


def is_operation_class(qualname: str) -> bool:
    """A class of MindSpore's operations (``mindspore.ops.Cast``, ``ops.GradOperation``): what a
    call of it builds is an object that graph code calls."""
    return qualname.startswith("mindspore.ops.") and qualname.rsplit(".", 1)[-1][:1].isupper()


def _given_operands(call: ast.Call, operands: list[AbstractValue], kind: Kind) -> Operands | None:
    """The values of a call's arguments, positional and by keyword (:func:`_operands` order);
    None where one is spread (``f(*args)``)."""
    if any(isinstance(a, ast.Starred) for a in call.args) or any(k.arg is None for k in call.keywords):
        return None
    count = len(call.args)
    keywords = {k.arg: operands[count + i] for i, k in enumerate(call.keywords) if k.arg is not None}
    args = operands[:count]
    if args and isinstance(args[0], AbstractAny) and args[0].kind is not Kind.CONSTANT:
        args = [AbstractTensor(args[0].kind), *args[1:]]  # what MindSpore's operations take is a tensor
    return Operands(args, keywords, kind)


def _extremum(operands: list[AbstractValue], kind: Kind) -> AbstractValue:
    """Python's ``max``/``min`` of 0-d tensors and constants is a 0-d tensor (LAX compares them)."""
    tensors = [o for o in operands if isinstance(o, AbstractTensor)]
    if tensors and all(is_0d_tensor(o) or o.kind is Kind.CONSTANT for o in operands):
        return AbstractTensor(kind, None, ())
    return AbstractAny(kind)


def _dtype(call: ast.Call, qualname_of: Callable[[ast.expr], str | None]) -> str | None:
    """The dtype a cast or a tensor constructor names: ``ms.float16``, ``mstype.int32``."""
    for argument in [*call.args, *(k.value for k in call.keywords if k.arg == "dtype")]:
        dtype = dtype_named(argument, qualname_of) if isinstance(argument, (ast.Attribute, ast.Name)) else None
        if dtype is not None:
            return dtype
    return None


_FOLDED: dict[type[ast.operator], Callable[[Any, Any], Any]] = {
    ast.Add: operator.add,
    ast.Sub: operator.sub,
    ast.Mult: operator.mul,
    ast.FloorDiv: operator.floordiv,
    ast.Mod: operator.mod,
    ast.Div: operator.truediv,
}


def _binary(operation: ast.operator, left: AbstractValue, right: AbstractValue) -> AbstractValue:
    kind = max(left.kind, right.kind)
    if isinstance(left, AbstractTensor) and isinstance(right, AbstractTensor) and isinstance(operation, ast.MatMult):
        return AbstractTensor(kind, promoted(left.dtype, right.dtype), matmul_shape(left.shape, right.shape))
    if isinstance(left, AbstractTensor) or isinstance(right, AbstractTensor):
        divides = isinstance(operation, ast.Div)
        result = elementwise(left, right, kind)
        if result is None:
            return AbstractTensor(kind)
        if divides and result.dtype is not None and not result.dtype.startswith(("float", "bfloat")):
            return AbstractTensor(kind, "float32", result.shape)  # true division of integers
        return result
    if isinstance(left, AbstractScalar) and isinstance(right, AbstractScalar):
        return _folded(operation, left, right, kind)
    if isinstance(operation, ast.Mult):
        repeated = _repeated(left, right) or _repeated(right, left)
        if repeated is not None:
            return repeated
    number = next((v for v in (left, right) if isinstance(v, AbstractScalar) and v.type in ("int", "float")), None)
    if number is not None and {left.kind, right.kind} & {Kind.CONSTANT} and kind is Kind.GRAPH:
        return AbstractScalar(kind, number.type)  # `int(t) * self.scale`: a number computed at run time
    if (
        isinstance(operation, ast.Add)
        and isinstance(left, AbstractSequence)
        and isinstance(right, AbstractSequence)
        and left.items is not None
        and right.items is not None
    ):
        return sequence(left.type, left.items + right.items)
    return AbstractAny(kind)


_LONGEST_REPEAT = 4096
"""Items at most in a repeated tuple or list the analysis spells out (``[False] * depth``)."""


def _repeated(items: AbstractValue, times: AbstractValue) -> AbstractSequence | None:
    """``[False] * 16``: the items repeated, where both are known (and the result not too long)."""
    if not isinstance(items, AbstractSequence) or items.items is None:
        return None
    if not isinstance(times, AbstractScalar) or times.type != "int" or not isinstance(times.value, int):
        return None
    count = max(times.value, 0)
    if len(items.items) * count > _LONGEST_REPEAT:
        return None
    return sequence(items.type, items.items * count)


def _folded(operation: ast.operator, left: AbstractScalar, right: AbstractScalar, kind: Kind) -> AbstractValue:
    """Arithmetic on Python numbers: computed where both are constants the code shows."""
    numbers = ("int", "float", "bool")
    if left.type not in numbers or right.type not in numbers:
        return AbstractAny(kind)
    type_ = "float" if "float" in (left.type, right.type) or isinstance(operation, ast.Div) else "int"
    fold = _FOLDED.get(type(operation))
    if kind is Kind.CONSTANT and fold is not None and NOT_KNOWN not in (left.value, right.value):
        try:
            result = fold(left.value, right.value)
        except (ArithmeticError, TypeError, ValueError):
            return AbstractScalar(kind, type_)
        if isinstance(result, (int, float)) and abs(result) < 2**63:
            return literal(result)
    return AbstractScalar(kind, type_)


def _unary(operation: ast.unaryop, operand: AbstractValue) -> AbstractValue:
    if isinstance(operand, AbstractTensor):
        return operand if not isinstance(operation, ast.Not) else AbstractScalar(operand.kind, "bool")
    if isinstance(operand, AbstractScalar) and operand.type in ("int", "float", "bool"):
        if isinstance(operation, ast.Not):
            value = NOT_KNOWN if operand.value is NOT_KNOWN else not operand.value
            return AbstractScalar(operand.kind, "bool", value)
        if isinstance(operation, ast.USub) and operand.value is not NOT_KNOWN:
            return literal(-operand.value)  # type: ignore[operator]
        return AbstractScalar(operand.kind, "float" if operand.type == "float" else "int")
    return AbstractAny(operand.kind)


def _item(container: AbstractValue, index: AbstractValue) -> AbstractValue:
    """``container[index]`` of a container other than a tensor (:func:`indexed_shape`), known no
    earlier than both."""
    kind = max(container.kind, index.kind)
    if isinstance(container, AbstractSequence) and isinstance(index, AbstractScalar):
        if container.items is not None and isinstance(index.value, int) and not isinstance(index.value, bool):
            if -len(container.items) <= index.value < len(container.items):
                return with_kind(container.items[index.value], kind)
        elif index.type == "int":
            return with_kind(container.element(), kind)
    return AbstractAny(kind)


def name_values(
    function: ast.FunctionDef | ast.AsyncFunctionDef,
    parameter_values: dict[str, AbstractValue],
    evaluator_for: Callable[[dict[str, AbstractValue]], ValueEvaluator],
) -> dict[str, AbstractValue]:
    """Values of the local names of ``function``, flow-insensitive: the join of every binding's
    (a name is a graph value if any binding gives it one).

    Bindings are evaluated in order, then again only where a name they read has changed since
    (a loop's back edge): most code binds a name before it reads it."""
    values = dict(parameter_values)
    found = bindings(function)
    reads = names_read(function)
    changed_at: dict[str, int] = {}
    evaluated_at = [-1] * len(found)
    step = 0
    for _ in range(3):
        evaluator = evaluator_for(values)  # a new one each round: what it has evaluated may change
        again = False
        for index, binding in enumerate(found):
            if evaluated_at[index] >= 0 and all(changed_at.get(n, -1) < evaluated_at[index] for n in reads[index]):
                continue
            step += 1
            evaluated_at[index] = step
            value = evaluator.value(binding.value) if binding.value is not None else _RUNTIME
            if binding.iterates:
                value = element(value)
            for name, bound in _name_values(binding.target, value, binding.unpacks):
                joined = bound if name not in values else join(values[name], bound)
                if values.get(name) != joined:
                    values[name] = joined
                    changed_at[name] = step
                    again = True
        if not again:
            break
    return values


_RUNTIME = AbstractAny(Kind.GRAPH)


def _name_values(target: ast.expr | str, value: AbstractValue, unpacks: bool) -> list[tuple[str, AbstractValue]]:
    """The value each name of ``target`` gets: item by item where the target and the value are
    tuples of the same length (``y, (h, w) = f(x)``), an item of the value where the target
    unpacks more names than the value shows."""
    if isinstance(target, (ast.Tuple, ast.List)) and unpacks:
        if isinstance(value, AbstractSequence) and value.items is not None and len(value.items) == len(target.elts):
            return [pair for part, item in zip(target.elts, value.items) for pair in _name_values(part, item, True)]
        return [pair for part in target.elts for pair in _name_values(part, element(value), False)]
    return [(name, value) for name in target_names(target)]


def parameter_values(function: ast.FunctionDef | ast.AsyncFunctionDef, is_method: bool) -> dict[str, AbstractValue]:
    """Values of a function's parameters from its signature alone: Python scalars where a literal
    default marks one, unknown otherwise (how the function is called decides:
    :mod:`mslint.model.call_sites`)."""
    arguments = function.args
    positional = [*arguments.posonlyargs, *arguments.args]
    values = {arg.arg: _parameter_value(default) for arg, default in parameter_defaults(function)}
    if arguments.vararg is not None:
        values[arguments.vararg.arg] = sequence_of("tuple", UNKNOWN, Kind.UNKNOWN)
    if arguments.kwarg is not None:
        values[arguments.kwarg.arg] = AbstractDict(Kind.UNKNOWN)
    if is_method and positional:
        values[positional[0].arg] = _CONSTANT_VALUE
    return values


UNKNOWN = AbstractAny(Kind.UNKNOWN)


def _parameter_value(default: ast.expr | None) -> AbstractValue:
    # A literal default (`2`, `-1`, `"bilinear"`, `(7, 7)`) marks a Python scalar, flag or shape,
    # which MindSpore treats as a constant; None is the usual default of an optional tensor
    # (masks, labels), and says as little as no default.
    if default is None or (isinstance(default, ast.Constant) and default.value is None):
        return UNKNOWN
    value = literal_value(default)
    return UNKNOWN if value is NOT_KNOWN else literal(value)
