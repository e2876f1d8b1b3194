from __future__ import annotations

import ast
from collections.abc import Iterator

from mslint.diagnostics import Severity
from mslint.model.abstract import Kind
from mslint.model.created_tensors import AbstractArray
from mslint.model.host_copies import host_copy_method
from mslint.model.project import is_mindspore_name
from mslint.model.scope import GraphFunction
from mslint.rules.base import Finding, Rule, fallback_severity
from mslint.settings import Settings


class TensorToHostInGraph(Rule):
    """
    ## What it does
    Flags `.asnumpy()`, `.numpy()` and `.tolist()` called on a graph value (a tensor, an
    input, or something computed from one) in graph code, `.asnumpy()` on a tensor built in
    graph code even from constants (`ops.ones((2, 3)).asnumpy()`), and `Tensor(x)` or
    `mindspore.tensor(x)` of a graph value. `.item()`, `int(t)` and `float(t)` compile in
    MindSpore 2.10 and are not flagged, nor are these methods on compile-time constants (a
    numpy array built in `__init__`; a tensor attribute's `self.t.asnumpy()`, which LAX folds
    but STRICT rejects, is not flagged either), nor numpy's own `.tolist()` on what a numpy
    function returns (`np.cumsum(lengths).tolist()`: third-party-call-in-graph reports the
    numpy call).

    ## Why it breaks graph mode
    A graph has no host copy of its tensors. In STRICT the compiler rejects the call
    (`AttributeError: In JIT strict mode, cannot get attributes asnumpy ...`); in LAX it
    falls back to the Python interpreter for that line, which cuts the graph, copies the
    tensor to the host on every step and blocks graph sinking on Ascend. `Tensor(x)` or
    `mindspore.tensor(x)` of a graph value is the same copy (`ValueError: When handling script 'Tensor(input_data, ...)'
    ..., the inputs should be constant` in STRICT).

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
        if _builds_tensor_from_graph_value(node, function):
            yield Finding(
                node,
                f"`{ast.unparse(node.func)}(...)` of a graph value goes through the host, which graph code cannot do",
                hint="the value is a tensor already: use it as it is, or cast it with `.astype(dtype)`",
            )
            return
        method = host_copy_method(node)
        if method is None:
            return
        if isinstance(function.value(method.value), AbstractArray):
            return  # numpy's `.tolist()` of a numpy result: the call that made it is the finding (MS101)
        if function.kind(method.value) is Kind.GRAPH or _is_local_tensor(method, function):
            yield Finding(
                node,
                f"`.{method.attr}()` copies a graph value to the host, which graph code cannot do",
                hint="stay in tensors with `mindspore.ops`, or move this to the host code around the Cell",
            )


def _builds_tensor_from_graph_value(call: ast.Call, function: GraphFunction) -> bool:
    """``Tensor(x)`` or ``mindspore.tensor(x)`` with ``x`` a graph value: STRICT rejects it, LAX
    runs it in the interpreter."""
    if not is_mindspore_name(function.qualname(call.func), "Tensor", "tensor"):
        return False
    data = call.args[:1] + [k.value for k in call.keywords if k.arg == "input_data"]
    return any(
        function.kind(value) is Kind.GRAPH
        and not isinstance(value, (ast.List, ast.Tuple))  # Python numbers: `Tensor([len(t)])`
        and not _is_host_value(value, function, call)
        for value in data
    )


def _is_host_value(expr: ast.expr, function: GraphFunction, call: ast.Call, depth: int = 0) -> bool:
    """Whether ``expr`` is already a host value (``x.asnumpy()``, ``np.sort(x)``), whose own copy
    or call this rule or third-party-call-in-graph reports: ``Tensor(x.asnumpy())`` is one problem,
    and so is ``y = np.sort(x); y = Tensor(y)``: a name counts when any of its bindings (but
    ``call``'s own) is a host value, the analysis not knowing which one reaches ``call``."""
    if depth > 8:
        return False
    if isinstance(expr, ast.Name):
        values = [v for v in function.local_values.get(expr.id, []) if v is not call]
        return any(_is_host_value(v, function, call, depth + 1) for v in values)
    if not isinstance(expr, ast.Call):
        return False
    if host_copy_method(expr) is not None:
        return True
    qualname = function.qualname(expr.func)
    return qualname is not None and not qualname.startswith(("mindspore.", "builtins."))


def _is_local_tensor(method: ast.Attribute, function: GraphFunction) -> bool:
    """``t.asnumpy()`` with ``t`` built in the function, from constants: only a tensor has
    ``asnumpy``, and one made in graph code is a graph node, not a value the compiler can fold
    (unlike a tensor attribute set in ``__init__``, which LAX folds)."""
    receiver = method.value
    local = isinstance(receiver, ast.Name) and receiver.id in function.local_names
    return method.attr == "asnumpy" and (local or isinstance(receiver, ast.Call))
