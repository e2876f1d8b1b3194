"""Value kinds in graph code: is an expression a compile-time constant or a graph (runtime) value?

MindSpore folds everything computed from constants at compile time (literals,
attributes set in ``__init__``, shapes of inputs with static shapes), so numpy or
a Python slice over such values compiles even in STRICT. Only values that exist
at run time - inputs, results of tensor operations, Parameters - make those
constructs fail, fall back to the interpreter or turn shapes dynamic.

A call into a function of the checked code has the kinds of what that function returns,
item by item for tuples: a sub-Cell that returns ``x, (h, w)`` with ``h, w`` from
``x.shape`` gives its caller a graph value and two constants.
"""

from __future__ import annotations

import ast
import enum
from typing import Callable, NamedTuple, Union

from mslint.model.module import bound_names, is_self_attribute
from mslint.model.project import is_mindspore_name
from mslint.model.walk import descendants


class Kind(enum.IntEnum):
    """What a value is to the compiler, ordered so that the kind of a value made of parts is the
    largest of theirs."""

    CONSTANT = 0
    """Known at compile time: folded, so Python and numpy may compute with it."""
    UNKNOWN = 1
    """Not inferred: an entry's parameter that nothing shows a tensor or a Python number is given
    (no call site, ``net(*data)``). A finding that holds only if it is a graph value is a warning."""
    GRAPH = 2
    """A runtime value: a tensor, a Parameter."""


Kinds = Union[Kind, tuple["Kinds", ...]]
"""The kind of a value, or of each item of a tuple: ``return x, (h, w)`` with ``h, w = x.shape``
is ``(GRAPH, (CONSTANT, CONSTANT))``, so ``y, (h, w) = f(x)`` gives constants ``h`` and ``w``."""


def flat(kinds: Kinds) -> Kind:
    """The kind of the value as a whole: a tuple holding a graph value is one."""
    return kinds if isinstance(kinds, Kind) else max(map(flat, kinds), default=Kind.CONSTANT)


def join(first: Kinds, second: Kinds) -> Kinds:
    """The kinds of a value that is either (two ``return`` statements): item by item where both are
    tuples of the same length."""
    if isinstance(first, tuple) and isinstance(second, tuple) and len(first) == len(second):
        return tuple(map(join, first, second))
    return max(flat(first), flat(second))


# Attributes of a tensor that are static Python values in graph code.
STATIC_ATTRIBUTES = frozenset({"shape", "ndim", "dtype", "size", "itemsize", "nbytes", "__class__"})
# Tensor methods that return static Python values (sizes and ranks).
STATIC_METHODS = frozenset({"size", "dim", "ndimension", "numel", "nelement"})
# Functions whose result is static whatever their argument.
STATIC_CALLS = frozenset(
    {
        "builtins.len",
        "builtins.isinstance",
        "builtins.issubclass",
        "builtins.type",
        "builtins.hasattr",
        "builtins.id",
        "builtins.str",
        "builtins.repr",
        "mindspore.ops.shape",
        "mindspore.ops.rank",
        "mindspore.ops.dtype",
        "mindspore.ops.functional.shape",
        "mindspore.ops.functional.rank",
        "mindspore.ops.functional.dtype",
        "mindspore.ops.size",
    }
)
# Primitives whose result is static (``self.shape = ops.Shape()`` then ``self.shape(x)``).
STATIC_PRIMITIVES = ("Shape", "Rank", "DType", "Size")


def is_static_primitive(qualname: str | None) -> bool:
    return is_mindspore_name(qualname, *STATIC_PRIMITIVES)


ReturnedKinds = Callable[[ast.Call, Callable[[ast.expr], Kind]], Union[Kinds, None]]
"""The kinds of what the functions of the checked code that a call runs return, given the kind of
each expression (its arguments); None where it runs none of them."""


class KindEvaluator:
    """Kinds of expressions within one function, given its locals' kinds, the kind of ``self.x``
    and what calls into the checked code return."""

    def __init__(
        self,
        local_kinds: dict[str, Kind],
        qualname: Callable[[ast.expr], str | None],
        self_attribute_kind: Callable[[str], Kind],
        self_name: str | None,
        self_attribute_is_static_primitive: Callable[[str], bool] = lambda attribute: False,
        returned_kinds: ReturnedKinds = lambda call, kind: None,
        loop_items: dict[int, ast.expr] | None = None,
    ) -> None:
        self.local_kinds = local_kinds
        self.loop_items = loop_items or {}
        """For reads of a loop's target inside its body: the loop's iterable (see :func:`loop_items`)."""
        self.qualname = qualname
        self.self_attribute_kind = self_attribute_kind
        self.self_name = self_name
        self.self_attribute_is_static_primitive = self_attribute_is_static_primitive
        self.returned_kinds = returned_kinds

    def kinds(self, expr: ast.expr | None) -> Kinds:
        """``of(expr)``, item by item for tuples: tuple and list displays, and calls returning them."""
        if isinstance(expr, (ast.Tuple, ast.List)) and not any(isinstance(e, ast.Starred) for e in expr.elts):
            return tuple(map(self.kinds, expr.elts))
        if isinstance(expr, ast.Call):
            return self._call(expr)
        return self.of(expr)

    def of(self, expr: ast.expr | None) -> Kind:
        """The kind of ``expr``: the largest kind among the parts it is made of.

        A loop over the parts rather than a recursion: generated or machine-written code chains
        thousands of ``+`` terms or ``.sum()`` calls, deeper than Python's stack."""
        pending: list[ast.expr | None] = [expr]
        largest = Kind.CONSTANT
        while pending:
            kind, parts = self._step(pending.pop())
            if kind is Kind.GRAPH:
                return Kind.GRAPH
            largest = max(largest, kind)
            pending.extend(reversed(parts))
        return largest

    def _step(self, expr: ast.expr | None) -> tuple[Kind, list[ast.expr]]:
        """The kind ``expr`` has by itself, and the parts whose kinds it also takes."""
        if expr is None or isinstance(expr, (ast.Constant, ast.Lambda)):
            return Kind.CONSTANT, []
        if isinstance(expr, ast.JoinedStr):
            # An f-string is a constant only if what it formats is: ``f"{x.shape}"`` is folded,
            # ``f"{x}"`` needs the interpreter at run time.
            return Kind.CONSTANT, [v.value for v in expr.values if isinstance(v, ast.FormattedValue)]
        if isinstance(expr, ast.Name):
            iterable = self.loop_items.get(id(expr))
            if iterable is not None:
                return Kind.CONSTANT, [iterable]
            return self.local_kinds.get(expr.id, Kind.CONSTANT), []
        if isinstance(expr, ast.Attribute):
            if expr.attr in STATIC_ATTRIBUTES:
                return Kind.CONSTANT, []
            if is_self_attribute(expr, self.self_name):
                return self.self_attribute_kind(expr.attr), []
            return Kind.CONSTANT, [expr.value]
        if isinstance(expr, ast.Call):
            known = self._known_call(expr)
            return (flat(known), []) if known is not None else (Kind.CONSTANT, _operands(expr))
        if isinstance(expr, (ast.Await, ast.Yield, ast.YieldFrom)):
            return Kind.GRAPH, []
        if isinstance(expr, (ast.ListComp, ast.SetComp, ast.GeneratorExp, ast.DictComp)):
            parts: list[ast.expr] = [g.iter for g in expr.generators]
            parts += [expr.key, expr.value] if isinstance(expr, ast.DictComp) else [expr.elt]
            return Kind.CONSTANT, parts
        return Kind.CONSTANT, [child for child in ast.iter_child_nodes(expr) if isinstance(child, ast.expr)]

    def _call(self, call: ast.Call) -> Kinds:
        known = self._known_call(call)
        return known if known is not None else max(map(self.of, _operands(call)), default=Kind.CONSTANT)

    def _known_call(self, call: ast.Call) -> Kinds | None:
        """The kinds of a call's result where they do not follow from its operands (a static
        function, a function of the checked code); None where they do."""
        func = call.func
        if self.qualname(func) in STATIC_CALLS:
            return Kind.CONSTANT
        if isinstance(func, ast.Call) and is_static_primitive(self.qualname(func.func)):
            return Kind.CONSTANT
        if (
            isinstance(func, ast.Attribute)
            and is_self_attribute(func, self.self_name)
            and self.self_attribute_is_static_primitive(func.attr)
        ):
            return Kind.CONSTANT
        if isinstance(call.func, ast.Attribute) and call.func.attr in STATIC_METHODS:
            return Kind.CONSTANT
        # What a function of the checked code returns, rather than its operands: the axes that
        # ``self.get_axis(x)`` computes from ``x.shape`` (``nn.LossBase``) are constants, ``x`` is not.
        return self.returned_kinds(call, self.of)


def _operands(call: ast.Call) -> list[ast.expr]:
    operands: list[ast.expr] = [*call.args, *(k.value for k in call.keywords)]
    if isinstance(call.func, ast.Attribute):
        operands.append(call.func.value)
    return operands


_CONSTANT = ast.Constant(value=None)  # the value of bindings to constants that are not expressions
_BINDINGS = "_mslint_bindings"


class Binding(NamedTuple):
    """A binding of local names in a function, or in a function or lambda nested in it."""

    target: ast.expr | str
    """An assignment or loop target (``x``, ``y, (h, w)``), or a name (a parameter, a nested ``def``)."""
    value: ast.expr | None
    """The value, or the iterable or context manager it comes from; None where unknown (a graph value)."""
    unpacks: bool = False
    """Whether it is ``target = value``: the items of a tuple value go to the items of the target."""

    @property
    def names(self) -> list[str]:
        return _names(self.target)


def bindings(function: ast.FunctionDef | ast.AsyncFunctionDef) -> list[Binding]:
    """Every binding in the body of ``function``, nested functions and lambdas included: the
    analysis is flow-insensitive and reads nested code as part of the function."""
    # Kept on the node, as ``walk.descendants`` does: each call evaluated for what it returns
    # reads the bindings of its callee again. They hold only nodes below the function: no cycle.
    cached: list[Binding] | None = function.__dict__.get(_BINDINGS)
    if cached is not None:
        return cached
    found: list[Binding] = []
    for node in descendants(function):
        if isinstance(node, ast.Assign):
            found.extend(Binding(t, node.value, unpacks=True) for t in node.targets)
        elif isinstance(node, (ast.AnnAssign, ast.NamedExpr)):
            found.append(Binding(node.target, node.value if node.value is not None else _CONSTANT, unpacks=True))
        elif isinstance(node, ast.AugAssign):
            found.append(Binding(node.target, node.value))
        elif isinstance(node, (ast.For, ast.AsyncFor, ast.comprehension)):
            found.append(_loop_binding(node.target, node.iter))
        elif isinstance(node, (ast.With, ast.AsyncWith)):
            found.extend(Binding(i.optional_vars, i.context_expr) for i in node.items if i.optional_vars)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and node is not function:
            found.append(Binding(node.name, _CONSTANT))
            if not isinstance(node, ast.ClassDef):
                found.extend(_nested_parameter_bindings(node, function))
        elif isinstance(node, ast.Lambda):
            found.extend(Binding(a.arg, None) for a in _all_arguments(node.args))
    setattr(function, _BINDINGS, found)
    return found


def _loop_binding(target: ast.expr, iterable: ast.expr) -> Binding:
    """A loop target takes the kind of its iterable's items; ``for i, item in enumerate(xs)``
    counts with a Python int, a graph constant whatever ``xs`` holds."""
    if (
        isinstance(iterable, ast.Call)
        and isinstance(iterable.func, ast.Name)
        and iterable.func.id == "enumerate"
        and iterable.args
        and isinstance(target, ast.Tuple)
        and len(target.elts) == 2
    ):
        return Binding(target, ast.Tuple(elts=[_CONSTANT, iterable.args[0]], ctx=ast.Load()), unpacks=True)
    return Binding(target, iterable)


def _item_sources(binding: Binding) -> dict[str, ast.expr]:
    """Each name a loop binds, with what gives it its kind: the iterable, or for ``enumerate``
    the constant count and the enumerated iterable."""
    assert binding.value is not None
    if binding.unpacks and isinstance(binding.target, ast.Tuple) and isinstance(binding.value, ast.Tuple):
        return {
            name: value
            for target, value in zip(binding.target.elts, binding.value.elts)
            for name in bound_names(target)
        }
    return {name: binding.value for name in binding.names}


def _nested_parameter_bindings(
    nested: ast.FunctionDef | ast.AsyncFunctionDef, function: ast.FunctionDef | ast.AsyncFunctionDef
) -> list[Binding]:
    """The parameters of a function nested in ``function`` take the arguments of its calls there
    (``crop(x, x.shape[1] - 1)`` gives ``n`` a constant); where it is used otherwise (handed to
    ``ops.vmap`` or ``map``) or called with ``*args``, they are graph values unless a literal
    default marks a Python scalar."""
    uses = [n for n in descendants(function) if isinstance(n, ast.Name) and n.id == nested.name]
    uses = [n for n in uses if isinstance(n.ctx, ast.Load)]
    sites = [c for c in descendants(function) if isinstance(c, ast.Call) and c.func in uses]
    spread = any(isinstance(a, ast.Starred) for c in sites for a in c.args) or any(
        k.arg is None for c in sites for k in c.keywords
    )
    if not sites or len(sites) != len(uses) or spread:
        kinds = parameter_kinds(nested, is_method=False)
        return [Binding(name, _CONSTANT if kind is Kind.CONSTANT else None) for name, kind in kinds.items()]
    arguments = nested.args
    positional = [*arguments.posonlyargs, *arguments.args]
    defaults = dict(zip([a.arg for a in positional][len(positional) - len(arguments.defaults) :], arguments.defaults))
    defaults.update((a.arg, d) for a, d in zip(arguments.kwonlyargs, arguments.kw_defaults) if d is not None)
    found = [Binding(extra.arg, None) for extra in (arguments.vararg, arguments.kwarg) if extra is not None]
    for call in sites:
        given = {a.arg: value for a, value in zip(positional, call.args)}
        given.update((k.arg, k.value) for k in call.keywords if k.arg is not None)
        for parameter in [*positional, *arguments.kwonlyargs]:
            found.append(Binding(parameter.arg, given.get(parameter.arg, defaults.get(parameter.arg, _CONSTANT))))
    return found


_LOOP_ITEMS = "_mslint_loop_items"


def loop_items(function: ast.FunctionDef | ast.AsyncFunctionDef) -> dict[int, ast.expr]:
    """The reads of a ``for`` loop's target inside its body, each mapped to the loop's iterable.

    Kinds are flow-insensitive per name, so a name that one loop binds to tensors would make
    every other use of it a graph value. Inside the body of a loop that binds it, and that
    never rebinds it, the name holds an item of that loop's iterable, and has its kind:
    ``for i in self.channels`` after ``for i in ops.split(x, 2)`` still slices with constants."""
    cached: dict[int, ast.expr] | None = function.__dict__.get(_LOOP_ITEMS)
    if cached is not None:
        return cached
    found: dict[int, ast.expr] = {}
    for loop in descendants(function):
        if not isinstance(loop, (ast.For, ast.AsyncFor)):
            continue
        body = [node for statement in loop.body for node in descendants(statement)]
        items = _item_sources(_loop_binding(loop.target, loop.iter))
        names = set(items) - _rebound(body)
        found.update(
            (id(node), items[node.id])
            for node in body
            if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load) and node.id in names
        )
    setattr(function, _LOOP_ITEMS, found)
    return found


def _rebound(nodes: list[ast.AST]) -> set[str]:
    """Names that ``nodes`` bind or delete in any way, nested scopes included (a parameter of a
    nested ``def`` or ``lambda`` hides the loop's target there)."""
    names: set[str] = set()
    for node in nodes:
        if isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Load):
            names.add(node.id)
        elif isinstance(node, ast.arg):
            names.add(node.arg)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, ast.alias):
            names.add(node.asname or node.name.split(".")[0])
        elif isinstance(node, (ast.Global, ast.Nonlocal)):
            names.update(node.names)
    return names


def local_kinds(
    function: ast.FunctionDef | ast.AsyncFunctionDef,
    parameter_kinds: dict[str, Kind],
    evaluator_for: Callable[[dict[str, Kind]], KindEvaluator],
) -> dict[str, Kind]:
    """Kinds of the local names of ``function`` (flow-insensitive: a name is GRAPH if any binding is)."""
    kinds = dict(parameter_kinds)
    evaluator = evaluator_for(kinds)
    found = bindings(function)
    for _ in range(3):
        changed = False
        for binding in found:
            value = evaluator.kinds(binding.value) if binding.value is not None else Kind.GRAPH
            for name, kind in _name_kinds(binding.target, value if binding.unpacks else flat(value)):
                if kind > kinds.get(name, Kind.CONSTANT) or name not in kinds:
                    kinds[name] = max(kind, kinds.get(name, Kind.CONSTANT))
                    changed = True
        if not changed:
            break
    return kinds


def _name_kinds(target: ast.expr | str, value: Kinds) -> list[tuple[str, Kind]]:
    """The kind each name of ``target`` gets from a value: item by item where the target and the
    value are tuples of the same length (``y, (h, w) = f(x)``; a starred target there takes one item)."""
    if isinstance(target, (ast.Tuple, ast.List)) and isinstance(value, tuple) and len(value) == len(target.elts):
        return [pair for element, item in zip(target.elts, value) for pair in _name_kinds(element, item)]
    return [(name, flat(value)) for name in _names(target)]


def _names(target: ast.expr | str) -> list[str]:
    return [target] if isinstance(target, str) else bound_names(target)


def _all_arguments(arguments: ast.arguments) -> list[ast.arg]:
    extra = [a for a in (arguments.vararg, arguments.kwarg) if a is not None]
    return [*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs, *extra]


def parameter_kinds(function: ast.FunctionDef | ast.AsyncFunctionDef, is_method: bool) -> dict[str, Kind]:
    """Kinds of a function's parameters from its signature alone: Python scalars where a literal
    default marks one, unknown otherwise (how the function is called decides:
    :mod:`mslint.model.call_sites`)."""
    arguments = function.args
    positional = [*arguments.posonlyargs, *arguments.args]
    defaults: list[ast.expr | None] = [None] * (len(positional) - len(arguments.defaults)) + list(arguments.defaults)
    pairs = list(zip(positional, defaults)) + list(zip(arguments.kwonlyargs, arguments.kw_defaults))
    kinds = {arg.arg: _parameter_kind(default) for arg, default in pairs}
    for extra in (arguments.vararg, arguments.kwarg):
        if extra is not None:
            kinds[extra.arg] = Kind.UNKNOWN
    if is_method and positional:
        kinds[positional[0].arg] = Kind.CONSTANT
    return kinds


def _parameter_kind(default: ast.expr | None) -> Kind:
    # A literal default (`2`, `-1`, `"bilinear"`, `(7, 7)`) marks a Python scalar, flag or shape,
    # which MindSpore treats as a constant; None is the usual default of an optional tensor
    # (masks, labels), and says as little as no default.
    if default is None or (isinstance(default, ast.Constant) and default.value is None):
        return Kind.UNKNOWN
    try:
        ast.literal_eval(default)
    except (ValueError, TypeError, RecursionError):  # not a literal; `{[]: 1}`; nested too deep
        return Kind.UNKNOWN
    return Kind.CONSTANT


def all_parameter_names(function: ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda) -> list[str]:
    return [a.arg for a in _all_arguments(function.args)]
