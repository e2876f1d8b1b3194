"""Which expressions of graph code hold a Cell: the receivers of Cell methods.

A Cell method refused in graph code (``get_parameters``) is refused on any Cell, not only on
``self``: a sub-Cell (``self.encoder``), an item of a ``CellList``, a module-level net, a Cell
made in the function. The answer rests on what built the value (a Cell class of MindSpore or
of the project); where nothing shows it, the expression is not taken for a Cell (a dict's
``.items()`` stays quiet).
"""

from __future__ import annotations

import ast

from mslint.model.module import is_self_attribute
from mslint.model.project import ClassRef, Project, is_mindspore_name, qualified_name
from mslint.model.scope import GraphFunction

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


def _container_attribute(expr: ast.expr, function: GraphFunction) -> str | None:
    """``layers`` for ``self.layers[i]`` and for ``layer`` in ``for layer in self.layers``."""
    if isinstance(expr, ast.Subscript) and is_self_attribute(expr.value, function.self_name):
        assert isinstance(expr.value, ast.Attribute)
        return expr.value.attr
    if isinstance(expr, ast.Name):
        return function.loop_attributes.get(expr.id)
    return None


def _calls_of(values: list[ast.expr], function: GraphFunction) -> list[str | ClassRef]:
    """The classes the values are calls of; empty unless every value is such a call."""
    found: list[str | ClassRef] = []
    for value in values:
        qualname = qualified_name(value.func, function.module) if isinstance(value, ast.Call) else None
        if qualname is None:
            return []
        resolved = function.project.resolve(qualname, function.module)
        found.append(resolved if isinstance(resolved, ClassRef) else qualname)
    return found


def _is_cell_class(cls: str | ClassRef, project: Project, function: GraphFunction) -> bool:
    if isinstance(cls, ClassRef):
        return project.is_cell(cls)
    return project.is_cell_name(cls, function.module)


def overrides(classes: list[str | ClassRef], method: str, project: Project) -> bool:
    """Whether a project class among ``classes`` defines ``method`` itself: the project's method runs."""
    return any(isinstance(c, ClassRef) and project.find_method(c, method) is not None for c in classes)
