"""The binder: what each function binds and reads, found once per function by one walk.

Bindings (assignments, loop and ``with`` targets, nested definitions and their parameters), the
reads of a loop's target inside its body, the names each binding reads, the names a piece of
code rebinds, and the parameters of a signature with their defaults. The evaluator
(:mod:`mslint.model.values`) and the rules ask here; nothing else collects bindings. The
analysis is flow-insensitive, and reads nested code as part of the function.
"""

from __future__ import annotations

import ast
from typing import NamedTuple, Union

from mslint.model.abstract import NOT_KNOWN
from mslint.model.memo import NodeMemo
from mslint.model.module import bound_names
from mslint.model.walk import child_fields, descendants, own_nodes, statements

FunctionNode = Union[ast.FunctionDef, ast.AsyncFunctionDef]

CONSTANT_BINDING = ast.Constant(value=...)  # the value of bindings to constants that are not expressions
ENUMERATE_COUNT = ast.Constant(value=0)  # the value of the count ``enumerate`` gives: a Python int, not 0


class Binding(NamedTuple):
    """A binding of local names in a function, or in a function or lambda nested in it."""

    target: ast.expr | str
    """An assignment or loop target (``x``, ``y, (h, w)``), or a name (a parameter, a nested ``def``)."""
    value: ast.expr | None
    """The value, or the iterable or context manager it comes from; None where unknown (a graph value)."""
    unpacks: bool = False
    """Whether it is ``target = value``: the items of a tuple value go to the items of the target."""
    iterates: bool = False
    """Whether ``value`` is iterated over (a loop): the target takes its items."""

    @property
    def names(self) -> list[str]:
        return target_names(self.target)


_BINDINGS: NodeMemo[FunctionNode, list[Binding]] = NodeMemo()


def bindings(function: ast.FunctionDef | ast.AsyncFunctionDef) -> list[Binding]:
    """Every binding in the body of ``function``, nested functions and lambdas included: the
    analysis is flow-insensitive and reads nested code as part of the function."""
    # Memoized: each call evaluated for what it returns reads the bindings of its callee again.
    return _BINDINGS(function, _bindings)


_BINDING_NODES = frozenset(
    {ast.Assign, ast.AnnAssign, ast.NamedExpr, ast.AugAssign, ast.For, ast.AsyncFor, ast.comprehension}
    | {ast.With, ast.AsyncWith, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda}
)
"""The node types that bind a name: one set lookup passes over the other nodes, most of them."""


def _bindings(function: FunctionNode) -> list[Binding]:
    found: list[Binding] = []
    for node in descendants(function):
        if node.__class__ not in _BINDING_NODES:
            continue
        if isinstance(node, ast.Assign):
            found.extend(Binding(t, node.value, unpacks=True) for t in node.targets)
        elif isinstance(node, (ast.AnnAssign, ast.NamedExpr)):
            found.append(Binding(node.target, node.value if node.value is not None else CONSTANT_BINDING, unpacks=True))
        elif isinstance(node, ast.AugAssign):
            found.append(Binding(node.target, node.value))
        elif isinstance(node, (ast.For, ast.AsyncFor, ast.comprehension)):
            found.extend(_loop_bindings(node.target, node.iter))
        elif isinstance(node, (ast.With, ast.AsyncWith)):
            found.extend(Binding(i.optional_vars, i.context_expr) for i in node.items if i.optional_vars)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and node is not function:
            found.append(Binding(node.name, CONSTANT_BINDING))
            if not isinstance(node, ast.ClassDef):
                found.extend(_nested_parameter_bindings(node, function))
        elif isinstance(node, ast.Lambda):
            found.extend(Binding(a.arg, None) for a in all_arguments(node.args))
    return found


def _loop_bindings(target: ast.expr, iterable: ast.expr) -> list[Binding]:
    """A loop target takes the items of its iterable; ``for i, item in enumerate(xs)`` counts with
    a Python int, a graph constant whatever ``xs`` holds."""
    if (
        isinstance(iterable, ast.Call)
        and isinstance(iterable.func, ast.Name)
        and iterable.func.id == "enumerate"
        and iterable.args
        and isinstance(target, ast.Tuple)
        and len(target.elts) == 2
    ):
        count, item = target.elts
        return [Binding(count, ENUMERATE_COUNT, unpacks=True), Binding(item, iterable.args[0], iterates=True)]
    return [Binding(target, iterable, iterates=True)]


def item_sources(loop_bindings: list[Binding]) -> dict[str, ast.expr]:
    """Each name a loop binds, with what gives it its value: the iterable, or for ``enumerate``
    the count and the enumerated iterable."""
    return {name: binding.value for binding in loop_bindings if binding.value is not None for name in binding.names}


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
    passed = [passed_arguments(call, nested, is_method=False) for call in sites]
    bound = [given for given in passed if given is not None]
    if not sites or len(sites) != len(uses) or len(bound) < len(sites):
        extras = [(extra, None) for extra in (nested.args.vararg, nested.args.kwarg) if extra is not None]
        return [
            Binding(parameter.arg, CONSTANT_BINDING if default is not None and is_literal_default(default) else None)
            for parameter, default in [*parameter_defaults(nested), *extras]
        ]
    found = [Binding(extra.arg, None) for extra in (nested.args.vararg, nested.args.kwarg) if extra is not None]
    for given in bound:
        for parameter, default in parameter_defaults(nested):
            value = given.get(parameter.arg, CONSTANT_BINDING if default is None else default)
            found.append(Binding(parameter.arg, value))
    return found


_LOOP_ITEMS: NodeMemo[FunctionNode, dict[int, ast.expr]] = NodeMemo()


def loop_items(function: ast.FunctionDef | ast.AsyncFunctionDef) -> dict[int, ast.expr]:
    """The reads of a ``for`` loop's target inside its body, each mapped to the loop's iterable.

    Kinds are flow-insensitive per name, so a name that one loop binds to tensors would make
    every other use of it a graph value. Inside the body of a loop that binds it, and that
    never rebinds it, the name holds an item of that loop's iterable, and has its kind:
    ``for i in self.channels`` after ``for i in ops.split(x, 2)`` still slices with constants."""
    return _LOOP_ITEMS(function, _loop_items)


def _loop_items(function: FunctionNode) -> dict[int, ast.expr]:
    found: dict[int, ast.expr] = {}
    for loop in descendants(function):
        if not isinstance(loop, (ast.For, ast.AsyncFor)):
            continue
        body = [node for statement in loop.body for node in descendants(statement)]
        items = item_sources(_loop_bindings(loop.target, loop.iter))
        names = set(items) - rebound(body)
        found.update(
            (id(node), items[node.id])
            for node in body
            if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load) and node.id in names
        )
    return found


def rebound(nodes: list[ast.AST]) -> set[str]:
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


_NAMES_READ: NodeMemo[FunctionNode, list[frozenset[str]]] = NodeMemo()


def names_read(function: FunctionNode) -> list[frozenset[str]]:
    """The names each of the :func:`bindings` of ``function`` reads in its value, through the
    iterables of the loops whose targets it reads. Memoized, as the bindings are."""
    return _NAMES_READ(function, _names_read)


def _names_read(function: FunctionNode) -> list[frozenset[str]]:
    items = loop_items(function)
    read = []
    for binding in bindings(function):
        names: set[str] = set()
        pending = [binding.value] if binding.value is not None else []
        walked: set[int] = set()
        while pending:
            for node in descendants(pending.pop()):
                if isinstance(node, ast.Name):
                    names.add(node.id)
                    iterable = items.get(id(node))
                    if iterable is not None and id(iterable) not in walked:
                        walked.add(id(iterable))
                        pending.append(iterable)
        read.append(frozenset(names))
    return read


def all_arguments(arguments: ast.arguments) -> list[ast.arg]:
    extra = [a for a in (arguments.vararg, arguments.kwarg) if a is not None]
    return [*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs, *extra]


def all_parameter_names(function: ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda) -> list[str]:
    return [a.arg for a in all_arguments(function.args)]


def bound_once(scope: ast.AST, name: str) -> ast.expr | None:
    """The value of the statement ``name = value`` of ``scope``'s own code (a module or function,
    the functions and classes nested in it aside) where it alone binds ``name`` there and ``name``
    is not a parameter of ``scope``: wherever that code reads the name, it holds that value or
    none. None otherwise."""
    nodes = own_nodes(scope)
    stores = [n for n in nodes if isinstance(n, ast.Name) and n.id == name and not isinstance(n.ctx, ast.Load)]
    if len(stores) != 1:
        return None
    if isinstance(scope, (ast.FunctionDef, ast.AsyncFunctionDef)) and name in all_parameter_names(scope):
        return None
    return next(
        (n.value for n in nodes if isinstance(n, ast.Assign) and len(n.targets) == 1 and n.targets[0] is stores[0]),
        None,
    )


_TOP_LEVEL_ONCE: NodeMemo[ast.Module, dict[str, ast.expr]] = NodeMemo()


def top_level_bound_once(tree: ast.Module) -> dict[str, ast.expr]:
    """The names ``tree``'s top-level code binds once, by ``name = value`` (or ``name: T = value``),
    that no function declares ``global``: their values (memoized by module). A module constant or
    object read by graph code is one of these; a name bound twice may hold either."""
    return _TOP_LEVEL_ONCE(tree, _top_level_bound_once)


def _top_level_bound_once(tree: ast.Module) -> dict[str, ast.expr]:
    bound: dict[str, list[ast.expr | None]] = {}
    for statement in tree.body:
        for node in ast.walk(statement) if not isinstance(statement, _DEFINITIONS) else ():
            if isinstance(node, ast.Name) and isinstance(node.ctx, (ast.Store, ast.Del)):
                bound.setdefault(node.id, []).append(None)
        if isinstance(statement, ast.Assign) and len(statement.targets) == 1:
            target: ast.expr | None = statement.targets[0]
        else:
            target = statement.target if isinstance(statement, ast.AnnAssign) and statement.value else None
        if isinstance(target, ast.Name) and isinstance(statement, (ast.Assign, ast.AnnAssign)):
            bound[target.id][-1] = statement.value
    declared = {name for node in statements(tree) if isinstance(node, ast.Global) for name in node.names}
    return {
        name: values[0]
        for name, values in bound.items()
        if len(values) == 1 and values[0] is not None and name not in declared
    }


_DEFINITIONS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)


def literal_value(expr: ast.expr) -> object:
    """The value of a literal expression (``2``, ``-1``, ``"bilinear"``, ``(7, 7)``); NOT_KNOWN where
    it is none (a name, a call, ``{[]: 1}``, one nested too deep)."""
    try:
        return ast.literal_eval(expr)
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        return NOT_KNOWN


def spreads(call: ast.Call) -> bool:
    """Whether ``call`` spreads arguments (``f(*args)``, ``f(**options)``): they may pass any parameter."""
    return any(isinstance(a, ast.Starred) for a in call.args) or any(k.arg is None for k in call.keywords)


def written_arguments(call: ast.Call, function: FunctionNode, is_method: bool) -> dict[str, ast.expr]:
    """The argument ``call`` passes each parameter of ``function`` it names, as written: its
    positional arguments in order (after ``self`` for a method), then its keywords. A spread is not
    expanded: a keyword still names its parameter, a positional argument after ``*args`` is taken
    for the next parameter (:func:`passed_arguments` gives up on those calls)."""
    names = positional_names(function, is_method)
    written = dict(zip(names, call.args))
    written.update((k.arg, k.value) for k in call.keywords if k.arg is not None)
    return written


def positional_names(function: FunctionNode, is_method: bool) -> list[str]:
    """The names of the parameters ``function`` takes by position, in order (``self`` aside for a method)."""
    return [a.arg for a in (*function.args.posonlyargs, *function.args.args)][1 if is_method else 0 :]


def passed_arguments(call: ast.Call, function: FunctionNode, is_method: bool) -> dict[str, ast.expr] | None:
    """The argument ``call`` passes each parameter of ``function`` it names
    (:func:`written_arguments`); None where it spreads arguments, which may pass any of them."""
    return None if spreads(call) else written_arguments(call, function, is_method)


def parameter_defaults(function: FunctionNode) -> list[tuple[ast.arg, ast.expr | None]]:
    """Each named parameter of ``function`` (not ``*args`` and ``**kwargs``) with its default,
    None where it has none."""
    arguments = function.args
    positional = [*arguments.posonlyargs, *arguments.args]
    defaults: list[ast.expr | None] = [None] * (len(positional) - len(arguments.defaults)) + list(arguments.defaults)
    return list(zip(positional, defaults)) + list(zip(arguments.kwonlyargs, arguments.kw_defaults))


def is_literal_default(default: ast.expr) -> bool:
    """Whether a default marks a Python scalar, flag or shape (``2``, ``-1``, ``"bilinear"``,
    ``(7, 7)``), which MindSpore treats as a constant. None, the usual default of an optional
    tensor (masks, labels), says as little as no default."""
    if isinstance(default, ast.Constant) and default.value is None:
        return False
    return literal_value(default) is not NOT_KNOWN


def target_names(target: ast.expr | str) -> list[str]:
    """The names a binding's target binds: ``y, (h, w)`` binds three."""
    return [target] if isinstance(target, str) else bound_names(target)


_DECLARED_GLOBAL: NodeMemo[FunctionNode, frozenset[str]] = NodeMemo()


def declared_global(function: FunctionNode) -> frozenset[str]:
    """The names ``function`` declares ``global`` (asked once per assignment: memoized)."""
    return _DECLARED_GLOBAL(
        function,
        lambda f: frozenset(name for node in statements(f) if isinstance(node, ast.Global) for name in node.names),
    )


_BINDING_COUNTS: NodeMemo[FunctionNode, dict[str, int]] = NodeMemo()


def binding_counts(function: FunctionNode) -> dict[str, int]:
    """How many of the function's :func:`bindings` bind each name (memoized)."""
    return _BINDING_COUNTS(function, _binding_counts)


def _binding_counts(function: FunctionNode) -> dict[str, int]:
    counts: dict[str, int] = {}
    for binding in bindings(function):
        for name in set(binding.names):
            counts[name] = counts.get(name, 0) + 1
    return counts


_BLOCKS: NodeMemo[ast.AST, dict[int, tuple[ast.stmt, ...]]] = NodeMemo()
_NESTING_FIELDS: dict[type[ast.AST], tuple[str, ...]] = {ast.For: ("body",), ast.If: ("body", "orelse")}


def enclosing_blocks(function: ast.AST) -> dict[int, tuple[ast.stmt, ...]]:
    """By node id: the ``for`` statements whose body and the ``if`` statements whose branches hold
    the node, outermost first (memoized; the nodes in
    none are left out: they were most of the entries)."""
    cached = _BLOCKS.get(function)
    if cached is None:
        cached = {}
        stack: list[tuple[ast.AST, tuple[ast.stmt, ...]]] = [(function, ())]
        while stack:
            node, blocks = stack.pop()
            if blocks:
                cached[id(node)] = blocks
            nesting = _NESTING_FIELDS.get(type(node), ())
            for name in child_fields(node):
                value = getattr(node, name, None)
                inner = (*blocks, node) if name in nesting and isinstance(node, ast.stmt) else blocks
                if isinstance(value, list):
                    stack.extend((child, inner) for child in value if isinstance(child, ast.AST))
                elif isinstance(value, ast.AST):
                    stack.append((value, inner))
        _BLOCKS.put(function, cached)
    return cached
