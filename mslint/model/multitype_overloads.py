"""The overloads of a ``MultitypeFuncGraph`` that the program's calls select.

``_opt = C.MultitypeFuncGraph("opt")`` with functions registered by ``@_opt.register("Tensor",
"RowTensor")``: a call of ``_opt`` runs the one overload that the number and types of its
arguments select, and the compiler parses no other. Measured on 2.10 (``multitype-overloads``
below): an overload whose body reads ``F.control_depend``, which 2.10 lacks, compiles and runs
in GRAPH (STRICT and LAX) and PyNative while no call selects it, and raises AttributeError once
one does. Optimizers copied from MindSpore's own keep overloads for arguments their calls never
pass (``_run_opt_with_sparse``, 19 arguments, where every call gives 11 or 12): what a rule finds
in such a body on the module's text alone does not hold.

An overload registered for a sparse type (``RowTensor``) with as many arguments as a call gives
runs only where the program passes a sparse value there, as the gradients of a sparse parameter
(``nn.EmbeddingLookup(..., sparse=True)`` selects it in GRAPH mode; dense gradients do not). mslint
does not infer which gradients are sparse: what it finds there holds only for a program that
passes one, a warning.

The calls counted are ``_opt(a, b)`` and ``_opt`` or ``partial(_opt, a, ...)`` as the function that
a ``HyperMap`` or ``Map`` applies to its sequences (``self.hyper_map(F.partial(_opt, lr), grads)``:
two arguments). Where the code uses ``_opt`` in any other way (another module imports it, a
``HyperMap(_opt)`` built once, a partial kept in a variable), every overload may be selected.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass

from mslint.model.module import ModuleInfo
from mslint.model.project import (
    ClassRef,
    FunctionNode,
    Project,
    is_mindspore_name,
    qualified_name,
)
from mslint.model.walk import descendants

SPARSE_TYPES = frozenset({"RowTensor", "COOTensor", "CSRTensor", "MapTensor"})
"""The type names of ``register`` that only a sparse value matches: no dense tensor selects them."""
MINDSPORE_MAPPERS = frozenset({"map_", "map_reverse", "hyper_map", "hyper_map_reverse"})
"""The ``Map`` and ``HyperMap`` attributes that MindSpore's ``Optimizer`` and training wrappers
set in their ``__init__`` (``nn/optim/optimizer.py``, ``nn/wrap``), which their subclasses call."""


@dataclass(frozen=True)
class Overload:
    """A function registered on a ``MultitypeFuncGraph``: ``sparse`` names the sparse type of its
    signature, if any."""

    module: ModuleInfo
    node: FunctionNode
    sparse: str | None


@dataclass(frozen=True)
class OverloadSelection:
    unselected: frozenset[int]
    """Ids of the nodes in the bodies of the overloads that no call selects."""
    sparse_only: dict[int, str]
    """By id of a node in the body of an overload that a call selects only with a sparse value
    there: that sparse type."""


def overload_selection(project: Project) -> OverloadSelection:
    """The overloads of the project's ``MultitypeFuncGraph``s that no call selects, and those a
    call selects only with a sparse argument (module doc); computed once per project."""
    return project.derived(_overload_selection)


def _overload_selection(project: Project) -> OverloadSelection:
    unselected: set[int] = set()
    sparse_only: dict[int, str] = {}
    readers: _Readers | None = None
    for module in project.modules:
        if "MultitypeFuncGraph" not in module.text:
            continue
        reads = _reads_by_name(module)  # the module's reads and calls, found once for all its names
        calls: dict[str, list[ast.Call]] | None = None
        for name in _multitype_names(module):
            readers = _readers(project) if readers is None else readers
            arities = None
            if not _read_elsewhere(module, name, readers):
                calls = _countable_calls(module) if calls is None else calls
                arities = _call_arities(project, module, name, calls.get(name, []), reads.get(name, []))
            for overload in _overloads(module, name):
                local = overload.node.name in reads
                if local or _read_elsewhere(module, overload.node.name, readers):
                    continue  # called or handed on by its own name too: it may run as it is
                body = {id(node) for statement in overload.node.body for node in descendants(statement)}
                count = len(overload.node.args.args)
                if arities is not None and count not in arities:
                    unselected |= body
                elif overload.sparse is not None:
                    sparse_only.update(dict.fromkeys(body, overload.sparse))
    return OverloadSelection(frozenset(unselected), sparse_only)


def _reads_by_name(module: ModuleInfo) -> dict[str, list[ast.Name]]:
    """The module's reads of names (``ast.Name`` in a load context), by name."""
    found: dict[str, list[ast.Name]] = {}
    for node in module.nodes_of(ast.Name):
        if isinstance(node.ctx, ast.Load):
            found.setdefault(node.id, []).append(node)
    return found


def _countable_calls(module: ModuleInfo) -> dict[str, list[ast.Call]]:
    """The module's calls whose arguments can be counted, by each name they may call or apply:
    the called name (``_opt(a, b)``), their first argument's (``hyper_map(_opt, xs)``) or the name
    that argument makes a partial of (``hyper_map(F.partial(_opt, lr), xs)``)."""
    found: dict[str, list[ast.Call]] = {}
    for call in module.nodes_of(ast.Call):
        if not _plain(call):
            continue
        names: list[ast.expr] = [call.func]
        if call.args:
            applied = call.args[0]
            names.append(applied)
            if isinstance(applied, ast.Call) and applied.args:
                names.append(applied.args[0])
        for name in {n.id for n in names if isinstance(n, ast.Name)}:
            found.setdefault(name, []).append(call)
    return found


def _multitype_names(module: ModuleInfo) -> list[str]:
    """The module-level names bound to a new ``MultitypeFuncGraph`` (``_opt = C.MultitypeFuncGraph("opt")``)."""
    return [
        target.id
        for statement in module.tree.body
        if isinstance(statement, ast.Assign) and isinstance(statement.value, ast.Call)
        if is_mindspore_name(qualified_name(statement.value.func, module), "MultitypeFuncGraph")
        for target in statement.targets
        if isinstance(target, ast.Name)
    ]


def _overloads(module: ModuleInfo, name: str) -> list[Overload]:
    """The module-level functions registered on ``name`` with type names the code spells out;
    one with a ``*args`` or with as many type names as parameters is left out (no count to compare)."""
    found = []
    for function in module.functions.values():
        for decorator in function.decorator_list:
            types = _registered_types(decorator, name)
            arguments = function.args
            plain = not arguments.vararg and not arguments.kwonlyargs and not arguments.posonlyargs
            if types is not None and plain and len(types) == len(arguments.args):
                sparse = next((t for t in types if t in SPARSE_TYPES), None)
                found.append(Overload(module, function, sparse))
    return found


def _registered_types(decorator: ast.expr, name: str) -> list[str] | None:
    """The type names of ``@name.register("Tensor", ...)``; None for any other decorator."""
    if not (isinstance(decorator, ast.Call) and isinstance(decorator.func, ast.Attribute)):
        return None
    receiver = decorator.func.value
    if decorator.func.attr != "register" or not (isinstance(receiver, ast.Name) and receiver.id == name):
        return None
    types = [a.value for a in decorator.args if isinstance(a, ast.Constant) and isinstance(a.value, str)]
    return None if decorator.keywords or len(types) != len(decorator.args) else types


def _call_arities(
    project: Project, module: ModuleInfo, name: str, calls: list[ast.Call], uses: list[ast.Name]
) -> frozenset[int] | None:
    """The numbers of arguments the calls of ``name`` in its module (``calls``: those that may call or
    apply it) give its overloads; None where some use of ``name`` there (``uses``) is not such a
    call (the module doc's forms)."""
    counted: set[int] = set()  # ids of the uses of `name` that a counted call accounts for
    arities: set[int] = set()
    for call in calls:
        if isinstance(call.func, ast.Name) and call.func.id == name:
            counted.add(id(call.func))
            arities.add(len(call.args))
        elif call.args:
            applied = call.args[0]
            sequences = len(call.args) - 1
            if isinstance(applied, ast.Name) and applied.id == name and _calls_mapper(project, module, call):
                counted.add(id(applied))
                arities.add(sequences)
            elif _is_partial_of(applied, name, module) and _calls_mapper(project, module, call):
                assert isinstance(applied, ast.Call)
                counted.add(id(applied.args[0]))
                arities.add(len(applied.args) - 1 + sequences)
    registering = {id(d.func.value) for d in _register_decorators(module, name) if isinstance(d.func, ast.Attribute)}
    if any(id(use) not in counted and id(use) not in registering for use in uses):
        return None
    return frozenset(arities)


def _plain(call: ast.Call) -> bool:
    """A call whose arguments can be counted: no keywords, no ``*args``."""
    return not call.keywords and not any(isinstance(a, ast.Starred) for a in call.args)


def _is_partial_of(expr: ast.expr, name: str, module: ModuleInfo) -> bool:
    if not (isinstance(expr, ast.Call) and _plain(expr) and expr.args):
        return False
    first = expr.args[0]
    partial = qualified_name(expr.func, module)
    named = partial == "functools.partial" or is_mindspore_name(partial, "partial")
    return named and isinstance(first, ast.Name) and first.id == name


def _register_decorators(module: ModuleInfo, name: str) -> list[ast.Call]:
    return [
        decorator
        for function in module.nodes_of(ast.FunctionDef)
        for decorator in function.decorator_list
        if isinstance(decorator, ast.Call) and _registered_types(decorator, name) is not None
    ]


def _calls_mapper(project: Project, module: ModuleInfo, call: ast.Call) -> bool:
    """Whether ``call`` calls a ``Map`` or ``HyperMap``: one built in place (``C.HyperMap()(f, xs)``)
    or an attribute of the object of the method around it (the innermost whose first parameter the
    call names) that its class or its project bases set to one, or that MindSpore's base class sets
    (``self.hyper_map``). Asked only of the calls that apply a ``MultitypeFuncGraph``: few."""
    func = call.func
    if isinstance(func, ast.Call):
        return _makes_mapper(func, module)
    if not (isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name)):
        return False
    for holder, method in reversed(_methods_holding(module, call.lineno)):
        if method.args.args and method.args.args[0].arg == func.value.id:
            cls = ClassRef(module, holder)
            mappers, others = _mapper_attributes(project, cls)
            foreign_base = len(project.bases(cls)) < len(holder.bases)
            inherited = foreign_base and func.attr in MINDSPORE_MAPPERS and func.attr not in others
            return func.attr in mappers or inherited
    return False


def _methods_holding(module: ModuleInfo, line: int) -> list[tuple[ast.ClassDef, FunctionNode]]:
    """The methods whose lines hold ``line``, each with its class, outermost first (a class
    defined in a method holds methods of its own)."""
    return [
        (cls, method)
        for cls in module.nodes_of(ast.ClassDef)
        if _holds(cls, line)
        for method in cls.body
        if isinstance(method, (ast.FunctionDef, ast.AsyncFunctionDef)) and _holds(method, line)
    ]


def _holds(node: ast.stmt, line: int) -> bool:
    return node.lineno <= line <= (node.end_lineno or node.lineno)


def _mapper_attributes(project: Project, cls: ClassRef) -> tuple[set[str], set[str]]:
    """The attributes that ``cls`` and its project bases set to a ``Map`` or ``HyperMap`` only, and
    those they set to anything else."""
    mappers: set[str] = set()
    others: set[str] = set()
    for klass in project.mro(cls):
        for attribute, values in project.attribute_assignments(klass).items():
            makes = all(isinstance(v, ast.Call) and _makes_mapper(v, klass.module) for v in values)
            (mappers if makes else others).add(attribute)
    return mappers - others, others


def _makes_mapper(call: ast.Call, module: ModuleInfo) -> bool:
    return is_mindspore_name(qualified_name(call.func, module), "HyperMap", "Map")


@dataclass(frozen=True)
class _Readers:
    """Which modules of the project may read a name of another module, by the name read (the ids of
    those modules)."""

    attributes: dict[str, set[int]]
    """By attribute name: the modules reading an attribute of that name (``adam._adam_opt``)."""
    imports: dict[str, set[int]]
    """By qualified name: the modules importing it (``from .adam import _adam_opt``)."""
    star_imports: dict[str, set[int]]
    """By module name: the modules importing ``*`` from it."""


def _readers(project: Project) -> _Readers:
    readers = _Readers({}, {}, {})
    for module in project.modules:
        for attribute in module.nodes_of(ast.Attribute):
            readers.attributes.setdefault(attribute.attr, set()).add(id(module))
        for qualname in module.imports.values():
            readers.imports.setdefault(qualname, set()).add(id(module))
        for imported in module.star_imports:
            readers.star_imports.setdefault(imported, set()).add(id(module))
    return readers


def _read_elsewhere(module: ModuleInfo, name: str, readers: _Readers) -> bool:
    """Whether another module of the project may read ``name`` of ``module``: it imports it (by
    name or ``*``), or reads an attribute of that name."""
    others = (
        readers.attributes.get(name, set())
        | readers.imports.get(f"{module.name}.{name}", set())
        | readers.star_imports.get(module.name, set())
    )
    return bool(others - {id(module)})
