"""Whether a module builds a Cell without ever calling it as a whole.

MindSpore compiles a Cell's ``construct`` when the Cell is called (``net(x)``) or handed to
what calls it (``Model``, ``TrainOneStepCell``, ``value_and_grad``, ``jit``, a wrapper Cell).
A script that builds a Cell only to load a checkpoint into it and run one of its sub-Cells
(MoCo's ``infer.py``: ``infer(model.encoder_q, ...)``) compiles that sub-Cell, never the
Cell's own ``construct``. Only that clear case counts: an instance that is returned, stored,
passed on, or could reach the script another way (a factory of the Cell's module) may be
called, so it is.
"""

from __future__ import annotations

import ast

from mslint.model.module import ModuleInfo, imports_in
from mslint.model.project import ClassRef, FunctionRef, Project, is_mindspore_name, qualified_name_in
from mslint.model.walk import descendants, statements

_RETURNS_SELF = frozenset({"set_train", "set_grad", "to_float"})
"""Cell methods that compile nothing and return the Cell: quiet only when their result is dropped."""
_READS_PARAMETERS = frozenset(
    {"trainable_params", "untrainable_params", "get_parameters", "parameters_dict", "parameters_and_names"}
)
_CHECKPOINT_FUNCTIONS = ("load_param_into_net", "load_checkpoint", "save_checkpoint")
_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Module)


class CellUses:
    """How one module (a script) uses the Cells it builds."""

    def __init__(self, project: Project, module: ModuleInfo) -> None:
        self.project = project
        self.module = module
        self.bindings = imports_in(module.tree, module.package)  # scripts often import inside main()
        self.parents = {id(child): node for node in descendants(module.tree) for child in ast.iter_child_nodes(node)}
        self.references = self._references()
        """The names and whole attribute chains of the module (``a.b.c``, not ``a.b`` again),
        each with its qualified name and what it names in the project."""

    def builds_without_calling(self, cell: ClassRef) -> bool:
        """Whether the module names ``cell`` only to build instances kept in local names that it
        never calls as a whole nor lets go, and takes nothing but classes from the Cell's module."""
        return all(self._is_quiet(node, qualname, target, cell) for node, qualname, target in self.references)

    def _references(self) -> list[tuple[ast.expr, str | None, ClassRef | FunctionRef | None]]:
        found: list[tuple[ast.expr, str | None, ClassRef | FunctionRef | None]] = []
        for node in descendants(self.module.tree):
            parent = self.parent(node)
            if isinstance(node, (ast.Name, ast.Attribute)) and not (
                isinstance(parent, ast.Attribute) and parent.value is node
            ):
                qualname = qualified_name_in(node, self.module, self.bindings, frozenset())
                found.append((node, qualname, self.project.resolve(qualname, self.module) if qualname else None))
        return found

    def parent(self, node: ast.AST) -> ast.AST | None:
        return self.parents.get(id(node))

    def _is_quiet(
        self, node: ast.expr, qualname: str | None, target: ClassRef | FunctionRef | None, cell: ClassRef
    ) -> bool:
        if target is None:
            # The Cell's module itself, or a name of it that is no class or function: anything.
            leads_there = qualname is not None and self.project.module_of(qualname, self.module) is cell.module
            return not leads_there and _last_name(node) != cell.node.name
        if target.module is not cell.module:
            return True
        if not isinstance(target, ClassRef):
            return False  # a function of the Cell's module may build the Cell and hand it back
        return target.node is not cell.node or self._built_into_quiet_local(node, cell)

    def _built_into_quiet_local(self, reference: ast.expr, cell: ClassRef) -> bool:
        call = self.parent(reference)
        assign = self.parent(call) if isinstance(call, ast.Call) and call.func is reference else None
        if (
            not isinstance(assign, ast.Assign)
            or len(assign.targets) != 1
            or not isinstance(assign.targets[0], ast.Name)
        ):
            return False
        local = assign.targets[0]
        scope = self._scope_of(assign)
        if scope is None or any(
            isinstance(n, (ast.Global, ast.Nonlocal)) and local.id in n.names for n in statements(scope)
        ):
            return False
        uses = [n for n in descendants(scope) if isinstance(n, ast.Name) and n.id == local.id and n is not local]
        return all(isinstance(n.ctx, ast.Load) and self._is_quiet_use(n, cell) for n in uses)

    def _scope_of(self, node: ast.AST) -> ast.AST | None:
        """The function or module whose local ``node`` assigns; None inside a class body or a lambda."""
        parent = self.parent(node)
        while parent is not None and not isinstance(parent, (*_SCOPES, ast.ClassDef, ast.Lambda)):
            parent = self.parent(parent)
        return parent if isinstance(parent, _SCOPES) else None

    def _is_quiet_use(self, instance: ast.Name, cell: ClassRef) -> bool:
        parent = self.parent(instance)
        if isinstance(parent, ast.Attribute) and isinstance(parent.ctx, ast.Load):
            return self._is_quiet_attribute(parent, cell)
        call = self.parent(parent) if isinstance(parent, ast.keyword) else parent
        if isinstance(call, ast.Call) and call.func is not instance:
            qualname = qualified_name_in(call.func, self.module, self.bindings, frozenset())
            return is_mindspore_name(qualname, *_CHECKPOINT_FUNCTIONS)
        return False

    def _is_quiet_attribute(self, attribute: ast.Attribute, cell: ClassRef) -> bool:
        """A sub-Cell or value the Cell keeps (``model.encoder_q``), its parameters, or its mode."""
        name = attribute.attr
        if name in _READS_PARAMETERS:
            return True
        call = self.parent(attribute)
        if name in _RETURNS_SELF:
            return isinstance(call, ast.Call) and call.func is attribute and isinstance(self.parent(call), ast.Expr)
        # A method of the Cell may call the Cell itself; an attribute its methods assign is not one.
        project = self.project
        return project.find_method(cell, name) is None and bool(project.attribute_values(cell, name))


def _last_name(node: ast.expr) -> str:
    return node.attr if isinstance(node, ast.Attribute) else node.id if isinstance(node, ast.Name) else ""
