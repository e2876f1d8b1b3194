from __future__ import annotations

import ast
from collections.abc import Iterator

from mslint.diagnostics import Severity
from mslint.model.scope import GraphFunction
from mslint.model.walk import descendants
from mslint.rules.base import Finding, Rule
from mslint.settings import Settings

# What MindSpore 2.10 rejects at every syntax level, LAX included (measured; see rules/).
_REJECTED: dict[type[ast.AST], str] = {
    ast.Import: "an `import` statement",
    ast.ImportFrom: "an `import` statement",
    ast.Try: "a `try` statement",
    ast.Delete: "a `del` statement",
}


class UnsupportedSyntax(Rule):
    """
    ## What it does
    Flags statements and expressions in graph code that the MindSpore 2.10 compiler
    rejects even at the `LAX` syntax level: `import` and `from ... import`, `try`,
    `del`, and calls of generator functions (functions that `yield`), which the compiler
    reports where they are called. The list is measured on the compiler,
    not copied from older documentation: `global`, `lambda`, `assert` and `raise`
    compile, and are not flagged.

    ## Why it breaks graph mode
    There is no interpreter fallback for these: the compile fails with
    `RuntimeError: Unsupported statement 'Import'` (`'Try'`, `'Delete'`) or
    `Unsupported expression 'Yield'` (at the call), at every syntax level, so the Cell cannot run in
    graph mode at all.

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
    summary = "syntax the graph compiler rejects at every level (`import`, `try`, `del`, generators)"
    node_types = (*_REJECTED, ast.Call)

    def severity(self, settings: Settings) -> Severity:
        return Severity.ERROR

    def check_graph_node(self, node: ast.AST, function: GraphFunction) -> Iterator[Finding]:
        if isinstance(node, ast.Call):
            yield from _generator_calls(node, function)
            return
        what = _REJECTED[type(node)]
        yield Finding(
            node,
            f"{what} in graph code: MindSpore rejects it at every syntax level",
            hint="move it out of graph code: imports to the top of the module, error handling and "
            "generators to the host code around the Cell",
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
