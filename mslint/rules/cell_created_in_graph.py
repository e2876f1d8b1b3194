from __future__ import annotations

import ast
from collections.abc import Iterator

from mslint.diagnostics import Severity
from mslint.model.cell_parameters import creates_parameters, is_parameter_cell
from mslint.model.project import ClassRef
from mslint.model.scope import GraphFunction
from mslint.rules.base import Finding, Rule
from mslint.settings import Settings


class CellCreatedInGraph(Rule):
    """
    ## What it does
    Flags a Cell that owns Parameters built in graph code: `nn.Dense`, `nn.Conv2d`,
    `nn.BatchNorm2d`, `nn.LayerNorm`, `nn.Embedding`, their `mint.nn` counterparts, and Cells
    of the checked code whose `__init__` creates a `Parameter` or such a Cell (or that derive
    from one). Parameter-free Cells (`nn.ReLU()`, `nn.Flatten()`) and Primitives
    (`ops.ReduceSum(keep_dims=True)`) built in `construct` are fine and not flagged.

    ## Why it breaks graph mode
    It compiles silently at every syntax level, and that is the problem: MindSpore 2.10 runs
    the constructor once, while compiling, and the layer's Parameters are created then, with
    fresh initial values. They are not the Cell's: `trainable_params()` does not list them,
    the optimizer never updates them and checkpoints do not save them, so the layer stays a
    random projection however long the model trains. `mslint verify` confirms it from the
    compiled graph: it uses Parameters the Cell does not own, and the IR locates their uses
    on the line that built the layer.

    ## Example
    ```python
    class Net(nn.Cell):
        def construct(self, x):
            head = nn.Dense(4, 3)
            return head(x)
    ```

    ## Use instead
    ```python
    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.head = nn.Dense(4, 3)

        def construct(self, x):
            return self.head(x)
    ```
    """

    code = "MS113"
    symbol = "cell-created-in-graph"
    summary = "a Cell that owns Parameters (`nn.Dense`, `nn.Conv2d`, ...) built in graph code"
    node_types = (ast.Call,)

    def severity(self, settings: Settings) -> Severity:
        return Severity.WARNING

    def check_graph_node(self, node: ast.AST, function: GraphFunction) -> Iterator[Finding]:
        assert isinstance(node, ast.Call)
        qualname = function.qualname(node.func)
        if qualname is None:
            return
        if is_parameter_cell(qualname) or _is_user_parameter_cell(qualname, function):
            name = qualname.rsplit(".", 1)[-1]
            yield Finding(
                node,
                f"`{name}` is built while compiling: its Parameters are created then and never trained",
                hint=f"build the `{name}` in `__init__` (`self.layer = ...`) and call `self.layer(x)` here",
            )


def _is_user_parameter_cell(qualname: str, function: GraphFunction) -> bool:
    resolved = function.project.resolve(qualname, function.module)
    return isinstance(resolved, ClassRef) and creates_parameters(function.project, resolved)
