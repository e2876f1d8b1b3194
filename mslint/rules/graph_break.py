from __future__ import annotations

import ast
from collections.abc import Iterator
from functools import cache

from mslint.capture_tables import DIVERGES, FAILS, GRAPH_BREAK
from mslint.diagnostics import Severity
from mslint.model.abstract import Kind
from mslint.model.capture import BYTECODE
from mslint.model.python_versions import declared_floor
from mslint.model.scope import GraphFunction
from mslint.release import Release
from mslint.rules.base import Finding, Rule
from mslint.settings import Settings

# The statements and expressions whose rows of the table measure the node type itself (a row such as
# ``stmt.Return/early-tensor-cond`` measures the tensor ``if`` before the ``return``).
_BY_TYPE = frozenset(
    {
        "Import", "ImportFrom", "ClassDef", "AsyncFunctionDef", "Nonlocal", "Try", "Delete", "Match",
        "Set", "SetComp", "Yield", "YieldFrom", "Await", "NamedExpr",
    }
)  # fmt: skip
_METHODS = {"asnumpy": "convert.asnumpy", "tolist": "convert.tolist"}
_NODE_TYPES = tuple(
    t
    for t in vars(ast).values()
    if isinstance(t, type) and issubclass(t, (ast.stmt, ast.expr)) and t not in (ast.stmt, ast.expr)
)


class GraphBreak(Rule):
    """
    ## What it does
    In a function captured with `@jit(capture_mode="bytecode")` (and what it calls), flags the forms
    of Python that bytecode capture cannot put in the graph: an `if` on a tensor's value,
    `.asnumpy()`, numpy on a tensor, `import`, a nested `class`, `nonlocal`, many builtins on
    tensors (`str(t)`, `repr(t)`, `dir(t)`), ... Which forms break the graph, which fail and
    which compile is measured on MindSpore, per form of the syntax table, with and without
    `fullgraph=True` (`mslint/data/bytecode-<release>.json`, written by
    `scripts/generate_bytecode_table.py`); the finding gives the reason MindSpore's `fullgraph=True`
    gives.

    A graph break is a warning: the function runs, with the form and what depends on it left to the
    Python interpreter (slower, and not sunk to the device). It is an error under `fullgraph=True`,
    where MindSpore raises instead of breaking, and where bytecode capture fails on the form.
    ast-mode rules (`unsupported-syntax`, `tensor-to-host-in-graph`, ...) do not judge bytecode
    functions: a `try` there compiles into the graph (measured), and is no finding. A bytecode
    function called from an ast graph is compiled as ast, and judged so. A bytecode entry of a
    project whose `requires-python` (nearest `pyproject.toml`) starts at 3.12 or later is an error:
    MindSpore 2.10 raises `Unsupported` when it is called on those Pythons.

    ## Why it is bad
    Each break splits the function into several graphs with Python in between: the speed-up that
    `jit` was for is lost on that path, and a break inside a loop is paid every iteration.

    ## Example
    ```python
    @jit(capture_mode="bytecode")
    def step(x):
        y = x * 2
        return ms.Tensor(np.abs(y.asnumpy()))
    ```

    ## Use instead
    ```python
    @jit(capture_mode="bytecode")
    def step(x):
        y = x * 2
        return ops.abs(y)
    ```
    """

    code = "MS401"
    symbol = "graph-break"
    summary = "a form that bytecode capture leaves to Python (a graph break), or fails on"
    node_types = _NODE_TYPES
    capture_modes = (BYTECODE,)
    warning_findings = "graph breaks without `fullgraph=True`"

    def severity(self, settings: Settings) -> Severity:
        return Severity.ERROR

    def check_graph_node(self, node: ast.AST, function: GraphFunction) -> Iterator[Finding]:
        if node is function.node and node is function.entry.node:
            yield from _on_python_312(function)
            return
        found = _row(node, function)
        if found is None:
            return
        row, what = found
        release = function.project.release
        measured, reason = _type_verdict(release, row) if row.endswith("/") else release.bytecode.verdict(row)
        because = f" ({reason})" if reason else ""
        if measured == GRAPH_BREAK:
            full = function.capture.fullgraph
            yield Finding(
                node,
                f"{what}: bytecode capture "
                + ("raises on it under `fullgraph=True`" if full else "breaks the graph here and runs it in Python")
                + because,
                hint="write it with MindSpore operators to keep one graph, or move it out of the jit function",
                severity=None if full else Severity.WARNING,
            )
        elif measured == FAILS:
            yield Finding(
                node, f"{what}: bytecode capture fails on it{because}", hint="move it out of the jit function"
            )
        elif measured == DIVERGES:
            yield Finding(node, f"{what}: bytecode capture returns another result than Python")


_PYTHON_312 = (3, 12)


def _on_python_312(function: GraphFunction) -> Iterator[Finding]:
    """A bytecode entry of a project that declares Python 3.12 or later only: MindSpore 2.10 raises
    ``Unsupported`` when it is called there (its ``pijit_context`` checks the version)."""
    floor = declared_floor(function.module.path)
    if floor is not None and floor >= _PYTHON_312:
        yield Finding(
            function.node,
            f"bytecode capture on Python {floor[0]}.{floor[1]}+, which the project's requires-python declares: "
            "MindSpore raises `Unsupported` when the function is called",
            hint='use `capture_mode="ast"` (the default) or `"trace"`',
        )


def _row(node: ast.AST, function: GraphFunction) -> tuple[str, str] | None:
    """The bytecode table's row for ``node`` (a prefix ending in ``/`` for a whole node type) and
    how the finding names the form."""
    name = type(node).__name__
    if isinstance(node, (ast.If, ast.While)) and function.kind(node.test) is Kind.GRAPH:
        return "tensor.if/tensor-compare", f"`{name.lower()}` on a tensor"
    if isinstance(node, ast.Call):
        return _call_row(node, function)
    if name not in _BY_TYPE or node is function.node:
        return None
    family = "stmt" if isinstance(node, ast.stmt) else "expr"
    row = f"{family}.{name}/"
    return (row, f"`{name}`") if any(r.startswith(row) for r in function.project.release.bytecode.rows) else None


def _call_row(call: ast.Call, function: GraphFunction) -> tuple[str, str] | None:
    func = call.func
    if isinstance(func, ast.Attribute) and func.attr in _METHODS and not call.args:
        if function.kind(func.value) is Kind.GRAPH:
            return _METHODS[func.attr], f"`.{func.attr}()`"
        return None
    qualname = function.qualname(func) or ""
    on_tensor = any(function.kind(a) is Kind.GRAPH for a in call.args)
    if not on_tensor:
        return None
    if qualname.startswith("numpy.") and not any(_copies_to_host(a) for a in call.args):
        return "numpy.call/tensor", f"`{qualname}` on a tensor"  # on `t.asnumpy()`, that call breaks
    if qualname in ("mindspore.Tensor", "mindspore.common.tensor.Tensor"):
        return "convert.Tensor/tensor", "`Tensor(...)` of a tensor"
    if qualname.startswith("builtins."):
        return f"builtin.{qualname[len('builtins.') :]}/tensor", f"`{qualname[len('builtins.') :]}()` on a tensor"
    return None


def _copies_to_host(expr: ast.expr) -> bool:
    return isinstance(expr, ast.Call) and isinstance(expr.func, ast.Attribute) and expr.func.attr in _METHODS


@cache
def _type_verdict(release: Release, prefix: str) -> tuple[str, str]:
    """One verdict for every row of a node type: ``fails`` where all of them fail, a graph break
    where any breaks or fails (the node's own variant may be one that breaks), else none."""
    table = release.bytecode
    verdicts = [table.verdict(r) for r in table.rows if r.startswith(prefix)]
    if verdicts and all(v == FAILS for v, _ in verdicts):
        return verdicts[0]
    return next(((GRAPH_BREAK, reason) for v, reason in verdicts if v in (GRAPH_BREAK, FAILS)), ("", ""))
