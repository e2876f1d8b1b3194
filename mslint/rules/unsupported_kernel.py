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
    API called on small tensors, compiled with `ms.jit` and run on CPU; and, for Tensor methods,
    the call forms of `tensor-signatures-<release>.json` that stopped at a missing kernel
    (`x.chunk(2, dim=1)`, `x.std(dim=1)`, `x.argmin(dim=1)`). A call of the measured form (as many
    positional arguments, the same keywords) is an error; another overload may select another
    kernel, so a call of another form is a warning, and an overload that was never measured
    is not known (`x.argmin()` runs on CPU and is not flagged).

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
    warning_findings = "a call of another form than the measured one (another overload)"

    def severity(self, settings: Settings) -> Severity:
        return Severity.ERROR

    def check_graph_node(self, node: ast.AST, function: GraphFunction) -> Iterator[Finding]:
        assert isinstance(node, ast.Call)
        api = _api(node, function)
        if api is None:
            return
        release = function.project.release
        method = api[len("Tensor.") :] if api.startswith("Tensor.") else None
        forms = release.missing_cpu_kernel_calls.get(method or "", [])
        same_form = next(((call, kernel) for call, kernel in forms if _same_form(node, call)), None)
        missing = release.missing_cpu_kernels.get(api)
        if same_form is not None:
            (measured, kernel), severity = same_form, None
        elif missing is not None:
            measured, kernel = missing["call"], missing["kernel"]
            severity = None if _same_form(node, measured) else Severity.WARNING
        else:
            return
        yield Finding(
            node,
            f"`{api}` called as `{measured}` has no CPU kernel in MindSpore {release.version} "
            f"(its first run fails: Unsupported op [{kernel}] on CPU)",
            hint="compute it with operators the CPU has, or run the graph on GPU or Ascend",
            severity=severity,
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


def _same_form(call: ast.Call, measured: str) -> bool:
    """Whether ``call`` passes as many positional arguments as the ``measured`` call, and the same
    keywords: the same overload, so the same kernel."""
    return _form(call) == _measured_form(measured)


def _form(call: ast.Call) -> tuple[int, frozenset[str | None]]:
    return len(call.args), frozenset(keyword.arg for keyword in call.keywords)


@cache
def _measured_form(call: str) -> tuple[int, frozenset[str | None]]:
    """The form of a measured call (``x.chunk(2, dim=1)``: one positional argument and ``dim``)."""
    parsed = ast.parse(call, mode="eval").body
    assert isinstance(parsed, ast.Call)
    return _form(parsed)
