from __future__ import annotations

import ast
from collections.abc import Iterator

from mslint.diagnostics import Severity
from mslint.model.memo import NodeMemo
from mslint.model.pynative import graph_mode_modules, may_run_in_pynative
from mslint.model.scope import GraphFunction, is_jit_decorated
from mslint.model.undefined_names import undefined_names
from mslint.model.walk import descendants, statements
from mslint.rules.base import Finding, Rule
from mslint.settings import Settings

_FOLDED: NodeMemo[ast.AST, frozenset[int]] = NodeMemo()


class UndefinedNameInGraph(Rule):
    """
    ## What it does
    Flags a name that graph code reads and that nothing defines: it is no local variable or
    parameter of the function (or of the functions around it), no global of the module (assigned,
    defined, imported or declared `global` anywhere), and no builtin. A class attribute read
    without `self.` is one. Where the module may define names that its statements do not show
    (`from x import *`, `globals()`, `exec` at module level, `builtins` or `sys.modules` written),
    nothing is flagged. A name under an `if` on an attribute of `self` (`if self.use_bias:`,
    `if self.mode == 1 and ...:`) is not flagged either: MindSpore folds that test while parsing
    and never reads a branch it skips (measured in `mslint/data/folds-*.json`: not an `isinstance`
    or `hasattr` test, whose branches it reads).
    A name in a `construct` or `@jit` function is an error. One in a function, method or sub-Cell
    that graph code calls is an error where the run compiles the entry (a `@jit` function, or a
    program that selects `GRAPH_MODE` in `set_context` imports the entry's module) and every call
    on the way is read whatever the Python values are; elsewhere it is a warning: MindSpore reads
    a function when the graph reaches its call, a call under a test on Python values (`if flag:`,
    `if y is not None:`), or after such a test whose branch returns, may be left out, and where
    the project selects no mode (or PyNative, or a mode read from an option) nothing shows that
    the entry is compiled. A name in a `construct` is a warning too where a program that runs it
    selects `PYNATIVE_MODE` (in its script or a function it calls) and none selects `GRAPH_MODE`:
    PyNative fails on the name only when the line runs.

    ## Why it breaks graph mode
    MindSpore resolves every name of graph code while parsing it, in every branch, whether or
    not the branch runs: measured on MindSpore 2.10, STRICT and LAX alike, the compile fails with
    `NameError: The name 'a' is not defined, or not supported in graph mode.` PyNative raises
    only when the line runs, so code that works there (the branch was never taken, the tensor
    test was never true) fails when compiled. Only a test on an attribute of `self` is decided
    before parsing; `if x is None`, `isinstance(...)`, a shape, a module-level flag and a
    conditional expression are not. The functions the graph calls are read whole, each when the
    compiler reaches its call: a call that only a tensor `if` guards is reached, one under a test
    on Python values (`if flag:` with `flag=True`) may be dropped first.

    ## Example
    ```python
    class Net(nn.Cell):
        def construct(self, x):
            if x.sum() > 100:
                return x * scale  # `scale` is defined nowhere
            return x
    ```

    ## Use instead
    ```python
    class Net(nn.Cell):
        def __init__(self, scale=0.5):
            super().__init__()
            self.scale = scale

        def construct(self, x):
            if x.sum() > 100:
                return x * self.scale
            return x
    ```
    """

    code = "MS117"
    symbol = "undefined-name-in-graph"
    summary = "a name graph code reads that nothing defines (the compiler resolves every branch)"
    warning_findings = (
        "a name in a function that graph code calls, where no GRAPH_MODE program or `@jit` shows the entry "
        "compiled or a test on Python values may skip the call (read only when the graph reaches its call); "
        "a name in `construct` where a program selects PYNATIVE_MODE and none GRAPH_MODE"
    )
    node_types = (ast.FunctionDef, ast.AsyncFunctionDef)

    def severity(self, settings: Settings) -> Severity:
        return Severity.ERROR

    def check_graph_node(self, node: ast.AST, function: GraphFunction) -> Iterator[Finding]:
        if node is not function.node:
            return  # a function nested in graph code is read with the one around it
        names = undefined_names(function.node, function.module)
        if not names:
            return
        folded = _folded_branches(function)
        called = function.entry.node is not function.node and not _read_in_graph_mode(function)
        uncompiled = may_run_in_pynative(function.project, function.entry)
        for name in names:
            if id(name) not in folded:
                yield Finding(
                    name,
                    f"`{name.id}` is defined nowhere (no local, global, import or builtin): the graph compiler "
                    "resolves every name it parses, in branches that never run too",
                    hint=f"define or import `{name.id}` (a class attribute is read as `self.{name.id}`)",
                    severity=Severity.WARNING if called or uncompiled else None,
                )


def _read_in_graph_mode(function: GraphFunction) -> bool:
    """Whether the compiler surely reads this function: the run compiles its entry (the entry is
    a ``@jit`` function, or a program that selects GRAPH_MODE imports its module) and every call
    on the way from the entry is read whatever the Python values are."""
    entry = function.entry
    compiled = is_jit_decorated(entry.node, entry.module) or entry.module.path in function.project.derived(
        graph_mode_modules
    )
    return compiled and function.always_parsed


def _folded_branches(function: GraphFunction) -> frozenset[int]:
    """The nodes of an ``if`` that MindSpore's parser may leave unread whatever the constants it
    tests are (the measured table: :meth:`~mslint.model.scope.GraphFunction.parser_may_skip`)."""
    cached = _FOLDED.get(function.node)
    if cached is None:
        cached = frozenset(
            id(inner)
            for statement in statements(function.node)
            if isinstance(statement, ast.If)
            for part in function.parser_may_skip(statement)
            for inner in descendants(part)
        )
        _FOLDED.put(function.node, cached)
    return cached
