"""Which expressions of graph code hold a Cell: the receivers of Cell methods.

A Cell method refused in graph code (``get_parameters``) is refused on any Cell, not only on
``self``: a sub-Cell (``self.encoder``), an item of a ``CellList``, a module-level net, a Cell
made in the function. The answer rests on what built the value (a Cell class of MindSpore or
of the project); where nothing shows it, the expression is not taken for a Cell (a dict's
``.items()`` stays quiet).
"""

from __future__ import annotations

import ast

from mslint.model.binder import positional_names
from mslint.model.module import ModuleInfo, is_self_attribute
from mslint.model.project import ClassRef, FunctionNode, FunctionRef, Project, is_mindspore_name, qualified_name
from mslint.model.scope import GraphFunction
from mslint.model.walk import descendants

_CELL_CONTAINERS = ("CellList", "SequentialCell")
"""MindSpore containers whose items are Cells whatever they are."""


def cell_classes_of(expr: ast.expr, function: GraphFunction) -> list[str | ClassRef] | None:
    """The classes of the Cell ``expr`` holds (a qualified name for MindSpore's, a ClassRef for the
    project's); None where it is not shown to hold a Cell."""
    project = function.project
    if isinstance(expr, ast.Name) and expr.id == function.self_name and function.owner is not None:
        return [function.owner] if project.is_cell(function.owner) else None
    classes: list[str | ClassRef] = [*function.instance_classes(expr)]
    if not classes:
        classes = _constructed_classes(expr, function)
    if not classes:
        return None
    return classes if all(_is_cell_class(c, project, function) for c in classes) else None


def _constructed_classes(expr: ast.expr, function: GraphFunction) -> list[str | ClassRef]:
    """The MindSpore classes (``mindspore.nn.Dense``) and, for module-level names, the project
    classes that built ``expr``."""
    if is_self_attribute(expr, function.self_name):
        assert isinstance(expr, ast.Attribute)
        return list(function.self_attribute_constructors(expr.attr))
    container = _container_attribute(expr, function)
    if container is not None:
        constructors = function.self_attribute_constructors(container)
        if constructors and all(is_mindspore_name(c, *_CELL_CONTAINERS) for c in constructors):
            return ["mindspore.nn.Cell"]
        return []
    if isinstance(expr, ast.Name) and expr.id in function.local_names:
        annotation = _annotation(expr.id, function)
        if annotation is not None:
            return [annotation]
        if _is_parameter(expr.id, function.node):
            return _passed_classes(function, expr.id)
        return _calls_of(function.local_values.get(expr.id, []), function)
    if isinstance(expr, ast.Name) and expr.id in function.module.assigned:
        return _calls_of(function.module.top_level_values(expr.id), function)
    return []


def _annotation(name: str, function: GraphFunction) -> str | ClassRef | None:
    """The class a parameter is annotated with (``def count(cell: nn.Cell)``)."""
    arguments = function.node.args
    for parameter in (*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs):
        if parameter.arg == name and parameter.annotation is not None:
            qualname = qualified_name(parameter.annotation, function.module)
            if qualname is None:
                return None
            resolved = function.project.resolve(qualname, function.module)
            return resolved if isinstance(resolved, ClassRef) else qualname
    return None


def _is_parameter(name: str, node: FunctionNode) -> bool:
    arguments = node.args
    return any(a.arg == name for a in (*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs))


def _passed_classes(function: GraphFunction, parameter: str) -> list[str | ClassRef]:
    """The Cell classes of what the methods of the project pass as ``parameter`` (``count(self.encoder)``):
    ``self`` or a ``self.<attribute>`` built from Cell classes at every call, else nothing."""
    sites = function.project.derived(_method_call_sites).get(id(function.node), [])
    found: list[str | ClassRef] = []
    for call, caller in sites:
        argument = _argument(call, function.node, parameter, is_method=function.owner is not None)
        classes = _owner_value_classes(argument, caller, function.project) if argument is not None else []
        if not classes:
            return []
        found += classes
    return found


def _argument(call: ast.Call, callee: FunctionNode, parameter: str, is_method: bool) -> ast.expr | None:
    names = positional_names(callee, is_method)
    for keyword in call.keywords:
        if keyword.arg == parameter:
            return keyword.value
    position = names.index(parameter) if parameter in names else len(call.args)
    argument = call.args[position] if position < len(call.args) else None
    return None if any(isinstance(a, ast.Starred) for a in call.args[: position + 1]) else argument


def _owner_value_classes(argument: ast.expr, caller: FunctionRef, project: Project) -> list[str | ClassRef]:
    """``self`` or ``self.<attribute>`` in a method: the classes it is built from."""
    owner = caller.owner
    self_name = caller.node.args.args[0].arg if caller.node.args.args else None
    if owner is None or self_name is None:
        return []
    if isinstance(argument, ast.Name) and argument.id == self_name:
        return [owner]
    if not is_self_attribute(argument, self_name):
        return []
    assert isinstance(argument, ast.Attribute)
    values = project.attribute_values(owner, argument.attr)
    return _calls_of_in([(klass.module, value) for klass, value in values], project)


def _method_call_sites(project: Project) -> dict[int, list[tuple[ast.Call, FunctionRef]]]:
    """By function node: the calls of it in the methods of the project's classes."""
    sites: dict[int, list[tuple[ast.Call, FunctionRef]]] = {}
    for module in project.modules:
        for cls in (n for n in module.tree.body if isinstance(n, ast.ClassDef)):
            owner = ClassRef(module, cls)
            for method in (f for f in cls.body if isinstance(f, (ast.FunctionDef, ast.AsyncFunctionDef))):
                caller = FunctionRef(module, method, owner)
                for call in (n for n in descendants(method) if isinstance(n, ast.Call)):
                    callee = _called_function(call, caller, project)
                    if callee is not None:
                        sites.setdefault(id(callee.node), []).append((call, caller))
    return sites


def _called_function(call: ast.Call, caller: FunctionRef, project: Project) -> FunctionRef | None:
    func = call.func
    self_name = caller.node.args.args[0].arg if caller.node.args.args else None
    if is_self_attribute(func, self_name) and caller.owner is not None:
        assert isinstance(func, ast.Attribute)
        return project.find_method(caller.owner, func.attr)
    qualname = qualified_name(func, caller.module) if isinstance(func, ast.Name) else None
    resolved = project.resolve(qualname, caller.module) if qualname else None
    return resolved if isinstance(resolved, FunctionRef) else None


def _container_attribute(expr: ast.expr, function: GraphFunction) -> str | None:
    """``layers`` for ``self.layers[i]`` and for ``layer`` in ``for layer in self.layers``."""
    if isinstance(expr, ast.Subscript) and is_self_attribute(expr.value, function.self_name):
        assert isinstance(expr.value, ast.Attribute)
        return expr.value.attr
    if isinstance(expr, ast.Name):
        return function.loop_attributes.get(expr.id)
    return None


def _calls_of(values: list[ast.expr], function: GraphFunction) -> list[str | ClassRef]:
    return _calls_of_in([(function.module, value) for value in values], function.project)


def _calls_of_in(values: list[tuple[ModuleInfo, ast.expr]], project: Project) -> list[str | ClassRef]:
    """The classes the values are calls of (each read in its module); empty unless every value is such a call."""
    found: list[str | ClassRef] = []
    for module, value in values:
        qualname = qualified_name(value.func, module) if isinstance(value, ast.Call) else None
        if qualname is None:
            return []
        resolved = project.resolve(qualname, module)
        found.append(resolved if isinstance(resolved, ClassRef) else qualname)
    return found


def _is_cell_class(cls: str | ClassRef, project: Project, function: GraphFunction) -> bool:
    if isinstance(cls, ClassRef):
        return project.is_cell(cls)
    return project.is_cell_name(cls, function.module)


def overrides(classes: list[str | ClassRef], method: str, project: Project) -> bool:
    """Whether a project class among ``classes`` defines ``method`` itself: the project's method runs."""
    return any(isinstance(c, ClassRef) and project.find_method(c, method) is not None for c in classes)
