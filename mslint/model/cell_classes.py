"""What the rules about how Cell classes are written share: the Cells of a module, the name of
a definition as a span, and which MindSpore classes a Cell derives from."""

from __future__ import annotations

import ast
from collections.abc import Callable, Iterator

from mslint.model.memo import NodeMemo
from mslint.model.module import ModuleInfo, bound_names
from mslint.model.project import ClassRef, Project, is_mindspore_name, qualified_name
from mslint.model.registries import modules_naming
from mslint.model.walk import statements

_CELL_CLASSES: NodeMemo[ast.AST, list[ast.ClassDef]] = NodeMemo()


def cell_classes(module: ModuleInfo, project: Project) -> Iterator[ClassRef]:
    # Memoized for the rules that each ask: it holds only nodes below the tree.
    cells = _CELL_CLASSES.get(module.tree)
    if cells is None:
        cells = [
            node
            for node in statements(module.tree)
            if isinstance(node, ast.ClassDef) and project.is_cell(ClassRef(module, node))
        ]
        _CELL_CLASSES.put(module.tree, cells)
    return (ClassRef(module, node) for node in cells)


def method(cls: ast.ClassDef, name: str) -> ast.FunctionDef | None:
    """The method ``name`` defined in the class body itself (with a ``self`` parameter)."""
    return next(
        (s for s in cls.body if isinstance(s, ast.FunctionDef) and s.name == name and s.args.args),
        None,
    )


def has_method(cls: ClassRef, project: Project, name: str) -> bool:
    """A method ``name`` in the class or its project bases, or one bound in a class body
    (``construct = forward``)."""
    return project.find_method(cls, name) is not None or any(
        isinstance(statement, ast.Assign) and any(bound_names(t) == [name] for t in statement.targets)
        for klass in project.mro(cls)
        for statement in klass.node.body
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


def mindspore_bases(cls: ClassRef, project: Project) -> frozenset[str] | None:
    """Qualified names of the MindSpore classes ``cls`` derives from, directly or through its
    project bases; None when a base is neither (a third-party class: anything may be in it)."""
    found: frozenset[str] = project.inherited(cls, _mindspore_bases, frozenset())
    return None if found is _UNKNOWN_BASE else found


_UNKNOWN_BASE: frozenset[str] = frozenset(["a base that is neither MindSpore's nor the project's"])


def _mindspore_bases(project: Project, cls: ClassRef, of: Callable[[ClassRef], frozenset[str]]) -> frozenset[str]:
    found: set[str] = set()
    for base in cls.node.bases:
        qualname = qualified_name(base, cls.module)
        if is_mindspore_name(qualname):
            assert qualname is not None
            found.add(qualname)
        elif qualname != "builtins.object" and not isinstance(project.resolve_expr(base, cls.module), ClassRef):
            return _UNKNOWN_BASE
    for parent in project.bases(cls):
        inherited = of(parent)
        if inherited is _UNKNOWN_BASE:
            return _UNKNOWN_BASE
        found.update(inherited)
    return frozenset(found)


def is_base_of_a_construct(cls: ClassRef, project: Project, forward_counts: bool = False) -> bool:
    """Whether a class of the project that defines ``construct`` (own or inherited; also
    PyTorch's ``forward``, which forward-instead-of-construct asks to rename, where
    ``forward_counts``) derives from ``cls``: an abstract base whose subclasses MindSpore
    compiles (``BaseDetector.forward`` dispatching to methods only its subclasses have)."""
    bases = _bases_of_constructs_or_forwards if forward_counts else _bases_of_constructs
    return id(cls.node) in project.derived(bases)


def _bases_of_constructs(project: Project) -> frozenset[int]:
    return _bases_of_classes_defining(project, ("construct",))


def _bases_of_constructs_or_forwards(project: Project) -> frozenset[int]:
    return _bases_of_classes_defining(project, ("construct", "forward"))


def _bases_of_classes_defining(project: Project, methods: tuple[str, ...]) -> frozenset[int]:
    """The class nodes (ids) that a class of the project defining one of ``methods`` derives from."""
    return frozenset(
        id(base.node)
        for module in project.modules
        for sub in (ClassRef(module, node) for node in module.classes.values())
        if any(project.find_method(sub, name) for name in methods)
        for base in project.mro(sub)
        if base.node is not sub.node
    )


def is_plain_cell(qualname: str) -> bool:
    """``nn.Cell`` itself (whose ``__init__`` takes no required argument and which has no ``construct``)."""
    return is_mindspore_name(qualname, "Cell")


def used_through_its_methods(cls: ClassRef, project: Project) -> bool:
    """Whether ``forward`` serves the class's own methods (they call ``self.forward``) and the
    program of the class's module (:meth:`Project.program_of`) calls one of these methods, which
    no other class of that program defines, on an object other than ``self``
    (``self.rotary_emb.rotate_queries_or_keys(q)``): then graph code compiles that method, and a
    ``construct`` is needed only where the Cell is also called as a whole, which a class written
    so is not."""
    helpers = {
        node.name
        for node in cls.node.body
        if isinstance(node, ast.FunctionDef) and node.name != "forward" and _calls_on_self(node, "forward")
    }
    if not helpers:
        return False
    program = {id(m) for m in project.program_of(cls.module)}
    return any(
        isinstance(call.func, ast.Attribute)
        and call.func.attr == helper
        and not (isinstance(call.func.value, ast.Name) and call.func.value.id == "self")
        for helper in helpers
        if not _defined_elsewhere(project, cls, helper, program)
        for module in modules_naming(project, helper)
        if id(module) in program
        for call in module.nodes_of(ast.Call)
    )


def _defined_elsewhere(project: Project, cls: ClassRef, name: str, program: set[int]) -> bool:
    """Whether a class of the ``program``'s modules other than ``cls`` defines a method ``name``."""
    return any(
        node is not cls.node and any(isinstance(f, ast.FunctionDef) and f.name == name for f in node.body)
        for module in modules_naming(project, name)
        if id(module) in program
        for node in module.nodes_of(ast.ClassDef)
    )


def _calls_on_self(function: ast.FunctionDef, name: str) -> bool:
    return any(
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr == name
        and isinstance(node.func.value, ast.Name)
        and node.func.value.id == "self"
        for node in ast.walk(function)
    )
