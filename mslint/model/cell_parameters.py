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


# What makes weights other than a Cell: a Parameter itself, the values an initializer draws for
# one, and the Parameters a checkpoint or a MindIR file holds.
_WEIGHT_MAKERS = ("Parameter", "ParameterTuple", "initializer", "load_checkpoint", "load_param_into_net", "load")
_LIBRARIES_WITHOUT_WEIGHTS = frozenset({"mindspore", "numpy", "__future__"})
"""Top-level packages a module may import and still make no weights unseen: MindSpore's weights
are made by the calls :func:`may_make_weights` reads, and numpy makes none."""
_MAKES_WEIGHTS: NodeMemo[ast.AST, bool] = NodeMemo()


def may_make_weights(project: Project, module: ModuleInfo) -> bool:
    """Whether the module's code may make weights (memoized by tree): it calls a MindSpore Cell
    that owns Parameters or holds the Cells it is given, a Cell class of the checked code that
    creates some, or ``Parameter``, an initializer or a checkpoint's loader; it defines a class on
    a Cell that owns Parameters; or it imports a module other than MindSpore's, numpy's and the
    project's own (another library may build a network: ``mindcv.create_model``), or one of the
    project's by a relative name."""
    return _MAKES_WEIGHTS(module.tree, lambda _: _makes_weights(project, module))


def _makes_weights(project: Project, module: ModuleInfo) -> bool:
    for node in descendants(module.tree):
        if isinstance(node, ast.Import):
            imported = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            imported = [node.module or ""] if node.level == 0 else []
            if node.level:
                return True
        elif isinstance(node, ast.ClassDef):
            if any(is_parameter_cell(qualified_name(base, module) or "") for base in node.bases):
                return True
            continue
        elif isinstance(node, ast.Call):
            if _call_makes_weights(project, module, node):
                return True
            continue
        else:
            continue
        for name in imported:
            if name.split(".", 1)[0] not in _LIBRARIES_WITHOUT_WEIGHTS and project.module_of(name, module) is None:
                return True
    return False


def _call_makes_weights(project: Project, module: ModuleInfo, call: ast.Call) -> bool:
    called = qualified_name(call.func, module)
    if called is None:
        return False
    if is_mindspore_name(called):
        return is_mindspore_name(called, *_WEIGHT_MAKERS) or bool(made_cell_parameters(project, called, module, call))
    made = project.resolve(called, module)
    return isinstance(made, ClassRef) and creates_parameters(project, made)
