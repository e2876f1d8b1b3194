from __future__ import annotations

import ast
from collections.abc import Iterator
from functools import cache

from mslint.diagnostics import Severity
from mslint.model.scope import GraphFunction
from mslint.model.values import Kind
from mslint.model.walk import descendants
from mslint.rules.base import Finding, Rule
from mslint.rules.dynamic_shape_op import is_runtime_number
from mslint.settings import Settings
from mslint.syntax_table import ERROR, syntax_table

# How findings name the node types the syntax table finds rejected (others go by their ast name).
_DESCRIPTIONS = {
    "Import": "an `import` statement",
    "ImportFrom": "an `import` statement",
    "Try": "a `try` statement",
    "TryStar": "a `try` statement",
    "Delete": "a `del` statement",
    "ClassDef": "a `class` statement",
    "AsyncFunctionDef": "an `async def`",
    "Nonlocal": "a `nonlocal` statement",
    "Match": "a `match` statement",
    "NamedExpr": "an assignment expression (`:=`)",
    "Set": "a set display (`{a, b}`)",
    "SetComp": "a set comprehension",
}
# The compiler reports a generator where it is called: ``_generator_calls`` flags the call.
_REPORTED_AT_CALL = frozenset({"Yield", "YieldFrom"})


def _node_type(row: str) -> type[ast.AST] | None:
    """The ast node type a ``stmt.``/``expr.`` row of the syntax table measures (``stmt.Try/except``)."""
    family, _, rest = row.partition(".")
    name = rest.partition("/")[0]
    node_type = getattr(ast, name, None) if family in ("stmt", "expr") and name not in _REPORTED_AT_CALL else None
    return node_type if isinstance(node_type, type) and issubclass(node_type, ast.AST) else None


@cache
def rejected_node_types(release: str) -> dict[type[ast.AST], str]:
    """Statement and expression types the compiler of ``release`` rejects at every syntax level:
    every row of the type in the syntax table fails in LAX in ``construct``, on the form's line."""
    table = syntax_table(release)
    verdicts: dict[type[ast.AST], bool] = {}
    for row in table.ids():
        node_type = _node_type(row)
        if node_type is not None:
            outcome = table.outcome(row, "construct", "lax")
            rejected = outcome.kind == ERROR and outcome.on_hazard_line
            verdicts[node_type] = verdicts.get(node_type, True) and rejected
    return {t: _DESCRIPTIONS.get(t.__name__, f"`{t.__name__}`") for t, rejected in verdicts.items() if rejected}


# Every statement and expression type: which of them a release rejects is read from its table when
# graph code is first checked (not at import, which every run pays for).
_CANDIDATE_TYPES = tuple(
    t
    for t in vars(ast).values()
    if isinstance(t, type) and issubclass(t, (ast.stmt, ast.expr)) and t not in (ast.stmt, ast.expr, ast.Call)
)


class UnsupportedSyntax(Rule):
    """
    ## What it does
    Flags statements and expressions in graph code that the targeted MindSpore compiler
    rejects even at the `LAX` syntax level: in 2.10 `import` and `from ... import`, `try`,
    `del`, a nested `class`, `async def`, `nonlocal`, `match`, `:=` and set displays and
    comprehensions (`{a, b}`, `{f(i) for i in r}`), read from mslint's measured
    [graph-syntax table](../graph-syntax.md) of the release; calls of generator functions
    (functions that `yield`), which the compiler reports where they are called; and Python
    builtins applied to tensors: `range(t)`, `max(t, 1)` / `min(t, u)` (MindSpore's own
    compare of a 0-d tensor compiles in LAX), and `map` over a `lambda` that reads the
    function's local variables. The list is measured on the compiler, not copied from older
    documentation: `global`, `lambda`, `assert` and `raise` compile, and are not flagged.

    ## Why it breaks graph mode
    There is no interpreter fallback for these: the compile fails with
    `RuntimeError: Unsupported statement 'Import'` (`'Try'`, `'Delete'`, `'ClassDef'`, ...),
    `Unsupported expression 'NamedExpr'` (`'Set'`, `'SetComp'`) or
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
    node_types = (*_CANDIDATE_TYPES, ast.Call)

    def severity(self, settings: Settings) -> Severity:
        return Severity.ERROR

    def check_graph_node(self, node: ast.AST, function: GraphFunction) -> Iterator[Finding]:
        if isinstance(node, ast.Call):
            yield from _generator_calls(node, function)
            yield from _builtins_on_tensors(node, function)
            return
        what = rejected_node_types(function.project.mindspore_release).get(type(node))
        if what is None or node is function.node:  # the table measures these nested in graph code
            return
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
    elif qualname in ("builtins.max", "builtins.min") and len(call.args) > 1 and tensors:
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
