"""Registries: the dicts of a module's top level that hold classes or factory functions by name,
and the lookups that build what they hold.

Real code builds models by name: ``@register_model`` stores a factory in ``MODELS`` under its
own name and ``create_model("resnet50", **kw)`` calls ``MODELS[name](**kw)``; a dict of classes
(``LAYERS = {"block": Block}``, ``LAYERS["dense"] = Dense``) is looked up as
``LAYERS["block"](64)``. Such a class or factory is still built only by the calls the project
makes, where every read of its registry is a lookup by a name the code gives: a literal key, a
parameter of a function of a module's top level (a creator) that its callers give, or a name or
field that holds one (``MODELS[ARCH]``, ``MODELS[args.arch]``); :mod:`mslint.model.instances`
follows the creators' callers and reads what the names and fields hold. A getter of a module's top
level (``def model_entrypoint(name): return MODELS[name]``) is a lookup at each of its calls, by the
name each gives (none where the project never calls it). Any other read of the
registry (``MODELS.items()``, a method that reads it, a registry of a library) may build any of
its entries with anything: then nothing is known of them.
"""

from __future__ import annotations

import ast
import re
from typing import NamedTuple, Union

from mslint.model.binder import binding_counts, bound_once
from mslint.model.module import ModuleInfo
from mslint.model.project import ClassRef, FunctionNode, FunctionRef, Project, qualified_name
from mslint.model.reexports import library_name
from mslint.model.walk import descendants, own_nodes, parent_of

Callee = Union[ClassRef, FunctionRef]
"""A class, built by calling it, or a function of a module's top level."""

ModuleCall = tuple[ast.Call, ModuleInfo]


class Creator(NamedTuple):
    """A call that builds the entry a function's parameter names (``MODELS[name](**kwargs)`` in
    ``def create_model(name, **kwargs)``): it builds an entry for each name the function's
    callers give."""

    call: ast.Call
    module: ModuleInfo
    function: FunctionRef
    parameter: str


class Keyed(NamedTuple):
    """A call that builds the entry an expression other than a literal or a creator's parameter
    names (``MODELS[args.arch](num_classes=10)``): the code that reads the registry decides what the
    expression holds (:mod:`mslint.model.instances`: a module constant, a configuration's field)."""

    key: ast.expr
    call: ast.Call
    module: ModuleInfo


class Lookups(NamedTuple):
    """The calls that build a registry's entries."""

    by_key: dict[str, list[ModuleCall]]
    """Those that name the entry literally (``LAYERS["block"](64)``), by the name."""
    creators: list[Creator]
    by_expression: list[Keyed]
    """Those that name the entry by what a name or field holds (``MODELS[ARCH]``, ``MODELS[args.arch]``)."""


class Registered(NamedTuple):
    """How the project builds a registered class or factory: the calls besides those of its own name."""

    calls: list[ModuleCall]
    creators: list[tuple[Creator, frozenset[str]]]
    """Each creator that may build it, with the names it is registered under."""
    keyed: list[tuple[Keyed, frozenset[str]]]
    """Each lookup by an expression that may build it, with the names it is registered under."""


def modules_naming(project: Project, word: str) -> list[ModuleInfo]:
    """The modules whose text holds the identifier ``word``: where a name may be read (those the
    project holds now: a copy, which modules loaded later leave as it is)."""
    return list(project.indexed(dict, _index_words).get(word, ()))


def _index_words(index: dict[str, list[ModuleInfo]], module: ModuleInfo) -> None:
    for word in set(_IDENTIFIER.findall(module.text)):
        index.setdefault(word, []).append(module)


_IDENTIFIER = re.compile(r"[A-Za-z_]\w*")


def registered(project: Project, callee: Callee, handed_on: list[tuple[ast.expr, ModuleInfo]]) -> Registered | None:
    """The calls that build ``callee`` through the registries it is put in, by its decorators or
    by the references that hand it on (``handed_on``, every read of its name other than a call);
    None where one of them is not a registration under a literal name, or a registry is read
    other than by lookups."""
    keys: dict[tuple[int, str], tuple[ModuleInfo, str, set[str]]] = {}

    def put(registry: tuple[ModuleInfo, str], key: str) -> None:
        home, name = registry
        keys.setdefault((id(home.tree), name), (home, name, set()))[2].add(key)

    for decorator in callee.node.decorator_list:
        registry = _registering_decorator(project, decorator, callee.module)
        if registry is None:
            return None
        put(registry, callee.node.name)
    for reference, where in handed_on:
        registration = _registration(reference, where)
        if registration is None:
            return None
        put(*registration)
    found = Registered([], [], [])
    for home, name, names in keys.values():
        lookups = _lookups(project, home, name)
        if lookups is None:
            return None
        found.calls.extend(call for key in sorted(names) for call in lookups.by_key.get(key, ()))
        found.creators.extend((creator, frozenset(names)) for creator in lookups.creators)
        found.keyed.extend((keyed, frozenset(names)) for keyed in lookups.by_expression)
    return found


def _is_registry(module: ModuleInfo, name: str) -> bool:
    """Whether ``name`` is bound once at the module's top level, to a dict with literal keys."""
    values = module.top_level_values(name)
    if len(values) != 1 or name in module.functions or name in module.classes or name in module.imports:
        return False
    (value,) = values
    if isinstance(value, ast.Call):
        return isinstance(value.func, ast.Name) and value.func.id == "dict" and not value.args and not value.keywords
    return isinstance(value, ast.Dict) and all(_literal_key(key) is not None for key in value.keys)


def _literal_key(expr: ast.expr | None) -> str | None:
    return expr.value if isinstance(expr, ast.Constant) and isinstance(expr.value, str) else None


def _registration(reference: ast.expr, module: ModuleInfo) -> tuple[tuple[ModuleInfo, str], str] | None:
    """The registry and name ``reference`` puts a callee under: a value of a registry's literal
    (``LAYERS = {"block": Block}``) or of a store by a literal key (``LAYERS["block"] = Block``)."""
    parent = _parent(module, reference)
    if isinstance(parent, ast.Dict) and reference in parent.values:
        key = _literal_key(parent.keys[parent.values.index(reference)])
        statement = _parent(module, parent)
        if key is None or not (isinstance(statement, ast.Assign) and statement in module.tree.body):
            return None
        targets = statement.targets
        if len(targets) != 1 or not isinstance(targets[0], ast.Name) or not _is_registry(module, targets[0].id):
            return None
        return (module, targets[0].id), key
    if isinstance(parent, ast.Assign) and parent.value is reference and len(parent.targets) == 1:
        target = parent.targets[0]
        if isinstance(target, ast.Subscript) and isinstance(target.value, ast.Name):
            key = _literal_key(target.slice)
            if key is not None and _is_registry(module, target.value.id):
                return (module, target.value.id), key
    return None


def _registering_decorator(project: Project, decorator: ast.expr, module: ModuleInfo) -> tuple[ModuleInfo, str] | None:
    """The registry a decorator puts what it decorates in, under that one's own name: a function
    of a module's top level that stores its one parameter by ``__name__`` in a registry of its
    module, reads it otherwise only for its name, and returns it unchanged."""
    function = project.resolve_expr(decorator, module)
    if not isinstance(function, FunctionRef) or function.module.functions.get(function.node.name) is not function.node:
        return None
    node, home = function.node, function.module
    arguments = node.args
    if len(arguments.args) != 1 or arguments.posonlyargs or arguments.vararg or arguments.kwonlyargs or arguments.kwarg:
        return None
    parameter = arguments.args[0].arg
    if parameter in binding_counts(node):
        return None
    spelled = parameter + ".__name__"
    names = {spelled} | {
        assigned.targets[0].id
        for assigned in own_nodes(node)
        if isinstance(assigned, ast.Assign)
        and _spelled(assigned.value) == spelled
        and isinstance(assigned.targets[0], ast.Name)
        and bound_once(node, assigned.targets[0].id) is assigned.value
    }
    registries: set[str] = set()
    for read in descendants(node):
        if not (isinstance(read, ast.Name) and read.id == parameter):
            continue
        parent = _parent(home, read)
        if isinstance(parent, ast.Attribute) and parent.attr in ("__name__", "__module__", "__qualname__"):
            continue
        if isinstance(parent, ast.Return):
            continue
        if not (isinstance(parent, ast.Assign) and parent.value is read and len(parent.targets) == 1):
            return None
        target = parent.targets[0]
        if not (isinstance(target, ast.Subscript) and isinstance(target.value, ast.Name)):
            return None
        if _spelled(target.slice) not in names or not _is_registry(home, target.value.id):
            return None
        registries.add(target.value.id)
    returns = [r for r in descendants(node) if isinstance(r, ast.Return)]
    if len(registries) != 1 or not returns or any(_spelled(r.value) != parameter for r in returns):
        return None
    return home, registries.pop()


def _spelled(expr: ast.expr | None) -> str | None:
    """A name or dotted attribute as written (``fn.__name__``); None for anything else."""
    if isinstance(expr, ast.Name):
        return expr.id
    if isinstance(expr, ast.Attribute):
        base = _spelled(expr.value)
        return None if base is None else f"{base}.{expr.attr}"
    return None


def _lookups(project: Project, module: ModuleInfo, name: str) -> Lookups | None:
    memo = project.derived(_no_lookups_found)
    key = (id(module.tree), name)
    if key not in memo:
        memo[key] = _lookups_of(project, module, name)
    return memo[key]


def _no_lookups_found(project: Project) -> dict[tuple[int, str], Lookups | None]:
    return {}


def _lookups_of(project: Project, home: ModuleInfo, name: str) -> Lookups | None:
    """Every read of the registry ``name`` of ``home``, in every module that spells it (a read
    mslint cannot resolve included, which can only make it less known; not another module's own
    ``name``); None where one of them is not a lookup, a registration, or a test of a name."""
    (definition,) = home.top_level_values(name)
    lookups = Lookups({}, [], [])
    for module in modules_naming(project, name):
        reads: list[ast.expr] = [n for n in module.nodes_of(ast.Name) if n.id == name]
        reads += [n for n in module.nodes_of(ast.Attribute) if n.attr == name]
        for read in (read for read in reads if _may_read(project, read, module, home)):
            parent = _parent(module, read)
            if module is home and isinstance(parent, ast.Assign) and parent.value is definition:
                continue
            getter = _getter(read, parent, module)
            if getter is not None:
                if not _getter_lookups(project, getter, lookups):
                    return None
            elif not _read_as_lookup(read, parent, module, lookups):
                return None
    return lookups


def _getter(read: ast.expr, parent: ast.AST | None, module: ModuleInfo) -> FunctionRef | None:
    """The function of ``module``'s top level that only returns the entry its one parameter names
    (``def model_entrypoint(name): return MODELS[name]``) where ``read`` is that registry read."""
    if not (isinstance(parent, ast.Subscript) and parent.value is read and isinstance(parent.ctx, ast.Load)):
        return None
    if not isinstance(_parent(module, parent), ast.Return) or not isinstance(parent.slice, ast.Name):
        return None
    (scope,) = module.scopes_holding([read.lineno])
    if isinstance(scope, ast.Module) or module.functions.get(scope.name) is not scope:
        return None
    arguments = scope.args
    parameters = [*arguments.posonlyargs, *arguments.args]
    if arguments.vararg or arguments.kwonlyargs or arguments.kwarg or len(parameters) != 1:
        return None
    key = parent.slice.id
    return FunctionRef(module, scope) if parameters[0].arg == key and key not in binding_counts(scope) else None


def _getter_lookups(project: Project, getter: FunctionRef, lookups: Lookups) -> bool:
    """Record in ``lookups`` the calls of what each call of ``getter`` returns, as lookups by the
    key it is given (``model_entrypoint("small")(**kw)``; none where the project never calls it);
    False where its name is read other than to call it with the key alone, or what a call returns
    is used other than by calling it."""
    name = getter.node.name
    (parameter,) = [*getter.node.args.posonlyargs, *getter.node.args.args]
    for module in modules_naming(project, name):
        reads: list[ast.expr] = [n for n in module.nodes_of(ast.Name) if n.id == name]
        reads += [n for n in module.nodes_of(ast.Attribute) if n.attr == name]
        for read in reads:
            resolved = project.resolve_expr(read, module)
            if resolved is not None and resolved.node is not getter.node:
                continue  # another function of that name
            call = _parent(module, read)
            if not (isinstance(call, ast.Call) and call.func is read):
                return False
            keys = [*call.args, *(k.value for k in call.keywords if k.arg == parameter.arg)]
            if len(keys) != 1 or len(call.args) + len(call.keywords) != 1 or isinstance(keys[0], ast.Starred):
                return False
            if not _looked_up(call, keys[0], module, lookups):
                return False
    return True


def _may_read(project: Project, read: ast.expr, module: ModuleInfo, home: ModuleInfo) -> bool:
    """Whether ``read`` may be ``home``'s registry: not where it is ``module``'s own name, or an
    attribute or import of another module (another module's own ``MODELS``), so that the project's
    files analysed together, apart (``--jobs``) or beside a copy find the same lookups."""
    if isinstance(read, ast.Name):
        if module is home:
            return True
        if read.id in module.classes or read.id in module.functions or read.id in module.assigned:
            return False
        source = module.global_qualname(read.id)
    else:
        assert isinstance(read, ast.Attribute)
        source = qualified_name(read.value, module)
        source = None if source is None else f"{source}.{read.attr}"
    if source is None:
        return True
    owner = project.module_named(library_name(source, module, project).rpartition(".")[0], module)
    return owner is None or owner is home


def _read_as_lookup(read: ast.expr, parent: ast.AST | None, module: ModuleInfo, lookups: Lookups) -> bool:
    """Whether ``read`` of a registry is a registration, a test of a name, or a lookup (then
    recorded in ``lookups``)."""
    if isinstance(parent, ast.Compare) and read in parent.comparators:
        return all(isinstance(op, (ast.In, ast.NotIn)) for op in parent.ops)
    if isinstance(parent, ast.Subscript) and parent.value is read:
        if isinstance(parent.ctx, ast.Store):
            return isinstance(_parent(module, parent), ast.Assign)
        return isinstance(parent.ctx, ast.Load) and _looked_up(parent, parent.slice, module, lookups)
    if isinstance(parent, ast.Attribute) and parent.value is read:
        call = _parent(module, parent)
        if not (isinstance(call, ast.Call) and call.func is parent):
            return False
        if parent.attr == "keys":
            return True
        return parent.attr == "get" and len(call.args) == 1 and _looked_up(call, call.args[0], module, lookups)
    return False


def _looked_up(entry: ast.expr, key: ast.expr, module: ModuleInfo, lookups: Lookups) -> bool:
    """Record the calls of ``entry`` (``MODELS["small"]``, ``MODELS[name]``, ``MODELS[args.arch]``),
    by a literal key, a creator's parameter, or another name or field; False where the entry is
    read otherwise, or by another key."""
    use = _parent(module, entry)
    literal = _literal_key(key)
    (scope,) = module.scopes_holding([entry.lineno])
    function = None if isinstance(scope, ast.Module) else module.functions.get(scope.name)
    parameter = None
    if function is scope and isinstance(key, ast.Name) and key.id not in binding_counts(scope):
        parameter = next((a.arg for a in (*scope.args.posonlyargs, *scope.args.args) if a.arg == key.id), None)
    calls: list[ast.Call]
    if isinstance(use, ast.Call) and use.func is entry:
        calls = [use]
    elif isinstance(use, ast.Assign) and parameter is not None and not isinstance(scope, ast.Module):
        calls = _calls_of_local(use, scope, module)
        if not calls:
            return False
    else:
        return False
    if literal is not None:
        lookups.by_key.setdefault(literal, []).extend((call, module) for call in calls)
    elif parameter is None:
        if not isinstance(key, (ast.Name, ast.Attribute, ast.Subscript)):
            return False
        lookups.by_expression.extend(Keyed(key, call, module) for call in calls)
    else:
        assert parameter is not None and not isinstance(scope, ast.Module)
        lookups.creators.extend(Creator(call, module, FunctionRef(module, scope), parameter) for call in calls)
    return True


def _calls_of_local(assignment: ast.Assign, function: FunctionNode, module: ModuleInfo) -> list[ast.Call]:
    """The calls of the one local ``assignment`` binds (``cls = MODELS[name]`` ... ``cls(**kw)``);
    empty where it binds anything else, or the local is read other than by calling it."""
    targets = assignment.targets
    if len(targets) != 1 or not isinstance(targets[0], ast.Name) or binding_counts(function)[targets[0].id] != 1:
        return []
    local = targets[0].id
    calls: list[ast.Call] = []
    for read in descendants(function):
        if isinstance(read, ast.Name) and read.id == local and isinstance(read.ctx, ast.Load):
            call = _parent(module, read)
            if not (isinstance(call, ast.Call) and call.func is read):
                return []
            calls.append(call)
    return calls


def _parent(module: ModuleInfo, node: ast.AST) -> ast.AST | None:
    return parent_of(module.tree, node)


class NamedLookups(NamedTuple):
    """The calls that look a class or function up on its module by name and build it."""

    calls: list[ModuleCall]
    """Those by its literal name (``getattr(models, "Block")(64)``)."""
    keyed: list[Keyed]
    """Those by a name or field that holds a name (``getattr(models, ARCH)(64)``): each builds it
    where what the key holds is its name."""


def named_lookups(project: Project, callee: Callee) -> NamedLookups | None:
    """The calls that build ``callee`` by looking it up on its module by name; None where a lookup
    on its module is by an expression that is neither a literal nor a name or field, hands the
    class on, or its module reads its own namespace (``globals()[name]``)."""
    lookups = project.derived(_lookups_on_modules).get(id(callee.module.tree))
    if lookups is None:
        return NamedLookups([], [])
    by_name, keyed = lookups
    if keyed is None:
        return None
    calls = by_name.get(callee.node.name, [])
    if any(call is None for call, _ in calls):
        return None
    return NamedLookups([(call, m) for call, m in calls if call is not None], keyed)


_NAMESPACE_READS = ("globals", "vars")
"""Called with no argument, at a module's top level or in a function: the module's own names."""


def _lookups_on_modules(
    project: Project,
) -> dict[int, tuple[dict[str, list[tuple[ast.Call | None, ModuleInfo]]], list[Keyed] | None]]:
    """By module tree: the lookups of its names by ``getattr`` (by literal name: the call of what
    each finds, None where it is not called), and the calls of those by a name or field (None
    where some lookup is by another expression, or by a name or field and not called)."""
    found: dict[int, tuple[dict[str, list[tuple[ast.Call | None, ModuleInfo]]], list[Keyed] | None]] = {}
    for module in project.modules:
        if any(not call.args for name in _NAMESPACE_READS for call in module.calls_by_name.get(name, ())):
            found[id(module.tree)] = ({}, None)
    for module in project.modules:
        for call in module.calls_by_name.get("getattr", ()):
            if not isinstance(call.func, ast.Name) or len(call.args) < 2:
                continue
            qualname = qualified_name(call.args[0], module)
            target = None if qualname is None else project.module_named(qualname, module)
            if target is None:
                continue
            by_name, keyed = found.setdefault(id(target.tree), ({}, []))
            use = _parent(module, call)
            built = use if isinstance(use, ast.Call) and use.func is call else None
            key = call.args[1]
            name = _literal_key(key)
            if name is not None:
                by_name.setdefault(name, []).append((built, module))
            elif keyed is not None and built is not None and isinstance(key, (ast.Name, ast.Attribute, ast.Subscript)):
                keyed.append(Keyed(key, built, module))
            else:
                found[id(target.tree)] = (by_name, None)
    return found
