from __future__ import annotations

import ast
from collections.abc import Iterator

from mslint.diagnostics import Severity
from mslint.model.project import ClassRef, Project, is_mindspore_name, qualified_name
from mslint.model.scope import GraphFunction
from mslint.model.walk import descendants
from mslint.rules.base import Finding, Rule
from mslint.settings import Settings

# The public `mindspore.nn` and `mindspore.mint.nn` Cells that own Parameters in MindSpore 2.10,
# measured by building each class with small arguments (activations, pooling, dropout, losses
# and containers own none).
_PARAMETER_CELLS = frozenset(
    {
        "BatchNorm1d",
        "BatchNorm2d",
        "BatchNorm3d",
        "BiDense",
        "Conv1d",
        "Conv1dTranspose",
        "Conv2d",
        "Conv2dBnAct",
        "Conv2dTranspose",
        "Conv3d",
        "Conv3dTranspose",
        "ConvTranspose2d",
        "Dense",
        "DenseBnAct",
        "Embedding",
        "EmbeddingExt",
        "EmbeddingLookup",
        "GRU",
        "GRUCell",
        "GroupNorm",
        "InstanceNorm1d",
        "InstanceNorm2d",
        "InstanceNorm3d",
        "LSTM",
        "LSTMCell",
        "LayerNorm",
        "LayerNormExt",
        "Linear",
        "MultiFieldEmbeddingLookup",
        "MultiheadAttention",
        "PReLU",
        "PReLUExt",
        "RNN",
        "RNNCell",
        "SyncBatchNorm",
        "Transformer",
        "TransformerDecoder",
        "TransformerDecoderLayer",
        "TransformerEncoder",
        "TransformerEncoderLayer",
    }
)


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
        if _is_parameter_cell(qualname) or _is_user_parameter_cell(qualname, function):
            name = qualname.rsplit(".", 1)[-1]
            yield Finding(
                node,
                f"`{name}` is built while compiling: its Parameters are created then and never trained",
                hint=f"build the `{name}` in `__init__` (`self.layer = ...`) and call `self.layer(x)` here",
            )


def _is_user_parameter_cell(qualname: str, function: GraphFunction) -> bool:
    resolved = function.project.resolve(qualname, function.module)
    return isinstance(resolved, ClassRef) and _creates_parameters(function.project, resolved, set())


def _is_parameter_cell(qualname: str) -> bool:
    in_nn = qualname.startswith(("mindspore.nn.", "mindspore.mint.nn."))
    return in_nn and is_mindspore_name(qualname, *_PARAMETER_CELLS)


def _creates_parameters(project: Project, cls: ClassRef, seen: set[int]) -> bool:
    """Whether a Cell class of the checked code owns Parameters: it derives from a MindSpore Cell
    that does, or an ``__init__`` of its class hierarchy creates a Parameter or such a Cell.
    Kept on the class's node: graph code calls the same classes many times."""
    known: bool | None = cls.node.__dict__.get(_MEMO)
    if known is None:
        known = _find_parameters(project, cls, seen)
        setattr(cls.node, _MEMO, known)
    return known


_MEMO = "_mslint_creates_parameters"


def _find_parameters(project: Project, cls: ClassRef, seen: set[int]) -> bool:
    if id(cls.node) in seen or not project.is_cell(cls):
        return False
    seen.add(id(cls.node))
    for klass in project.mro(cls):
        if any(_is_parameter_cell(qualified_name(b, klass.module) or "") for b in klass.node.bases):
            return True
        for method in klass.node.body:
            if not isinstance(method, ast.FunctionDef) or method.name != "__init__":
                continue
            for call in (n for n in descendants(method) if isinstance(n, ast.Call)):
                created = qualified_name(call.func, klass.module)
                if created is None:
                    continue
                if is_mindspore_name(created, "Parameter") or _is_parameter_cell(created):
                    return True
                inner = project.resolve(created, klass.module)
                if isinstance(inner, ClassRef) and _creates_parameters(project, inner, seen):
                    return True
    return False
