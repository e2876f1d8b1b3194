from __future__ import annotations

import ast
from collections.abc import Iterator

from mslint.capture_tables import FAILS, FROZEN
from mslint.diagnostics import Severity
from mslint.model.abstract import Kind
from mslint.model.capture import TRACE
from mslint.model.scope import GraphFunction
from mslint.rules.base import Finding, Rule
from mslint.settings import Settings

# Each form this rule knows, by the row of the trace table that measured it.
_TESTS = {ast.If: "control.if", ast.While: "control.while", ast.IfExp: "control.ifexp", ast.Assert: "control.assert"}
_HOST_METHODS = {"asnumpy": "host-read.asnumpy", "item": "host-read.item", "tolist": "host-read.tolist"}
_HOST_BUILTINS = {
    "builtins.int": "host-read.int",
    "builtins.float": "host-read.float",
    "builtins.bool": "control.bool",
}
_DYNAMIC_SHAPE = {"nonzero": "dynamic-shape.nonzero", "masked_select": "dynamic-shape.masked-select"}
_WHAT = {
    "control": "the branch taken on the first call is baked into the graph",
    "host-read": "the value read on the first call is baked into the graph as a constant",
    "randomness": "the number drawn on the first call is baked into the graph",
    "dynamic-shape": "the shape of the first call's result is baked into the graph",
    "side-effect": "it runs on the first call only, while tracing",
}
_WHAT_OF_LOOPS = "the number of iterations of the first call is baked into the graph"
_HINTS = {
    "control": "compute both sides and choose with `ops.select`/`ops.where`, or use "
    '`capture_mode="ast"`, which compiles the `if` as graph control flow',
    "host-read": "keep the value a tensor (`x.sum()`, not `x.sum().item()`)",
    "randomness": "draw with MindSpore's random operators (`ops.uniform`, `ops.rand`) inside the graph",
    "dynamic-shape": "use a fixed-shape form (`ops.where(mask, x, 0)`) or leave this part out of the traced function",
    "side-effect": "move it to the Python code that calls the traced function",
}


class FrozenByTrace(Rule):
    """
    ## What it does
    In a function captured with `@jit(capture_mode="trace")` (and what it calls), flags what
    tracing decides once, on the first call: `if`, `while`, conditional expressions, `assert`,
    `and`/`or` and `bool()` on a tensor; host reads (`.asnumpy()`, `.item()`, `.tolist()`,
    `int(t)`, `float(t)`); Python's and numpy's random numbers; data-dependent shapes (a boolean
    mask, `ops.nonzero`, `ops.masked_select`); and side effects such as `print` or appending to a
    global list. Each form is flagged only where MindSpore's tracing was measured to freeze it
    (`mslint/data/trace-<release>.json`, written by `scripts/generate_trace_table.py`, which runs
    each form traced and in Python on inputs that take different paths). A condition on a shape or
    on a Python constant is not flagged: the measurement shows tracing follows it.

    ## Why it is bad
    Tracing runs the function once in Python and keeps only the operators that ran. Whatever
    Python decided on that run is part of the graph, without an error or a warning: called on an
    input that would take the other branch, the traced function still returns the first branch's
    result. The model trains and predicts, wrongly. Side effects run once, while tracing.

    ## Example
    ```python
    @jit(capture_mode="trace")
    def step(x):
        if x.sum() > 0:
            return x * 2
        return x + 10
    ```

    ## Use instead
    ```python
    @jit(capture_mode="trace")
    def step(x):
        return ops.select(x.sum() > 0, x * 2, x + 10)
    ```
    or keep the `if` and use `capture_mode="ast"`, which compiles it as graph control flow.
    """

    code = "MS402"
    symbol = "frozen-by-trace"
    summary = "tensor control flow, host reads, randomness or side effects frozen by trace capture"
    node_types = (ast.If, ast.While, ast.IfExp, ast.Assert, ast.BoolOp, ast.Call, ast.Subscript)
    capture_modes = (TRACE,)
    warning_findings = (
        "side effects (`print`, appending to a global), which lose their later runs but no result, and forms "
        "whose value mslint could not infer"
    )

    def severity(self, settings: Settings) -> Severity:
        return Severity.ERROR

    def check_graph_node(self, node: ast.AST, function: GraphFunction) -> Iterator[Finding]:
        found = _row_and_subject(node, function)
        if found is None:
            return
        row, subject, what = found
        kind = function.inferred_kind(subject) if subject is not None else Kind.GRAPH
        if kind is Kind.CONSTANT:
            return
        measured, _detail = function.project.release.trace.verdict(row)
        family = row.split(".", 1)[0]
        if measured == FROZEN:
            frozen = _WHAT_OF_LOOPS if row == "control.while" else _WHAT[family]
            message = f"{what} under trace capture: {frozen}"
        elif measured == FAILS:
            message = f"{what} under trace capture: tracing fails on it"
        else:
            return
        certain = kind is Kind.GRAPH and family != "side-effect"
        yield Finding(node, message, hint=_HINTS[family], severity=None if certain else Severity.WARNING)


def _row_and_subject(node: ast.AST, function: GraphFunction) -> tuple[str, ast.expr | None, str] | None:
    """The trace table's row for ``node``, the expression whose value decides it (None: always a
    graph value), and how the finding names the form."""
    row = _TESTS.get(type(node))
    if row is not None:
        assert isinstance(node, (ast.If, ast.While, ast.IfExp, ast.Assert))
        return row, node.test, f"`{_keyword(node)}` on a tensor"
    if isinstance(node, ast.BoolOp):
        if id(node) in _tests(function):
            return None  # the `if` it decides is reported
        return "control.and-or", _first_graph(node.values, function), "`and`/`or` on a tensor"
    if isinstance(node, ast.Subscript):
        index = node.slice
        if isinstance(index, ast.Compare):
            return "dynamic-shape.mask", index.left, "a boolean mask"
        return None
    if isinstance(node, ast.Call):
        return _call_row(node, function)
    return None


def _call_row(call: ast.Call, function: GraphFunction) -> tuple[str, ast.expr | None, str] | None:
    func = call.func
    if isinstance(func, ast.Attribute) and not call.args and func.attr in _HOST_METHODS:
        return _HOST_METHODS[func.attr], func.value, f"`.{func.attr}()`"
    qualname = function.qualname(func) or ""
    if qualname in _HOST_BUILTINS and len(call.args) == 1:
        if qualname == "builtins.bool" and id(call) in _tests(function):
            return None
        return _HOST_BUILTINS[qualname], call.args[0], f"`{qualname[len('builtins.') :]}()` of a tensor"
    if qualname == "builtins.print":
        return "side-effect.print", None, "`print`"
    if isinstance(func, ast.Attribute) and func.attr == "append" and _is_global(func.value, function):
        return "side-effect.append", None, "appending to a list that outlives the call"
    if qualname.startswith("random."):
        return "randomness.random", None, f"`{qualname}()`"
    if qualname.startswith("numpy.random."):
        return "randomness.numpy", None, f"`{qualname}()`"
    name = qualname.rsplit(".", 1)[-1]
    if qualname.startswith("mindspore.") and name in _DYNAMIC_SHAPE:
        return _DYNAMIC_SHAPE[name], call.args[0] if call.args else None, f"`{name}`"
    return None


def _keyword(node: ast.AST) -> str:
    return {ast.If: "if", ast.While: "while", ast.IfExp: "... if ... else ...", ast.Assert: "assert"}[type(node)]


def _first_graph(values: list[ast.expr], function: GraphFunction) -> ast.expr:
    return next((v for v in values if function.inferred_kind(v) is Kind.GRAPH), values[0])


def _tests(function: GraphFunction) -> frozenset[int]:
    """The expressions that decide an ``if``, ``while``, conditional expression or ``assert`` of the
    function, and their operands under ``not``/``and``/``or``/``bool()``."""
    found: set[int] = set()
    for node in ast.walk(function.node):
        if isinstance(node, (ast.If, ast.While, ast.IfExp, ast.Assert)):
            pending = [node.test]
            while pending:
                test = pending.pop()
                found.add(id(test))
                if isinstance(test, ast.BoolOp):
                    pending.extend(test.values)
                elif isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
                    pending.append(test.operand)
                elif isinstance(test, ast.Call) and isinstance(test.func, ast.Name) and test.func.id == "bool":
                    pending.extend(test.args)
    return frozenset(found)


def _is_global(expr: ast.expr, function: GraphFunction) -> bool:
    """A module-level name or an attribute: state that outlives the call."""
    if isinstance(expr, ast.Attribute):
        return True
    return isinstance(expr, ast.Name) and expr.id not in function.local_names
