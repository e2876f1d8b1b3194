from __future__ import annotations

import ast
from collections.abc import Iterator
from dataclasses import dataclass

from mslint.diagnostics import Severity
from mslint.model.abstract import Kind, is_runtime_number
from mslint.model.module import is_self_attribute
from mslint.model.project import is_mindspore_name
from mslint.model.scope import GraphFunction, is_tensor_method
from mslint.rules.base import Finding, Rule, dynamic_shape_severity
from mslint.settings import Settings

# Operators whose output shape depends on the values of their input (MindSpore 2.10), as
# functions (`ops.`, `mint.`) and Tensor methods, and as primitives.
DATA_DEPENDENT = frozenset({"unique", "unique_consecutive", "masked_select", "nonzero", "argwhere"})
DATA_DEPENDENT_PRIMITIVES = frozenset({"Unique", "UniqueConsecutive", "MaskedSelect", "NonZero"})

AXIS, PERMUTATION, SIZE = "axis", "permutation", "size"
_HINTS = {
    AXIS: "reduce over a constant axis: a literal, an attribute set in `__init__`, or one computed from `x.ndim`",
    PERMUTATION: "use a constant permutation: literals, or one computed from `x.ndim`",
    SIZE: "keep shapes static: use a constant or shape-derived size, or pad to a fixed size and mask",
}


@dataclass(frozen=True)
class SizeArguments:
    """The arguments of an operator that set its output shape: given a graph value, the shape is dynamic."""

    role: str
    """What they are, for the message (``k``, ``axis``)."""
    kind: str
    """AXIS, PERMUTATION or SIZE: which hint applies."""
    positions: tuple[int, ...]
    """Their positions in the functional form, the input tensor being position 0."""
    keywords: tuple[str, ...]
    method: bool = False
    """A Tensor method too, without the input: ``x.sum(axis)``."""
    numbers_only: bool = False
    """Only Python numbers (or tuples of them) count: a tensor there selects another overload
    (``mint.max(x, y)`` is an elementwise maximum, with a static shape) or fails to compile
    (``ops.transpose(x, perm_tensor)``)."""


_REDUCTION = SizeArguments("axis", AXIS, (1,), ("axis", "dim"), method=True)
_ANY_AFTER_INPUT = tuple(range(1, 9))
_TRANSPOSE = SizeArguments(
    "permutation",
    PERMUTATION,
    _ANY_AFTER_INPUT,
    ("input_perm", "perm", "dims", "dim0", "dim1", "axis"),
    method=True,
    numbers_only=True,
)
_SHAPE = SizeArguments("shape", SIZE, (0,), ("size", "shape"), numbers_only=True)
_NEW_SHAPE = SizeArguments("shape", SIZE, _ANY_AFTER_INPUT, ("shape",), method=True, numbers_only=True)
_BOUNDS = SizeArguments("bounds", SIZE, (0, 1, 2), ("start", "end", "step", "limit", "delta"))

# name -> the arguments that set the output shape, for `ops.<name>`, `mint.<name>` and Tensor methods.
SIZED_FUNCTIONS: dict[str, SizeArguments] = {
    **{name: _REDUCTION for name in ("sum", "mean", "prod", "amax", "amin", "all", "any")},
    **{
        name: SizeArguments("axis", AXIS, (1,), ("axis", "dim"), method=True, numbers_only=True)
        for name in ("max", "min")
    },
    "transpose": _TRANSPOSE,
    "permute": _TRANSPOSE,
    "gather": SizeArguments("axis", AXIS, (2,), ("axis",)),
    "topk": SizeArguments("k", SIZE, (1,), ("k",), method=True),
    "arange": _BOUNDS,
    "range": _BOUNDS,
    "linspace": SizeArguments("step count", SIZE, (2,), ("steps",)),
    "unsorted_segment_sum": SizeArguments("segment count", SIZE, (2,), ("num_segments",)),
    "multinomial": SizeArguments("sample count", SIZE, (1,), ("num_samples",), method=True),
    "randperm": SizeArguments("length", SIZE, (0,), ("n",)),
    # A shape with a number read from a tensor (`int(n)`, `n.item()`); a tensor there is another overload.
    **{name: _SHAPE for name in ("zeros", "ones", "full", "empty")},
    "reshape": _NEW_SHAPE,
    "view": _NEW_SHAPE,
}
# Namespaces whose function of that name differs: another signature (`mint.gather(input, dim,
# index)`), or None where a graph value there fails to compile instead (`mindspore.numpy.arange`).
SIZED_FUNCTIONS_IN: dict[str, dict[str, SizeArguments | None]] = {
    "mindspore.mint.": {"gather": SizeArguments("dim", AXIS, (1,), ("dim",))},
    "mindspore.numpy.": {"arange": None, "linspace": None, **dict.fromkeys(("zeros", "ones", "full", "empty"))},
}
# Primitive name -> the arguments of its call (``ops.ReduceSum()(x, axis)``) that set the output shape.
SIZED_PRIMITIVES: dict[str, SizeArguments] = {
    **{
        f"Reduce{name}": SizeArguments("axis", AXIS, (1,), ("axis",))
        for name in ("Sum", "Mean", "Max", "Min", "Prod", "All", "Any")
    },
    "Transpose": SizeArguments("permutation", PERMUTATION, (1,), ("input_perm",), numbers_only=True),
    "Gather": SizeArguments("axis", AXIS, (2,), ("axis",)),
    "TopK": SizeArguments("k", SIZE, (1,), ("k",)),
    "Range": SizeArguments("bounds", SIZE, (0, 1, 2), ("start", "limit", "delta")),
    "LinSpace": SizeArguments("step count", SIZE, (2,), ("num",)),
    "UnsortedSegmentSum": SizeArguments("segment count", SIZE, (2,), ("num_segments",)),
    "Multinomial": SizeArguments("sample count", SIZE, (1,), ("num_samples",)),
}


class DynamicShapeOp(Rule):
    """
    ## What it does
    Flags operators in graph code whose output shape depends on data.

    Operators whose output size depends on the values of their input:
    `unique`, `unique_consecutive`, `masked_select`, `nonzero` and `argwhere`
    (`ops.` and `mint.` functions, Tensor methods, and the `Unique`, `UniqueConsecutive`,
    `MaskedSelect` and `NonZero` primitives), `mint.where(cond)` with a single argument,
    and boolean-mask indexing (`x[x > 0]`).

    Operators whose output shape is set by an argument, when that argument is a graph
    value (a tensor, or a number computed from one such as `int(t)`):

    - the axis of a reduction: `sum`, `mean`, `prod`, `amax`, `amin`, `all`, `any`,
      `max` and `min` (for these two only a number, since a tensor there asks for the
      elementwise maximum), and the `ReduceSum`, `ReduceMean`, `ReduceMax`, `ReduceMin`,
      `ReduceProd`, `ReduceAll` and `ReduceAny` primitives;
    - the permutation of `transpose`/`permute` and of the `Transpose` primitive;
    - the axis of `ops.gather` and of the `Gather` primitive, the `dim` of `mint.gather`;
    - `k` of `topk` and of the `TopK` primitive;
    - the bounds of `arange`/`range` and of the `Range` primitive (so also a `gather` or
      `index_select` with that many indices), the step count of `linspace` and `LinSpace`;
    - the segment count of `unsorted_segment_sum` and `UnsortedSegmentSum`;
    - the sample count of `multinomial` and `Multinomial`, the length of `randperm`;
    - a size of the shape of `ops.zeros`/`ones`/`full`/`empty` and of `reshape`/`view`
      read from a tensor as a Python number (`ops.zeros((int(n), 2))`, `x.reshape(int(n), -1)`).

    Each is flagged in its functional (`ops.sum(x, a)`, `mint.sum(x, a)`), primitive
    (`ops.ReduceSum()(x, a)`, or a primitive created in `__init__` and called in
    `construct`) and Tensor-method (`x.sum(a)`) forms, where they exist. Axes, sizes and
    permutations that are literals, attributes set in `__init__` or computed from shapes
    (`x.sum(axis=-1)`, `ops.topk(x, x.shape[0] // 2)`) are constants: the shape is
    static and nothing is flagged; nor are `ops.where(cond, x, y)` and `masked_fill`,
    which keep the shape of their input.

    ## Why it breaks graph mode
    The compiler cannot know the output size, or for an axis or a permutation which
    dimensions the output keeps, so the node gets a dynamic shape (`-1`, or a dynamic
    rank, in the IR) and so does everything downstream. CPU runs it; on Ascend it blocks
    graph sinking, forces re-compilation and some downstream operators refuse dynamic
    input.

    ## Example
    ```python
    class Net(nn.Cell):
        def construct(self, x, axis):
            positive = ops.masked_select(x, x > 0)
            return positive, x.sum(int(axis))
    ```

    ## Use instead
    ```python
    class Net(nn.Cell):
        def __init__(self, axis):
            super().__init__()
            self.axis = axis  # a constant of the graph

        def construct(self, x):
            positive = ops.where(x > 0, x, ops.zeros_like(x))  # same shape as x
            return positive, x.sum(self.axis)
    ```
    """

    code = "MS105"
    symbol = "dynamic-shape-op"
    summary = "an operator whose output shape depends on data (Unique, MaskedSelect, a runtime axis or size, ...)"
    node_types = (ast.Call, ast.Subscript)

    def severity(self, settings: Settings) -> Severity:
        return dynamic_shape_severity(settings)

    def check_graph_node(self, node: ast.AST, function: GraphFunction) -> Iterator[Finding]:
        if isinstance(node, ast.Subscript):
            if isinstance(node.ctx, ast.Load) and _is_mask(node.slice, function):
                yield Finding(
                    node,
                    "boolean-mask indexing has a data-dependent (dynamic) shape",
                    hint="use `ops.where(mask, x, 0)` or multiply by the mask to keep the shape static",
                )
            return
        assert isinstance(node, ast.Call)
        operator = _data_dependent(node, function)
        if operator is not None:
            yield Finding(
                node,
                f"`{operator}` has a data-dependent (dynamic) output shape",
                hint="keep shapes static: use a mask with `ops.where`, or pad to a fixed size",
            )
            return
        sized = _sized_by_graph_value(node, function)
        if sized is not None:
            operator, arguments = sized
            yield Finding(
                node,
                f"the {arguments.role} of `{operator}` is a graph value: "
                "its output has a data-dependent (dynamic) shape",
                hint=_HINTS[arguments.kind],
            )


def _data_dependent(call: ast.Call, function: GraphFunction) -> str | None:
    """The operator, when ``call`` runs one whose output size depends on its input's values."""
    func = call.func
    qualname = function.qualname(func)
    if is_mindspore_name(qualname, *DATA_DEPENDENT):
        return qualname
    if _is_mint(qualname, "where") and len(call.args) + len(call.keywords) == 1:
        return f"{qualname}(condition)"  # the indices of the true elements, as `nonzero(as_tuple=True)`
    primitive = _primitive(call, function, DATA_DEPENDENT_PRIMITIVES)
    if primitive is not None:
        return primitive
    if is_tensor_method(call, function) and isinstance(func, ast.Attribute) and func.attr in DATA_DEPENDENT:
        return f"Tensor.{func.attr}"
    return None


def _sized_by_graph_value(call: ast.Call, function: GraphFunction) -> tuple[str, SizeArguments] | None:
    """The operator and its size arguments, when one that sets its output shape is a graph value."""
    func = call.func
    qualname = function.qualname(func)
    name = qualname.rsplit(".", 1)[-1] if qualname else None
    found: tuple[str, SizeArguments, int] | None = None
    if qualname is not None and name is not None and is_mindspore_name(qualname, name):
        namespace = next((n for n in SIZED_FUNCTIONS_IN if qualname.startswith(n)), "")
        arguments = SIZED_FUNCTIONS_IN.get(namespace, {}).get(name, SIZED_FUNCTIONS.get(name))
        if arguments is not None:
            found = (qualname, arguments, 0)
    elif is_tensor_method(call, function) and isinstance(func, ast.Attribute):
        arguments = SIZED_FUNCTIONS.get(func.attr)
        if arguments is not None and arguments.method:
            found = (f"Tensor.{func.attr}", arguments, 1)
    else:
        primitive = _primitive(call, function, frozenset(SIZED_PRIMITIVES))
        if primitive is not None:
            found = (primitive, SIZED_PRIMITIVES[primitive.rsplit(".", 1)[-1]], 0)
    if found is None:
        return None
    operator, arguments, shift = found
    positional = [call.args[i - shift] for i in arguments.positions if 0 <= i - shift < len(call.args)]
    keywords = [k.value for k in call.keywords if k.arg in arguments.keywords]
    values = [a.value if isinstance(a, ast.Starred) else a for a in positional + keywords]
    if arguments.numbers_only:
        values = [value for value in values if is_runtime_number(function.value(value))]
    return (operator, arguments) if any(function.kind(value) is Kind.GRAPH for value in values) else None


def _primitive(call: ast.Call, function: GraphFunction, names: frozenset[str]) -> str | None:
    """The primitive among ``names`` that ``call`` runs: ``ops.X()(...)``, or ``self.x(...)``
    with ``self.x = ops.X(...)`` set in ``__init__``."""
    func = call.func
    if isinstance(func, ast.Call):
        created = function.qualname(func.func)
        return created if is_mindspore_name(created, *names) else None
    if is_self_attribute(func, function.self_name):
        assert isinstance(func, ast.Attribute)
        constructors = function.self_attribute_constructors(func.attr)
        return next((c for c in constructors if is_mindspore_name(c, *names)), None)
    return None


def _is_mint(qualname: str | None, name: str) -> bool:
    return qualname is not None and qualname.startswith("mindspore.mint.") and is_mindspore_name(qualname, name)


def _is_mask(index: ast.expr, function: GraphFunction) -> bool:
    if isinstance(index, ast.Name):
        values = function.local_values.get(index.id, [])
        return bool(values) and all(_is_mask(value, function) for value in values)
    return isinstance(index, ast.Compare) and function.kind(index) is Kind.GRAPH
