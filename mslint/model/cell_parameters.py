"""Which Cells own Parameters: MindSpore's (measured), the checked code's (from what their
``__init__`` creates), and the instance a call makes, which also holds the Parameters of the
Cells it is given (``nn.SequentialCell(*layers)``, a project's ``Residual(block)``)."""

from __future__ import annotations

import ast

from mslint.model.memo import NodeMemo
from mslint.model.module import ModuleInfo
from mslint.model.project import ClassRef, Project, is_mindspore_name, qualified_name
from mslint.model.walk import descendants

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


def is_parameter_cell(qualname: str) -> bool:
    in_nn = qualname.startswith(("mindspore.nn.", "mindspore.mint.nn."))
    return in_nn and is_mindspore_name(qualname, *_PARAMETER_CELLS)


def creates_parameters(project: Project, cls: ClassRef, seen: set[int] | None = None) -> bool:
    """Whether a Cell class of the checked code owns Parameters: it derives from a MindSpore Cell
    that does, or an ``__init__`` of its class hierarchy creates a Parameter or such a Cell.
    Memoized by class node: graph code calls the same classes many times."""
    known = _MEMO.get(cls.node)
    if known is None:
        known = _find_parameters(project, cls, seen if seen is not None else set())
        _MEMO.put(cls.node, known)
    return known


_MEMO: NodeMemo[ast.AST, bool] = NodeMemo()


def _find_parameters(project: Project, cls: ClassRef, seen: set[int]) -> bool:
    if id(cls.node) in seen or not project.is_cell(cls):
        return False
    seen.add(id(cls.node))
    for klass in project.mro(cls):
        if any(is_parameter_cell(qualified_name(b, klass.module) or "") for b in klass.node.bases):
            return True
        for method in klass.node.body:
            if not isinstance(method, ast.FunctionDef) or method.name != "__init__":
                continue
            for call in (n for n in descendants(method) if isinstance(n, ast.Call)):
                created = qualified_name(call.func, klass.module)
                if created is None:
                    continue
                if is_mindspore_name(created, "Parameter") or is_parameter_cell(created):
                    return True
                inner = project.resolve(created, klass.module)
                if isinstance(inner, ClassRef) and creates_parameters(project, inner, seen):
                    return True
    return False


# MindSpore's containers and wrappers (`SequentialCell`, `CellList`, `WithLossCell`...): they own
# the Parameters of the Cells they are given.
_HOLDING_CELLS = ("Cell", "CellList", "CellDict")


def made_cell_parameters(project: Project, qualname: str, near: ModuleInfo, call: ast.Call) -> bool | None:
    """Whether the Cell ``call`` makes (of the Cell class ``qualname``) owns Parameters: one of
    MindSpore's that does or that holds the Cells it is given, a class of the checked code whose
    ``__init__`` creates some. A class of the checked code that creates none owns none when given
    only literals; given anything else it may keep the Cells it is given: None."""
    if is_mindspore_name(qualname):
        return is_parameter_cell(qualname) or qualname.rsplit(".", 1)[-1].endswith(_HOLDING_CELLS)
    resolved = project.resolve(qualname, near)
    if not isinstance(resolved, ClassRef):
        return None
    if creates_parameters(project, resolved):
        return True
    return False if all(isinstance(a, ast.Constant) for a in [*call.args, *(k.value for k in call.keywords)]) else None
