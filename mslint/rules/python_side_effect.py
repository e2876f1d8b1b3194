from __future__ import annotations

import ast
from collections.abc import Iterator

from mslint.diagnostics import Severity
from mslint.model.module import is_self_attribute
from mslint.model.project import is_mindspore_name
from mslint.model.scope import GraphFunction
from mslint.rules.base import Finding, Rule, fallback_severity
from mslint.settings import Settings


class PythonSideEffectInGraph(Rule):
    """
    ## What it does
    Flags a Cell's Python attribute that is not a Parameter being assigned or updated in
    graph code (`self.count += 1`, `self.last = x`). Assigning to a Parameter attribute
    (`self.w = x`) is supported and not flagged. Local lists built and consumed in
    `construct` are fine too.

    ## Why it breaks graph mode
    Python state outlives the call, and the graph cannot update it. In STRICT the compile
    fails (`TypeError: In JIT strict mode, if need to modify a member attribute of a class
    with self.count, the member attribute must be ...`); in LAX the statement and what
    uses it fall back to the Python interpreter. Other Python side effects are worse because
    they are silent: MindSpore 2.10 evaluates `random.random()` and `time.time()` once, at
    compile time, and appending to a module-level list in `construct` compiles without
    complaint — mslint does not flag those yet, as the compiler gives no evidence to check
    them against.

    ## Example
    ```python
    class Net(nn.Cell):
        def construct(self, x):
            self.steps += 1
            return x * self.steps
    ```

    ## Use instead
    ```python
    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.steps = Parameter(Tensor(0, ms.int32), requires_grad=False)

        def construct(self, x):
            ops.assign_add(self.steps, 1)
            return x * self.steps
    ```
    """

    code = "MS109"
    symbol = "python-side-effect-in-graph"
    summary = "a Cell's non-Parameter attribute assigned or updated in graph code"
    node_types = (ast.Assign, ast.AugAssign, ast.AnnAssign)

    def severity(self, settings: Settings) -> Severity:
        return fallback_severity(settings)

    def check_graph_node(self, node: ast.AST, function: GraphFunction) -> Iterator[Finding]:
        assert isinstance(node, (ast.Assign, ast.AugAssign, ast.AnnAssign))
        if function.owner is None or not function.project.is_cell(function.owner):
            return
        for target in node.targets if isinstance(node, ast.Assign) else [node.target]:
            if is_self_attribute(target, function.self_name):
                assert isinstance(target, ast.Attribute)
                constructors = function.self_attribute_constructors(target.attr)
                if not any(is_mindspore_name(c, "Parameter") for c in constructors):
                    yield Finding(
                        target,
                        f"`self.{target.attr}` is Python state of the Cell, changed in graph code",
                        hint="keep state that changes per step in a `Parameter` and update it with `ops.assign`",
                    )
