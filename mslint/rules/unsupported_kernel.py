from __future__ import annotations

import ast
from collections.abc import Iterator
from functools import cache

from mslint.diagnostics import Severity
from mslint.model.scope import GraphFunction, is_tensor_method
from mslint.rules.base import Finding, Rule
from mslint.settings import Settings

_NAMESPACES = {"mindspore.ops.": "ops.", "mindspore.mint.": "mint."}


class UnsupportedKernel(Rule):
    """
    ## What it does
    With `--target cpu` (or `target = "cpu"` in `[tool.mslint]`), flags calls in graph code of
    the `ops` and `mint` functions and Tensor methods that MindSpore's CPU backend has no kernel
    for: `mint.argmin`, `Tensor.repeat`, ... The list is measured on the release
    (`mslint/data/kernels-<release>.json`, written by `scripts/generate_kernel_table.py`): each
    API called on small tensors, compiled with `ms.jit` and run on CPU. A call with as many
    arguments as the measured one is an error; another overload may select another kernel, so
    a call with more or fewer arguments is a warning. Each API is measured on the first call
    form that runs, so an overload that selects another kernel is not known: `x.argmin()` runs
    on CPU and is not flagged, while `x.argmin(dim=1)` selects `ArgMinExt`, which CPU lacks.

    Only the CPU can be measured where mslint is built: with `target = "ascend"` or `"gpu"` the
    rule does not run.

    ## Why it breaks graph mode
    The graph compiles; its first run selects a kernel for each operator and stops with
    `Unsupported op [ArgMinExt] on CPU`. PyNative may run the same call through another kernel,
    so code that worked eagerly fails once compiled.

    ## Example
    ```python
    class Net(nn.Cell):
        def construct(self, x):
            return mint.argmin(x)  # Unsupported op [ArgMinExt] on CPU
    ```

    ## Use instead
    ```python
    class Net(nn.Cell):
        def construct(self, x):
            return ops.argmin(x)  # an operator the CPU has
    ```
    """

    code = "MS123"
    symbol = "unsupported-kernel"
    summary = "an operator the target device has no kernel for (measured on CPU)"
    node_types = (ast.Call,)
    targets = ("cpu",)
    warning_findings = "a call with more or fewer arguments than the measured one (another overload)"

    def severity(self, settings: Settings) -> Severity:
        return Severity.ERROR

    def check_graph_node(self, node: ast.AST, function: GraphFunction) -> Iterator[Finding]:
        assert isinstance(node, ast.Call)
        api = _api(node, function)
        missing = function.project.release.missing_cpu_kernels.get(api or "")
        if api is None or missing is None:
            return
        measured = missing["call"]
        same_overload = _argument_count(node) == _measured_argument_count(measured)
        yield Finding(
            node,
            f"`{api}` has no CPU kernel in MindSpore {function.project.release.version} "
            f"(`{measured}` fails at its first run: Unsupported op [{missing['kernel']}] on CPU)",
            hint="compute it with operators the CPU has, or run the graph on GPU or Ascend",
            severity=None if same_overload else Severity.WARNING,
        )


def _api(call: ast.Call, function: GraphFunction) -> str | None:
    """``ops.argsort``, ``mint.argmin`` or ``Tensor.repeat``: the API ``call`` calls, as the table names it."""
    qualname = function.qualname(call.func)
    if qualname is not None:
        for prefix, short in _NAMESPACES.items():
            name = qualname[len(prefix) :]
            if qualname.startswith(prefix) and name.isidentifier():
                return short + name
        return None
    if is_tensor_method(call, function):
        assert isinstance(call.func, ast.Attribute)
        return f"Tensor.{call.func.attr}"
    return None


def _argument_count(call: ast.Call) -> int:
    return len(call.args) + len(call.keywords)


@cache
def _measured_argument_count(call: str) -> int:
    """How many arguments the measured call passes (``mint.argmin(x)``: 1, ``x.repeat((3, 2))``: 1)."""
    parsed = ast.parse(call, mode="eval").body
    assert isinstance(parsed, ast.Call)
    return _argument_count(parsed)
