from __future__ import annotations

import ast
from collections.abc import Iterator

from mslint.diagnostics import Severity
from mslint.model.module import is_self_attribute
from mslint.model.project import is_mindspore_name
from mslint.model.scope import GraphFunction
from mslint.model.values import Kind
from mslint.rules.base import Finding, Rule, dynamic_shape_severity
from mslint.settings import Settings

# Operators whose output shape depends on the values of their input (MindSpore 2.10).
FUNCTIONS = frozenset({"unique", "unique_consecutive", "masked_select", "nonzero", "argwhere"})
PRIMITIVES = frozenset({"Unique", "UniqueConsecutive", "MaskedSelect", "NonZero"})
# Operators whose output size is an argument: dynamic when that argument is a graph value.
# name -> (positions of the size arguments, their keyword names)
SIZED_FUNCTIONS: dict[str, tuple[tuple[int, ...], tuple[str, ...]]] = {
    "topk": ((1,), ("k",)),
    "arange": ((0, 1, 2), ("start", "end", "step")),
    "range": ((0, 1, 2), ("start", "end", "step")),
    **{f"unsorted_segment_{kind}": ((2,), ("num_segments",)) for kind in ("sum", "max", "min", "prod")},
}
SIZED_PRIMITIVES: dict[str, int] = {
    "TopK": 1,
    "Range": 1,
    **{f"UnsortedSegment{kind}": 2 for kind in ("Sum", "Max", "Min", "Prod")},
}


class DynamicShapeOp(Rule):
    """
    ## What it does
    Flags operators whose output shape depends on the data, in graph code: `Unique`,
    `UniqueConsecutive`, `MaskedSelect`, `NonZero` and `argwhere` in their functional
    (`ops.unique(x)`), primitive (`ops.Unique()(x)`, or a primitive created in `__init__`
    and called in `construct`) and Tensor-method (`x.nonzero()`) forms, boolean-mask
    indexing (`x[x > 0]`), and operators whose output size is an argument given a graph
    value: `TopK` with a tensor `k`, `arange`/`range` with tensor bounds (and so a
    `Gather` with that many indices), `UnsortedSegment{Sum,Max,Min,Prod}` with a tensor
    segment count. With constant or shape-derived sizes they are static and not flagged.

    ## Why it breaks graph mode
    The compiler cannot know the output size, so the node gets a dynamic shape (`-1`
    in the IR) and so does everything downstream. CPU runs it; on Ascend it blocks graph
    sinking, forces re-compilation and some downstream operators refuse dynamic input.

    ## Example
    ```python
    class Net(nn.Cell):
        def construct(self, x):
            return ops.masked_select(x, x > 0)
    ```

    ## Use instead
    ```python
    class Net(nn.Cell):
        def construct(self, x):
            return ops.where(x > 0, x, ops.zeros_like(x))  # same shape as x
    ```
    """

    code = "MS105"
    symbol = "dynamic-shape-op"
    summary = "an operator whose output shape depends on data (Unique, MaskedSelect, NonZero, ...)"
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
        operator = self._operator(node, function) or _sized_by_graph_value(node, function)
        if operator is not None:
            yield Finding(
                node,
                f"`{operator}` has a data-dependent (dynamic) output shape",
                hint="keep shapes static: use a mask with `ops.where`, or pad to a fixed size",
            )

    @staticmethod
    def _operator(call: ast.Call, function: GraphFunction) -> str | None:
        func = call.func
        qualname = function.qualname(func)
        if is_mindspore_name(qualname, *FUNCTIONS):
            return qualname
        if isinstance(func, ast.Call) and is_mindspore_name(function.qualname(func.func), *PRIMITIVES):
            return function.qualname(func.func)
        if not isinstance(func, ast.Attribute):
            return None
        if is_self_attribute(func, function.self_name):
            created = function.self_attribute_constructors(func.attr)
            return next((c for c in created if is_mindspore_name(c, *PRIMITIVES)), None)
        if func.attr in FUNCTIONS and qualname is None and function.kind(func.value) is Kind.GRAPH:
            return f"Tensor.{func.attr}"
        return None


def _sized_by_graph_value(call: ast.Call, function: GraphFunction) -> str | None:
    """The operator, when its output size is an argument and that argument is a graph value."""
    func = call.func
    qualname = function.qualname(func)
    name = qualname.rsplit(".", 1)[-1] if qualname else None
    if name in SIZED_FUNCTIONS and is_mindspore_name(qualname, name):
        positions, keywords = SIZED_FUNCTIONS[name]
        sizes = [call.args[i] for i in positions if i < len(call.args)]
        sizes += [k.value for k in call.keywords if k.arg in keywords]
        return qualname if any(function.kind(size) is Kind.GRAPH for size in sizes) else None
    if isinstance(func, ast.Call):
        primitive = function.qualname(func.func)
        short = primitive.rsplit(".", 1)[-1] if primitive else None
        if short in SIZED_PRIMITIVES and is_mindspore_name(primitive, short):
            position = SIZED_PRIMITIVES[short]
            if position < len(call.args) and function.kind(call.args[position]) is Kind.GRAPH:
                return primitive
        return None
    if not (isinstance(func, ast.Attribute) and func.attr == "topk" and qualname is None and call.args):
        return None
    sizes_from_graph = function.kind(func.value) is Kind.GRAPH and function.kind(call.args[0]) is Kind.GRAPH
    return "Tensor.topk" if sizes_from_graph else None


def _is_mask(index: ast.expr, function: GraphFunction) -> bool:
    if isinstance(index, ast.Name):
        values = function.local_values.get(index.id, [])
        return bool(values) and all(_is_mask(value, function) for value in values)
    return isinstance(index, ast.Compare) and function.kind(index) is Kind.GRAPH
