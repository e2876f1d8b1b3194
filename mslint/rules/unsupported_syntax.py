from __future__ import annotations

import ast
from collections.abc import Iterator

from mslint.diagnostics import Severity
from mslint.model.scope import GraphFunction
from mslint.model.values import Kind
from mslint.model.walk import descendants
from mslint.rules.base import Finding, Rule
from mslint.rules.dynamic_shape_op import is_runtime_number
from mslint.settings import Settings

# What MindSpore 2.10 rejects at every syntax level, LAX included (measured; see rules/).
_REJECTED: dict[type[ast.AST], str] = {
    ast.Import: "an `import` statement",
    ast.ImportFrom: "an `import` statement",
    ast.Try: "a `try` statement",
    ast.Delete: "a `del` statement",
}

# Tensor methods that, given no axis, reduce over every axis to a 0-d tensor.
_FULL_REDUCTIONS = frozenset({"sum", "mean", "max", "min", "prod", "all", "any"})


class UnsupportedSyntax(Rule):
    """
    ## What it does
    Flags statements and expressions in graph code that the MindSpore 2.10 compiler
    rejects even at the `LAX` syntax level: `import` and `from ... import`, `try`,
    `del`, calls of generator functions (functions that `yield`), which the compiler
    reports where they are called, and Python builtins applied to tensors: `range(t)`,
    `max(t, 1)` / `min(t, u)` (not of 0-d tensors such as `t.sum()`, which LAX compiles
    and STRICT rejects), and
    `map` over a `lambda` that reads the function's local variables. The list is measured on the compiler,
    not copied from older documentation: `global`, `lambda`, `assert` and `raise`
    compile, and are not flagged.

    ## Why it breaks graph mode
    There is no interpreter fallback for these: the compile fails with
    `RuntimeError: Unsupported statement 'Import'` (`'Try'`, `'Delete'`) or
    `Unsupported expression 'Yield'` (at the call), `TypeError: For 'make_range', the 0th input
    should be a int scalar`, `ValueError: The truth value of an array with more than one element
    is ambiguous` or `RuntimeError: The Map operator don't support Closure with free variable`,
    at every syntax level, so the Cell cannot run in graph mode at all.

    ## Example
    ```python
    class Net(nn.Cell):
        def construct(self, x):
            import math

            try:
                y = x * math.pi
            except ValueError:
                y = x
            return y
    ```

    ## Use instead
    ```python
    import math


    class Net(nn.Cell):
        def construct(self, x):
            return x * math.pi
    ```
    """

    code = "MS107"
    symbol = "unsupported-syntax"
    summary = "syntax the graph compiler rejects at every level (`import`, `try`, `del`, generators, `range(t)`)"
    node_types = (*_REJECTED, ast.Call)

    def severity(self, settings: Settings) -> Severity:
        return Severity.ERROR

    def check_graph_node(self, node: ast.AST, function: GraphFunction) -> Iterator[Finding]:
        if isinstance(node, ast.Call):
            yield from _generator_calls(node, function)
            yield from _builtins_on_tensors(node, function)
            return
        what = _REJECTED[type(node)]
        yield Finding(
            node,
            f"{what} in graph code: MindSpore rejects it at every syntax level",
            hint="move it out of graph code: imports to the top of the module, error handling and "
            "generators to the host code around the Cell",
        )


def _builtins_on_tensors(call: ast.Call, function: GraphFunction) -> Iterator[Finding]:
    """Python builtins the compiler cannot apply to tensors: ``range(t)``, ``max(t, 1)``, and
    ``map`` over a lambda that reads the function's locals."""
    qualname = function.qualname(call.func)
    tensors = [a for a in call.args if function.kind(a) is Kind.GRAPH and not is_runtime_number(a, function)]
    if qualname == "builtins.range" and tensors:
        yield Finding(
            call,
            "`range` of a tensor: MindSpore rejects it at every syntax level (it needs a Python int)",
            hint="iterate over a constant or shape-derived count, or loop with `while` on a tensor condition",
        )
    elif (
        qualname in ("builtins.max", "builtins.min")
        and len(call.args) > 1
        and not all(_is_0d(t, function) for t in tensors)
    ):
        name = qualname.rpartition(".")[2]
        yield Finding(
            call,
            f"Python's `{name}` compares whole tensors: MindSpore rejects it (the truth value of a "
            "tensor with more than one element is ambiguous)",
            hint=f"use `ops.{'maximum' if name == 'max' else 'minimum'}`, which compares element by element",
        )
    elif qualname == "builtins.map" and call.args and _reads_locals(call.args[0], function):
        yield Finding(
            call,
            "`map` over a lambda that reads local variables: MindSpore rejects it at every syntax level "
            "(a closure with free variables)",
            hint="use a list comprehension or a `for` loop",
        )


def _is_0d(expr: ast.expr, function: GraphFunction, seen: frozenset[str] = frozenset()) -> bool:
    """A 0-d tensor, which Python's ``max``/``min`` compare in LAX (STRICT rejects them: "the inputs
    should be constant"): a reduction over every axis (``t.sum()``), maybe cast
    (``.astype(ms.int32)``), the ``max``/``min`` of such values and constants, or a local bound
    only to those."""
    while isinstance(expr, ast.Call) and isinstance(expr.func, ast.Attribute) and expr.func.attr in ("astype", "to"):
        expr = expr.func.value
    if isinstance(expr, ast.Name):
        if expr.id in seen:  # `n = min(n, t.sum())`: its other bindings decide
            return True
        values = function.local_values.get(expr.id, [])
        return bool(values) and all(_is_0d_or_constant(v, function, seen | {expr.id}) for v in values)
    if not isinstance(expr, ast.Call) or expr.keywords:
        return False
    if function.qualname(expr.func) in ("builtins.max", "builtins.min"):
        return all(_is_0d_or_constant(a, function, seen) for a in expr.args)
    return isinstance(expr.func, ast.Attribute) and expr.func.attr in _FULL_REDUCTIONS and not expr.args


def _is_0d_or_constant(expr: ast.expr, function: GraphFunction, seen: frozenset[str]) -> bool:
    return function.kind(expr) is Kind.CONSTANT or _is_0d(expr, function, seen)


def _reads_locals(func: ast.expr, function: GraphFunction) -> bool:
    if not isinstance(func, ast.Lambda):
        return False
    own = {a.arg for a in (*func.args.posonlyargs, *func.args.args, *func.args.kwonlyargs)}
    return any(
        isinstance(n, ast.Name) and n.id in function.local_names and n.id not in own for n in descendants(func.body)
    )


def _generator_calls(call: ast.Call, function: GraphFunction) -> Iterator[Finding]:
    """A call of a generator function: the compiler rejects it where it is called."""
    func = call.func
    name = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else None
    if name not in function.project.generator_names():
        return
    for callee in function.callees(call):
        if any(isinstance(n, (ast.Yield, ast.YieldFrom)) for n in descendants(callee.node)):
            yield Finding(
                call,
                f"`{callee.node.name}` is a generator (it uses `yield`): MindSpore rejects generators "
                "at every syntax level",
                hint="return a tuple or list instead, or iterate with a `for` over a range",
            )
            return
