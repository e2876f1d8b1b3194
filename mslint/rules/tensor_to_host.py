from __future__ import annotations

import ast
from collections.abc import Iterator

from mslint.diagnostics import Severity
from mslint.model.scope import GraphFunction
from mslint.model.values import Kind
from mslint.rules.base import Finding, Rule, fallback_severity
from mslint.settings import Settings

_TO_HOST = ("asnumpy", "numpy", "tolist")


class TensorToHostInGraph(Rule):
    """
    ## What it does
    Flags `.asnumpy()`, `.numpy()` and `.tolist()` called on a graph value (a tensor, an
    input, or something computed from one) in graph code. `.item()`, `int(t)` and
    `float(t)` compile in MindSpore 2.10 and are not flagged, nor are these methods on
    compile-time constants (a numpy array built in `__init__`).

    ## Why it breaks graph mode
    A graph has no host copy of its tensors. In STRICT the compiler rejects the call
    (`AttributeError: In JIT strict mode, cannot get attributes asnumpy ...`); in LAX it
    falls back to the Python interpreter for that line, which cuts the graph, copies the
    tensor to the host on every step and blocks graph sinking on Ascend.

    ## Example
    ```python
    class Net(nn.Cell):
        def construct(self, x):
            return ms.Tensor(np.sort(x.asnumpy()))
    ```

    ## Use instead
    ```python
    class Net(nn.Cell):
        def construct(self, x):
            return ops.sort(x)[0]
    ```
    """

    code = "MS106"
    symbol = "tensor-to-host-in-graph"
    summary = "`.asnumpy()`, `.numpy()` or `.tolist()` on a graph value"
    node_types = (ast.Call,)

    def severity(self, settings: Settings) -> Severity:
        return fallback_severity(settings)

    def check_graph_node(self, node: ast.AST, function: GraphFunction) -> Iterator[Finding]:
        assert isinstance(node, ast.Call)
        method = node.func
        if not isinstance(method, ast.Attribute) or method.attr not in _TO_HOST or node.args or node.keywords:
            return
        if function.kind(method.value) is Kind.GRAPH:
            yield Finding(
                node,
                f"`.{method.attr}()` copies a graph value to the host, which graph code cannot do",
                hint="stay in tensors with `mindspore.ops`, or move this to the host code around the Cell",
            )
