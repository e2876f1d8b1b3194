from __future__ import annotations

import ast
from collections.abc import Iterator

from mslint.diagnostics import Severity
from mslint.model.scope import GraphFunction
from mslint.model.values import Kind
from mslint.rules.base import Finding, Rule, fallback_severity
from mslint.rules.concurrency import CONCURRENCY_MODULES
from mslint.settings import Settings

# Modules whose calls are not third-party code in graph mode.
_GRAPH_NATIVE_ROOTS = frozenset({"mindspore", "builtins", "typing", "__future__"})


class ThirdPartyCallInGraph(Rule):
    """
    ## What it does
    Flags calls into numpy, scipy, `math` or any other non-MindSpore library whose
    arguments are graph values (tensors, inputs, results of operators) in graph code:
    `construct`, `@jit` functions and everything they call.

    ## Why it breaks graph mode
    The graph compiler cannot run a foreign library on a tensor. In STRICT it fails
    with `ValueError: ... the inputs should be constant`; in LAX (the default) it
    silently falls back to the Python interpreter for that line: the graph is cut,
    the step is slower, and on Ascend the graph cannot be sunk. Calls whose arguments
    are all compile-time constants (literals, attributes set in `__init__`, shapes)
    are folded by the compiler and are not flagged.

    ## Example
    ```python
    class Net(nn.Cell):
        def construct(self, x):
            return np.maximum(x, 0)
    ```

    ## Use instead
    ```python
    class Net(nn.Cell):
        def construct(self, x):
            return ops.maximum(x, 0)
    ```
    """

    code = "MS101"
    symbol = "third-party-call-in-graph"
    summary = "numpy, scipy, math or another library applied to graph values"
    node_types = (ast.Call,)

    def severity(self, settings: Settings) -> Severity:
        return fallback_severity(settings)

    def check_graph_node(self, node: ast.AST, function: GraphFunction) -> Iterator[Finding]:
        assert isinstance(node, ast.Call)
        qualname = function.qualname(node.func)
        if qualname is None or qualname.split(".", 1)[0] in _GRAPH_NATIVE_ROOTS:
            return
        if any(qualname.startswith(f"{m}.") for m in CONCURRENCY_MODULES):
            return  # concurrency-in-graph's
        if function.project.resolve(qualname, function.module) is not None:
            return
        if function.project.module_named(qualname.split(".", 1)[0], function.module) is not None:
            return
        operands = [*node.args, *(k.value for k in node.keywords)]
        if any(function.kind(operand) is Kind.GRAPH for operand in operands):
            yield Finding(
                node,
                f"`{qualname}` is called on a graph value; the graph compiler cannot run it on tensors",
                hint=_hint(qualname),
            )


def _hint(qualname: str) -> str:
    root, _, name = qualname.partition(".")
    if root == "numpy" and name and "." not in name:
        return f"use `mindspore.ops` or `mindspore.numpy.{name}`, which compile in graph mode"
    return "use a `mindspore.ops` equivalent, or compute it outside graph code (in `__init__` or the data pipeline)"
