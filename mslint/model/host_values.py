"""The values of code that is not compiled: scripts, ``__init__``, PyNative Cells, data loops.

One evaluator answers two questions about such code. What a call site hands a graph entry
(``net(x, 3)``: a tensor, a Python constant, or unknown; :mod:`call_sites` reads it), and which
expressions hold a MindSpore tensor, on which a call no MindSpore tensor supports (``t.detach()``,
``t.size(0)``) fails at run time as in graph code (:func:`host_tensor_method_calls`).

Given the project, it also knows the objects code builds (what ``__init__`` keeps): the Cells
and Parameters calls make, what helpers of the checked code return (``self._make_layer(...)``
returning ``nn.SequentialCell(*layers)``), the lists, tuples and dicts an expression may be
(:meth:`HostValues.containers`: literals, comprehensions, ``list(...)``/``tuple(...)`` of a
generator, a local built up by ``append``/``extend``/``insert``/``+=``, a container the class's
instantiations give ``__init__``) and what they hold (:meth:`HostValues.held`).

A value is a MindSpore tensor where MindSpore made it: ``Tensor(...)``, ``Parameter(...)``, a
function of ``mindspore.ops``, ``mindspore.numpy`` or ``mindspore.mint``, a tensor's method or
operator, an item of a tensor, the items of a dataset iterator, or what a function of the same
module returns. A numpy array is an array; a graph it is handed to sees a tensor. A local name
is what its bindings give, joined (``a, b = x, y`` binds item by item, ``a, b = pad(batch)`` each
name to its item of what the call returns), and where the code runs straight to a read of it,
what the last binding before the read gives (``kernel = Tensor(kernel)`` then ``return kernel``:
the tensor, not the array bound first); a parameter or a loop variable says nothing. Python
computes some values whatever it is given: a shape read (``targets.shape[1]`` is an int, for a
tensor as for an array), a count (``len``, ``list(...).count(0)``), Python's ``random`` numbers,
``max``, ``min``, ``sum``, ``abs`` and ``round`` of such constants, and a list comprehension (a
list of what its element is); handed to a graph, each is a constant.
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from functools import cached_property

from mslint.model.abstract import (
    NOT_KNOWN,
    AbstractAny,
    AbstractDict,
    AbstractFunction,
    AbstractInstance,
    AbstractScalar,
    AbstractSequence,
    AbstractTensor,
    AbstractValue,
    Kind,
    join_all,
    literal,
    sequence,
    sequence_of,
)
from mslint.model.assigned_before import straight_line_value
from mslint.model.binder import all_parameter_names, literal_value, written_arguments
from mslint.model.cell_parameters import init_parameter_names, made_cell_parameters, parameters_shown_no_cell
from mslint.model.config_reads import configured_value
from mslint.model.created_tensors import created_value, numpy_array
from mslint.model.folds import module_constants
from mslint.model.module import ModuleInfo, call_argument, is_self_attribute
from mslint.model.project import ClassRef, FunctionNode, FunctionRef, Project, is_mindspore_name, qualified_name
from mslint.model.values import STATIC_CALLS, UNKNOWN
from mslint.model.walk import own_nodes, parent_of, returned_values, statements

TENSOR = AbstractTensor(Kind.GRAPH)
PARAMETER = AbstractTensor(Kind.GRAPH, parameter=True)


@dataclass(frozen=True)
class NotTrainedParameter(AbstractTensor):
    """A Parameter made with ``requires_grad=False``: state the code updates itself (``set_data``),
    which no training is meant to reach."""


NOT_TRAINED_PARAMETER = NotTrainedParameter(Kind.GRAPH, parameter=True)
NUMPY_ARRAY = numpy_array()
_SHAPE = AbstractSequence(Kind.CONSTANT, "tuple", None, AbstractScalar(Kind.CONSTANT, "int"))
"""A shape read in Python: a tuple of ints of a length not known."""
_TENSOR_CLASSES = ("Tensor", "tensor", "Parameter", "from_numpy")
_TENSOR_FUNCTIONS = ("mindspore.ops.", "mindspore.numpy.", "mindspore.mint.")
# Tensor methods whose result is no tensor: host copies, Python numbers, dtypes.
_NOT_TENSOR_METHODS = frozenset(
    {"asnumpy", "numpy", "tolist", "item", "dim", "ndimension", "numel", "nelement", "is_contiguous", "has_init"}
)
# Calls whose result is a Python number or string whatever their arguments.
_PYTHON_SCALARS = {
    "builtins.int": "int",
    "builtins.float": "float",
    "builtins.bool": "bool",
    "builtins.len": "int",
    "builtins.str": "str",
    # Python's own random numbers (`count = random.randint(0, n)`), whatever they are given
    "random.randint": "int",
    "random.randrange": "int",
    "random.getrandbits": "int",
    "random.random": "float",
    "random.uniform": "float",
    "random.gauss": "float",
    "random.normalvariate": "float",
}
# Builtins that reduce Python numbers to one (`max(lengths)`): a Python number where all they are
# given is known at compile time (of tensors, they may be a tensor).
_PYTHON_REDUCTIONS = frozenset({"builtins.max", "builtins.min", "builtins.sum", "builtins.abs", "builtins.round"})
# Methods of Python's lists, tuples and strings that count in them: an int.
_COUNTING_METHODS = frozenset({"count", "index"})
# Calls whose result is a Python list, tuple or string whatever their arguments.
_PYTHON_SEQUENCES = frozenset({"builtins.list", "builtins.tuple", "builtins.sorted", "builtins.str"})
# Dataset iterators: the items they give are tensors.
_DATASET_ITERATORS = frozenset({"create_tuple_iterator", "create_dict_iterator"})
_DEPTH = 6
"""How many names, items and returns deep a value is followed (``a = b``, ``b, c = f()``, ``return b, c``,
``b = [...]``, ...)."""
_CONTAINERS = (ast.List, ast.Tuple, ast.Dict, ast.ListComp, ast.DictComp)
_RETURNING: set[int] = set()
"""The helpers whose returned containers are being found: a recursive one is not followed again."""
Hidden = Callable[[str], bool]
"""Which locals of the code to leave out: names whose Cells a rule knows are registered."""
_BINDERS = frozenset(
    {ast.Assign, ast.AnnAssign, ast.NamedExpr, ast.AugAssign, ast.Call, ast.For, ast.AsyncFor, ast.comprehension}
    | {ast.With, ast.AsyncWith, ast.arg}
)
"""The nodes that bind a name or may grow a list: the others are passed over at once."""
_LIST_GROWTH = {"append": 1, "extend": 1, "insert": 2}
"""The list methods that add items, with the number of arguments each takes."""


def _nothing_hidden(name: str) -> bool:
    return False


@dataclass(frozen=True)
class Container:
    """A list, tuple or dict code builds: a literal, a comprehension, the generator given to
    ``list(...)``/``tuple(...)``, or the one-item list an ``append`` adds."""

    node: ast.expr
    values: HostValues
    """The values of the code it is written in."""


class _LocalBindings:
    """What the code of one scope binds its local names to, and what it adds to its lists."""

    def __init__(self, scope: ast.Module | FunctionNode, self_name: str | None) -> None:
        self._self_name = self_name
        self.names: dict[str, list[ast.expr | AbstractValue]] = {}
        """Each local name's bound expressions, or the value a binding gives without one."""
        self.grown: dict[str, list[ast.expr]] = {}
        """What ``+=``, ``extend``, ``append`` and ``insert`` add to a list, by its local name or
        ``self.<attribute>`` (an appended item as a one-item list)."""
        for node in own_nodes(scope):
            if node.__class__ not in _BINDERS:
                continue
            if isinstance(node, ast.Assign):
                for target in node.targets:
                    self._bind(target, node.value)
            elif isinstance(node, (ast.AnnAssign, ast.NamedExpr)):
                self._bind(node.target, node.value if node.value is not None else UNKNOWN)
            elif isinstance(node, ast.AugAssign):
                self._bind(node.target, UNKNOWN)
                self._grow(node.target, node.value)
            elif isinstance(node, ast.Call):
                func = node.func
                if isinstance(func, ast.Attribute) and _LIST_GROWTH.get(func.attr) == len(node.args):
                    added = node.args[0] if func.attr == "extend" else ast.List(elts=node.args[-1:], ctx=ast.Load())
                    self._grow(func.value, added)
            elif isinstance(node, (ast.For, ast.AsyncFor, ast.comprehension)):
                self._bind(node.target, TENSOR if _iterates_a_dataset(node.iter) else UNKNOWN)
            elif isinstance(node, (ast.With, ast.AsyncWith)):
                for item in node.items:
                    if item.optional_vars is not None:
                        self._bind(item.optional_vars, UNKNOWN)
            elif isinstance(node, ast.arg):
                self.names.setdefault(node.arg, []).append(UNKNOWN)
        self.local_names = frozenset(self.names)
        """The names the code binds: they hide the module's."""

    def _bind(self, target: ast.expr, value: ast.expr | AbstractValue) -> None:
        if isinstance(target, ast.Name):
            self.names.setdefault(target.id, []).append(value)
            return
        if isinstance(target, ast.Tuple) and isinstance(value, ast.Tuple) and _pairs_up(target.elts, value.elts):
            for name, paired in zip(target.elts, value.elts):  # `a, b = nn.Dense(4, 4), nn.ReLU()`
                self._bind(name, paired)
            return
        if isinstance(target, ast.Tuple) and isinstance(value, ast.expr) and _unpacks_plainly(target.elts):
            for index, name in enumerate(target.elts):  # `inputs, lengths = pad(batch)`: an item each
                self._bind(name, _item_of(value, index))
            return
        # An attribute, a subscript, an item of a value: a dataset's items are tensors; else unknown.
        item = value if value == TENSOR else UNKNOWN
        if isinstance(target, ast.Attribute) and isinstance(target.value, ast.Name):  # `self.x = ...`, the most common
            self.names.setdefault(target.value.id, []).append(item)
            return
        for name in (n for n in ast.walk(target) if isinstance(n, ast.Name)):
            self.names.setdefault(name.id, []).append(item)

    def _grow(self, target: ast.expr, added: ast.expr) -> None:
        key = list_key(target, self._self_name)
        if key is not None:
            self.grown.setdefault(key, []).append(added)


def list_key(target: ast.expr, self_name: str | None) -> str | None:
    """How a list is named in a function whose first parameter is ``self_name``: ``name`` for a
    local, ``self.name`` for an attribute of the owner's instance; None for anything else."""
    if isinstance(target, ast.Name):
        return target.id
    if isinstance(target, ast.Attribute) and is_self_attribute(target, self_name):
        return f"self.{target.attr}"
    return None


class HostValues:
    """The values of one scope (a module's top level or a function) that is not graph code."""

    def __init__(
        self,
        scope: ast.Module | FunctionNode,
        module: ModuleInfo,
        project: Project | None = None,
        owner: ClassRef | None = None,
    ) -> None:
        """``project``: where the classes and helpers that calls name are found (without it a
        call of the checked code is unknown); ``owner``: the class whose method ``scope`` is."""
        self._scope = scope
        self._module = module
        self._project = project
        self._owner = owner
        arguments = [] if isinstance(scope, ast.Module) else scope.args.args
        self._self_name = arguments[0].arg if owner is not None and arguments else None

    @cached_property
    def _local(self) -> _LocalBindings:
        """Collected when first asked: many questions (is this a container literal?) need none."""
        return _LocalBindings(self._scope, self._self_name)

    @property
    def _bindings(self) -> dict[str, list[ast.expr | AbstractValue]]:
        return self._local.names

    @property
    def _grown(self) -> dict[str, list[ast.expr]]:
        return self._local.grown

    @property
    def _local_names(self) -> frozenset[str]:
        return self._local.local_names

    def list_key(self, target: ast.expr) -> str | None:
        """How a list is named here (see :func:`list_key`)."""
        return list_key(target, self._self_name)

    def _is_self(self, expr: ast.expr) -> bool:
        """Whether ``expr`` is the owner class's instance, the method's first parameter."""
        return isinstance(expr, ast.Name) and self._self_name is not None and expr.id == self._self_name

    def assigned(self, name: str) -> list[ast.expr]:
        """The expressions a local name is bound to, then what is added to it (a list's growth)."""
        bound = [b for b in self._bindings.get(name, []) if isinstance(b, ast.expr)]
        return bound + self._grown.get(name, [])

    def added(self, key: str) -> list[ast.expr]:
        """The items ``append``, ``insert`` and ``extend`` of a literal add to the list or Cell
        container named ``key`` (see :func:`list_key`)."""
        return [item for added in self._grown.get(key, []) for item in _items(added)]

    def extended_by(self, key: str) -> list[ast.expr]:
        """What ``extend`` and ``+=`` add whole to the list or Cell container named ``key``
        (see :func:`list_key`), other than a literal: ``self.stages`` in ``self.layers.extend(self.stages)``."""
        return [added for added in self._grown.get(key, []) if not isinstance(added, _CONTAINERS)]

    def containers(self, expr: ast.expr, hidden: Hidden = _nothing_hidden) -> list[Container]:
        """The lists, tuples and dicts ``expr`` may be: a literal or comprehension, ``list(...)``
        or ``tuple(...)`` of one, what a local is bound to and grown by (``hidden`` names none;
        a local also bound to a Cell it makes holds that Cell: what else it is bound to is what
        the Cell was built from), or what the class's instantiations give a parameter of
        ``__init__``."""
        return self._containers(expr, hidden, set())

    def grown(self, target: ast.expr, hidden: Hidden = _nothing_hidden) -> list[Container]:
        """The containers added to the list ``target`` (a local or ``self.<attribute>``) by ``+=``,
        ``extend``, ``append`` and ``insert``."""
        key = self.list_key(target)
        added = self._grown.get(key, []) if key is not None else []
        return [c for value in added for c in self._containers(value, hidden, set())]

    def _containers(self, expr: ast.expr, hidden: Hidden, seen: set[str]) -> list[Container]:
        if isinstance(expr, _CONTAINERS):
            return [Container(expr, self)]
        if self._is_sequence_call(expr):  # `tuple(nn.Dense(3, 3) for _ in range(2))`, `list(layers)`
            assert isinstance(expr, ast.Call)
            (items,) = expr.args
            return (
                [Container(items, self)]
                if isinstance(items, ast.GeneratorExp)
                else self._containers(items, hidden, seen)
            )
        if isinstance(expr, ast.Call) and not self.makes_cell(expr):
            return self._returned_containers(expr)
        if not isinstance(expr, ast.Name):
            return []
        assigned = self.assigned(expr.id)
        if assigned and expr.id not in seen:
            seen.add(expr.id)
            if hidden(expr.id) or any(isinstance(v, ast.Call) and self.makes_cell(v) for v in assigned):
                return []
            bound = [b for b in self._bindings.get(expr.id, []) if isinstance(b, ast.expr)]
            found = [(v, self._containers(v, hidden, seen)) for v in bound]
            if any(not containers and self._may_be_no_container(v) for v, containers in found):
                # `layers = build_mlp(...); layers.append(nn.LayerNorm(...))`: what is appended to
                # is what the call returns (a SequentialCell, or a value not inferred), no list
                return []
            grown = self._grown.get(expr.id, [])
            return [c for _, containers in found for c in containers] + [
                c for v in grown for c in self._containers(v, hidden, seen)
            ]
        if isinstance(self._scope, ast.Module) or expr.id not in all_parameter_names(self._scope)[1:]:
            return []
        return self._given(expr.id)

    def _may_be_no_container(self, bound: ast.expr) -> bool:
        """Whether a local bound to ``bound``, which gives no container, may be something else
        than a list: a call that is not ``list()``/``tuple()``/``dict()`` (a helper returning a
        Cell, a function whose value is not inferred)."""
        return isinstance(bound, ast.Call) and qualified_name(bound.func, self._module, self._local_names) not in (
            "builtins.list",
            "builtins.tuple",
            "builtins.dict",
        )

    def _returned_containers(self, call: ast.Call) -> list[Container]:
        """The containers a helper of the checked code returns (``make_layers(depth)`` returning
        the list it grew), each with the helper's values; none for a helper being followed."""
        callee = self._callee(call)
        if callee is None or id(callee.node) in _RETURNING:
            return []
        values = HostValues(callee.node, callee.module, self._project, callee.owner)
        _RETURNING.add(id(callee.node))
        try:
            return [c for r in returned_values(callee.node) for c in values.containers(r)]
        finally:
            _RETURNING.discard(id(callee.node))

    def _is_sequence_call(self, expr: ast.expr) -> bool:
        """``list(x)`` or ``tuple(x)`` of one argument."""
        return (
            isinstance(expr, ast.Call)
            and len(expr.args) == 1
            and not expr.keywords
            and qualified_name(expr.func, self._module) in ("builtins.list", "builtins.tuple")
        )

    def _given(self, parameter: str) -> list[Container]:
        """The containers the class's instantiations in the project give ``parameter`` of
        ``__init__`` (``Net([Block(), Block()])``), each with the values of the code it is in."""
        if self._project is None or self._owner is None or isinstance(self._scope, ast.Module):
            return []
        if self._scope.name != "__init__":
            return []
        project, owner = self._project, self._owner
        found: list[Container] = []
        for call, module in _calls_given_containers(project, owner.node.name):
            made = project.resolve_expr(call.func, module)
            if not (isinstance(made, ClassRef) and made.node is owner.node):
                continue
            argument = written_arguments(call, self._scope, is_method=True).get(parameter)
            if argument is not None and isinstance(argument, _CONTAINERS):
                (scope,) = module.scopes_holding([argument.lineno])
                found.append(Container(argument, HostValues(scope, module, project, _owner_of(scope, module))))
        return found

    def held(self, container: Container, hidden: Hidden = _nothing_hidden) -> list[AbstractValue]:
        """What ``container`` holds, each value an item may be (not joined): the items of the
        containers it holds, at any depth, in their place; ``hidden``: locals of this code whose
        values to leave out (a container written elsewhere is read in its own code, whole)."""
        if container.values is not self:
            return container.values.held(container)
        return self._held(container.node, hidden, set())

    def _held(self, node: ast.expr, hidden: Hidden, seen: set[str]) -> list[AbstractValue]:
        found: list[AbstractValue] = []
        for item in _items(node):
            if not isinstance(item, ast.Name):
                found += self.objects(item)
            elif hidden(item.id):
                continue
            elif self.assigned(item.id) and item.id not in seen:
                seen.add(item.id)
                for value in self.assigned(item.id):
                    inner = self._held(value, hidden, seen)
                    found += inner if inner else self.objects(value)
            else:
                found += self.objects(item)
        return found

    def objects(self, expr: ast.expr, depth: int = 0) -> list[AbstractValue]:
        """Each value ``expr`` may be, not joined: each binding of a local, each ``return`` of a
        helper of the checked code (``self._make_layer(...)``), the Cell or Parameter a call makes."""
        if depth > _DEPTH:
            return [UNKNOWN]
        if isinstance(expr, ast.Name) and self._bindings.get(expr.id):
            return [
                o
                for b in self._bindings[expr.id]
                for o in (self.objects(b, depth + 1) if isinstance(b, ast.expr) else [b])
            ]
        if isinstance(expr, ast.Call):
            made = self._made(expr, depth)
            if made is not None:
                return [made]
            callee = self._callee(expr)
            if callee is not None:
                values = HostValues(callee.node, callee.module, self._project, callee.owner)
                return [o for r in returned_values(callee.node) for o in values.objects(r, depth + 1)]
        return [self.value(expr, depth)]

    def makes_cell(self, call: ast.Call) -> bool:
        """Whether ``call`` makes a Cell: it names a Cell class of MindSpore or of the project."""
        return self._cell_class(call) is not None

    def _cell_class(self, call: ast.Call) -> str | None:
        """The qualified name of the Cell class ``call`` names, if it names one."""
        qualname = qualified_name(call.func, self._module, self._local_names)
        is_cell = self._project is not None and self._project.is_cell_name(qualname, self._module)
        return qualname if is_cell else None

    def _made(self, call: ast.Call, depth: int) -> AbstractValue | None:
        """The Parameter or the Cell ``call`` makes, given the project; None for another call."""
        if self._project is None:
            return None
        if is_mindspore_name(qualified_name(call.func, self._module, self._local_names), "Parameter"):
            return NOT_TRAINED_PARAMETER if _not_trained(call) else PARAMETER
        qualname = self._cell_class(call)
        if qualname is None:
            return None
        owns = made_cell_parameters(self._project, qualname, self._module, call)
        return AbstractInstance(
            Kind.CONSTANT, qualname, True, self._given_parameters(call, qualname, depth) if owns is None else owns
        )

    def _given_parameters(self, call: ast.Call, qualname: str, depth: int) -> bool | None:
        """Whether a Cell of the checked code that creates no Parameters itself owns some through
        what ``call`` gives it: True where an argument may be a Parameter or a Cell that owns some
        (``Wrapper(nn.Dense(4, 4))``), False where every argument is known to be neither (a number,
        a string, a tensor, or what the class's ``__init__`` computes with as a number:
        :func:`parameters_shown_no_cell`), None where one is not known (``Act(name)`` with a
        parameter ``name``)."""
        owns: bool | None = False
        for given in self._arguments_not_shown_numbers(call, qualname):
            for value in self.objects(given, depth + 1):
                holds = _holds_parameters(value)
                if holds:
                    return True
                if holds is None:
                    owns = None
        return owns

    def _arguments_not_shown_numbers(self, call: ast.Call, qualname: str) -> list[ast.expr]:
        """What a call of the Cell class ``qualname`` gives (a starred argument's sequence), less
        the arguments of the parameters its ``__init__`` shows to be numbers."""
        assert self._project is not None
        cls = self._project.resolve(qualname, self._module)
        numbers = parameters_shown_no_cell(self._project, cls) if isinstance(cls, ClassRef) else frozenset()
        positional = init_parameter_names(self._project, cls) if numbers and isinstance(cls, ClassRef) else []
        if any(isinstance(a, ast.Starred) for a in call.args):
            positional = []  # which parameter each argument fills is not known
        given = [
            a.value if isinstance(a, ast.Starred) else a
            for index, a in enumerate(call.args)
            if index >= len(positional) or positional[index] not in numbers
        ]
        return given + [k.value for k in call.keywords if k.arg is None or k.arg not in numbers]

    def _callee(self, call: ast.Call) -> FunctionRef | None:
        """The function of the checked code ``call`` calls: a function of the same module, or
        given the project, a method of the owner class (``self._make_layer(...)``) or any function."""
        func = call.func
        if self._project is None:
            if not isinstance(func, ast.Name) or func.id in self._bindings:
                return None
            function = self._module.functions.get(func.id)
            return FunctionRef(self._module, function) if function is not None else None
        if isinstance(func, ast.Attribute) and self._owner is not None and self._is_self(func.value):
            return self._project.find_method(self._owner, func.attr)
        qualname = qualified_name(func, self._module, self._local_names)
        resolved = self._project.resolve(qualname, self._module) if qualname else None
        return resolved if isinstance(resolved, FunctionRef) else None

    def value(self, expr: ast.expr, depth: int = 0) -> AbstractValue:
        if depth > _DEPTH:
            return UNKNOWN
        if isinstance(expr, ast.Constant):
            return literal(expr.value)
        if isinstance(expr, ast.Dict):
            kinds = (self.value(v, depth + 1).kind for v in expr.values if v is not None)
            return AbstractDict(max(kinds, default=Kind.CONSTANT))
        number = literal_value(expr) if isinstance(expr, (ast.UnaryOp, ast.BinOp)) else NOT_KNOWN
        if isinstance(number, (int, float)):  # `-1`
            return literal(number)
        if isinstance(expr, (ast.Tuple, ast.List)):
            items = [self.value(e, depth + 1) for e in expr.elts]
            if any(isinstance(e, ast.Starred) for e in expr.elts):
                return AbstractAny(max((i.kind for i in items), default=Kind.CONSTANT))
            return sequence(type(expr).__name__.lower(), tuple(items))
        if isinstance(expr, (ast.Attribute, ast.Subscript)):
            configured = self._configured(expr)
            if configured is not None:
                return configured
            shape = _shape_read(expr)
            if shape is not None:
                return shape
        if isinstance(expr, ast.Subscript) and isinstance(expr.slice, ast.Constant):
            item = _item(self.value(expr.value, depth + 1), expr.slice.value)  # `pad(batch)[1]`, an unpacked item
            if item is not None:
                return item
        if isinstance(expr, ast.ListComp):  # a Python list: its items are what the element is
            return sequence_of("list", self.value(expr.elt, depth + 1), Kind.CONSTANT)
        if isinstance(expr, (ast.UnaryOp, ast.BinOp, ast.Subscript)):
            parts = [self.value(p, depth + 1) for p in _operands(expr)]
            if any(p == TENSOR or isinstance(p, AbstractTensor) for p in parts):
                return TENSOR  # an operator or an item of a tensor
            return AbstractAny(max(p.kind for p in parts))
        if isinstance(expr, ast.Call):
            return self._call(expr, depth)
        if isinstance(expr, ast.Name):
            bound = self._bindings.get(expr.id)
            if bound is None:
                return self._module_constant(expr.id)
            reaching = straight_line_value(self._scope, expr) if len(bound) > 1 else None
            if reaching is not None:
                return self.value(reaching, depth + 1)
            return join_all(
                (b if isinstance(b, AbstractValue) else self.value(b, depth + 1) for b in bound), empty=UNKNOWN
            )
        return UNKNOWN

    def _module_constant(self, name: str) -> AbstractValue:
        """What a name a function reads and never binds holds: the module constant of that name,
        where the module binds it once to a literal (``NUM_EPISODE = 3`` read in ``forward_fn``).
        Only in a function of the module's top level or of one of its classes: a nested one may
        read its enclosing function's name."""
        tree = self._module.tree
        value = module_constants(tree).get(name, NOT_KNOWN)
        if value is NOT_KNOWN or isinstance(self._scope, ast.Module) or name in self._local_names:
            return UNKNOWN
        holder = parent_of(tree, self._scope)
        if isinstance(holder, ast.ClassDef):
            holder = parent_of(tree, holder)
        if holder is not tree:
            return UNKNOWN
        if isinstance(value, tuple):
            return sequence("tuple", tuple(literal(item) for item in value))
        return literal(value)

    def _configured(self, expr: ast.Attribute | ast.Subscript) -> AbstractValue | None:
        """A Python literal that a field of a configuration holds (``cfg.attention``,
        :mod:`mslint.model.config_reads`); None otherwise."""
        root: ast.expr = expr
        while isinstance(root, (ast.Attribute, ast.Subscript)):
            root = root.value
        if self._project is None or not isinstance(root, ast.Name) or root.id == self._self_name:
            return None
        bound = self._bindings[root.id] if root.id in self._local_names else self._module.top_level_values(root.id)
        if len(bound) != 1 or not isinstance(bound[0], (ast.Call, ast.Dict)):
            return None  # a parameter, a name bound twice or to anything else: no configuration set up here
        value = configured_value(self._project, self._module, expr)
        return literal(value) if value is None or isinstance(value, (bool, int, float, str)) else None

    def is_tensor(self, expr: ast.expr, seen: frozenset[str] = frozenset()) -> bool:
        """Whether ``expr`` holds a MindSpore tensor whichever binding of a name it reads: the
        proof a finding on code that is not compiled needs."""
        if isinstance(expr, ast.Name):
            if expr.id in seen:
                # a binding that reads the name itself (``t = t[:, :2]``) keeps what the others give
                return True
            bound = self._bindings.get(expr.id, [])
            inner = seen | {expr.id}
            return any(not _reads(b, expr.id) for b in bound) and all(
                isinstance(b, AbstractTensor) if isinstance(b, AbstractValue) else self.is_tensor(b, inner)
                for b in bound
            )
        if isinstance(expr, (ast.UnaryOp, ast.BinOp, ast.Subscript)):
            return any(self.is_tensor(p, seen) for p in _operands(expr))
        if isinstance(expr, ast.Call) and isinstance(expr.func, ast.Attribute) and self._is_method(expr.func):
            return self.is_tensor(expr.func.value, seen)
        return isinstance(self.value(expr), AbstractTensor)

    def _call(self, call: ast.Call, depth: int) -> AbstractValue:
        made = self._made(call, depth)
        if made is not None:
            return made
        created = created_value(call, self._qualname, lambda e: self.value(e, depth + 1))
        if created is not None:
            return created
        func = call.func
        qualname = qualified_name(func, self._module)
        if qualname in _PYTHON_SCALARS:
            return AbstractScalar(Kind.CONSTANT, _PYTHON_SCALARS[qualname])
        if qualname in _PYTHON_REDUCTIONS and call.args:
            given = [self.value(argument, depth + 1) for argument in call.args]
            return AbstractAny(Kind.CONSTANT if all(v.kind is Kind.CONSTANT for v in given) else Kind.UNKNOWN)
        if qualname is not None:
            if qualname in STATIC_CALLS:
                return AbstractAny(Kind.CONSTANT)
            name = qualname.rsplit(".", 1)[-1]
            if is_mindspore_name(qualname, *_TENSOR_CLASSES) or (
                qualname.startswith(_TENSOR_FUNCTIONS) and name[:1].islower()
            ):
                return TENSOR
            if qualname.split(".", 1)[0] == "numpy":
                return NUMPY_ARRAY
        if isinstance(func, ast.Attribute) and func.attr in _COUNTING_METHODS and self._is_python_sequence(func.value):
            return AbstractScalar(Kind.CONSTANT, "int")  # `list(...).count(False)`
        if isinstance(func, ast.Attribute) and self._is_method(func):
            return TENSOR if isinstance(self.value(func.value, depth + 1), AbstractTensor) else UNKNOWN
        callee = self._callee(call)
        if callee is None:
            return UNKNOWN
        values = HostValues(callee.node, callee.module, self._project, callee.owner)
        return join_all((values.value(r, depth + 1) for r in returned_values(callee.node)), empty=UNKNOWN)

    def _qualname(self, expr: ast.expr) -> str | None:
        return qualified_name(expr, self._module)

    def _is_python_sequence(self, expr: ast.expr) -> bool:
        """Whether ``expr`` is a Python list, tuple or string that code writes or builds (a literal,
        a comprehension, ``list(...)``), not a name that may hold anything."""
        if isinstance(expr, (ast.List, ast.Tuple, ast.ListComp)):
            return True
        if isinstance(expr, ast.Constant):
            return isinstance(expr.value, str)
        if not isinstance(expr, ast.Call):
            return False
        return qualified_name(expr.func, self._module, self._local_names) in _PYTHON_SEQUENCES

    def _is_method(self, func: ast.Attribute) -> bool:
        """A method whose result, on a tensor, is a tensor (a module's function is no method)."""
        return func.attr not in _NOT_TENSOR_METHODS and qualified_name(func, self._module) is None


def _shape_read(expr: ast.Attribute | ast.Subscript) -> AbstractValue | None:
    """What Python reads of a shape: ``x.shape`` is a tuple of ints, ``x.shape[1]`` an int and
    ``x.shape[1:]`` a tuple, for a tensor, an array of any library, or a DataFrame; handed to a
    graph, a graph constant. None where ``expr`` reads no shape."""
    if isinstance(expr, ast.Attribute):
        return _SHAPE if expr.attr == "shape" else None
    if not (isinstance(expr.value, ast.Attribute) and expr.value.attr == "shape"):
        return None
    return _SHAPE if isinstance(expr.slice, ast.Slice) else AbstractScalar(Kind.CONSTANT, "int")


def _item(held: AbstractValue, index: object) -> AbstractValue | None:
    """The ``index``-th item of a tuple or list of a known length; None where it is not known."""
    if not (isinstance(held, AbstractSequence) and held.items is not None and isinstance(index, int)):
        return None
    return held.items[index] if -len(held.items) <= index < len(held.items) else None


def _unpacks_plainly(targets: list[ast.expr]) -> bool:
    """``a, b = value``: names, nothing starred, so the ``i``-th name holds the ``i``-th item."""
    return all(isinstance(t, ast.Name) for t in targets)


def _item_of(value: ast.expr, index: int) -> ast.Subscript:
    """``value[index]``, in ``value``'s place: what unpacking it binds the ``index``-th name to."""
    item = ast.Subscript(value=value, slice=ast.Constant(index), ctx=ast.Load())
    return ast.copy_location(item, value)


def _not_trained(parameter: ast.Call) -> bool:
    """``Parameter(data, name, requires_grad=False)``, by keyword or as the third argument."""
    given = call_argument(parameter, 2, "requires_grad")
    return isinstance(given, ast.Constant) and given.value is False


def _reads(bound: ast.expr | AbstractValue, name: str) -> bool:
    return isinstance(bound, ast.expr) and any(isinstance(n, ast.Name) and n.id == name for n in ast.walk(bound))


def _holds_parameters(value: AbstractValue) -> bool | None:
    """Whether ``value`` is or holds a Parameter or a Cell that owns Parameters: None where that
    is not known (a value not inferred, a Cell given what mslint could not follow)."""
    if isinstance(value, AbstractTensor):
        return value.parameter
    if isinstance(value, AbstractInstance):
        return value.parameters if value.cell else False
    if isinstance(value, (AbstractScalar, AbstractFunction)):
        return False
    if isinstance(value, AbstractSequence) and value.items is not None:
        found = [_holds_parameters(item) for item in value.items]
        return True if any(found) else None if None in found else False
    return None


def _pairs_up(targets: list[ast.expr], values: list[ast.expr]) -> bool:
    """Whether a tuple of names is assigned a tuple of as many items, item by item."""
    starred = any(isinstance(e, ast.Starred) for e in [*targets, *values])
    return not starred and len(targets) == len(values)


def _items(container: ast.expr) -> list[ast.expr]:
    """The item expressions of a container (a starred one unpacked), or of a generator."""
    if isinstance(container, (ast.List, ast.Tuple)):
        return [e.value if isinstance(e, ast.Starred) else e for e in container.elts]
    if isinstance(container, ast.Dict):
        return list(container.values)
    if isinstance(container, (ast.ListComp, ast.GeneratorExp)):
        return [container.elt]
    if isinstance(container, ast.DictComp):
        return [container.value]
    return []


def _owner_of(scope: ast.Module | FunctionNode, module: ModuleInfo) -> ClassRef | None:
    """The class of the module whose method ``scope`` is."""
    classes = (s for s in statements(module.tree) if isinstance(s, ast.ClassDef))
    return next((ClassRef(module, c) for c in classes if any(s is scope for s in c.body)), None)


def _calls_given_containers(project: Project, name: str) -> list[tuple[ast.Call, ModuleInfo]]:
    """The calls of ``name`` in the project that give a container literal of calls
    (``Net([Block(), Block()])``), candidates for Cells handed their sub-Cells in a list: read
    from each module's index of its calls, once per name."""
    by_name = project.derived(_no_names_asked)
    found = by_name.get(name)
    if found is None:
        found = by_name[name] = [
            (call, module)
            for module in project.modules
            for call in module.calls_by_name.get(name, ())
            if _gives_containers_of_calls(call)
        ]
    return found


def _no_names_asked(project: Project) -> dict[str, list[tuple[ast.Call, ModuleInfo]]]:
    return {}


def _gives_containers_of_calls(call: ast.Call) -> bool:
    containers = [a for a in call.args if isinstance(a, _CONTAINERS)]
    containers += [k.value for k in call.keywords if isinstance(k.value, _CONTAINERS)]
    return any(isinstance(item, ast.Call) for container in containers for item in _items(container))


def _operands(expr: ast.UnaryOp | ast.BinOp | ast.Subscript) -> list[ast.expr]:
    if isinstance(expr, ast.UnaryOp):
        return [expr.operand]
    if isinstance(expr, ast.Subscript):
        return [expr.value]
    return [expr.left, expr.right]


def _iterates_a_dataset(iterable: ast.expr) -> bool:
    """``for data in dataset.create_tuple_iterator()`` (also through ``enumerate``)."""
    if isinstance(iterable, ast.Call) and isinstance(iterable.func, ast.Name) and iterable.func.id == "enumerate":
        iterable = iterable.args[0] if iterable.args else iterable
    return (
        isinstance(iterable, ast.Call)
        and isinstance(iterable.func, ast.Attribute)
        and iterable.func.attr in _DATASET_ITERATORS
    )


def host_tensor_method_calls(
    module: ModuleInfo, project: Project, names: Iterable[str], wanted: Callable[[ast.Call], bool] = lambda c: True
) -> Iterator[ast.Call]:
    """Calls ``t.name(...)`` of one of ``names`` outside graph code (graph rules judge those, with
    what graph code knows of its values), where ``t`` is a tensor MindSpore made."""
    calls = [c for name in names for c in module.calls_by_name.get(name, []) if isinstance(c.func, ast.Attribute)]
    calls = [c for c in calls if wanted(c)]
    if not calls:
        return
    candidates = {id(c) for c in calls}
    for scope in module.scopes_holding([c.lineno for c in calls]):
        if id(scope) in project.graph_function_nodes:
            continue
        found = [n for n in own_nodes(scope) if id(n) in candidates]
        values = HostValues(scope, module) if found else None
        for call in found:
            assert isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute) and values is not None
            if values.is_tensor(call.func.value):  # a tensor: not a module, a class or a global of another kind
                yield call
