"""Inputs for a Cell that nothing says how to call, read off the layer its input meets first.

``construct(self, x)`` whose first use of ``x`` is ``self.conv1(x)``, where ``__init__`` makes
``self.conv1 = nn.Conv2d(3, 64, 7, stride=2)``, takes images of 3 channels: ``float32[2,3,H,W]``,
with ``H`` and ``W`` from a few sizes, smallest first (a network that strides more than a small
image allows fails on it, and the next size is tried). A ``Dense(in, ...)`` takes
``float32[2,in]``, then a sequence of tokens ``float32[2,8,in]`` (an attention block's
``B, N, C = x.shape``); a ``LayerNorm((C,))`` takes ``float32[2,8,C]``; an ``Embedding(vocab,
...)`` takes ``int32[2,8]`` indices (the data are below 7). The first layer may sit inside a
``SequentialCell`` or a ``CellList`` (a list literal, a comprehension, or a list or an empty
``SequentialCell`` or ``CellList`` built by ``append``), in a list of Cells handed to the
constructor, met by a loop (``for block in self.blocks: x = block(x)``), inside a Cell of the
project, whose constructor arguments are followed, or in what a function of a module's top
level returns (``conv3x3(3, 8)``); a layer made by a parameter whose default is a class
(``embed_layer=PatchEmbed``) is that class. A channel count that is an
argument of ``__init__`` comes from its default or the configured kwargs, or is the field of a
dict it is given (``nn.Dense(cfg["dim"], ...)`` with ``cfg={"dim": 8}``). Where ``construct``
hands its input to another method of the class first (``self.construct_features(x)``), that
method's first layer is the Cell's; a pooling or an activation first (``att = self.avgpool(x)``)
keeps the channels, and the layer that takes its result is the one read. A layer that
``super().__init__(...)`` makes is found in the base class's ``__init__``. A Cell that holds no
weight is tried on default shapes (:func:`default_inputs`).
Only a ``construct`` with one required input is synthesised, or with a tensor and two sizes
(``construct(self, x, H, W)``, the sizes only read as such: tokens of a grid of ``H`` by ``W``,
``float32[2,64,C], 8, 8``): which input feeds which layer is otherwise a guess. Where
``construct`` reads the sides of its grid of tokens off what its constructor was given (Swin's
``H, W = self.input_resolution``, built with ``input_resolution=(56, 56)``, and ``B, L, C =
x.shape``), that many tokens are tried first (``float32[2,3136,C]``).
"""

from __future__ import annotations

import ast
import builtins
from collections.abc import Mapping
from typing import Any

from mslint.model.binder import all_parameter_names, written_arguments
from mslint.model.module import ModuleInfo, passed_argument
from mslint.model.project import ClassRef, FunctionNode, FunctionRef, Project, is_mindspore_name, qualified_name
from mslint.model.walk import descendants, statements
from mslint.verify.decided_branches import untaken
from mslint.verify.references import Built, Reference

BATCH = 2
IMAGE_SIDES = (32, 64, 224)
"""Heights and widths tried for an image input, in order."""
SEQUENCE = 8
_DEPTH = 4
"""How many Cells deep the first layer is looked for."""

Bindings = Mapping[str, ast.expr]
"""What the names of a constructor hold: its arguments, else their defaults."""


class _Handed(ast.expr):
    """What a name bound to a class handed to the constructor holds: the reference."""

    def __init__(self, reference: Reference) -> None:
        super().__init__()
        self.reference = reference


class _Given(ast.expr):
    """What a name bound to an argument that no expression writes holds: not known."""


def synthesised_inputs(project: Project, cls: ClassRef, kwargs: Mapping[str, Any]) -> list[str]:
    """Candidate input specs for ``cls``'s ``construct``, most likely first; empty when its first
    layer is not known."""
    # A class handed in (`block=Bottleneck`) is held as it is: no expression of its module may name it;
    # so is the callee of a Cell built and handed in (`fn=Attention(8, 2)`, a list of them), the call
    # rewritten around it. Anything else given hides the parameter's default, which it is not.
    bindings = {name: _argument_expr(value) for name, value in kwargs.items()}
    layer = _first_layer(project, cls, bindings, _DEPTH)
    construct = project.find_method(cls, "construct")
    names = _required_inputs(construct.node) if construct is not None else []
    rank = _rank_read(construct.node, names[0]) if construct is not None and names else None
    if layer is None:
        return []
    kind, size = layer
    if len(names) == 3:  # `construct(self, x, H, W)`: tokens of a grid of H x W, and its sides
        grids = kind in ("Dense", "LayerNorm") and rank in (None, 3)
        return [f"float32[{_dims(BATCH, side * side, size)}], {side}, {side}" for side in GRID_SIDES] if grids else []
    init = project.find_method(cls, "__init__")
    grid = _grid_given(construct.node, init.node, kwargs) if construct and init and rank == 3 else None
    tokens = [f"float32[{_dims(BATCH, grid, size)}]"] if grid and kind in ("Dense", "LayerNorm") else []
    return tokens + _candidates(kind, size, rank)


def _grid_given(construct: FunctionNode, init: FunctionNode, kwargs: Mapping[str, Any]) -> int | None:
    """How many tokens ``construct`` takes where it reads the sides of their grid off an attribute
    its constructor was given (``H, W = self.input_resolution`` and ``self.input_resolution =
    input_resolution``, built with ``input_resolution=(56, 56)``: 3136); None otherwise."""
    for statement in statements(construct):
        if not (isinstance(statement, ast.Assign) and len(statement.targets) == 1):
            continue
        target, attribute = statement.targets[0], _self_attribute(statement.value)
        if not (isinstance(target, ast.Tuple) and len(target.elts) == 2 and attribute):
            continue
        given = [
            kwargs.get(s.value.id)
            for s in statements(init)
            if isinstance(s, ast.Assign)
            and isinstance(s.value, ast.Name)
            and any(_self_attribute(t) == attribute for t in s.targets)
        ]
        sides = given[0] if len(given) == 1 else None
        if (
            isinstance(sides, (list, tuple))
            and len(sides) == 2
            and all(type(side) is int and side > 0 for side in sides)
        ):
            return int(sides[0] * sides[1])
    return None


def default_inputs(project: Project, cls: ClassRef) -> list[str]:
    """Candidate inputs for a Cell that holds no weights (:func:`_weightless`), whose
    ``construct`` takes one input: nothing of its own sets the input's size, so a small image,
    then tokens, then vectors are tried. A guess, which the verdict says."""
    construct = project.find_method(cls, "construct")
    if construct is None or len(_required_inputs(construct.node)) != 1 or not _weightless(project, cls, _DEPTH):
        return []
    return list(DEFAULT_INPUTS)


DEFAULT_INPUTS = (
    f"float32[{BATCH},4,{IMAGE_SIDES[0]},{IMAGE_SIDES[0]}]",
    f"float32[{BATCH},{SEQUENCE},16]",
    f"float32[{BATCH},16]",
)
"""What a Cell without weights is tried on, in order."""


def _weightless(project: Project, cls: ClassRef, depth: int) -> bool:
    """Whether what the ``__init__`` of ``cls`` and of its project bases assign to ``self``
    holds no weight: no ``Parameter``, no MindSpore layer but those of :data:`_WITHOUT_WEIGHTS`,
    no Cell of the project that holds one (other values, a number or a primitive, size
    nothing)."""
    if depth == 0:
        return False
    construct = project.find_method(cls, "construct")
    for attribute in _cells_applied(construct.node) if construct is not None else []:
        # `self.m = m`: a Cell handed in, which may hold weights (or be None, its default).
        if not any(isinstance(value, ast.Call) for _, value in project.attribute_values(cls, attribute)):
            return False
    for klass in project.mro(cls):
        init = project.find_method(klass, "__init__")
        if init is None or init.owner is None or init.owner.node is not klass.node:
            continue
        for statement in statements(init.node):
            if not isinstance(statement, (ast.Assign, ast.AnnAssign)) or statement.value is None:
                continue
            for node in ast.walk(statement.value):
                if isinstance(node, ast.Call) and not _weightless_call(project, init.module, node, depth):
                    return False
    return True


def _weightless_call(project: Project, module: ModuleInfo, call: ast.Call, depth: int) -> bool:
    """Whether what ``call`` makes holds no weight: a layer of :data:`_WITHOUT_WEIGHTS`, a
    MindSpore function or primitive, a Python builtin, a Cell of the project without weights."""
    name = qualified_name(call.func, module)
    if name is None:
        return False
    if is_mindspore_name(name):
        if ".nn." in name and ".functional." not in name:  # a layer
            return is_mindspore_name(name, *_WITHOUT_WEIGHTS)
        return not is_mindspore_name(name, "Parameter", "ParameterTuple")
    resolved = project.resolve(name, module)
    if isinstance(resolved, ClassRef) and project.is_cell(resolved):
        return _weightless(project, resolved, depth - 1)
    # A function of the project, or of a package, may build layers; a builtin makes none.
    return resolved is None and name in _BUILTINS


_BUILTINS = frozenset(dir(builtins))


_WITHOUT_WEIGHTS = (
    "ReLU", "ReLU6", "LeakyReLU", "GELU", "SiLU", "Sigmoid", "Tanh", "HSwish", "HSigmoid", "Mish", "ELU",
    "Softmax", "LogSoftmax", "Dropout", "Identity", "Flatten", "AvgPool1d", "AvgPool2d", "MaxPool1d",
    "MaxPool2d", "AdaptiveAvgPool1d", "AdaptiveAvgPool2d", "AdaptiveMaxPool1d", "AdaptiveMaxPool2d",
)  # fmt: skip
"""MindSpore layers that hold no weight: they take an input of any size."""


def _first_layer(project: Project, cls: ClassRef, bindings: Bindings, depth: int) -> tuple[str, int] | None:
    """The kind of the first layer of ``cls`` (``Conv2d``, ``Dense``, ...) and its input size."""
    construct = project.find_method(cls, "construct")
    init = project.find_method(cls, "__init__")
    if construct is None or init is None or depth == 0:
        return None
    return _first_layer_of(project, cls, construct.node, init, {**_defaults(init.node), **bindings}, depth)


def _first_layer_of(
    project: Project, cls: ClassRef, method: FunctionNode, init: FunctionRef, bindings: Bindings, depth: int
) -> tuple[str, int] | None:
    """The first layer that ``method``'s one required input meets: a Cell that ``__init__``
    makes, or the first layer of another method of the class the input is handed to
    (``return self.head(self.construct_features(x))``)."""
    name, attribute = _tensor_input(method), None
    if name is None or depth == 0:
        return None
    for _ in range(_DEPTH):
        applied = _first_cell_applied(method, name)
        call, attribute = applied if applied is not None else (None, None)
        found = _made(project, init, f"self.{attribute}", bindings) if attribute else None
        if found is None:
            break
        made, maker, given = found
        if _is_empty_sequence(made, maker.module):  # `self.body = nn.SequentialCell()`, then `self.body.append(...)`
            made = next(iter(_appended(maker.node, f"self.{attribute}")), made)
        if not _keeps_channels(made, maker.module):
            return _layer(project, maker.module, maker.node, made, given, depth)
        # `att = self.avgpool(x)`: what the next layer takes, the input has, channels and rank.
        following = _bound_to(method, call) if call is not None else None
        if following is None:
            return None
        name = following
    helper = project.find_method(cls, attribute) if attribute else None
    if helper is None or helper.node is method:
        return None
    return _first_layer_of(project, cls, helper.node, init, bindings, depth - 1)


def _made(
    project: Project, init: FunctionRef, target: str, bindings: Bindings
) -> tuple[ast.expr, FunctionRef, Bindings] | None:
    """What ``init`` assigns to ``target`` (``self.conv1``), or, where it does not, the
    ``__init__`` of the base class it calls (``super().__init__(dim)``): the value, the
    ``__init__`` that assigns it, and what that one's names hold."""
    for _ in range(_DEPTH):
        made = _assigned_in(init.node, target, bindings)
        if made is not None:
            return made, init, bindings
        call = _base_init_call(init.node)
        base = _base_init(project, init)
        if call is None or base is None:
            return None
        bindings = {**_defaults(base.node), **_passed_on(init.node, base.node, call, bindings)}
        init = base
    return None


def _base_init_call(init: FunctionNode) -> ast.Call | None:
    """The ``super().__init__(...)`` call of ``init``."""
    for statement in statements(init):
        call = statement.value if isinstance(statement, ast.Expr) else None
        if (
            isinstance(call, ast.Call)
            and isinstance(call.func, ast.Attribute)
            and call.func.attr == "__init__"
            and isinstance(call.func.value, ast.Call)
            and isinstance(call.func.value.func, ast.Name)
            and call.func.value.func.id == "super"
        ):
            return call
    return None


def _base_init(project: Project, init: FunctionRef) -> FunctionRef | None:
    """The ``__init__`` that ``super().__init__`` in ``init`` reaches: its class's one project
    base's (with several bases, which one ``super()`` reaches depends on the instance's class)."""
    bases = project.bases(init.owner) if init.owner is not None else []
    return project.find_method(bases[0], "__init__") if len(bases) == 1 else None


def _passed_on(init: FunctionNode, base: FunctionNode, call: ast.Call, bindings: Bindings) -> dict[str, ast.expr]:
    """What ``call`` (``super().__init__(...)`` in ``init``) gives the parameters of ``base``:
    its arguments as written, and, where it passes on ``init``'s ``**kwargs``, the bindings that
    name a parameter of ``base`` (the keywords the instance was built with)."""
    given = {name: value for name, value in _bound(base, call, bindings).items() if not isinstance(value, ast.Starred)}
    collected = init.args.kwarg.arg if init.args.kwarg is not None else None
    spread = any(k.arg is None and isinstance(k.value, ast.Name) and k.value.id == collected for k in call.keywords)
    if spread:
        names = set(all_parameter_names(base))
        given = {**{name: value for name, value in bindings.items() if name in names}, **given}
    return given


def _layer(
    project: Project, module: ModuleInfo, init: FunctionNode, made: ast.expr, bindings: Bindings, depth: int
) -> tuple[str, int] | None:
    if isinstance(made, ast.Name):  # `layers = [...]` then `SequentialCell(layers)`; `self.fn = fn`, a Cell handed in
        made = _list_in(init, made.id) or _bound_value(made, bindings)
    if isinstance(made, (ast.List, ast.Tuple)):
        return _layer(project, module, init, made.elts[0], bindings, depth) if made.elts else None
    if isinstance(made, ast.ListComp):  # `[Block(dim) for _ in range(depth)]`: each item is built alike
        # what the comprehension's variables hold is not an argument of the constructor's
        hidden = {
            node.id: _Given() for g in made.generators for node in ast.walk(g.target) if isinstance(node, ast.Name)
        }
        return _layer(project, module, init, made.elt, {**bindings, **hidden}, depth)
    if not isinstance(made, ast.Call):
        return None
    func = _bound_value(made.func, bindings)  # `embed_layer(...)`, `embed_layer=PatchEmbed`
    referenced = func.reference if isinstance(func, _Handed) else None
    name = qualified_name(func, module) if referenced is None else referenced.shown()
    if is_mindspore_name(name, "SequentialCell", "CellList"):
        first = made.args[0] if made.args else None
        return None if first is None else _layer(project, module, init, first, bindings, depth)
    for kind, keyword in _LAYERS.items():
        if is_mindspore_name(name, kind):
            size = _integer(_last_dimension(passed_argument(made, 0, keyword), bindings), bindings)
            return None if size is None else (kind, size)
    resolved = project.resolve(name, module) if name and referenced is None else None
    if referenced is not None and referenced.in_file:
        resolved = _definition(project, referenced)
    if isinstance(resolved, ClassRef) and project.is_cell(resolved):
        inner = project.find_method(resolved, "__init__")
        given = _bound(inner.node, made, bindings) if inner is not None else {}
        return _first_layer(project, resolved, given, depth - 1)
    returned = _returned(resolved.node) if isinstance(resolved, FunctionRef) and resolved.owner is None else None
    if isinstance(resolved, FunctionRef) and returned is not None and depth > 1:  # `conv3x3(3, 8)`: a helper
        given = {**_defaults(resolved.node), **_bound(resolved.node, made, bindings, is_method=False)}
        return _layer(project, resolved.module, resolved.node, returned, given, depth - 1)
    return None


def _definition(project: Project, reference: Reference) -> ClassRef | FunctionRef | None:
    """The class or function of the project that ``reference`` names."""
    module = next((m for m in project.modules if str(m.path.resolve()) == reference.module), None)
    if module is None:
        return None
    for node in module.tree.body:
        if isinstance(node, ast.ClassDef) and node.name == reference.qualname:
            return ClassRef(module, node)
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name == reference.qualname:
            return FunctionRef(module, node)
    return None


def _returned(function: FunctionNode) -> ast.expr | None:
    """What ``function`` returns, where it has one ``return``."""
    returns = [s for s in statements(function) if isinstance(s, ast.Return)]
    return returns[0].value if len(returns) == 1 else None


_LAYERS = {
    "Conv2d": "in_channels",
    "Conv1d": "in_channels",
    "BatchNorm2d": "num_features",
    "Dense": "in_channels",
    "Embedding": "vocab_size",
    "LayerNorm": "normalized_shape",
}
"""The layers an input can meet first, and the argument that says what they take."""


def _candidates(kind: str, size: int, rank: int | None) -> list[str]:
    """The inputs a first layer of ``kind`` taking ``size`` suggests, of ``rank`` dimensions
    where ``construct`` reads that many off its input's shape (``B, H, W, C = x.shape``)."""
    if size <= 0:
        return []
    if kind in _CHANNELS_FIRST:  # of another rank, the input is not what the layer takes (reshaped first)
        spatial = _CHANNELS_FIRST[kind] - 2
        fits = rank in (None, _CHANNELS_FIRST[kind])
        return [f"float32[{_dims(BATCH, size, *[side] * spatial)}]" for side in IMAGE_SIDES] if fits else []
    if kind == "Embedding":
        return [f"int32[{_dims(BATCH, *[SEQUENCE] * ((rank or 2) - 1))}]"]
    if rank is not None and rank > 3:  # channels last: [N, H, W, C], a grid of tokens
        return [f"float32[{_dims(BATCH, *[side] * (rank - 2), size)}]" for side in GRID_SIDES]
    tokens = f"float32[{BATCH},{SEQUENCE},{size}]"  # [N, L, C]: a sequence of tokens, as attention blocks take
    vectors = f"float32[{BATCH},{size}]"
    if rank is not None:
        return [vectors] if rank == 2 else [tokens] if rank == 3 else []
    return [tokens] if kind == "LayerNorm" else [vectors, tokens]


_CHANNELS_FIRST = {"Conv2d": 4, "BatchNorm2d": 4, "Conv1d": 3}
"""The layers that take ``[N, C, ...]``, with the rank they take."""

GRID_SIDES = (SEQUENCE, 14, 28)
"""Heights and widths tried for a grid of tokens (``[N, H, W, C]``), in order: windows of 7 need 14."""


def _dims(*sizes: int) -> str:
    return ",".join(map(str, sizes))


def _rank_read(construct: FunctionNode, name: str) -> int | None:
    """How many sizes the first ``a, b, ... = name.shape`` of ``construct`` unpacks, before
    ``name`` is bound to anything else."""
    for statement in statements(construct):
        if any(isinstance(n, ast.Name) and n.id == name and isinstance(n.ctx, ast.Store) for n in ast.walk(statement)):
            return None
        if (
            isinstance(statement, ast.Assign)
            and len(statement.targets) == 1
            and isinstance(statement.targets[0], ast.Tuple)
            and not any(isinstance(e, ast.Starred) for e in statement.targets[0].elts)
            and isinstance(statement.value, ast.Attribute)
            and statement.value.attr == "shape"
            and isinstance(statement.value.value, ast.Name)
            and statement.value.value.id == name
        ):
            return len(statement.targets[0].elts)
    return None


def _tensor_input(method: FunctionNode) -> str | None:
    """The required input of ``method`` that the layers take: the one there is, or the first of
    ``construct(self, x, H, W)`` where the two others are only read as sizes (:func:`_read_as_size`)."""
    names = _required_inputs(method)
    if len(names) == 1 or (len(names) == 3 and all(_read_as_size(method, name) for name in names[1:])):
        return names[0]
    return None


def _read_as_size(method: FunctionNode, name: str) -> bool:
    """Whether ``method`` reads ``name`` and never as a tensor: no attribute or item of it, and no
    Cell of its own applied to it (``x.reshape(B, C, H, W)``, ``self.attn(x, H, W)``)."""
    reads = [node for node in descendants(method) if isinstance(node, ast.Name) and node.id == name]
    for read in reads:
        for node in descendants(method):
            if isinstance(node, (ast.Attribute, ast.Subscript)) and node.value is read:
                return False
            if isinstance(node, ast.Call) and node.args and node.args[0] is read and _self_attribute(node.func):
                return False
    return bool(reads)


def _required_inputs(function: FunctionNode) -> list[str]:
    arguments = function.args
    positional = [*arguments.posonlyargs, *arguments.args][1:]
    return [a.arg for a in positional[: len(positional) - len(arguments.defaults)]]


def _cells_applied(method: FunctionNode) -> set[str]:
    """``m`` for each ``self.m(...)`` of ``method``."""
    return {
        node.func.attr
        for node in descendants(method)
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and isinstance(node.func.value, ast.Name)
        and node.func.value.id == "self"
    }


def _keeps_channels(made: ast.expr, module: ModuleInfo) -> bool:
    """Whether ``made`` is a MindSpore layer whose output has the channels and the rank of its
    input (a pooling, an activation): the layer after it sizes the input."""
    name = qualified_name(made.func, module) if isinstance(made, ast.Call) else None
    return is_mindspore_name(name, *_KEEPING_CHANNELS) and ".nn." in (name or "")


_KEEPING_CHANNELS = tuple(name for name in _WITHOUT_WEIGHTS if name != "Flatten")
"""The layers without weights whose output keeps the channels and the rank of their input."""


def _bound_to(method: FunctionNode, call: ast.Call) -> str | None:
    """``att`` for ``att = call`` in ``method``."""
    for statement in statements(method):
        if (
            isinstance(statement, ast.Assign)
            and statement.value is call
            and len(statement.targets) == 1
            and isinstance(statement.targets[0], ast.Name)
        ):
            return statement.targets[0].id
    return None


def _first_cell_applied(construct: FunctionNode, name: str) -> tuple[ast.Call, str] | None:
    """The first ``self.conv1(x, ...)`` of ``construct``, where ``x`` is ``name``, or call of a
    Cell a loop takes from an attribute (``for block in self.blocks: x = block(x)``), with the
    attribute (``conv1``, ``blocks``)."""
    looped: dict[str, str] = {}  # the variable of `for block in self.blocks`: the attribute
    for statement in statements(construct):
        if isinstance(statement, ast.For) and isinstance(statement.target, ast.Name):
            attribute = _self_attribute(statement.iter)
            if attribute is not None:
                looped[statement.target.id] = attribute
        for node in ast.walk(statement):
            if not (isinstance(node, ast.Call) and node.args and isinstance(node.args[0], ast.Name)):
                continue
            applied = _self_attribute(node.func)
            if applied is None and isinstance(node.func, ast.Name):
                applied = looped.get(node.func.id)
            if applied is not None and node.args[0].id == name:
                return node, applied
    return None


def _self_attribute(expr: ast.expr) -> str | None:
    """``conv1`` of ``self.conv1``."""
    if isinstance(expr, ast.Attribute) and isinstance(expr.value, ast.Name) and expr.value.id == "self":
        return expr.attr
    return None


def _assigned_in(function: FunctionNode, target: str, bindings: Bindings | None = None) -> ast.expr | None:
    """The value of the first ``target = value`` of ``function`` (``self.conv1``, ``layers``),
    outside the branches that ``bindings`` decide it does not take (:mod:`mslint.verify.decided_branches`)."""
    skipped = untaken(function, bindings, _Handed) if bindings else set()
    for statement in statements(function):
        if (
            isinstance(statement, ast.Assign)
            and id(statement) not in skipped
            and any(ast.unparse(t) == target for t in statement.targets)
        ):
            return statement.value
    return None


def _list_in(function: FunctionNode, name: str) -> ast.List | None:
    """The list ``name`` holds in ``function``: its literal, or the items it is given by
    ``append`` in order, when it starts empty."""
    value = _assigned_in(function, name)
    if not isinstance(value, ast.List):
        return None
    if value.elts:
        return value
    appended = _appended(function, name)
    return ast.List(elts=appended[:1], ctx=ast.Load()) if appended else None


def _appended(function: FunctionNode, name: str) -> list[ast.expr]:
    """What ``function`` gives ``name.append(...)``, in order."""
    return [
        s.value.args[0]
        for s in statements(function)
        if isinstance(s, ast.Expr)
        and isinstance(s.value, ast.Call)
        and isinstance(s.value.func, ast.Attribute)
        and s.value.func.attr == "append"
        and ast.unparse(s.value.func.value) == name
        and s.value.args
    ]


def _is_empty_sequence(made: ast.expr, module: ModuleInfo) -> bool:
    return (
        isinstance(made, ast.Call)
        and not made.args
        and not made.keywords
        and is_mindspore_name(qualified_name(made.func, module), "SequentialCell", "CellList")
    )


def _last_dimension(expr: ast.expr | None, bindings: Bindings) -> ast.expr | None:
    """The last of the sizes a ``LayerNorm`` normalises (``(dim,)``, ``[C]``), or ``expr``."""
    shape = _bound_value(expr, bindings) if expr is not None else None
    return shape.elts[-1] if isinstance(shape, (ast.Tuple, ast.List)) and shape.elts else expr


def _integer(expr: ast.expr | None, bindings: Bindings) -> int | None:
    if isinstance(expr, ast.Subscript) and isinstance(expr.slice, ast.Constant):  # cfg["dim"] of a bound dict
        config = _bound_value(expr.value, bindings)
        if isinstance(config, ast.Dict):
            keys = [key.value if isinstance(key, ast.Constant) else None for key in config.keys]
            expr = config.values[keys.index(expr.slice.value)] if expr.slice.value in keys else None
    if isinstance(expr, ast.Name) and expr.id in bindings:
        expr = bindings[expr.id]
    if isinstance(expr, ast.Constant) and isinstance(expr.value, int) and not isinstance(expr.value, bool):
        return expr.value
    return None


def _defaults(function: FunctionNode) -> dict[str, ast.expr]:
    arguments = function.args
    positional = [*arguments.posonlyargs, *arguments.args]
    found = dict(zip([a.arg for a in positional[len(positional) - len(arguments.defaults) :]], arguments.defaults))
    found.update({a.arg: d for a, d in zip(arguments.kwonlyargs, arguments.kw_defaults) if d is not None})
    return found


def _bound(init: FunctionNode, call: ast.Call, bindings: Bindings, is_method: bool = True) -> dict[str, ast.expr]:
    """What ``call`` gives the parameters of ``init`` (or of a function), each resolved in
    ``bindings`` (the caller's names) where it is one of them."""
    return {
        name: bindings[value.id] if isinstance(value, ast.Name) and value.id in bindings else value
        for name, value in written_arguments(call, init, is_method).items()
    }


def _bound_value(expr: ast.expr, bindings: Bindings) -> ast.expr:
    """What the name ``expr`` is bound to, or ``expr``."""
    return bindings[expr.id] if isinstance(expr, ast.Name) and expr.id in bindings else expr


def _is_literal(value: object) -> bool:
    if isinstance(value, dict):
        return all(isinstance(key, str) and _is_literal(item) for key, item in value.items())
    if isinstance(value, (list, tuple)):
        return all(map(_is_literal, value))
    return isinstance(value, (bool, int, float, str)) or value is None


def _argument_expr(value: object) -> ast.expr:
    """The expression that gives ``value``, a constructor argument: a literal, a class handed in
    (:class:`_Handed`), the call that builds a Cell handed in, a list or tuple of them; :class:`_Given`
    for anything else."""
    if isinstance(value, Reference):
        return _Handed(value)
    if isinstance(value, Built):
        keywords = [ast.keyword(arg=name, value=_argument_expr(item)) for name, item in value.kwargs]
        return ast.Call(func=_Handed(value.callee), args=[_argument_expr(a) for a in value.args], keywords=keywords)
    if isinstance(value, (list, tuple)) and not _is_literal(value):
        items = [_argument_expr(item) for item in value]
        return (ast.List if isinstance(value, list) else ast.Tuple)(elts=items, ctx=ast.Load())
    return _literal_expr(value) if _is_literal(value) else _Given()


def _literal_expr(value: object) -> ast.expr:
    """The expression that writes ``value``, a literal or a dict, list or tuple of them."""
    return ast.parse(repr(value), mode="eval").body
