from __future__ import annotations

import ast
from collections.abc import Iterator

from mslint.diagnostics import Severity
from mslint.mindspore_tables import table as release_table
from mslint.model.abstract import Kind
from mslint.model.scope import GraphFunction
from mslint.rules.base import Finding, Rule
from mslint.settings import Settings


class ForbiddenApiInGraph(Rule):
    """
    ## What it does
    Flags calls, in graph code, of MindSpore APIs that MindSpore itself registers as
    forbidden in graph mode: everything in `mindspore.log`, `mindspore.context`
    (`get_context`, `set_context`, ...) and `mindspore.common.initializer`
    (`initializer(...)`), Cell methods such as `self.get_parameters()`,
    `self.trainable_params()`, `self.state_dict()` and hook registration, and
    `Tensor.assign_value`. The list is read from MindSpore's own registry
    (`jit_forbidden_register`) by `scripts/generate_jit_forbidden.py`, not written by hand.

    ## Why it breaks graph mode
    The compile fails at every syntax level: `RuntimeError: Failed to compile in GRAPH_MODE
    because the method or function 'mindspore.context.get_context' is not supported in
    'construct' or function with @jit decorator`. These APIs configure or inspect the
    framework from the host; graph code cannot run them.

    ## Example
    ```python
    class Net(nn.Cell):
        def construct(self, x):
            if ms.get_context("device_target") == "Ascend":
                x = x * 2
            return x
    ```

    ## Use instead
    ```python
    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.on_ascend = ms.get_context("device_target") == "Ascend"

        def construct(self, x):
            if self.on_ascend:
                x = x * 2
            return x
    ```
    """

    code = "MS111"
    symbol = "forbidden-api-in-graph"
    summary = "a MindSpore API that MindSpore refuses in graph code (logging, context, initializers, ...)"
    node_types = (ast.Call,)

    def severity(self, settings: Settings) -> Severity:
        return Severity.ERROR

    def check_graph_node(self, node: ast.AST, function: GraphFunction) -> Iterator[Finding]:
        assert isinstance(node, ast.Call)
        table = release_table("jit-forbidden", function.project.mindspore_release)
        qualname = function.qualname(node.func)
        hint = "call it in `__init__` or in host code, and keep the result as a constant attribute"
        if qualname in table["functions"]:
            yield Finding(node, f"`{qualname}` is refused in graph code by MindSpore {table['mindspore']}", hint)
            return
        method = node.func
        if not isinstance(method, ast.Attribute):
            return
        if method.attr in table["cell_methods"] and _is_inherited_cell_method(method.value, method.attr, function):
            yield Finding(
                node, f"`Cell.{method.attr}` is refused in graph code by MindSpore {table['mindspore']}", hint
            )
        elif method.attr in table["tensor_methods"] and function.kind(method.value) is Kind.GRAPH:
            yield Finding(
                node, f"`Tensor.{method.attr}` is refused in graph code by MindSpore {table['mindspore']}", hint
            )


def _is_inherited_cell_method(receiver: ast.expr, name: str, function: GraphFunction) -> bool:
    """``self.<name>`` in a Cell whose project classes do not define ``name`` themselves."""
    owner = function.owner
    if owner is None or not isinstance(receiver, ast.Name) or receiver.id != function.self_name:
        return False
    return function.project.is_cell(owner) and function.project.find_method(owner, name) is None
