from __future__ import annotations

import ast
from collections.abc import Iterator

from mslint.diagnostics import Severity
from mslint.model.abstract import Kind
from mslint.model.cell_receivers import cell_classes_of, overrides
from mslint.model.scope import GraphFunction
from mslint.rules.base import Finding, Rule
from mslint.settings import Settings


class ForbiddenApiInGraph(Rule):
    """
    ## What it does
    Flags calls, in graph code, of MindSpore APIs that MindSpore itself registers as
    forbidden in graph mode: everything in `mindspore.log`, `mindspore.context`
    (`get_context`, `set_context`, ...) and `mindspore.common.initializer` (`initializer(...)`
    and the initializer classes `One()`, `Normal()`, ...), Cell methods such as
    `get_parameters()`, `trainable_params()`, `state_dict()` and hook registration, and
    `Tensor.assign_value`. The list is read from MindSpore's own registry
    (`jit_forbidden_register`) by `scripts/generate_jit_forbidden.py`, not written by hand; the
    same script reads the source of `nn.Cell` for the public methods refused for what their
    body does: `parameters_dict()` calls `get_parameters()`, `parameters_and_names()` is a
    generator, and `set_train()`, `set_grad()` and `to_float()` set attributes of the Cell that
    are not Parameters (refused in STRICT only: a warning). Cell methods are flagged on any Cell
    the code shows: `self`, a sub-Cell (`self.encoder.trainable_params()`), an item of a
    `CellList`, a Cell made in the function or at module level, a parameter annotated with a
    Cell class or given a Cell at every call in the project's methods (`count(self.encoder)`);
    not where the receiver is not shown to be a Cell, nor where the project's class
    defines the method itself. Public functions whose body logs a deprecation warning through
    `mindspore.log` (`ops.soft_shrink`, `ops.matrix_determinant`, `mindspore.dtype_to_nptype`:
    found in their source by the same script) are refused as the logging call is.

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
    warning_findings = "a Cell method that sets attributes of the Cell (`set_train`): STRICT refuses it, LAX runs it"
    node_types = (ast.Call,)

    def severity(self, settings: Settings) -> Severity:
        return Severity.ERROR

    def check_graph_node(self, node: ast.AST, function: GraphFunction) -> Iterator[Finding]:
        assert isinstance(node, ast.Call)
        table = function.project.release.jit_forbidden
        release = function.project.release.version
        qualname = function.qualname(node.func)
        if qualname in table["functions"]:
            yield Finding(node, f"`{qualname}` is refused in graph code by MindSpore {release}", _HINT)
            return
        logging = table.get("functions_logging_deprecation", {}).get(qualname)
        if logging is not None:
            yield Finding(
                node,
                f"`{qualname}` logs a deprecation warning through `{logging['logs']}`, "
                f"which MindSpore {release} refuses in graph code",
                f"MindSpore says: {logging['message']}",
            )
            return
        module, _, name = (qualname or "").rpartition(".")
        if module in table["modules"] and not name.startswith("_"):
            message = f"`{qualname}` is refused in graph code by MindSpore {release}, as all of `{module}`"
            yield Finding(node, message, _HINT)
            return
        method = node.func
        if not isinstance(method, ast.Attribute):
            return
        by_body = table.get("cell_methods_by_body", {})
        if method.attr in table["cell_methods"] or method.attr in by_body:
            classes = cell_classes_of(method.value, function)
            if classes is None or overrides(classes, method.attr, function.project):
                return
            if method.attr in table["cell_methods"]:
                yield Finding(node, f"`Cell.{method.attr}` is refused in graph code by MindSpore {release}", _HINT)
            else:
                refused = by_body[method.attr]
                strict_only = refused["levels"] == "strict"
                yield Finding(
                    node,
                    f"`Cell.{method.attr}` is refused in graph code by MindSpore {release}"
                    + (" in STRICT" if strict_only else "")
                    + f": {refused['reason']}",
                    _HINT,
                    severity=Severity.WARNING if strict_only else None,
                )
        elif method.attr in table["tensor_methods"] and function.kind(method.value) is Kind.GRAPH:
            yield Finding(node, f"`Tensor.{method.attr}` is refused in graph code by MindSpore {release}", _HINT)


_HINT = "call it in `__init__` or in host code, and keep the result as a constant attribute"
