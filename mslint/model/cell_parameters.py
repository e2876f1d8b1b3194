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


_NUMPY_NUMBER_FUNCTIONS = (
    "power",
    "sqrt",
    "exp",
    "log",
    "log2",
    "log10",
    "floor",
    "ceil",
    "absolute",
    "maximum",
    "minimum",
)
_NUMPY_SIZED = ("zeros", "ones", "empty", "arange", "linspace")
_NUMBER_FUNCTIONS = frozenset(
    {"builtins.int", "builtins.float", "builtins.range", "builtins.round", "builtins.abs"}
    | {f"numpy.{name}" for name in (*_NUMPY_NUMBER_FUNCTIONS, *_NUMPY_SIZED)}
)
"""Functions that raise TypeError on a Cell: numpy's element-wise math and array makers (a size),
not those that take any object (``np.array(cell)`` makes an object array, ``np.sum`` of it is it)."""
_ARITHMETIC = (ast.Add, ast.Sub, ast.Mult, ast.Div, ast.FloorDiv, ast.Mod, ast.Pow, ast.MatMult)
_ORDERING = (ast.Lt, ast.LtE, ast.Gt, ast.GtE)
_SHOWN_NO_CELL: NodeMemo[ast.AST, frozenset[str]] = NodeMemo()


def parameters_shown_no_cell(project: Project, cls: ClassRef) -> frozenset[str]:
    """The parameters of the ``__init__`` of ``cls`` (or of its nearest project base that has one)
    that a statement it always runs uses as a number: an operand of arithmetic, of a unary ``-``
    or of an ordering comparison, or an argument of ``int``, ``float``, ``range``, ``math``, a
    numpy computation or ``Tensor``. Given a Cell there, building the class raises TypeError
    (measured on 2.10 for each form), so what the program builds it with there is no Cell.
    Memoized by ``__init__`` node."""
    init = next((m for k in project.mro(cls) for m in [project.find_method(k, "__init__")] if m), None)
    if init is None:
        return frozenset()
    return _SHOWN_NO_CELL(init.node, lambda node: _shown_no_cell(node, init.module))


def init_parameter_names(project: Project, cls: ClassRef) -> list[str]:
    """The positional parameters of the ``__init__`` that builds ``cls``, less ``self``."""
    init = next((m for k in project.mro(cls) for m in [project.find_method(k, "__init__")] if m), None)
    return [a.arg for a in (*init.node.args.posonlyargs, *init.node.args.args)][1:] if init is not None else []


def _shown_no_cell(init: ast.AST, module: ModuleInfo) -> frozenset[str]:
    assert isinstance(init, (ast.FunctionDef, ast.AsyncFunctionDef))
    parameters = {a.arg for a in (*init.args.posonlyargs, *init.args.args, *init.args.kwonlyargs)}
    found: set[str] = set()
    for expression in _always_evaluated(init.body):
        for node in _eagerly_evaluated(expression):
            for operand in _number_operands(node, module):
                if isinstance(operand, ast.Name) and operand.id in parameters:
                    found.add(operand.id)
    return frozenset(found)


# `match` exists from Python 3.10; on 3.9 no tree holds one
_STOPPING = (ast.Return, ast.Raise, ast.Try, ast.With, ast.AsyncWith, *([ast.Match] if hasattr(ast, "Match") else []))


def _always_evaluated(body: list[ast.stmt]) -> list[ast.expr]:
    """The expressions that running ``body`` evaluates whatever the values: up to the first
    ``return``, ``raise`` or compound statement, whose test or iterable alone runs first."""
    found: list[ast.expr] = []
    for statement in body:
        if isinstance(statement, (ast.If, ast.While)):
            return [*found, statement.test]
        if isinstance(statement, (ast.For, ast.AsyncFor)):
            return [*found, statement.iter]
        if isinstance(statement, _STOPPING):
            return found
        if isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            continue
        found.extend(child for child in ast.iter_child_nodes(statement) if isinstance(child, ast.expr))
    return found


def _eagerly_evaluated(expression: ast.expr) -> list[ast.AST]:
    """The nodes of ``expression`` that evaluating it always evaluates: not the branches of a
    conditional expression, the operands after the first of ``and``/``or``, nor the bodies of
    lambdas and comprehensions."""
    found: list[ast.AST] = []
    pending: list[ast.AST] = [expression]
    while pending:
        node = pending.pop()
        found.append(node)
        if isinstance(node, ast.IfExp):
            pending.append(node.test)
        elif isinstance(node, ast.BoolOp):
            pending.append(node.values[0])
        elif not isinstance(node, (ast.Lambda, ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)):
            pending.extend(ast.iter_child_nodes(node))
    return found


def _number_operands(node: ast.AST, module: ModuleInfo) -> list[ast.expr]:
    """The operands that ``node`` computes with as numbers (a string formatted with ``%`` takes any)."""
    if isinstance(node, ast.BinOp) and isinstance(node.op, _ARITHMETIC):
        formats = isinstance(node.op, ast.Mod) and isinstance(node.left, (ast.Constant, ast.JoinedStr))
        return [node.left] if formats else [node.left, node.right]
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd, ast.Invert)):
        return [node.operand]
    if isinstance(node, ast.Compare) and all(isinstance(op, _ORDERING) for op in node.ops):
        return [node.left, *node.comparators]
    if isinstance(node, ast.Call) and _computes_on_numbers(qualified_name(node.func, module)):
        return list(node.args)
    return []


def _computes_on_numbers(qualname: str | None) -> bool:
    if qualname is None:
        return False
    return qualname in _NUMBER_FUNCTIONS or qualname.startswith("math.") or is_mindspore_name(qualname, "Tensor")


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
