"""What the rules about how Cell classes are written share: the Cells of a module, the name of
a definition as a span, and which MindSpore classes a Cell derives from."""

from __future__ import annotations

import ast
from collections.abc import Iterator

from mslint.model.module import ModuleInfo
from mslint.model.project import ClassRef, Project, is_mindspore_name, qualified_name
from mslint.model.walk import descendants

_CELL_CLASSES = "_mslint_cell_classes"


def cell_classes(module: ModuleInfo, project: Project) -> Iterator[ClassRef]:
    # Kept on the tree for the rules that each ask: only nodes below it, so no reference cycle.
    cells: list[ast.ClassDef] | None = module.tree.__dict__.get(_CELL_CLASSES)
    if cells is None:
        cells = [
            node
            for node in descendants(module.tree)
            if isinstance(node, ast.ClassDef) and project.is_cell(ClassRef(module, node))
        ]
        setattr(module.tree, _CELL_CLASSES, cells)
    return (ClassRef(module, node) for node in cells)


def method(cls: ast.ClassDef, name: str) -> ast.FunctionDef | None:
    """The method ``name`` defined in the class body itself (with a ``self`` parameter)."""
    return next(
        (s for s in cls.body if isinstance(s, ast.FunctionDef) and s.name == name and s.args.args),
        None,
    )


def name_node(definition: ast.ClassDef | ast.FunctionDef, module: ModuleInfo) -> ast.expr:
    """The name in a ``class``/``def`` header, as a span: a finding on the whole definition
    would cover every line of its body (and be confirmed by any error in it)."""
    line = module.line(definition.lineno).encode("utf-8")
    keyword = b"class" if isinstance(definition, ast.ClassDef) else b"def"
    start = line.find(definition.name.encode("utf-8"), line.find(keyword, definition.col_offset) + len(keyword))
    if start < 0:  # a header split over lines: the keyword is the span
        start = definition.col_offset
    node = ast.Name(id=definition.name, ctx=ast.Load())
    node.lineno = node.end_lineno = definition.lineno
    node.col_offset, node.end_col_offset = start, start + len(definition.name.encode("utf-8"))
    return node


def mindspore_bases(cls: ClassRef, project: Project) -> set[str] | None:
    """Qualified names of the MindSpore classes ``cls`` derives from, directly or through its
    project bases; None when a base is neither (a third-party class: anything may be in it)."""
    found = set()
    for klass in project.mro(cls):
        for base in klass.node.bases:
            qualname = qualified_name(base, klass.module)
            if is_mindspore_name(qualname):
                assert qualname is not None
                found.add(qualname)
            elif qualname != "builtins.object" and not isinstance(project.resolve_expr(base, klass.module), ClassRef):
                return None
    return found


def is_plain_cell(qualname: str) -> bool:
    """``nn.Cell`` itself (whose ``__init__`` takes no required argument and which has no ``construct``)."""
    return is_mindspore_name(qualname, "Cell")
