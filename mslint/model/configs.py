"""Simple configurations: a dict or namespace of literal fields that a program passes to the code
that builds its Cells (``Net.from_config(CONFIG)`` and ``cls(cfg["dim"], cfg.attention)``).

A configuration is written where it is passed (``{"dim": 8}``, ``dict(dim=8)``,
``EasyDict({"dim": 8})``, ``SimpleNamespace(dim=8)``, ``argparse.Namespace(dim=8)``, an
instance of a configuration class: ``Config()`` of ``class Config: dim = 8``, or of a dataclass,
``Options(dim=8)``) or bound once at a module's top level to one of these, also read where
another module imports it by name (``from src.config import cfg``). Its fields are known only
where nothing may change them: a module's name is read, in every module that spells it (for an
imported one, in that module and those importing it), only for a field or as a whole argument of
a call of the project whose parameter is read only for fields; a parameter holding one is read
only for fields. A field read is no target of an assignment, and has no method called but ``get``
(``cfg.update(...)`` changes it).
"""

from __future__ import annotations

import ast

from mslint.model.abstract import NOT_KNOWN
from mslint.model.binder import binding_counts, literal_value, positional_names, spreads
from mslint.model.module import ModuleInfo
from mslint.model.project import ClassRef, FunctionNode, FunctionRef, Project, qualified_name
from mslint.model.registries import modules_naming
from mslint.model.visible_constants import imported_binding
from mslint.model.walk import descendants, parent_of

_NAMESPACES = frozenset({"builtins.dict", "types.SimpleNamespace", "argparse.Namespace"})
"""The calls that make a configuration from keywords."""
_DICT_WRAPPERS = frozenset({"easydict.EasyDict", "addict.Dict", "munch.Munch", "munch.munchify", "builtins.dict"})
"""The calls that make a configuration of a dict's fields, unchanged."""


def field_read(expr: ast.AST | None) -> tuple[str, str] | None:
    """The name and field ``expr`` reads (``cfg.dim``, ``cfg["dim"]``): ``("cfg", "dim")``."""
    if isinstance(expr, ast.Attribute) and isinstance(expr.value, ast.Name) and isinstance(expr.ctx, ast.Load):
        return expr.value.id, expr.attr
    if isinstance(expr, ast.Subscript) and isinstance(expr.value, ast.Name) and isinstance(expr.ctx, ast.Load):
        key = expr.slice
        if isinstance(key, ast.Constant) and isinstance(key.value, str):
            return expr.value.id, key.value
    return None


def read_only_for_fields(function: FunctionNode, module: ModuleInfo, name: str) -> bool:
    """Whether every read of ``name`` in ``function`` reads a field (none changes one, hands it on)."""
    reads = [node for node in descendants(function) if isinstance(node, ast.Name) and node.id == name]
    return all(_reads_a_field(module, read) for read in reads)


def _reads_a_field(module: ModuleInfo, read: ast.Name) -> bool:
    """Whether ``read`` reads a field (:func:`field_read`), and what it reads is no target of an
    assignment or ``del`` and has no method called but ``get`` (``cfg.model.update(...)``,
    ``cfg["sizes"].append(4)`` change it), however deep the fields read in turn."""
    child: ast.expr = read
    parent = parent_of(module.tree, child)
    if field_read(parent) is None:
        return False
    while isinstance(parent, (ast.Attribute, ast.Subscript)) and parent.value is child:
        if not isinstance(parent.ctx, ast.Load):
            return False
        child, parent = parent, parent_of(module.tree, parent)
    called = isinstance(parent, ast.Call) and parent.func is child
    return not called or (isinstance(child, ast.Attribute) and child.attr == "get")


def config_fields(project: Project, expr: ast.expr, module: ModuleInfo) -> dict[str, ast.expr] | None:
    """The fields of the configuration ``expr`` is, as written; None where it is none, or may change."""
    if isinstance(expr, ast.Name):
        (scope,) = module.scopes_holding([expr.lineno])
        if not isinstance(scope, ast.Module) and (expr.id in binding_counts(scope) or _is_parameter(scope, expr.id)):
            return None  # a local of the same name
        bound = _module_binding(project, module, expr.id)
        if bound is None:
            return None
        expr, module = bound
    if isinstance(expr, ast.Call) and _wraps_a_dict(expr, module):  # `EasyDict({"dim": 8})`
        expr = expr.args[0]
    if isinstance(expr, ast.Dict):
        keys = [
            key.value if isinstance(key, ast.Constant) and isinstance(key.value, str) else None for key in expr.keys
        ]
        return None if None in keys else {str(key): value for key, value in zip(keys, expr.values)}
    if isinstance(expr, ast.Call) and not expr.args and qualified_name(expr.func, module) in _NAMESPACES:
        if any(keyword.arg is None for keyword in expr.keywords):
            return None
        return {keyword.arg: keyword.value for keyword in expr.keywords if keyword.arg is not None}
    if isinstance(expr, ast.Call) and isinstance(expr.func, (ast.Name, ast.Attribute)):
        cls = project.resolve_expr(expr.func, module)
        return _record_fields(project, cls, expr) if isinstance(cls, ClassRef) else None
    return None


def _module_binding(project: Project, module: ModuleInfo, name: str) -> tuple[ast.expr, ModuleInfo] | None:
    """The one value a module's top level binds ``name`` to, and the module that binds it: ``module``
    itself, or the project module its top level imports the name from (``from src.config import
    cfg``); None where the name is bound otherwise, or where a read of it may change it
    (:func:`_never_changed`; for an imported one, in that module and the modules importing it)."""
    values = module.top_level_values(name)
    if name in module.assigned:
        return (values[0], module) if len(values) == 1 and _never_changed(project, name) else None
    imported = imported_binding(project, module, name)
    if imported is None:
        return None
    source, attribute = imported
    values = source.top_level_values(attribute)
    if len(values) != 1 or attribute not in source.assigned:
        return None
    readers = [(source, attribute)]
    for importer in project.checked_importers(source):
        if any(isinstance(node, ast.Attribute) and node.attr == attribute for node in importer.nodes_of(ast.Attribute)):
            return None  # `config.cfg` of the module imported whole: not followed
        for local in importer.imports:
            found = imported_binding(project, importer, local)
            if found is not None and found[0] is source and found[1] == attribute:
                readers.append((importer, local))
    if not all(_read_only_as_configuration(project, reader, local) for reader, local in readers):
        return None
    return values[0], source


def _wraps_a_dict(call: ast.Call, module: ModuleInfo) -> bool:
    """Whether ``call`` makes an object of the fields of the one dict literal it is given, unchanged
    (``EasyDict({"dim": 8})``, ``dict({"dim": 8})``)."""
    given = len(call.args) == 1 and not call.keywords and isinstance(call.args[0], ast.Dict)
    return given and qualified_name(call.func, module) in _DICT_WRAPPERS


def _record_fields(project: Project, cls: ClassRef, call: ast.Call) -> dict[str, ast.expr] | None:
    """The fields of the instance ``call`` builds of a configuration class: a class of the project
    with no base, no method and no decorator but ``dataclass``, whose body only binds names
    (``class Config: hidden = 64``), and that the project only calls. Its literal class attributes,
    and for a dataclass the fields the call gives (``Config(hidden=128)``, in field order by
    position); None where the class is no such class, the call gives a plain class arguments, or
    it spreads them."""
    node = cls.node
    if node.bases or node.keywords or spreads(call) or not _called_only(project, cls):
        return None
    decorators = [d.func if isinstance(d, ast.Call) and not d.args else d for d in node.decorator_list]
    dataclass = [qualified_name(d, cls.module) for d in decorators] == ["dataclasses.dataclass"]
    if decorators and not dataclass:
        return None
    fields: dict[str, ast.expr] = {}
    declared: list[str] = []  # a dataclass's fields, in order
    for statement in node.body:
        if isinstance(statement, ast.Expr) and isinstance(statement.value, ast.Constant):
            continue  # the docstring
        if isinstance(statement, ast.AnnAssign) and isinstance(statement.target, ast.Name):
            name, value = statement.target.id, statement.value
            declared.append(name)
        elif isinstance(statement, ast.Assign) and len(statement.targets) == 1:
            target = statement.targets[0]
            if not isinstance(target, ast.Name):
                return None
            name, value = target.id, statement.value
        else:
            return None
        if value is not None and literal_value(value) is not NOT_KNOWN:
            fields[name] = value  # a value that reads another attribute is left unknown
        else:
            fields.pop(name, None)
    if not dataclass:
        return None if call.args or call.keywords else fields
    if len(call.args) > len(declared):
        return None
    given = dict(zip(declared, call.args))
    given.update((k.arg, k.value) for k in call.keywords if k.arg is not None)
    return None if set(given) - set(declared) else {**fields, **given}


def _called_only(project: Project, cls: ClassRef) -> bool:
    """Whether every read of the class's name, in every module that spells it, calls it: nothing
    subclasses it, changes an attribute of the class, or hands it on."""
    for module in modules_naming(project, cls.node.name):
        for node in module.nodes_of(ast.Name):
            if node.id == cls.node.name and isinstance(node.ctx, ast.Load):
                parent = parent_of(module.tree, node)
                if not (isinstance(parent, ast.Call) and parent.func is node):
                    return False
    return True


def _is_parameter(function: FunctionNode, name: str) -> bool:
    arguments = function.args
    every = [*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs, arguments.vararg, arguments.kwarg]
    return any(argument is not None and argument.arg == name for argument in every)


def _never_changed(project: Project, name: str) -> bool:
    """Whether every read of a module's ``name``, in every module that spells it (a read of another
    thing of that name included), reads a field or is a whole argument of a project call whose
    parameter is read only for fields."""
    return all(_read_only_as_configuration(project, module, name) for module in modules_naming(project, name))


def _read_only_as_configuration(project: Project, module: ModuleInfo, name: str) -> bool:
    """Whether every read of ``name`` in ``module`` reads a field or is a whole argument of a project
    call whose parameter is read only for fields."""
    for node in module.nodes_of(ast.Name):
        if node.id != name:
            continue
        parent = parent_of(module.tree, node)
        if isinstance(parent, ast.Assign) and node in parent.targets and parent in module.tree.body:
            continue  # the binding itself; a second one is refused by the caller
        if not _reads_a_field(module, node) and not _passed_whole(project, node, parent, module):
            return False
    return True


def _passed_whole(project: Project, node: ast.Name, parent: ast.AST | None, module: ModuleInfo) -> bool:
    """Whether ``node`` is a whole argument of a project call whose parameter is read only for fields."""
    if isinstance(parent, ast.keyword) and parent.arg is not None:
        call, keyword = parent_of(module.tree, parent), parent.arg
    elif isinstance(parent, ast.Call) and node in parent.args:
        call, keyword = parent, None
    else:
        return False
    if not isinstance(call, ast.Call):
        return False
    receiver = _receiver(project, call, module)
    if receiver is None:
        return False
    function, home, names = receiver
    if keyword is None:
        position = call.args.index(node)
        if any(isinstance(a, ast.Starred) for a in call.args[:position]) or position >= len(names):
            return False
        keyword = names[position]
    return keyword in names and read_only_for_fields(function, home, keyword)


def _receiver(
    project: Project, call: ast.Call, module: ModuleInfo
) -> tuple[FunctionNode, ModuleInfo, list[str]] | None:
    """The code a project call runs, its module, and the names of its positional parameters that
    the call fills (``self`` or ``cls`` aside); None for any other call."""
    callee = project.resolve_expr(call.func, module)
    if isinstance(callee, ClassRef):
        init = project.find_method(callee, "__init__")
        return None if init is None else (init.node, init.module, positional_names(init.node, True))
    if isinstance(callee, FunctionRef) and callee.owner is None:
        return callee.node, callee.module, positional_names(callee.node, False)
    if isinstance(callee, FunctionRef) and any(
        isinstance(d, ast.Name) and d.id == "classmethod" for d in callee.node.decorator_list
    ):
        return callee.node, callee.module, positional_names(callee.node, True)
    return None
