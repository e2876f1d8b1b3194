from __future__ import annotations

import ast
from collections.abc import Iterator

from mslint.diagnostics import Severity
from mslint.model.abstract import Kind
from mslint.model.scope import GraphFunction
from mslint.rules.base import Finding, Rule, dynamic_shape_severity
from mslint.settings import Settings


class VariableSlice(Rule):
    """
    ## What it does
    Flags slices in graph code whose start, stop or step is a graph value - a tensor,
    an input, or something computed from one (`x[:n]` with `n` a tensor, `x[:t.item()]`).
    Bounds computed from shapes (`x[: x.shape[0] // 2]`) are constants and are fine.

    ## Why it breaks graph mode
    The length of the result depends on data, so the compiler gives it a dynamic shape
    (`-1` in the IR). It runs on CPU, but dynamic shapes force re-compilation, block
    graph sinking on Ascend, and make every operator after the slice dynamic too.

    ## Example
    ```python
    class Net(nn.Cell):
        def construct(self, x, n):
            return x[:n]
    ```

    ## Use instead
    ```python
    class Net(nn.Cell):
        def construct(self, x, mask):
            return x * mask  # keep the shape static; mask out what is not needed
    ```
    """

    code = "MS104"
    symbol = "variable-slice"
    summary = "a slice whose bound is a tensor or runtime value"
    node_types = (ast.Subscript,)

    def severity(self, settings: Settings) -> Severity:
        return dynamic_shape_severity(settings)

    def check_graph_node(self, node: ast.AST, function: GraphFunction) -> Iterator[Finding]:
        assert isinstance(node, ast.Subscript)
        if not isinstance(node.ctx, ast.Load):
            return
        parts = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
        for part in parts:
            if isinstance(part, ast.Slice) and any(
                function.kind(bound) is Kind.GRAPH for bound in (part.lower, part.upper, part.step) if bound
            ):
                yield Finding(
                    node,
                    "slice bound is a graph value: the result has a data-dependent (dynamic) shape",
                    hint="keep shapes static: slice with bounds from `x.shape` or constants, or mask instead",
                )
                return
